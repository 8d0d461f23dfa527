//! Score edits as students say them: "经费改成2分，学术给5分" (each
//! dimension its own number), "都改成3", "关系打低一点", "前途高两分",
//! "学术五颗星", "前途满分", "关系及格就行". The numbers are read by
//! `text::numbers`; this module binds each to the dimension named before it
//! (else the one named in an earlier clause, else the one the coach just
//! asked about), or to all four after 都 / 全部 — to the names listed just
//! before 都 ("学术和前途 都给个三"), or to those the message has not named
//! after 其他 ("学术别动 其他都给四"). Relative moves ("高一分") are read in
//! `moves`.
//!
//! A student corrects themselves as they go: a clause that takes back what
//! came before ("前途改成5——等等，说错了，我想改的是学术，学术5") takes
//! back the edits of the clause before it when it gives new ones, and a move said twice the same way
//! ("经费我想给高点……加一分吧") is one move, said more precisely the second
//! time: the later counts, unless it is said to be on top ("再加一分").
//! A clause that says the one before was not meant ("关系最低分……开玩笑的")
//! takes its edits back whether or not new ones follow: a joke is not a
//! move, and what follows it is read on its own. A clause that calls its own
//! move a mistake ("刚才改成两分改错了") makes none.
//!
//! Going back across turns ("钱改成两分" … "算了，钱还是改回去吧", "前面那个
//! 改动不要了", "还是按你原来的吧") restores the score the coach proposed,
//! of the dimension named, else of all four: what was not changed in this
//! message was changed before it.

mod moves;
mod words;

use self::moves::relative;
pub use self::words::Words;
use super::dimension::{Dimension, Scores};
use crate::text::clauses;
use crate::text::fold::fold;
use crate::text::numbers::{self, parse_number};
use crate::text::opinion::Topics;
use crate::text::utterance::WordList;

/// One change to the scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    Set(Dimension, u8),
    /// Up or down by so many points.
    Shift(Dimension, i8),
    SetAll(u8),
    ShiftAll(i8),
    /// The first set to the score of the second ("学术跟人那块一样").
    Like(Dimension, Dimension),
    /// Back to the score the coach proposed: one dimension, or `None` for
    /// all four.
    Restore(Option<Dimension>),
}

/// The one dimension `edits` change, when they change one only: what a
/// later edit naming none ("再高一点") moves again.
fn only_dimension(edits: &[Edit]) -> Option<Dimension> {
    let first = edits.first()?.dimension()?;
    edits
        .iter()
        .all(|e| e.dimension() == Some(first))
        .then_some(first)
}

impl Edit {
    /// The dimension it changes; `None` for all four.
    fn dimension(&self) -> Option<Dimension> {
        match *self {
            Edit::Set(d, _) | Edit::Shift(d, _) | Edit::Like(d, _) => Some(d),
            Edit::Restore(d) => d,
            Edit::SetAll(_) | Edit::ShiftAll(_) => None,
        }
    }

    /// Whether it changes a score `other` changes too.
    fn touches_any_of(&self, other: &Edit) -> bool {
        match (self.dimension(), other.dimension()) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        }
    }
}

/// Verbs a bare number may follow ("改成3", "给个4", "来个5", "降到2"),
/// and whether the verb needs a link (成 / 为 / 到 / 个) before the number.
const SET_VERBS: [(&[char], bool); 20] = [
    (&['改'], false),
    (&['换'], true),
    (&['调'], true),
    (&['打'], false),
    (&['给'], false),
    (&['评'], false),
    (&['写'], false),
    (&['填'], false),
    (&['设'], true),
    (&['算'], true),
    (&['变'], true),
    (&['弄'], true),
    (&['来'], true),
    (&['整'], true),
    (&['降'], true),
    (&['提'], true),
    (&['升'], true),
    (&['加'], true),
    (&['减'], true),
    (&['='], false),
];
/// What joins a verb of setting to its number: "改成", "改为", "调到",
/// "给个", "来个", "打一个", "改成个".
const LINKS: [&[char]; 3] = [&['成'], &['为'], &['到']];
const MEASURES: [&[char]; 2] = [&['一', '个'], &['个']];
/// Particles a bare number may end on ("改成3吧", "给个4就行").
const AFTER_BARE: &str = "吧了啊呀哈嘛呗哦吗就左得算嗯呃额唔";

/// A score that is its clause's whole say ("3吧", "还是2吧", "那就四分"):
/// (where the number starts, its value). Lead words of `settle` before it,
/// a unit and particles after it; a bare number only `after_colon`, after
/// a dimension's name and a colon.
fn score_alone(chars: &[char], settle: &WordList, after_colon: bool) -> Option<(usize, u32)> {
    let at = settle.skip_run(chars, 0);
    let (n, len) = parse_number(chars, at)?;
    let mut end = at + len;
    if matches!(chars.get(end), Some('分' | '星')) {
        end += 1;
    }
    let rest_is_particles = chars[end..].iter().all(|c| AFTER_BARE.contains(*c));
    // Said as a score: after a settling word, or with a unit or a
    // particle; a number alone is more likely a list's ("2." of a post).
    let as_a_score = at > 0 || end < chars.len() || after_colon;
    ((1..=5).contains(&n) && rest_is_particles && as_a_score).then_some((at, n))
}

/// Whether the number that ends before `chars[at]` stands alone: the text
/// ends, or punctuation or a particle follows ("改成3，", "给个4吧").
/// Not a range, a decimal or a fraction ("3-4千", "3.5", "3/4").
pub(super) fn bare(chars: &[char], at: usize) -> bool {
    let range = "-~～–—./".contains(chars.get(at).copied().unwrap_or(' '))
        && chars.get(at + 1).is_some_and(|c| c.is_ascii_digit());
    !range
        && chars
            .get(at)
            .is_none_or(|c| !c.is_alphanumeric() || AFTER_BARE.contains(*c))
}

/// A number after a verb of setting at `chars[p..]`: "改成3", "给个4",
/// "来个五", "降到2" → (where the number starts, its value). `names` are
/// where a dimension's name starts: a number right before one is bare too
/// ("学术给5经费给2", the space folded away).
fn set_by_verb(chars: &[char], p: usize, names: &[usize]) -> Option<(usize, u32)> {
    let rest = &chars[p..];
    let (verb, needs_link) = SET_VERBS.iter().find(|(v, _)| rest.starts_with(v))?;
    let mut at = p + verb.len();
    let mut linked = false;
    if let Some(l) = LINKS.iter().find(|l| chars[at..].starts_with(l)) {
        at += l.len();
        linked = true;
    }
    // Try with a measure first ("给个4", "打一个3"), then without.
    let measured = MEASURES
        .iter()
        .find(|m| chars[at..].starts_with(m))
        .map(|m| at + m.len());
    for (start, needs) in [(measured, false), (Some(at), true)] {
        let Some(start) = start else { continue };
        if needs && *needs_link && !linked {
            continue;
        }
        if let Some((n, len)) = parse_number(chars, start) {
            if (1..=5).contains(&n) && (bare(chars, start + len) || names.contains(&(start + len)))
            {
                return Some((start, n));
            }
        }
    }
    None
}

/// The edits in `message` (see the module doc).
pub fn parse(
    dims: &Topics<Dimension>,
    names: &Topics<Dimension>,
    words: &Words,
    message: &str,
    asked: Option<Dimension>,
) -> Vec<Edit> {
    let folded = fold(message);
    let mut out: Vec<Edit> = Vec::new();
    let mut carry = asked;
    // Where the edits of the last clause that had any begin in `out`.
    let mut last_clause = 0;
    // A revision was said ("说错了"): the edits of the clause before it
    // are taken back, when new ones follow ("想了想也没那么差" gives none).
    // With it, whether the revision says anew ("其实老师文章不少") rather
    // than takes back ("等等，说错了").
    let mut revised: Option<(usize, bool)> = None;
    // Whether the clause before was a dimension's name before a colon
    // ("学术水平：5", a line of scores).
    let mut named_before_colon = false;
    // The dimensions named so far, and those a clause before only listed
    // ("学术和前途 都给个三": 都 is for them).
    let (mut named_so_far, mut listed_before) = (Vec::new(), Vec::new());
    for clause in clauses::split_at_connectives(&folded) {
        let after_colon = std::mem::take(&mut named_before_colon);
        if clause.before_colon {
            let chars = clause.chars();
            named_before_colon = names
                .spans(&chars)
                .last()
                .is_some_and(|(_, e, _)| *e == chars.len());
        }
        if clause.link == clauses::Link::Revision {
            revised = Some((last_clause, !clause.takes_back));
        }
        // "刚才改成两分改错了": the move it names is the one taken back.
        let ends = clause.text.trim_end_matches(|c| AFTER_BARE.contains(c));
        if words.mistake.iter().any(|w| ends.ends_with(w.as_str())) {
            continue;
        }
        let before = out.len();
        let chars = clause.chars();
        let spans = dims.spans(&chars);
        named_so_far.extend(spans.iter().map(|(_, _, d)| *d));
        // "前途不变", "钱还是原来那样", "人那块改成二…算了，还是原来的吧":
        // the score named, or talked about, stays: its edits so far are
        // taken back.
        let alone = words.keep_alone(&chars, &spans);
        let kept = words
            .names_then(&words.keep, &chars, &spans)
            .or_else(|| alone.then_some(carry?).map(|d| vec![d]));
        // Back to what it was, of a score this message has not changed:
        // an earlier turn's edit is undone.
        let back = alone || words.names_then(&words.back, &chars, &spans).is_some();
        if back && kept.is_none() && out.is_empty() {
            out.push(Edit::Restore(None));
            last_clause = before;
            // It is the taking back a "不对不对" before it announced.
            revised = None;
            continue;
        }
        if words
            .retract
            .iter()
            .any(|w| clause.text.starts_with(w.as_str()))
            && kept.is_none()
        {
            out.truncate(last_clause);
            revised = None;
            continue;
        }
        if let Some(kept) = kept {
            let had = out.len();
            out.retain(|e| e.dimension().is_none_or(|d| !kept.contains(&d)));
            last_clause = last_clause.min(out.len());
            if back && out.len() == had {
                out.extend(kept.iter().map(|d| Edit::Restore(Some(*d))));
            }
            continue;
        }
        // "钱也是": the moves of the clause before, for these dimensions.
        if let Some(too) = words.names_then(&words.too, &chars, &spans) {
            let again: Vec<Edit> = out[last_clause..]
                .iter()
                .flat_map(|e| {
                    too.iter().filter_map(move |&d| match *e {
                        Edit::Set(_, v) => Some(Edit::Set(d, v)),
                        Edit::Shift(_, p) => Some(Edit::Shift(d, p)),
                        _ => None,
                    })
                })
                .collect();
            out.extend(again);
            carry = spans.last().map(|(_, _, d)| *d);
            continue;
        }
        if let Some((to, from)) = words.alike(&chars, &spans, carry) {
            out.push(Edit::Like(to, from));
            last_clause = before;
            carry = Some(to);
            continue;
        }
        let all_at = words
            .all
            .iter()
            .filter_map(|w| {
                clause
                    .text
                    .find(w)
                    .map(|b| clause.text[..b].chars().count())
            })
            .min();
        // "关系和前途都加一分": 都 after two or more names is those names.
        let listed: Vec<Dimension> = all_at
            .map(|a| {
                let mut v: Vec<Dimension> = Vec::new();
                for (_, _, d) in spans.iter().filter(|(_, e, _)| *e <= a) {
                    if !v.contains(d) {
                        v.push(*d);
                    }
                }
                v
            })
            .filter(|v| v.len() >= 2)
            .or_else(|| {
                let a = all_at.filter(|&a| spans.iter().all(|(_, e, _)| *e > a))?;
                // "其他都给四": the ones not named; else a list said before.
                let rest = (0..a).any(|p| words.rest.prefix_at(&chars, p).is_some());
                let left = Dimension::ALL.iter().filter(|d| !named_so_far.contains(*d));
                Some(if rest {
                    left.copied().collect()
                } else {
                    listed_before.clone()
                })
            })
            .unwrap_or_default();
        // The advisor as a whole named in the clause ("总评：★★★★☆").
        let whole_at: Vec<usize> = (0..chars.len())
            .filter(|&p| words.whole.prefix_at(&chars, p).is_some())
            .collect();
        // Who a number at `at` is for: the dimension named last before it;
        // all four after 都 / 全部 said after that name (the names listed
        // before 都, when there are several); no one after the advisor as
        // a whole; else the carry. Empty: no one.
        let target = |at: usize, carry: Option<Dimension>| -> Vec<Dimension> {
            let named = spans.iter().rev().find(|(s, _, _)| *s < at);
            let whole = whole_at.iter().rev().find(|&&w| w < at);
            if whole.is_some_and(|&w| named.is_none_or(|(s, _, _)| *s < w)) {
                return Vec::new();
            }
            match (named, all_at) {
                (named, Some(a)) if a < at && named.is_none_or(|(s, _, _)| *s < a) => {
                    if listed.is_empty() {
                        Dimension::ALL.to_vec()
                    } else {
                        listed.clone()
                    }
                }
                (Some((_, _, d)), _) => vec![*d],
                (None, _) => carry.into_iter().collect(),
            }
        };
        let mut taken: Vec<(usize, usize)> = Vec::new();
        // "四分委屈他了", "三分太低了": the score said is the one judged too
        // low or too high; the score meant is the one next to it.
        let mut judged: Vec<(usize, u8)> = Vec::new();
        let score_words = numbers::scores(&chars);
        let mut i = 0;
        while i < chars.len() {
            let overshoot = words.overshoot(&chars, i);
            if let Some((points, len)) = overshoot {
                let said = score_words
                    .iter()
                    .find(|w| words.only_before_overshoot(&chars, w.end, i));
                if let Some(w) = said {
                    let meant = (w.value as i8 + points).clamp(1, 5) as u8;
                    judged.push((w.start, meant));
                    taken.push((w.start, i + len));
                    i += len;
                    continue;
                }
            }
            if let Some((points, len)) = overshoot.or_else(|| relative(&chars, i)) {
                // "再加一分": a move on top of the one before.
                let again = i > 0 && chars[i - 1] == '再';
                let moves: Vec<Edit> = match target(i, carry).as_slice() {
                    [] => Vec::new(),
                    all if all.len() == 4 => vec![Edit::ShiftAll(points)],
                    some => some.iter().map(|d| Edit::Shift(*d, points)).collect(),
                };
                for e in moves {
                    if !again {
                        out.retain(|x| !same_move(x, &e));
                    }
                    out.push(e);
                }
                taken.push((i, i + len));
                i += len;
                continue;
            }
            i += 1;
        }
        let mut found: Vec<(usize, u8)> = score_words
            .into_iter()
            .filter(|w| !taken.iter().any(|(a, b)| w.start < *b && w.end > *a))
            .map(|w| (w.start, w.value))
            .chain(judged)
            .collect();
        found.sort_by_key(|&(at, _)| at);
        let name_starts: Vec<usize> = names.spans(&chars).iter().map(|(s, _, _)| *s).collect();
        // A bare number after a verb of setting: "改成3", "都改成3",
        // "经费给个4", "来个五".
        for p in 0..chars.len() {
            if let Some((at, n)) = set_by_verb(&chars, p, &name_starts) {
                if !found.iter().any(|(s, _)| *s == at)
                    && !taken.iter().any(|(a, b)| at < *b && at >= *a)
                {
                    found.push((at, n as u8));
                }
            }
        }
        // "学术3 经费4": a bare number right after a dimension's own name
        // (not after a fact that names one: "早八晚十一").
        let named = names.spans(&chars);
        for (_, name_end, _) in &named {
            // "学术还是4吧": past a settling word.
            let end = &words.settle.skip_run(&chars, *name_end);
            if let Some((n, len)) = parse_number(&chars, *end) {
                let next = chars.get(end + len);
                // (Folding drops the space before the next name: "学术3经费4".)
                // "补助一分不少": an amount, not a score.
                let amount = numbers::a_cent_at(&chars, end + len + 1);
                let alone = (next == Some(&'分') && !amount)
                    || bare(&chars, end + len)
                    || named.iter().any(|(s, _, _)| *s == end + len);
                if (1..=5).contains(&n) && alone && !found.iter().any(|(s, _)| s == end) {
                    found.push((*end, n as u8));
                }
            }
        }
        if found.is_empty() && out.len() == before {
            // "经费别给那么低，3吧", "前途改成3，说错了，还是2吧": the
            // score alone in its clause is for the dimension named before;
            // so is a bare one after a name and a colon ("学术水平：5").
            found.extend(
                score_alone(&chars, &words.settle, after_colon).map(|(at, n)| (at, n as u8)),
            );
        }
        // "报销拖成那样还给3分？": a score the student asks back at, the
        // draft's own, is no edit.
        if clause.question_mark {
            found.retain(|(at, _)| words.rhetorical.suffix_at(&chars, *at, 0).is_none());
        }
        found.sort();
        for (at, value) in found {
            match target(at, carry).as_slice() {
                [] => {}
                all if all.len() == 4 => out.push(Edit::SetAll(value)),
                some => out.extend(some.iter().map(|d| Edit::Set(*d, value))),
            }
        }
        if let Some((_, _, d)) = spans.last() {
            carry = Some(*d);
        }
        listed_before = if out.len() == before && spans.len() >= 2 {
            spans.iter().map(|(_, _, d)| *d).collect()
        } else {
            Vec::new()
        };

        // "整体：3/5": a heading of the whole leaves no dimension to carry.
        if whole_at
            .last()
            .is_some_and(|&w| spans.last().is_none_or(|(s, _, _)| *s < w))
        {
            carry = None;
        }
        if out.len() > before {
            let mut start = before;
            // "前途改成5，说错了，学术5": the new edits replace those of the
            // clause taken back. A revision that says something of its own
            // and goes on to another dimension keeps them, but for the same
            // dimensions ("学术：1/5。其实老师文章不少。\n经费：3/5").
            if let Some((from, said)) = revised.take() {
                let new = out[before..].to_vec();
                let kept: Vec<Edit> = out[from..before]
                    .iter()
                    .filter(|e| said && !new.iter().any(|n| n.touches_any_of(e)))
                    .copied()
                    .collect();
                out.splice(from..before, kept);
                start = from;
            }
            last_clause = start;
        }
    }
    out
}

/// Whether two edits move the same scores the same way ("给高点" and
/// "加一分吧" after it are one move, said more precisely the second time).
fn same_move(a: &Edit, b: &Edit) -> bool {
    match (*a, *b) {
        (Edit::Shift(d, p), Edit::Shift(e, q)) => d == e && p.signum() == q.signum(),
        (Edit::ShiftAll(p), Edit::ShiftAll(q)) => p.signum() == q.signum(),
        _ => false,
    }
}

/// The scores `edits` give as numbers, dimension by dimension ("都改成3分"
/// gives each of the four); moves up or down give none.
pub fn numbers(edits: &[Edit]) -> Vec<(Dimension, u8)> {
    let mut out = Vec::new();
    for e in edits {
        match *e {
            Edit::Set(d, v) => out.push((d, v)),
            Edit::SetAll(v) => out.extend(Dimension::ALL.iter().map(|d| (*d, v))),
            Edit::Shift(..) | Edit::ShiftAll(_) | Edit::Like(..) | Edit::Restore(_) => {}
        }
    }
    out
}

/// Whether `message` tries to change a score without a clear reading: it
/// speaks of points, stars or changing, or says 高一点 / 低一点.
pub fn looks_like_edit(message: &str) -> bool {
    let t = fold(message);
    [
        "分", "星", "改", "调", "高一", "低一", "高点", "低点", "打高", "打低",
    ]
    .iter()
    .any(|w| t.contains(w))
}

/// One message's edits applied, as the coach and its evaluation do: the
/// dimension edited last (`edited`) follows them when they change one only,
/// for a later edit that names none ("再高一点").
pub fn apply_message(
    scores: &mut Scores,
    edits: &[Edit],
    proposed: &Scores,
    edited: &mut Option<Dimension>,
) {
    apply(scores, edits, proposed);
    *edited = only_dimension(edits).or(*edited);
}

/// `scores` after `edits`, each within 1–5; `proposed` is what the coach
/// proposed before the student's edits, which a restore goes back to.
pub fn apply(scores: &mut Scores, edits: &[Edit], proposed: &Scores) {
    let shift = |v: u8, by: i8| (i16::from(v) + i16::from(by)).clamp(1, 5) as u8;
    for e in edits {
        match *e {
            Edit::Set(d, v) => scores.set(d, v),
            Edit::Shift(d, by) => scores.set(d, shift(scores.get(d), by)),
            Edit::Like(d, from) => scores.set(d, scores.get(from)),
            Edit::Restore(Some(d)) => scores.set(d, proposed.get(d)),
            Edit::Restore(None) => {
                for d in Dimension::ALL {
                    scores.set(d, proposed.get(d));
                }
            }
            Edit::SetAll(v) => {
                for d in Dimension::ALL {
                    scores.set(d, v);
                }
            }
            Edit::ShiftAll(by) => {
                for d in Dimension::ALL {
                    scores.set(d, shift(scores.get(d), by));
                }
            }
        }
    }
    scores.settle_overall();
}

#[cfg(test)]
mod tests;
