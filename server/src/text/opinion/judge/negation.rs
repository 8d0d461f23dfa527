//! Negators and intensifiers before a judgement: a topic that is not there,
//! a 没 that closes the clause, a negation of a negation, and the degree.

use super::super::words::Word;
use super::super::Judged;
use super::value::{Pending, REACH};
use super::{push, Judge, Step};

impl<A: Copy + Eq> Judge<'_, A> {
    /// The modifiers a token is or closes; `true`: the token is read.
    pub(super) fn modifiers(&mut self, step: &Step<A>) -> bool {
        let (tokens, chars) = (self.tokens, self.chars);
        let (k, t, down, target) = (step.k, step.t, step.down, step.target);
        let group: &[A] = if step.listed { &self.group } else { &[] };
        let either_or = self.either_or;
        let judged_next = |k: usize, end: usize| {
            tokens
                .get(k + 1)
                .filter(|n| n.start <= end + REACH)
                .is_some_and(|n| {
                    n.head().is_some()
                        || n.has(Word::Up)
                        || n.has(Word::Down)
                        // "没有不满意的": a negation of a negation.
                        || (n.start == end && n.words.iter().any(|w| w.is_negator()))
                })
        };
        // "从来不发劳务费", "根本不开组会": an absolute negation of a short
        // verb before a topic says the topic is not there, as 没 does.
        let never_verb = self.pending.negator == Some(Word::StrongNegator)
            && (self.pending.end + 1..=self.pending.end + 4).contains(&t.start)
            && tokens[..k]
                .last()
                .is_some_and(|p| p.end <= self.pending.end)
            && !chars[self.pending.end..t.start]
                .iter()
                .any(|c| matches!(c, '是' | '在' | '像' | '算'));
        // "基本没什么产出", "几乎没项目": a topic that 没 says is not there.
        if t.topic.is_some()
            && !t.weak
            && t.head().is_none()
            && (self.pending.existential || never_verb)
            && !judged_next(k, t.end)
        {
            let v = if self.pending.negator == Some(Word::StrongNegator) {
                -2
            } else {
                -1
            };
            push(&mut self.out, target, group, v);
            self.pending = Pending::default();
            return true;
        }
        // A word that negates or judges ("没有", "不给"): a negator when a
        // judgement follows closely, else a judgement.
        let next_head = judged_next(k, t.end);
        let negator = t
            .words
            .iter()
            .copied()
            .find(|w| w.is_negator())
            .filter(|_| !(either_or && t.start == 0));
        // "一个延毕的都没有", "加班的也没有": a 没 closing the clause after
        // the thing just judged says it is not there.
        if let (Some(n), Some((i, word, at, judged))) = (negator, self.last) {
            let between = chars[at..t.start]
                .iter()
                .all(|c| matches!(c, '的' | '都' | '也' | '过' | '人' | '个' | '次'));
            let closes = chars[t.end..]
                .iter()
                .all(|c| matches!(c, '有' | '的' | '了' | '啊' | '呢' | '过'));
            let absent = chars[t.start..t.end]
                .iter()
                .any(|c| matches!(c, '没' | '无'));
            if n != Word::NotYet
                && absent
                && between
                && closes
                && t.start > at
                && matches!(
                    word,
                    Word::Bad | Word::Positive | Word::Top | Word::Activity
                )
            {
                // "一句关心都没有", "半点耐心也没有": not even one (一 or 半
                // and a measure word right before the praise) is strong.
                let from = tokens[judged].start;
                let not_even = from >= 2
                    && matches!(chars[from - 2], '一' | '半')
                    && matches!(
                        chars[from - 1],
                        '句' | '点' | '丝' | '个' | '次' | '分' | '毛' | '字' | '眼'
                    );
                if let Judged::Value(v) = self.out[i].judged {
                    self.out[i].judged = Judged::Value(match (v > 0, not_even) {
                        (true, true) => -2,
                        (true, false) => -1,
                        _ => 1,
                    });
                } else if word == Word::Activity {
                    self.out[i].judged = Judged::Value(-1);
                }
                self.pending = Pending::default();
                self.last = None;
                return true;
            }
        }
        if let Some(n) = negator {
            // "压力不大": a negated quantity at the end counts what came
            // before it, as "小" would.
            let count = (down || t.has(Word::Up)) && !next_head;
            if (next_head || t.head().is_none()) && !count {
                // "不是不管", "并非没有经费": a denial (不是, 并非) of a
                // negation is so, grudgingly — middling.
                if self.pending.negator == Some(Word::Negator)
                    && self.pending.denial
                    && matches!(n, Word::Negator | Word::StrongNegator)
                    && t.start <= self.pending.end + 1
                {
                    self.pending.cancel_negation(t.end, true);
                    return true;
                }
                // "没有不满意的": two plain negations say it is so.
                if self.pending.negator == Some(Word::Negator) && n == Word::Negator {
                    self.pending.cancel_negation(t.end, false);
                    return true;
                }
                // "也不是说不好": a hedged negation of a negation too.
                if self.pending.negator == Some(Word::HedgedNegator)
                    && matches!(n, Word::Negator | Word::StrongNegator | Word::HedgedNegator)
                    && t.start <= self.pending.end + 1
                {
                    self.pending.cancel_negation(t.end, true);
                    return true;
                }
                self.pending.strong_first =
                    n == Word::Negator && self.pending.strong && t.start <= self.pending.end + 1;
                self.pending.negator = Some(n);
                self.pending.denial = chars[t.start..t.end].contains(&'是')
                    || chars[t.start..t.end].starts_with(&['并', '非']);
                self.pending.existential = n != Word::NotYet
                    && chars[t.start..t.end]
                        .iter()
                        .any(|c| matches!(c, '没' | '无'));
                self.pending.end = t.end;
                return true;
            }
        }
        if t.has(Word::Strong) || t.has(Word::Weak) {
            if t.has(Word::Strong) {
                self.pending.strong = true;
            } else {
                self.pending.weak = true;
            }
            self.pending.end = t.end;
            if t.head().is_none() && !t.has(Word::Up) && !down {
                return true;
            }
        }
        // "谈不上多细致", "没多亲近": 多 right before a negated judgement
        // is "how", not a count.
        if t.head().is_none()
            && self.pending.negator.is_some()
            && t.end == t.start + 1
            && chars[t.start] == '多'
            && tokens
                .get(k + 1)
                .is_some_and(|n| n.start == t.end && n.head().is_some())
        {
            return true;
        }
        false
    }
}
