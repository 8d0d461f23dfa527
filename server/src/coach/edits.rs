//! Score edits as students say them: "经费改成2分，学术给5分" (each
//! dimension its own number), "都改成3", "关系打低一点", "前途高两分",
//! "学术五颗星", "前途满分", "关系及格就行". The numbers are read by
//! `text::numbers`; this module binds each to the dimension named before it
//! (else the one named in an earlier clause, else the one the coach just
//! asked about), or to all four after 都 / 全部.

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
}

const UP: [char; 5] = ['高', '加', '提', '升', '多'];
const DOWN: [char; 5] = ['低', '减', '降', '扣', '少'];
/// Verbs a bare number may follow ("改成3").
const SET_VERBS: [&[char]; 9] = [
    &['改', '成'],
    &['改', '为'],
    &['换', '成'],
    &['调', '成'],
    &['调', '到'],
    &['改', '到'],
    &['打'],
    &['给'],
    &['='],
];
const ALL: [&str; 7] = ["都", "全部", "全都", "每项", "四项", "所有", "每一项"];

/// A relative change at `chars[i..]`: "高一分", "打低一点", "再高点",
/// "降两分" → (points, length).
fn relative(chars: &[char], i: usize) -> Option<(i8, usize)> {
    let sign: i8 = if UP.contains(&chars[i]) {
        1
    } else if DOWN.contains(&chars[i]) {
        -1
    } else {
        return None;
    };
    let mut j = i + 1;
    let mut points: i8 = 1;
    let mut counted = false;
    if let Some((n, len)) = chars.get(j).and_then(|_| parse_number(chars, j)) {
        if (1..=4).contains(&n) {
            points = n as i8;
            j += len;
            counted = true;
        }
    }
    match chars.get(j) {
        Some('分' | '星' | '档' | '级') if counted => Some((sign * points, j + 1 - i)),
        Some('点' | '些') => Some((sign * points, j + 1 - i)),
        _ => None,
    }
}

/// The edits in `message` (see the module doc).
pub fn parse(
    dims: &Topics<Dimension>,
    names: &Topics<Dimension>,
    message: &str,
    asked: Option<Dimension>,
) -> Vec<Edit> {
    let folded = fold(message);
    let mut out: Vec<Edit> = Vec::new();
    let mut carry = asked;
    for clause in clauses::split(&folded) {
        let chars = clause.chars();
        let spans = dims.spans(&chars);
        let all_at = ALL
            .iter()
            .filter_map(|w| {
                clause
                    .text
                    .find(w)
                    .map(|b| clause.text[..b].chars().count())
            })
            .min();
        // Who a number at `at` is for: the dimension named last before it;
        // all four after 都 / 全部 said after that name; else the carry.
        // `Some(None)`: all four.
        let target = |at: usize, carry: Option<Dimension>| -> Option<Option<Dimension>> {
            let named = spans.iter().rev().find(|(s, _, _)| *s < at);
            match (named, all_at) {
                (named, Some(a)) if a < at && named.is_none_or(|(s, _, _)| *s < a) => Some(None),
                (Some((_, _, d)), _) => Some(Some(*d)),
                (None, _) => carry.map(Some),
            }
        };
        let mut taken: Vec<(usize, usize)> = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if let Some((points, len)) = relative(&chars, i) {
                match target(i, carry) {
                    Some(Some(d)) => out.push(Edit::Shift(d, points)),
                    Some(None) => out.push(Edit::ShiftAll(points)),
                    None => {}
                }
                taken.push((i, i + len));
                i += len;
                continue;
            }
            i += 1;
        }
        let mut found: Vec<(usize, u8)> = numbers::scores(&chars)
            .into_iter()
            .filter(|w| !taken.iter().any(|(a, b)| w.start < *b && w.end > *a))
            .map(|w| (w.start, w.value))
            .collect();
        // A bare number after a verb of setting: "改成3", "都改成3".
        for v in SET_VERBS {
            let mut p = 0;
            while p + v.len() <= chars.len() {
                if chars[p..].starts_with(v) {
                    let at = p + v.len();
                    if let Some((n, len)) = parse_number(&chars, at) {
                        let next = chars.get(at + len);
                        let bare = !matches!(next, Some(c) if c.is_alphanumeric() && !"吧了啊呀哈".contains(*c));
                        if (1..=5).contains(&n)
                            && bare
                            && !found.iter().any(|(s, _)| *s == at)
                            && !taken.iter().any(|(a, b)| at < *b && at >= *a)
                        {
                            found.push((at, n as u8));
                        }
                    }
                }
                p += 1;
            }
        }
        // "学术3 经费4": a bare number right after a dimension's own name
        // (not after a fact that names one: "早八晚十一").
        let named = names.spans(&chars);
        for (_, end, _) in &named {
            if let Some((n, len)) = parse_number(&chars, *end) {
                let next = chars.get(end + len);
                // (Folding drops the space before the next name: "学术3经费4".)
                let bare = next.is_none_or(|c| !c.is_alphanumeric() || *c == '分')
                    || named.iter().any(|(s, _, _)| *s == end + len);
                if (1..=5).contains(&n) && bare && !found.iter().any(|(s, _)| s == end) {
                    found.push((*end, n as u8));
                }
            }
        }
        found.sort();
        for (at, value) in found {
            match target(at, carry) {
                Some(Some(d)) => out.push(Edit::Set(d, value)),
                Some(None) => out.push(Edit::SetAll(value)),
                None => {}
            }
        }
        if let Some((_, _, d)) = spans.last() {
            carry = Some(*d);
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

/// `scores` after `edits`, each within 1–5.
pub fn apply(scores: &mut Scores, edits: &[Edit]) {
    let shift = |v: u8, by: i8| (i16::from(v) + i16::from(by)).clamp(1, 5) as u8;
    for e in edits {
        match *e {
            Edit::Set(d, v) => scores.set(d, v),
            Edit::Shift(d, by) => scores.set(d, shift(scores.get(d), by)),
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
mod tests {
    use super::super::reader::Reader;
    use super::*;

    fn edited(start: [u8; 4], say: &str) -> [u8; 4] {
        let r = Reader::load();
        let mut s = Scores::default();
        for (d, v) in Dimension::ALL.into_iter().zip(start) {
            s.set(d, v);
        }
        apply(&mut s, &r.edits(say, None));
        Dimension::ALL.map(|d| s.get(d))
    }

    #[test]
    fn several_dimensions_each_with_its_own_number() {
        assert_eq!(edited([3, 3, 3, 4], "经费改成2分，学术给5分"), [5, 2, 3, 4]);
        assert_eq!(
            edited([3, 3, 3, 3], "学术4分，经费2分，关系5分"),
            [4, 2, 5, 3]
        );
        assert_eq!(
            edited([4, 4, 4, 4], "学术改成3，经费改成2，关系改成5，前途改成1"),
            [3, 2, 5, 1]
        );
        assert_eq!(edited([2, 2, 2, 2], "師生關係改成五分"), [2, 2, 5, 2]);
        assert_eq!(edited([3, 3, 4, 4], "经费给3星，前途给一分"), [3, 3, 4, 1]);
    }

    #[test]
    fn relative_all_and_words_for_scores() {
        assert_eq!(edited([4, 3, 4, 3], "师生关系打低一点"), [4, 3, 3, 3]);
        assert_eq!(edited([3, 2, 4, 4], "经费高一分"), [3, 3, 4, 4]);
        assert_eq!(edited([5, 4, 3, 4], "学术降两分"), [3, 4, 3, 4]);
        assert_eq!(edited([4, 2, 5, 3], "都改成3"), [3, 3, 3, 3]);
        assert_eq!(edited([2, 3, 4, 5], "全部4分"), [4, 4, 4, 4]);
        assert_eq!(edited([3, 4, 3, 3], "前途满分"), [3, 4, 3, 5]);
        assert_eq!(edited([4, 4, 2, 4], "关系及格就行"), [4, 4, 3, 4]);
        assert_eq!(edited([5, 3, 4, 4], "学术再高点"), [5, 3, 4, 4]);
        assert_eq!(
            edited([1, 3, 3, 3], "经费减一分，学术再低一点"),
            [1, 2, 3, 3]
        );
        assert_eq!(
            edited([3, 2, 3, 4], "学术高一分 经费也高一分"),
            [4, 3, 3, 4]
        );
    }

    #[test]
    fn no_edit_where_no_number_is_given() {
        let r = Reader::load();
        for say in [
            "学术水平很高",
            "补助每个月三千",
            "组会每周一次",
            "十分认真",
            "一分钱都没有",
        ] {
            assert!(r.edits(say, None).is_empty(), "{say}");
        }
        assert_eq!(
            r.edits("3分", Some(Dimension::Funding)),
            [Edit::Set(Dimension::Funding, 3)]
        );
    }
}
