//! A word of judgement: what it judges (the topic before it, the bad thing
//! whose degree it gives, the good thing it says is hard to reach, its
//! object, excessive demands) and its value.

use super::super::words::Word;
use super::super::{Judged, Statement};
use super::value::{value, Pending, REACH};
use super::{push, Judge, Step};

impl<A: Copy + Eq> Judge<'_, A> {
    /// The judgement the token is, if it is one.
    pub(super) fn head(&mut self, step: &Step<A>) {
        let (tokens, chars) = (self.tokens, self.chars);
        let (k, t, target) = (step.k, step.t, step.target);
        let group: &[A] = if step.listed { &self.group } else { &[] };
        let demands = self.demands;
        let Some(head) = t.head() else { return };
        // "经费不是不够", "脾气不是不好": a denial of a negated word of
        // praise concedes it — middling.
        if self.pending.denial
            && self.pending.negator == Some(Word::Negator)
            && head == Word::Negative
            && matches!(chars[t.start], '不' | '没')
        {
            self.pending.negator = None;
            self.pending.affirmed = true;
        }
        // "想留院很难", "大厂很难进": how hard a good thing is to reach
        // judges it.
        if let Some((i, Word::Positive, at, j)) = self.last {
            let same = tokens[j].topic.is_some()
                && t.topic.is_none()
                && tokens[j + 1..k].iter().all(|n| n.topic.is_none());
            if head == Word::Negative && same && t.start <= at + REACH {
                if let Some(v) = value(head, &self.pending) {
                    self.out[i].judged = Judged::Value(v);
                }
                self.pending = Pending::default();
                self.last = None;
                return;
            }
        }
        // How bad the bad thing just named is ("push得不算狠", "骂得很凶",
        // "加班还好"): the predicate's degree replaces the bad thing's own,
        // when nothing else was named between them.
        if let Some((i, Word::Bad, at, j)) = self.last {
            let predicate = matches!(
                head,
                Word::Positive | Word::Negative | Word::Hedge | Word::Top | Word::Bottom
            );
            let same = t.topic.is_none_or(|a| a == self.out[i].topic)
                && tokens[j + 1..k].iter().all(|n| n.topic.is_none());
            if predicate && same && t.start <= at + REACH {
                if let Some(v) = value(head, &self.pending) {
                    // "厉害" of a bad thing is how much of it, not praise;
                    // "放养挺好的" is the writer liking it.
                    let v = match head {
                        Word::Positive | Word::Top if t.has(Word::Degree) => -v,
                        _ => v,
                    };
                    self.out[i].judged = Judged::Value(v);
                }
                self.pending = Pending::default();
                self.last = None;
                return;
            }
        }
        // "从不关心我们的就业": a judging word that names its own topic,
        // with another topic as its object (after 的), judges the object.
        let object = t
            .topic
            .filter(|_| !t.weak)
            .and_then(|_| {
                tokens[k + 1..]
                    .iter()
                    .find(|n| n.topic.is_some() || n.head().is_some())
            })
            .filter(|n| {
                !n.weak
                    && n.head().is_none()
                    && n.topic != t.topic
                    && n.start <= t.end + 5
                    && chars[t.end..n.start].last() == Some(&'的')
            })
            .and_then(|n| n.topic);
        let (target, group) = match object {
            Some(b) => (Some(b), &[][..]),
            None => (target, group),
        };
        // "要求太苛刻", "要求高得离谱": demands said to be excessive — of
        // no topic, or of one whose demands are rigor — criticise the
        // people who make them.
        let excess = demands.excess.filter(|_| {
            matches!(head, Word::Negative | Word::Bottom)
                && self.demand.is_some_and(|(end, of)| {
                    t.start <= end + REACH && of.is_none_or(|a| demands.rigor.contains(&a))
                })
        });
        let (target, group) = match excess {
            Some(a) => (Some(a), &[][..]),
            None => (target, group),
        };
        match value(head, &self.pending) {
            Some(v) => {
                let i = push(&mut self.out, target, group, v);
                self.last = i.map(|i| (i, head, t.end, k));
                self.last_value = i.map(|i| (i, t.end));
            }
            None => {
                // An activity with nothing on it yet: a mention that a
                // quantity after it may still judge.
                if let Some(a) = target {
                    self.out.push(Statement {
                        topic: a,
                        judged: Judged::Mentioned,
                    });
                    self.last = Some((self.out.len() - 1, head, t.end, k));
                }
            }
        }
        self.pending = Pending::default();
    }
}
