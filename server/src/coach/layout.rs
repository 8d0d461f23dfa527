//! How a long post is laid out: its headings, and what they govern.
//!
//! A graduate writing an "objective" forum post sorts it under headings
//! ("【学术】…【经费】…", "1. 学术水平：… 2. 科研经费：…", "优点：…
//! 缺点：…"). Without them in view, a judgement lands on whatever its own
//! words name ("【学术】博士毕业至少有一篇顶刊": 毕业 is the prospects), and a
//! bare fact under "缺点：" is only a fact. The headings are the writer's
//! own statement of what each part is about, so they decide:
//!
//! - under a dimension's heading, what the clauses judge is that dimension,
//!   until the next heading (a boxed one, "【经费】", or a list's), or the
//!   end of its sentence ("学术方面，…。"), or a clause that judges another
//!   dimension by that dimension's own name;
//! - under a heading of praise or criticism ("优点：", "缺点："), up to the
//!   next heading (it usually heads a list), a fact that needs a norm is
//!   praise or criticism by the heading;
//! - a heading of neither ("其他：", "总结：") ends the one before;
//! - a digression ("跑个题，…") says nothing of the advisor, up to the way
//!   back ("回到正题") or the end of its sentence;
//! - a list joined by 、 is one clause when its items are topics judged
//!   together ("经费、毕业这些我都不了解"), and a clause per item when each
//!   item judges on its own ("学术强、钱多、人nice": `judged_items`).
//!
//! What a heading is (the words, the markers) is read by
//! `text::opinion::sections`.

use super::dimension::{Aspect, Dimension};
use crate::speech_act::Clause;
use crate::text::clauses::Link;
use crate::text::opinion::sections::{self, Heading};
use crate::text::opinion::{Judged, Statement, Topics};
use crate::text::utterance::WordList;

/// "就业的话，整体还不错", "去向：…，整体还可以": a clause that starts with
/// a word of the whole (`overall.of_topic`, folded) and names nothing else,
/// when a dimension was named before it in its sentence or section, sums up
/// that dimension, not the advisor: the clause without the word, to be read
/// under it.
pub(crate) fn whole_of_topic(
    words: &WordList,
    topics: &Topics<Aspect>,
    chars: &[char],
    carry: Option<Aspect>,
) -> Option<Vec<char>> {
    if !matches!(carry, Some(Aspect::Dim(_))) || topics.named(chars) != [Aspect::Overall] {
        return None;
    }
    let len = words.prefix_at(chars, 0)?;
    Some(chars[len..].to_vec())
}

/// The heading the reader is under.
#[derive(Debug, Default)]
pub struct Layout {
    topic: Option<Dimension>,
    tone: Option<i8>,
    /// The headings the post sets in brackets (`sections::boxed`).
    boxed: Vec<String>,
    /// The sentence the heading governs, unless it is boxed or a list's.
    only: Option<usize>,
    /// The clause before was a list marker ("1.").
    listed: bool,
    /// The sentence a digression ("跑个题") opened in, until the way back.
    aside: Option<usize>,
}

/// What a clause is to the layout.
#[derive(Debug, PartialEq, Eq)]
pub enum Entered {
    /// A heading, or a list marker alone: it says nothing itself.
    Heading,
    /// A clause under a dimension's heading.
    Within,
    /// A clause under no dimension's heading.
    Outside,
}

impl Layout {
    pub fn new(message: &str) -> Layout {
        Layout {
            boxed: sections::boxed(message),
            ..Layout::default()
        }
    }

    /// Reads one clause; `next` is the one after it; `judges`: the clause
    /// judges something. A heading is followed by what it heads, not by a
    /// turn ("组会就是走个过场" is no heading of 组会), and judges nothing
    /// itself ("人好，钱多" and "但是放养" are statements).
    pub fn enter(
        &mut self,
        headings: &Topics<Dimension>,
        clause: &Clause,
        next: Option<&Clause>,
        judges: bool,
    ) -> Entered {
        let chars = &clause.chars;
        let listed = std::mem::take(&mut self.listed);
        // "跑个题，食堂太难吃了。嗯，回到正题，…": the digression says
        // nothing of the advisor.
        match sections::digression(chars) {
            (_, true) => {
                self.aside = None;
                return Entered::Heading;
            }
            (true, _) => {
                self.aside = Some(clause.sentence);
                return Entered::Heading;
            }
            _ if self.aside == Some(clause.sentence) => return Entered::Heading,
            _ => self.aside = None,
        }
        if sections::only_marker(chars) {
            self.listed = true;
            return Entered::Heading;
        }
        if self.only.is_some_and(|s| s != clause.sentence) {
            self.topic = None;
            self.tone = None;
            self.only = None;
        }
        // "缺点是组里经费很紧张": a tone said inline governs what follows.
        if let Some(t) = sections::tone_at_start(chars) {
            self.topic = None;
            self.tone = Some(t);
            self.only = Some(clause.sentence);
        }
        let heads = next.is_some_and(|x| x.link == Link::None && x.sentence >= clause.sentence)
            && clause.link == Link::None
            && !clause.question_mark
            && !judges;
        match sections::heading(headings, chars).filter(|_| heads) {
            Some(Heading::Topic(d)) => {
                self.topic = Some(d);
                self.tone = None;
                let text: String = chars.iter().collect();
                let spans = listed || self.boxed.contains(&text);
                self.only = (!spans).then_some(clause.sentence);
                Entered::Heading
            }
            Some(Heading::Tone(t)) => {
                self.topic = None;
                self.tone = Some(t);
                // "优点：\n- …\n- …": a heading of tone heads a list.
                self.only = None;
                Entered::Heading
            }
            Some(Heading::Other) => {
                self.topic = None;
                self.tone = None;
                Entered::Heading
            }
            None if self.topic.is_some() => Entered::Within,
            None => Entered::Outside,
        }
    }

    /// The dimension the clauses are under.
    pub fn topic(&self) -> Option<Dimension> {
        self.topic
    }

    /// What a clause's statements (of `chars`) are under the heading: its
    /// dimension's, but for a judgement of another dimension the clause
    /// calls by its own name ("毕业嘛 中规中矩 …老板学术倒是不错"), or a
    /// word that it is not known ("【前途】… 经费我不太了解"), which ends an
    /// unboxed heading's part.
    pub fn apply(
        &mut self,
        names: &Topics<Dimension>,
        chars: &[char],
        statements: &mut [Statement<Aspect>],
    ) {
        if let Some(d) = self.topic {
            let named = names.named(chars);
            let leaves = |s: &Statement<Aspect>| match s.topic {
                Aspect::Dim(x) => x != d && named.contains(&x) && s.judged != Judged::Mentioned,
                Aspect::Overall => true,
            };
            if statements.iter().any(leaves) {
                if self.only.is_some() {
                    self.topic = None;
                    self.only = None;
                }
            } else {
                for s in statements.iter_mut() {
                    if let Aspect::Dim(_) = s.topic {
                        s.topic = Aspect::Dim(d);
                    }
                }
            }
        }
        // A fact that needs a norm, in a clause that judges nothing.
        if let Some(t) = self.tone {
            if statements.iter().all(|s| s.judged == Judged::Mentioned) {
                for s in statements.iter_mut() {
                    s.judged = Judged::Value(t);
                }
            }
        }
    }
}

/// "学术强、钱多、人nice、毕业去向好": a clause whose 、-joined items each
/// judge something on their own is read an item at a time, so that every
/// item's judgement lands on its own topic. A list of bare
/// topics with one judgement for all ("经费、脾气都一般") stays one clause.
pub fn judged_items(topics: &Topics<Aspect>, clauses: &mut Vec<Clause>) {
    let mut out: Vec<Clause> = Vec::with_capacity(clauses.len());
    for clause in clauses.drain(..) {
        let items: Vec<&[char]> = clause.chars.split(|&c| c == '、').collect();
        let judges_itself = |item: &[char]| {
            crate::text::opinion::read(topics, item, None, false)
                .iter()
                .any(|s| matches!(s.judged, Judged::Value(_)))
        };
        if items.len() < 2 || !items.iter().all(|item| judges_itself(item)) {
            out.push(clause);
            continue;
        }
        for (n, item) in items.iter().enumerate() {
            let mut one = clause.clone();
            one.chars = item.to_vec();
            if n > 0 {
                one.link = Link::None;
            }
            out.push(one);
        }
    }
    *clauses = out;
}
