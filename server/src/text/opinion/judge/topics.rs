//! The topics of a clause as its tokens name them, and what is demanded of
//! them: the list a topic ends, the setting, the demand and the intensifier
//! said after a judgement.

use super::super::words::{Token, Word};
use super::super::Judged;
use super::value::{Pending, COORDINATORS, REACH, SETTINGS};
use super::{mention, push, Judge};

impl<A: Copy + Eq> Judge<'_, A> {
    /// "严得不得了", "好得要命": an intensifier after the judgement just
    /// made makes it strong.
    pub(super) fn intensified_after(&mut self, t: &Token<A>) -> bool {
        if t.has(Word::After) && t.head().is_none() {
            if let Some((i, _)) = self.last_value.filter(|(_, end)| t.start <= end + 1) {
                if let Judged::Value(v) = self.out[i].judged {
                    if v != 0 {
                        self.out[i].judged = Judged::Value(2 * v.signum());
                    }
                }
                self.last_value = None;
                return true;
            }
        }
        false
    }

    /// A demand, and how much is demanded of what.
    pub(super) fn demanded(&mut self, k: usize, t: &Token<A>) -> bool {
        let (tokens, chars) = (self.tokens, self.chars);
        let demands = self.demands;
        if t.has(Word::Requires) {
            self.demand = Some((t.end, self.current));
        }
        // "对论文要求很高", "学术上很严格", "毕业要求比较高": how much is
        // demanded of a topic — rigor, praise, when the topic's demands are
        // rigor; weighing on it otherwise. Demands of no topic wait for a
        // word that says they are excessive ("要求高得离谱").
        let strict_after_rigor = t.has(Word::Strict)
            && self.pending.negator.is_none()
            && self.current.is_some_and(|c| demands.rigor.contains(&c))
            && self
                .topic_end
                .is_some_and(|(end, _)| t.start <= end + REACH);
        let demanded = self
            .demand
            .filter(|(end, _)| {
                // "毕业要求比别的组高", "定得比谁都高": a comparison between
                // the demand and its degree reaches further.
                // "要求倒是定得贼高": so does a complement with 得.
                let compared = t.start <= end + 2 * REACH
                    && chars[(*end).min(t.start)..t.start]
                        .iter()
                        .any(|c| matches!(c, '比' | '得'));
                (t.has(Word::Up) || t.has(Word::Strict))
                    && t.head().is_none()
                    && (t.start <= end + REACH || compared)
            })
            .map(|(_, of)| of)
            .or(strict_after_rigor.then_some(self.current));
        if let Some(of) = demanded {
            let excessive = tokens[k + 1..]
                .iter()
                .take_while(|n| n.start <= t.end + REACH)
                .any(|n| matches!(n.head(), Some(Word::Negative | Word::Bottom)));
            if let (Some(a), false) = (of, excessive) {
                let rigor = demands.rigor.contains(&a);
                let v: i8 = match self.pending.negator {
                    Some(Word::HedgedNegator) => 0,
                    Some(_) => -1,
                    None if self.pending.strong => 2,
                    None => 1,
                };
                if let Some(i) = push(&mut self.out, Some(a), &[], if rigor { v } else { -v }) {
                    self.last_value = Some((i, t.end));
                }
            }
            self.demand = Some((t.end, of));
            self.pending = Pending::default();
            self.last = None;
            return true;
        }
        false
    }

    /// A topic the token names: the list it joins, the setting it is, or
    /// what the clause is about.
    pub(super) fn name_topic(&mut self, k: usize, t: &Token<A>) {
        let (tokens, chars) = (self.tokens, self.chars);
        let text = |a: usize, b: usize| -> String { chars[a.min(b)..b].iter().collect() };
        if let Some(a) = t.topic {
            let after_topic = self.topic_end.filter(|(end, j)| {
                t.start <= end + 3 && tokens[j + 1..k].iter().all(|n| n.words.is_empty())
            });
            if t.weak
                && after_topic.is_some_and(|(_, j)| tokens[j].topic != Some(a) && !tokens[j].weak)
            {
                // "毕业出去的人都挺好": the people of the topic just named,
                // not a topic of their own.
            } else if t.weak && t.head().is_some() && self.current.is_some() {
                // "毕业去向也挺nice的": a judging word that names a topic
                // when nothing else does ("导师超nice的") judges the topic
                // the clause is about.
            } else {
                let joined = self.topic_end.is_some_and(|(end, j)| {
                    tokens[j + 1..k].iter().all(|n| n.topic.is_none())
                        && COORDINATORS.contains(&text(end, t.start).as_str())
                });
                if !joined {
                    self.group.clear();
                }
                if !self.group.contains(&a) {
                    self.group.push(a);
                }
                self.current = Some(a);
                self.current_heavy = t.has(Word::Heavy);
                self.heavy_end = None;
                // (Not when 上/里/中 starts a word of its own: "学术中规中矩".)
                let setting = !t.weak
                    && chars.get(t.end).is_some_and(|c| SETTINGS.contains(c))
                    && tokens.get(k + 1).is_none_or(|n| n.start != t.end)
                    && !t.words.iter().any(|w| w.is_head());
                // "论文投稿的版面费": a topic that only qualifies the next one.
                let qualifies = !t.words.iter().any(|w| w.is_head())
                    && tokens[k + 1..]
                        .iter()
                        .find(|n| n.topic.is_some() || n.head().is_some())
                        .is_some_and(|n| {
                            // "对学生基本放手不管": or a judgement that names
                            // its own topic right after it.
                            !n.weak
                                && n.topic.is_some_and(|b| b != a)
                                && n.start <= t.end + 6
                                && (chars[t.end..n.start].contains(&'的')
                                    || (n.head().is_some() && n.start <= t.end + 3))
                        });
                if setting || qualifies {
                    self.settings.push(a);
                } else if !t.weak {
                    mention(&mut self.out, a);
                }
                self.topic_end = Some((t.end, k));
            }
        }
    }
}
