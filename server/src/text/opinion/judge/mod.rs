//! One clause's tokens judged: modifiers waiting for their judgement, the
//! topic each judgement binds to, lists, settings, counts and the degree of
//! a bad thing (see the module doc of `text::opinion`).
//!
//! The clause is read token by token, left to right, in one state
//! ([`Judge`]) that every step reads: the topics named so far and the list
//! they form, the modifiers waiting, the last judgement made. Each token
//! goes through the phases of that state in turn, and the first that reads
//! it ends its turn:
//!
//! - `topics.rs`: an intensifier after the judgement just made, a demand
//!   and how much is demanded, and the topic the token names;
//! - `negation.rs`: a topic said not to be there, a 没 closing the clause,
//!   negators (and negations of negations) and intensifiers waiting;
//! - `quantity.rs`: a count, and what it counts;
//! - `heads.rs`: a word of judgement, and what it judges.
//!
//! What a word is worth under the modifiers waiting is in `value.rs`; what
//! the clause says once every token is read, here ([`Judge::finish`]).

mod heads;
mod negation;
mod quantity;
mod topics;
mod value;

use super::words::{Demands, Token, Word};
use super::{Judged, Statement};
use value::{Pending, GIVING, REACH};

/// The state of one clause's reading (see the module doc).
pub(super) struct Judge<'a, A> {
    tokens: &'a [Token<A>],
    chars: &'a [char],
    /// The topic a judgement before any topic belongs to.
    first: Option<A>,
    /// The topic the clause continues.
    carry: Option<A>,
    demands: &'a Demands<A>,
    /// "不是大厂就是名校读博": either … or, nothing is negated.
    either_or: bool,
    /// A clause that states a requirement ("要求", "才能毕业"): the good
    /// thing in it is what is required ("要求两篇SCI一区", "发三篇一区才能
    /// 毕业"), neither said nor judged.
    requires: bool,
    out: Vec<Statement<A>>,
    current: Option<A>,
    /// `current` was named by a heavy thing ("脾气"): more of it is worse.
    current_heavy: bool,
    /// Where the last heavy word that is no topic ended ("毕业要求高").
    heavy_end: Option<usize>,
    /// Topics named as the setting or a qualifier of a statement ("组会上",
    /// "论文的版面费"): said only if the clause judges nothing else.
    settings: Vec<A>,
    /// The topics of the list `current` ends ("学术和人品").
    group: Vec<A>,
    /// Where the last topic ended, and its token.
    topic_end: Option<(usize, usize)>,
    pending: Pending,
    /// The last judgement made, so a quantity after it can change it
    /// ("延毕的特别多", "管得比较少"): (index in `out`, its word, where it
    /// ended, its token).
    last: Option<(usize, Word, usize, usize)>,
    /// A long stretch or a total seen ("一学期", "一共"): a small count of
    /// times after it is few ("一学期来画室两三次", "一共谈过两次").
    period: bool,
    /// A demand ("要求"): where it (or the degree said of it) ended, and the
    /// topic named before it, whose demand it is ("对论文要求很高").
    demand: Option<(usize, Option<A>)>,
    /// The last value pushed and where its word ended: an intensifier right
    /// after it ("严得不得了") makes it strong.
    last_value: Option<(usize, usize)>,
}

/// One token as the later phases read it.
pub(super) struct Step<'t, A> {
    k: usize,
    t: &'t Token<A>,
    /// A small count of times after a long stretch: seldom.
    seldom: bool,
    /// The token counts down (few, or seldom).
    down: bool,
    /// What a judgement here binds to.
    target: Option<A>,
    /// `current` is named: a judgement of it judges its list too.
    listed: bool,
}

/// A judgement of `topic`, and of every other topic of its list.
fn push<A: Copy + Eq>(
    out: &mut Vec<Statement<A>>,
    topic: Option<A>,
    group: &[A],
    v: i8,
) -> Option<usize> {
    let topic = topic?;
    out.push(Statement {
        topic,
        judged: Judged::Value(v),
    });
    let at = out.len() - 1;
    if group.contains(&topic) {
        for other in group.iter().filter(|g| **g != topic) {
            out.push(Statement {
                topic: *other,
                judged: Judged::Value(v),
            });
        }
    }
    Some(at)
}

/// `topic` said, unless it is already.
fn mention<A: Copy + Eq>(out: &mut Vec<Statement<A>>, topic: A) {
    if !out.iter().any(|s| s.topic == topic) {
        out.push(Statement {
            topic,
            judged: Judged::Mentioned,
        });
    }
}

/// The statements of one clause that neither asks nor does not know.
pub(super) fn judge<A: Copy + Eq>(
    tokens: &[Token<A>],
    chars: &[char],
    first: Option<A>,
    carry: Option<A>,
    demands: &Demands<A>,
) -> Vec<Statement<A>> {
    let mut j = Judge {
        tokens,
        chars,
        first,
        carry,
        demands,
        either_or: chars.starts_with(&['不', '是'])
            && chars.windows(2).skip(2).any(|w| w == ['就', '是']),
        requires: tokens.iter().any(|t| t.has(Word::Requires)),
        out: Vec::new(),
        current: None,
        current_heavy: false,
        heavy_end: None,
        settings: Vec::new(),
        group: Vec::new(),
        topic_end: None,
        pending: Pending::default(),
        last: None,
        period: false,
        demand: None,
        last_value: None,
    };
    for k in 0..tokens.len() {
        j.read(k);
    }
    j.finish()
}

impl<A: Copy + Eq> Judge<'_, A> {
    /// Reads the `k`th token through the phases.
    fn read(&mut self, k: usize) {
        let (tokens, chars) = (self.tokens, self.chars);
        let t = &tokens[k];
        self.period |= t.has(Word::Period);
        if self.requires
            && t.topic.is_some()
            && matches!(t.head(), Some(Word::Positive | Word::Top))
        {
            return;
        }
        // A count of times after a stretch counts only a thing done
        // ("一学期来两三次"), not how often a judgement held ("一学期见不到
        // 几次" is the 见不到).
        let seldom = self.period && t.has(Word::Times) && !t.has(Word::Down) && !t.has(Word::Up);
        let down = t.has(Word::Down) || seldom;
        // A negation reaches over whom it lets or does for ("从来不让我们
        // 给他干私活").
        let causative = self.pending.negator.is_some()
            && chars[self.pending.end.min(t.start)..t.start]
                .iter()
                .any(|c| matches!(c, '让' | '叫' | '给' | '替' | '帮'));
        let reach = REACH
            + if self.pending.quantity.is_some() {
                2
            } else {
                0
            }
            + if causative { 4 } else { 0 };
        if t.start > self.pending.end + reach {
            self.pending = Pending::default();
        }
        if self.intensified_after(t) || self.demanded(k, t) {
            return;
        }
        self.name_topic(k, t);
        if t.topic.is_none() && t.has(Word::Heavy) {
            self.heavy_end = Some(t.end);
        }
        let step = Step {
            k,
            t,
            seldom,
            down,
            target: self.current.or(self.first).or(self.carry),
            listed: self.current.is_some(),
        };
        if t.has(Word::Neutral) && t.words.len() == 1 {
            return;
        }
        if self.modifiers(&step) || self.quantity(&step) {
            return;
        }
        self.head(&step);
    }

    /// What the clause says once every token is read.
    fn finish(mut self) -> Vec<Statement<A>> {
        let (chars, first, carry) = (self.chars, self.first, self.carry);
        // "有的一篇都没有", "补助？根本没有": an absolute 没 that ends the
        // clause says what the clause is about is not there.
        if self.pending.negator == Some(Word::StrongNegator)
            && self.pending.existential
            && chars[self.pending.end..]
                .iter()
                .all(|c| matches!(c, '有' | '的' | '了' | '啊' | '呢'))
            && !self
                .out
                .iter()
                .any(|s| matches!(s.judged, Judged::Value(_)))
        {
            push(&mut self.out, self.current.or(first).or(carry), &[], -2);
        }
        // "劳务费从来不发", "推荐信根本不给": an absolute negation of a short
        // verb that closes the clause after its topic (or the topic it
        // continues: "…劳务费，我们组从来不发") says the topic is not given,
        // as "从来不发劳务费" does.
        let rest = chars.len().saturating_sub(self.pending.end);
        if self.pending.negator == Some(Word::StrongNegator)
            && !self.pending.existential
            && (1..=2).contains(&rest)
            && GIVING.contains(&chars[self.pending.end])
            && self.current.or(self.carry).is_some()
            && !self
                .out
                .iter()
                .any(|s| matches!(s.judged, Judged::Value(_)))
        {
            push(&mut self.out, self.current.or(self.carry), &[], -2);
        }
        // "有的月份有，有的月份没有": some of it is there — said against
        // some of it not being there, the two are mixed.
        let some = chars
            .windows(2)
            .take(5)
            .any(|w| matches!(w, ['有', '的' | '些' | '时']));
        if some
            && chars.last() == Some(&'有')
            && !chars.ends_with(&['没', '有'])
            && self.pending.negator.is_none()
            && !self
                .out
                .iter()
                .any(|s| matches!(s.judged, Judged::Value(_)))
        {
            push(&mut self.out, self.current.or(first).or(carry), &[], 1);
        }
        if !self
            .out
            .iter()
            .any(|s| matches!(s.judged, Judged::Value(_)))
        {
            for a in self.settings {
                mention(&mut self.out, a);
            }
        } else {
            // "老板天天push我们发paper", "推荐的书对我写论文帮助很大": in a
            // clause that judges one topic, another topic named and judged by
            // nothing is what the judgement is about or acts on, not said.
            let judged: Vec<A> = self
                .out
                .iter()
                .filter(|s| matches!(s.judged, Judged::Value(_)))
                .map(|s| s.topic)
                .collect();
            self.out
                .retain(|s| s.judged != Judged::Mentioned || judged.contains(&s.topic));
        }
        self.out
    }
}
