//! Reading a review by aspect: what one message says about each of the
//! four dimensions (and the advisor as a whole), as a score 1–5 — by the
//! labelling guide `server/evals/coach-scores.md`, which the coach's
//! evaluation sets are labelled by.
//!
//! The language is read by `text` (fold, clauses, opinions, numbers) and by
//! the speech acts (whose words each clause is); this module only brings
//! the coach's topics (`coach.txt`: `dim.*`, `good.*`, `bad.*`, `weak.*`,
//! `overall`) and decides, per dimension:
//!
//! - the student's own words win over someone else's ("师兄说很凶，但我觉得
//!   还挺温和的"); someone else's words run on through the sentence until
//!   the student's own voice comes back (`told.rs`), or confirms them
//!   ("我进组后发现确实");
//! - a clause of the student's that rejects what was reported ("师兄说他很凶，
//!   我倒不觉得", "传言克扣补助，纯属谣言") is its negation: 4 for rejected
//!   criticism, 2 for rejected praise;
//! - the present after an earlier state ("以前经费紧张，现在项目多了")
//!   replaces it, as a revision does; an earlier state said after the
//!   present is background;
//! - a revision ("其实经费还行") replaces what came before it; a clause that
//!   does not know or asks ("就业不清楚"; "？" asks with the clause it
//!   ends) leaves the dimension unsaid;
//! - praise and criticism of one dimension in one message are mixed: 3;
//!   otherwise the strongest judgement counts (4 / 5, 2 / 1, 3 middling);
//! - named without a judgement ("补助每月三千"): 3, unsure — the coach asks
//!   with chips instead of guessing;
//! - a number the student gives ("学术5分", "经费给两分") is the score;
//! - praise the student sets in quotation marks ("太关心"), or says they
//!   do not mean ("能按时毕业就有鬼了"), is ironic: criticism;
//! - the advisor's own words the student quotes are someone else's words,
//!   and a question in them asks nothing (`text::opinion::voice`);
//! - a long post's headings ("【经费】", "学术方面：", "缺点：") say what
//!   the clauses under them are about (`layout.rs`);
//! - what the student tells instead of judging ("凌晨一点半老板在群里@我",
//!   "每月800，在上海", "一个月八百") is judged as the situation it is
//!   (`told.rs`), unless the student's own middling verdict on that
//!   dimension sums it up.

use std::sync::Arc;

use super::dimension::{combine, Aspect, Collected, Dimension};
pub use super::dimension::{Said, Score};
use super::edits::{self, Edit};
use super::layout::{Entered, Layout};
use super::lexicon::CoachLexicon;
use super::told;
use super::topics::TopicSets;
use crate::speech_act::{Clause, SpeechActs};
use crate::text::clauses::Link;
use crate::text::opinion::{self, irony, Judged};

/// The coach's reader: its topic sets and the speech acts.
pub struct Reader {
    sets: TopicSets,
    acts: Arc<SpeechActs>,
    edit_words: edits::Words,
}

impl Reader {
    pub fn new(lex: &CoachLexicon, acts: Arc<SpeechActs>) -> Reader {
        Reader {
            sets: TopicSets::new(lex),
            acts,
            edit_words: edits::Words::new(lex),
        }
    }

    /// A reader with its own lexicon and speech acts (the evaluations and
    /// tests; the coach builds one from its own).
    pub fn load() -> Reader {
        Reader::new(&CoachLexicon::load(), Arc::new(SpeechActs::load()))
    }

    /// The dimensions `text` (folded) names.
    pub fn dimensions(&self, text: &str) -> Vec<Dimension> {
        let chars: Vec<char> = text.chars().collect();
        self.sets.dims.named(&chars)
    }

    /// The score edits in `message` (see `edits.rs`); `asked` is the
    /// dimension a bare "3分" answers.
    pub fn edits(&self, message: &str, asked: Option<Dimension>) -> Vec<Edit> {
        edits::parse(
            &self.sets.edited,
            &self.sets.names,
            &self.edit_words,
            message,
            asked,
        )
    }

    /// Whether `message` tries to change a score (a number, 改, 高一点 …).
    pub fn looks_like_edit(&self, message: &str) -> bool {
        edits::looks_like_edit(message)
    }

    /// What `message` says about each dimension.
    pub fn read(&self, message: &str) -> Said {
        self.read_after(message, None)
    }

    /// What `message` says, after a message that ended on `before`: a
    /// judgement in its first sentence with no topic of its own, and none
    /// in the clause after it, continues that dimension ("记错了，是三千五，
    /// 挺多的" after the funding).
    pub fn read_after(&self, message: &str, before: Option<Dimension>) -> Said {
        // "说“能中就不错了，还想报销？”": the advisor's question is his.
        let heard = opinion::voice::advisor_questions_stated(message);
        let reading = self.acts.read_at_connectives(&heard);
        let mut per: Vec<(Aspect, Collected)> = Vec::new();
        let slot = |per: &mut Vec<(Aspect, Collected)>, a: Aspect| -> usize {
            match per.iter().position(|(x, _)| *x == a) {
                Some(i) => i,
                None => {
                    per.push((a, Collected::default()));
                    per.len() - 1
                }
            }
        };
        let mut carry: Option<Aspect> = None;
        // The topic the last clause read judged.
        let mut valued: Option<Aspect> = None;
        let mut rejects_before = None;
        // The heading just read, when it is one word of a topic.
        let mut headword: Option<Vec<char>> = None;
        let mut layout = Layout::new(message);
        let (ironic, sarcastic) = (irony::quoted(message), irony::sarcastic(message));
        // The heading each sentence's clauses were read under.
        let mut headed: Vec<(usize, Option<Dimension>)> = Vec::new();
        let mut sentence = 0;
        let mut introduced = false;
        // "后来发现只是说话直，人挺好的": a revision whose own clause judges
        // nothing revises the next clause that does.
        let mut revision_pending = false;
        // The words the student's own judgements named their topics by.
        let mut judged_by: Vec<(Aspect, String)> = Vec::new();
        // "以前经费紧张，现在项目多了": an earlier state was spoken of; a
        // clause about now replaces it.
        let mut then_seen = false;
        let mut now_seen = false;
        // The topics the last run of someone else's clauses judged: what a
        // clause of the student's that rejects them ("我倒不觉得") negates.
        let mut reported_topics: Vec<Aspect> = Vec::new();
        // What the last clause of someone else's judged: what a clause of
        // the student's that confirms it ("确实") takes as their own.
        let mut last_said: Vec<(Aspect, i8)> = Vec::new();
        let mut last_reported = false;
        // The sentence and topics of the clause before, when it only
        // listed topics.
        let mut listed: Option<(usize, Vec<Aspect>)> = None;
        // Someone else's words run on through the sentence (`told.rs`).
        let mut clauses = reading.clauses().to_vec();
        super::layout::judged_items(&self.sets.topics, &mut clauses);
        told::hearsay_runs_on(&self.sets.topics, &mut clauses);
        told::present_relayed(&mut clauses);
        for (n, clause) in clauses.iter().enumerate() {
            let after_then = then_seen;
            then_seen |= clause.then;
            // "这两年经费宽裕了，以前很拮据": an earlier state said after the
            // present is background, not a judgement.
            let before_now = clause.then && now_seen;
            now_seen |= clause.now;
            if clause.reported && !last_reported {
                reported_topics.clear();
            }
            // The clause before was someone else's.
            let last_reported_just = last_reported;
            last_reported = clause.reported;
            // A judgement with no topic continues its own sentence only
            // ("补助每月四千。不好的地方：老师太忙了" is not the funding),
            // unless that sentence only named the topic ("补助？不存在的"), or
            // was someone else's that the student answers ("…特别凶。但我觉得还好").
            let answers = last_reported_just && !clause.reported && clause.link == Link::Contrast;
            if clause.sentence != sentence {
                sentence = clause.sentence;
                if !std::mem::take(&mut introduced) && !answers {
                    carry = None;
                }
            }
            // "除了经费少，其他都挺好": the rest is not the topic before.
            if clause.about_the_rest && self.sets.topics.named(&clause.chars).is_empty() {
                carry = None;
            }
            // "【经费】…", "缺点：…": the post's own headings (`Layout`).
            match layout.enter(
                &self.sets.heads,
                clause,
                clauses.get(n + 1),
                opinion::read(&self.sets.topics, &clause.chars, None, false)
                    .iter()
                    .any(|s| matches!(s.judged, Judged::Value(_))),
            ) {
                Entered::Heading => {
                    carry = layout.topic().map(Aspect::Dim);
                    // "压力：很大": a heading that is one word of a topic
                    // is read with the clause right after it, as if said
                    // in one ("压力很大" is criticism, "很大" alone praise).
                    headword = (layout.topic().is_some()
                        && !self.sets.heads.named(&clause.chars).is_empty()
                        && clause.chars.len() <= 4)
                        .then(|| clause.chars.clone());
                    continue;
                }
                Entered::Within => carry = carry.or(layout.topic().map(Aspect::Dim)),
                Entered::Outside => {}
            }
            // "补助？" before more of the message: the topic it goes on to
            // judge, not a question.
            let intro = clause.question_mark
                && n + 1 < clauses.len()
                && clause.chars.len() <= 6
                && !self.sets.topics.named(&clause.chars).is_empty();
            introduced |= intro;
            // "？" asks with the clause it ends ("补助很少 毕业？看他心情"; one
            // before it asks in its own words), unless rhetorical ("为啥…
            // 我们组从来不发？？": it says what it asks).
            let sentence_of = |c: &&Clause| c.sentence == clause.sentence;
            let asks = clause.question_mark
                && !intro
                && !clauses.get(n + 1).is_some_and(|c| sentence_of(&c))
                && !clauses
                    .iter()
                    .filter(sentence_of)
                    .any(|c| irony::rhetorical(&c.chars));
            // "师兄说他很凶，我倒不觉得", "传言克扣补助，纯属谣言": the student
            // rejects what was reported — their own word is its negation
            // (rejected criticism is praise, rejected praise criticism).
            // "学长说他不给推荐信，其实他给每个人都写了": a correction that
            // names nothing and judges nothing rejects what was reported too.
            let unjudged = || {
                opinion::read(&self.sets.topics, &clause.chars, carry, asks)
                    .iter()
                    .all(|s| s.judged == Judged::Mentioned)
            };
            // "师姐说他让学生干杂活，我进组两个月了，他一次都没让我干过":
            // what was reported never happened to the student.
            // "师兄说老板给钱大方…这也叫大方？": words that mean the opposite
            // of what they say, of what was reported, reject it too.
            if (clause.refutes
                || (clause.link == Link::Revision && last_reported_just && unjudged())
                || (clause.never && unjudged())
                || opinion::irony::says_opposite(&clause.chars))
                && !clause.reported
                && !reported_topics.is_empty()
                && self.sets.topics.named(&clause.chars).is_empty()
            {
                for a in &reported_topics {
                    let i = slot(&mut per, *a);
                    let c = &mut per[i].1;
                    let v = combine(&c.reported);
                    if c.own.is_empty() && v != 0 {
                        c.own.push(-v.signum());
                    }
                    carry = Some(*a);
                }
                continue;
            }
            // "我倒不觉得" opening a message after one that ended on a
            // dimension: the student rejects what was said there.
            if n == 0
                && reported_topics.is_empty()
                && (clause.refutes || opinion::irony::says_opposite(&clause.chars))
                && !clause.reported
                && self.sets.topics.named(&clause.chars).is_empty()
            {
                if let Some(d) = before {
                    rejects_before = Some(d);
                    carry = Some(Aspect::Dim(d));
                    continue;
                }
            }
            // "听说老师经费很多，是真的吗？": the student asks whether the
            // report is true; it is left unsaid ("不知道真的假的" lets it
            // stand).
            if opinion::voice::doubts(&clause.chars)
                && !clause.reported
                && !reported_topics.is_empty()
                && self.sets.topics.named(&clause.chars).is_empty()
            {
                for a in std::mem::take(&mut reported_topics) {
                    let i = slot(&mut per, a);
                    let c = &mut per[i].1;
                    c.reported.clear();
                    c.unknown = c.own.is_empty();
                }
                last_said.clear();
                continue;
            }
            // "有人说他人很抠，我进组后发现确实": the student confirms what
            // was reported last (the whole run of it); it is their own word
            // now.
            if opinion::voice::confirms(&clause.chars)
                && !clause.reported
                && !asks
                && self.sets.topics.named(&clause.chars).is_empty()
                && opinion::read(&self.sets.topics, &clause.chars, carry, asks)
                    .iter()
                    .all(|s| s.judged == Judged::Mentioned)
            {
                for (a, v) in std::mem::take(&mut last_said) {
                    let i = slot(&mut per, a);
                    per[i].1.own.push(v);
                    carry = Some(a);
                }
            }
            // A run of someone else's clauses is confirmed as a whole
            // ("有人说他压榨学生，周末也要来实验室。…确实是这样"), from its
            // last turn ("经费多但是人很抠，…确实": the stinginess).
            if clause.reported && (!last_reported_just || clause.link == Link::Contrast) {
                last_said.clear();
            }
            // "就业的话，整体还不错": 整体 sums up a topic not yet judged;
            // after "项目很少，" it is the advisor's whole.
            let whole = (valued != carry)
                .then(|| {
                    super::layout::whole_of_topic(
                        &self.sets.of_topic,
                        &self.sets.topics,
                        &clause.chars,
                        carry,
                    )
                })
                .flatten();
            let after_heading: Option<Vec<char>> = std::mem::take(&mut headword)
                .filter(|_| self.sets.topics.named(&clause.chars).is_empty())
                .map(|h| h.iter().chain(clause.chars.iter()).copied().collect());
            let mut statements = opinion::read(
                &self.sets.topics,
                after_heading
                    .as_deref()
                    .or(whole.as_deref())
                    .unwrap_or(&clause.chars),
                carry,
                asks,
            );
            valued = statements
                .iter()
                .find(|s| matches!(s.judged, Judged::Value(_)))
                .map(|s| s.topic);
            // "导师十分负责，每篇论文都亲自改": a judgement with no topic at
            // the start of its sentence judges what the next clause names.
            if statements.is_empty() && carry.is_none() && clause.link == Link::None {
                let ahead = clauses
                    .get(n + 1)
                    .filter(|x| {
                        x.sentence == clause.sentence
                            && x.link == Link::None
                            && x.reported == clause.reported
                            && !x.about_someone_else
                    })
                    .and_then(|x| self.sets.topics.named(&x.chars).first().copied());
                if ahead.is_some() {
                    statements = opinion::read(&self.sets.topics, &clause.chars, ahead, asks);
                }
            }
            // "经费和去向，我不太了解", "学术和人品，都没得说": a clause that
            // only lists topics hands the next clause's judgement, in its
            // sentence, to every one of them, not to the last alone.
            if let Some((_, topics)) = listed.take().filter(|(s, _)| *s == clause.sentence) {
                if self.sets.topics.named(&clause.chars).is_empty()
                    && !statements.is_empty()
                    && statements.iter().all(|s| Some(s.topic) == carry)
                {
                    for &t in &topics[..topics.len() - 1] {
                        statements.extend(opinion::read(
                            &self.sets.topics,
                            &clause.chars,
                            Some(t),
                            asks,
                        ));
                    }
                }
            }
            if statements.len() >= 2 && statements.iter().all(|s| s.judged == Judged::Mentioned) {
                listed = Some((
                    clause.sentence,
                    statements.iter().map(|s| s.topic).collect(),
                ));
            }
            if statements.is_empty() && carry.is_none() && clause.sentence == 0 {
                // Only a judgement continues it: "那个分数帮我改一下" or
                // "帮我看看排名" names nothing of the review.
                if let Some(d) = before {
                    statements =
                        opinion::read(&self.sets.topics, &clause.chars, Some(Aspect::Dim(d)), asks)
                            .into_iter()
                            .filter(|s| matches!(s.judged, Judged::Value(_)))
                            .collect();
                }
            }
            if statements.is_empty() && self.sets.topics.named(&clause.chars).is_empty() {
                statements.extend(told::pay(&clause.chars, carry, layout.topic()));
            }
            layout.apply(&self.sets.names, &clause.chars, &mut statements);
            headed.push((clause.sentence, layout.topic()));
            // 真是"太关心"我们了: quoted praise is meant the other way.
            // "能按时毕业就有鬼了": so is praise the clause says it does not mean.
            let own: String = clause.chars.iter().collect();
            if ironic.contains(&own)
                || sarcastic.iter().any(|s| s.contains(&own))
                || opinion::irony::says_opposite(&clause.chars)
            {
                // Praise so turned is criticism, not its strongest: "太关心"
                // meant the other way is a 2, as a plain complaint is.
                for s in statements.iter_mut() {
                    if let Judged::Value(v) = s.judged {
                        s.judged = Judged::Value(if v > 0 { -1 } else { v });
                    }
                }
            }
            if before_now {
                for s in statements.iter_mut() {
                    if let Judged::Value(_) = s.judged {
                        s.judged = Judged::Mentioned;
                    }
                }
            }
            // "要是经费再多点就好了": what is wished for is lacking.
            if clause.wishes {
                for s in statements.iter_mut() {
                    if let Judged::Value(_) = s.judged {
                        s.judged = Judged::Value(-1);
                    }
                }
            }
            // "不是不指导，是每周都讨论", "本来以为…": the denied or expected
            // clause names the topic the next one judges; another advisor's
            // clause judges no one here.
            if clause.denied || clause.about_someone_else || clause.expected {
                // "补助我记错了，其实每月有四千": what is taken back is named
                // again, to be said anew.
                if clause.denied {
                    for s in &statements {
                        let i = slot(&mut per, s.topic);
                        per[i].1.mentioned = true;
                    }
                    // "啊说错了，…": a retraction alone revises what follows.
                    revision_pending |= statements.is_empty();
                }
                carry = statements.last().map(|s| s.topic).or(carry);
                continue;
            }
            // "这样挺好的", "这样也挺自由的": a judgement of the statement
            // before, whatever its own words name; it replaces that
            // statement, as a revision does.
            // "科研上基本放羊，不过我觉得挺好的": the writer's view with no
            // topic of its own does too.
            let view_back = clause.gives_view
                && clause.link == Link::Contrast
                && self.sets.topics.named(&clause.chars).is_empty();
            let back = carry.filter(|_| clause.refers_back || view_back);
            if let Some(topic) = back {
                statements = statements
                    .into_iter()
                    .filter(|s| matches!(s.judged, Judged::Value(_)))
                    .map(|s| opinion::Statement {
                        topic,
                        judged: s.judged,
                    })
                    .collect();
            }
            let judges = statements
                .iter()
                .any(|s| !matches!(s.judged, Judged::Unknown | Judged::NotYet));
            // "老师放养，说实话我觉得放养挺好的": the writer's view of the
            // topic just judged replaces that judgement.
            let view_again = clause.gives_view
                && carry.is_some()
                && statements
                    .iter()
                    .any(|s| matches!(s.judged, Judged::Value(_)))
                && statements.iter().all(|s| Some(s.topic) == carry);
            let revises = clause.link == Link::Revision
                || back.is_some()
                || revision_pending
                || view_again
                || (clause.now && after_then);
            // "指导极其认真……这点让我进步很大": a clause pointing back that
            // agrees with the judgement before it adds to it (the strongest
            // counts); only one that turns it replaces it.
            let only_back =
                back.is_some() && clause.link != Link::Revision && !revision_pending && !view_again;
            revision_pending = revises && !judges;
            let mut revised: Vec<Aspect> = Vec::new();
            // The words this clause names each topic by, read when a
            // judgement or a not knowing needs them.
            let named_here = std::cell::OnceCell::new();
            let words_here = |a: Aspect| -> Vec<String> {
                named_here
                    .get_or_init(|| self.sets.topics.spans(&clause.chars))
                    .iter()
                    .filter(|(_, _, x)| *x == a)
                    .map(|(s, e, _)| clause.chars[*s..*e].iter().collect())
                    .collect()
            };
            for s in &statements {
                let i = slot(&mut per, s.topic);
                let c = &mut per[i].1;
                let agrees = match s.judged {
                    Judged::Value(v) => {
                        v != 0
                            && !c.own.is_empty()
                            && c.own.iter().all(|x| x.signum() == v.signum())
                    }
                    _ => false,
                };
                // A revision replaces what this message said before it.
                if revises && !revised.contains(&s.topic) && !(only_back && agrees) {
                    revised.push(s.topic);
                    if !clause.reported {
                        c.own.clear();
                    }
                    c.reported.clear();
                }
                match s.judged {
                    Judged::Value(v) => {
                        c.mentioned = true;
                        c.unknown = false;
                        if clause.reported {
                            if !reported_topics.contains(&s.topic) {
                                reported_topics.push(s.topic);
                            }
                            c.reported.push(v);
                            last_said.push((s.topic, v));
                        } else {
                            c.own.push(v);
                            judged_by.extend(words_here(s.topic).into_iter().map(|w| (s.topic, w)));
                        }
                    }
                    Judged::Mentioned => {
                        c.mentioned = true;
                        c.own_mention |= !clause.reported;
                    }
                    // "听说补助特别少，我刚来还不清楚": the student not knowing
                    // takes back their own words, not someone else's.
                    // "按时毕业应该没问题，去向的话不清楚": not knowing one
                    // thing of a dimension, named by other words than those
                    // it was judged by, takes back nothing.
                    Judged::Unknown
                        if self.sets.unknown_is_a_part(
                            s.topic,
                            &words_here(s.topic),
                            &judged_by,
                        ) => {}
                    Judged::Unknown => {
                        c.own.clear();
                        if clause.reported || c.reported.is_empty() {
                            c.reported.clear();
                            c.unknown = true;
                        }
                    }
                    Judged::NotYet => {
                        c.unknown |= c.own.is_empty() && c.reported.is_empty();
                    }
                }
                carry = Some(s.topic);
            }
        }
        // Little money by the sum (`told::little_money`).
        if let Some(alone) = told::little_money(&clauses, &self.sets.costly) {
            let i = slot(&mut per, Aspect::Dim(Dimension::Funding));
            let c = &mut per[i].1;
            if c.own.is_empty() || alone {
                c.own.push(-1);
            }
        }
        // "凌晨一点半 老板在群里@我": what the student tells, sentence by
        // sentence, instead of judging (`text::opinion::situations`); told
        // in someone else's words, it is theirs. The student's own middling
        // verdict sums it up: "觉得还行，周末基本不用来" is 还行.
        let judged: Vec<Aspect> = per
            .iter()
            .filter(|(_, c)| c.own.contains(&0))
            .map(|(a, _)| *a)
            .collect();
        for (d, v, reported) in told::situations(&clauses, &headed) {
            if reported || !judged.contains(&Aspect::Dim(d)) {
                let i = slot(&mut per, Aspect::Dim(d));
                per[i].1.told(v, reported);
            }
        }
        let mut said = Said::of(
            per,
            carry,
            clauses.iter().any(|c| c.link == Link::Revision || c.denied),
        );
        said.rejects_before = rejects_before;
        // "再想想还是1分吧" after the relationship: a bare score continues it.
        // "都改成3分吧，不过我也不太确定": a number for all four sets each
        // of them, and a hedge after it doubts the numbers, not a topic.
        said.give_numbers(edits::numbers(&self.edits(message, before)));
        said
    }
}

#[cfg(test)]
#[path = "reader_tests.rs"]
mod tests;
