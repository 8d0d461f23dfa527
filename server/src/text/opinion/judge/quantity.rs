//! Quantities: how much of a thing a count says, and what it counts — the
//! bad thing or activity before it, the good thing just named, the thing
//! after it, or the topic itself.

use super::super::words::Word;
use super::super::Judged;
use super::value::{numeral, value, Pending, CLASSIFIERS, REACH};
use super::{push, Judge, Step};

impl<A: Copy + Eq> Judge<'_, A> {
    /// A count the token is; `true`: the token is read.
    pub(super) fn quantity(&mut self, step: &Step<A>) -> bool {
        let (tokens, chars) = (self.tokens, self.chars);
        let (k, t, down, target) = (step.k, step.t, step.down, step.target);
        let group: &[A] = if step.listed { &self.group } else { &[] };
        let seldom = step.seldom;
        let quantity = if t.has(Word::Up) {
            Some(1)
        } else if down {
            Some(-1)
        } else {
            None
        };
        // "一千多", "十多个", "十点多": a number's "more than", not a count.
        let approximate = t.has(Word::Up)
            && t.start > 0
            && (numeral(chars[t.start - 1])
                || "万亿".contains(chars[t.start - 1])
                || ("点岁".contains(chars[t.start - 1])
                    && t.start >= 2
                    && numeral(chars[t.start - 2])));
        // (Not a count of rounds: "改二十多遍" is many.)
        let rounds = chars[t.start..t.end]
            .iter()
            .any(|c| matches!(c, '遍' | '轮'));
        if approximate && !rounds && t.head().is_none() {
            return true;
        }
        if let (Some(q), None) = (quantity, t.head()) {
            if seldom {
                let done_before = self.last.is_some_and(|(_, w, at, _)| {
                    w == Word::Activity && t.start <= at + REACH && self.pending.negator.is_none()
                });
                let done_after = tokens[k + 1..]
                    .iter()
                    .take_while(|n| n.start <= t.end + REACH)
                    .find_map(|n| n.head())
                    == Some(Word::Activity);
                if !done_before && !done_after {
                    return true;
                }
            }
            // A quantity counts the bad thing or the activity just before it…
            if let Some((i, word @ (Word::Bad | Word::Activity), at, _)) = self.last {
                if t.start <= at + REACH {
                    // The count's own value, then its negation ("延毕不多":
                    // few, praise; "不算多": middling).
                    let p = Pending {
                        quantity: Some(q),
                        negator: None,
                        ..self.pending
                    };
                    if let Some(v) = value(word, &p) {
                        let v = match self.pending.negator {
                            Some(Word::HedgedNegator) => 0,
                            Some(_) => -v,
                            None => v,
                        };
                        self.out[i].judged = Judged::Value(v);
                    }
                    self.pending = Pending::default();
                    self.last = None;
                    return true;
                }
            }
            // … or the good thing just named ("出国交流机会特别多": more of
            // it, strongly said, is strong praise; "机会很少": criticism) …
            if let Some((i, Word::Positive, at, j)) = self.last {
                if tokens[j].topic.is_some() && t.start <= at + REACH {
                    let v = match (q > 0, self.pending.strong, self.pending.negator) {
                        (_, _, Some(Word::HedgedNegator)) => 0,
                        (true, _, Some(_)) => -1,
                        (true, true, None) => 2,
                        (true, false, None) => 1,
                        (false, _, Some(_)) => 1,
                        (false, true, None) => -2,
                        (false, false, None) => -1,
                    };
                    self.out[i].judged = Judged::Value(v);
                    self.pending = Pending::default();
                    self.last = None;
                    return true;
                }
            }
            // (How often a judgement held says no more: "把人说哭过好几次".)
            if self.last.is_some_and(|(_, _, at, _)| t.start <= at + REACH) {
                self.pending = Pending::default();
                self.last = None;
                return true;
            }
            // … or the bad thing or activity right after it ("很少延毕",
            // "很少有人延毕", "很少亲自带":
            // words that only name a topic may stand between) …
            // (Not a count right after its topic: "钱少事多" is little money,
            // then many chores, not few chores.)
            let predicate = k > 0
                && tokens[k - 1].topic.is_some()
                && tokens[k - 1].head().is_none()
                && t.start <= tokens[k - 1].end + 1;
            let bad_after = !predicate
                && tokens[k + 1..]
                    .iter()
                    .take_while(|n| n.start <= t.end + REACH + 2)
                    .find(|n| n.head().is_some() || n.words.iter().any(|w| w.is_negator()))
                    .is_some_and(|n| match n.head() {
                        Some(Word::Bad | Word::Activity) => true,
                        // "没几个能按时走的", "很少有出国交流": a good fact counted.
                        Some(Word::Positive) => n.topic.is_some() && q < 0,
                        _ => false,
                    });
            if bad_after {
                self.pending.quantity = Some(q);
                self.pending.end = t.end;
                return true;
            }
            // "说过的事好多都没下文", "很多都去了大厂": a count before 都
            // that a judgement follows counts the things that judgement
            // is about ("many of them"), it judges nothing itself.
            let of_them = chars.get(t.end) == Some(&'都')
                && self.pending.negator.is_none()
                && tokens[k + 1..]
                    .iter()
                    .take_while(|n| n.start <= t.end + REACH + 2)
                    .any(|n| n.head().is_some());
            if of_them {
                self.pending = Pending::default();
                return true;
            }
            // … else the topic itself: "补助很少", "经费不多".
            let mag: i8 = if self.pending.strong { 2 } else { 1 };
            let v = match self.pending.negator {
                Some(Word::HedgedNegator) => 0,
                Some(Word::StrongNegator) if q > 0 => -2,
                Some(_) => -q,
                None => q * mag,
            };
            // "八个人只有两张卡", "才三台服务器": a count with a measure word
            // before a noun counts that noun, not the topic before it.
            let counted = tokens[k + 1..]
                .iter()
                .find(|n| n.topic.is_some() || n.head().is_some())
                .filter(|n| {
                    n.head().is_none()
                        && n.start == t.end + 1
                        && CLASSIFIERS.contains(&chars[t.end])
                })
                .and_then(|n| n.topic);
            let target = counted.or(target);
            let group = if counted.is_some() { &[][..] } else { group };
            // "脾气特别大": more of a heavy thing is worse.
            let heavy = (self.current_heavy && self.current == target)
                || self.heavy_end.is_some_and(|end| t.start <= end + REACH);
            let v = if heavy { -v } else { v };
            push(&mut self.out, target, group, v);
            self.pending = Pending::default();
            self.last = None;
            return true;
        }
        false
    }
}
