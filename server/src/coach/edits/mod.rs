//! Score edits as students say them: "经费改成2分，学术给5分" (each
//! dimension its own number), "都改成3", "关系打低一点", "前途高两分",
//! "学术五颗星", "前途满分", "关系及格就行". The numbers are read by
//! `text::numbers`; this module binds each to the dimension named before it
//! (else the one named in an earlier clause, else the one the coach just
//! asked about), or to all four after 都 / 全部 — to the names listed just
//! before 都 ("学术和前途 都给个三"), or to those the message has not named
//! after 其他 ("学术别动 其他都给四", "其他方面我打四分": the scores not yet
//! edited or kept). With 只 ("只改学术5") or "其他不动" the others stay.
//! Where a number is a score is read in `said`; relative moves ("高一分")
//! in `moves`. A score called wrong with no way said ("这都给2分说不过去")
//! is not set; too low said after a score set ("及格就行 别打太低了") is why
//! it was set, not a move from it.
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
mod said;
mod words;

use self::moves::relative;
use self::said::{bare, score_alone, set_by_verb, AFTER_BARE};
pub use self::words::Words;
use super::dimension::{Dimension, Scores};
use crate::text::clauses;
use crate::text::fold::fold;
use crate::text::numbers::{self, parse_number};
use crate::text::opinion::Topics;

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
    // The dimensions said to stay ("学术别动"): decided, like those edited.
    let mut kept_so_far: Vec<Dimension> = Vec::new();
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
            kept_so_far.extend(kept.iter().copied());
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
        // "其他方面我打四分": the rest, with no 都, before a score.
        let rest_at = (0..chars.len())
            .find(|&p| words.rest_before_score(&chars, p) && spans.iter().all(|(s, _, _)| *s > p));
        let all_at = match (all_at, rest_at) {
            (Some(a), Some(r)) => Some(a.min(r)),
            (a, r) => a.or(r),
        };
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
                let rest = (0..=a).any(|p| words.rest.prefix_at(&chars, p).is_some());
                // Named and decided, by an edit or as staying; a name with
                // none ("方向太冷门了") is among the rest.
                let decided = |d: &Dimension| {
                    named_so_far.contains(d)
                        && (kept_so_far.contains(d)
                            || out.iter().any(|e| e.dimension() == Some(*d)))
                };
                let left = Dimension::ALL.iter().filter(|d| !decided(d));
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
            // "这都给2分说不过去": the score said is called wrong, no way
            // said: it is not set, and the move said with it stands.
            if let Some(len) = words.rejected.prefix_at(&chars, i) {
                if let Some(w) = score_words
                    .iter()
                    .find(|w| words.only_before_overshoot(&chars, w.end, i))
                {
                    taken.push((w.start, i + len));
                    i += len;
                    continue;
                }
            }
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
                let targets = target(i, carry);
                // "关系及格就行 别打太低了": too low or too high said after
                // the score was set is why it was set, not a move from it.
                let set_before = overshoot.is_some()
                    && !again
                    && !targets.is_empty()
                    && targets.iter().all(|d| {
                        score_words
                            .iter()
                            .any(|w| w.end <= i && target(w.start, carry).contains(d))
                            || out[last_clause..].iter().any(|e| {
                                matches!(*e, Edit::Set(x, _) if x == *d)
                                    || matches!(e, Edit::SetAll(_))
                            })
                    });
                if set_before {
                    taken.push((i, i + len));
                    i += len;
                    continue;
                }
                let moves: Vec<Edit> = match targets.as_slice() {
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
        let mut named: Vec<(usize, usize)> = names
            .spans(&chars)
            .iter()
            .map(|(s, e, _)| (*s, *e))
            .collect();
        // "学术4 钱3": a short name is one only before a number.
        named.extend((0..chars.len()).filter_map(|p| {
            let len = words.labels.prefix_at(&chars, p)?;
            parse_number(&chars, p + len).map(|_| (p, p + len))
        }));
        for (_, name_end) in &named {
            // "学术还是4吧": past a settling word.
            let end = &words.settle.skip_run(&chars, *name_end);
            if let Some((n, len)) = parse_number(&chars, *end) {
                let next = chars.get(end + len);
                // (Folding drops the space before the next name: "学术3经费4".)
                // "补助一分不少": an amount, not a score.
                let amount = numbers::a_cent_at(&chars, end + len + 1);
                let alone = (next == Some(&'分') && !amount)
                    || bare(&chars, end + len)
                    || named.iter().any(|(s, _)| *s == end + len);
                let rejected = taken.iter().any(|(a, b)| end < b && end >= a);
                if (1..=5).contains(&n)
                    && alone
                    && !rejected
                    && !found.iter().any(|(s, _)| s == end)
                {
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
        // "还是只改学术5吧 其他不动": the scores this clause does not name
        // (with 只), or the message has not named (其他不动), stay.
        let stay: Vec<Dimension> = if words.only.occurs_in(&chars) && !spans.is_empty() {
            let here: Vec<Dimension> = spans.iter().map(|(_, _, d)| *d).collect();
            Dimension::ALL
                .into_iter()
                .filter(|d| !here.contains(d))
                .collect()
        } else if words.rest_stays(&chars) {
            Dimension::ALL
                .into_iter()
                .filter(|d| !named_so_far.contains(d))
                .collect()
        } else {
            Vec::new()
        };
        if !stay.is_empty() {
            out = spell_out(&out);
            out.retain(|e| e.dimension().is_none_or(|d| !stay.contains(&d)));
            last_clause = last_clause.min(out.len());
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

/// `edits` with every edit of all four scores said one dimension at a time,
/// so that some of them can be taken back.
fn spell_out(edits: &[Edit]) -> Vec<Edit> {
    edits
        .iter()
        .flat_map(|e| match *e {
            Edit::SetAll(v) => Dimension::ALL.map(|d| Edit::Set(d, v)).to_vec(),
            Edit::ShiftAll(p) => Dimension::ALL.map(|d| Edit::Shift(d, p)).to_vec(),
            e => vec![e],
        })
        .collect()
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
