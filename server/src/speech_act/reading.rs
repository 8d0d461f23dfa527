//! Whose words each clause of a message is. A clause that starts with
//! someone else saying, thinking or wanting, or that holds hearsay, reports;
//! it does not instruct. Here because who speaks is decided before, and apart
//! from, what the words do to an action (`action`) or whether they answer a
//! question (`answer`); the review coach also reads a review through it.
//!
//! The rules, over the word lists of `server/lexicons/speech_acts.txt`:
//!
//! - The message is folded (`text::fold`, spaces dropped) and cut into
//!   clauses (`text::clauses`); a clause knows whether its sentence ends in
//!   "？".
//! - A clause that starts with someone else (朋友 / 同学 / 他 …, after
//!   "我有个" and the like) followed by a verb of saying, thinking or
//!   wanting, or that contains hearsay (听说), is theirs: it reports, it does
//!   not instruct. A clause ending right at such a verb ("朋友说：") hands
//!   the next clause to them too.
//! - Hesitation anywhere in the student's words ("我再想想", "等一下") is
//!   noted on the whole reading: it holds every action.

use super::SpeechActs;
use crate::text::clauses::{self, Link};
use crate::text::fold::compact as fold;

/// One clause of a message (cut by `text::clauses`) and whose words it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    pub chars: Vec<char>,
    pub sentence: usize,
    /// Its sentence ends in "？".
    pub question_mark: bool,
    /// Someone else's words.
    pub reported: bool,
    /// How it relates to the clause before (但是, 其实 …).
    pub link: Link,
    /// It judges the statement before it ("这样挺好的").
    pub refers_back: bool,
    /// It opens with the writer's view ("我觉得…"): with no topic of its
    /// own, it judges the statement before it too.
    pub gives_view: bool,
    /// The next clause says what is true instead ("不是不指导，是…"), or it
    /// takes itself back ("脾气差是我记错了").
    pub denied: bool,
    /// It speaks of another advisor or group ("不管学生的是另一个老师").
    pub about_someone_else: bool,
    /// It says what the writer expected, not what is so ("本来以为…").
    pub expected: bool,
    /// It judges the rest, apart from what came before ("其他都挺好").
    pub about_the_rest: bool,
    /// It wishes for what is lacking ("要是经费再多点就好了").
    pub wishes: bool,
    /// It speaks of an earlier state ("以前经费紧张").
    pub then: bool,
    /// It speaks of the present ("现在项目多了").
    pub now: bool,
    /// It rejects what someone else was reported to say ("我倒不觉得").
    pub refutes: bool,
    /// It tells that something never happened ("他一次都没让我干过").
    pub never: bool,
    /// Someone else tells the writer to do something ("我爸让我看管理科学与
    /// 工程"): reported, yet what the student came to ask about.
    pub directs_the_writer: bool,
}

/// A message cut into clauses, each with its owner.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    pub(super) clauses: Vec<Clause>,
    pub(super) hesitates: bool,
}

impl Reading {
    /// The student's own words, someone else's clauses left out (joined by
    /// "，"): what the form is filled from.
    pub fn own_text(&self) -> String {
        self.join(|c| !c.reported)
    }

    /// Someone else's words, the student's own left out.
    pub fn reported_text(&self) -> String {
        self.join(|c| c.reported)
    }

    /// The student's own words and what someone else told them to do
    /// ("我爸说的北方交大，他让我看管理科学与工程"): what the student asks
    /// about, for the form.
    pub fn wished_text(&self) -> String {
        self.join(|c| !c.reported || c.directs_the_writer)
    }

    /// The clauses, in order.
    pub fn clauses(&self) -> &[Clause] {
        &self.clauses
    }

    /// Whether any clause is someone else's.
    pub fn has_reported(&self) -> bool {
        self.clauses.iter().any(|c| c.reported)
    }

    /// The clauses `keep` keeps, joined by "，".
    fn join(&self, keep: impl Fn(&Clause) -> bool) -> String {
        self.clauses
            .iter()
            .filter(|c| keep(c))
            .map(|c| c.chars.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("，")
    }
}

impl SpeechActs {
    /// Cuts `message` into clauses at punctuation and tells whose each is.
    pub fn read(&self, message: &str) -> Reading {
        self.owners(clauses::split(&fold(message)))
    }

    /// Like [`SpeechActs::read`], also cut where a contrast or a revision
    /// starts without punctuation ("学术很强但是经费少"): how a review is read.
    /// Spaces are the clause cutter's to read here: typed speech pauses with
    /// them, and English words keep theirs ("research level很高").
    pub fn read_at_connectives(&self, message: &str) -> Reading {
        self.owners(clauses::split_at_connectives(&crate::text::fold::fold(
            message,
        )))
    }

    fn owners(&self, cut: Vec<clauses::Clause>) -> Reading {
        let someone_else = clauses::about_someone_else(&cut);
        let mut clauses: Vec<Clause> = cut
            .iter()
            .enumerate()
            .map(|(i, c)| Clause {
                chars: c.text.chars().collect(),
                sentence: c.sentence,
                question_mark: c.question_mark,
                reported: false,
                link: c.link,
                refers_back: c.refers_back(),
                gives_view: c.gives_view(),
                denied: c.retracts() || cut.get(i + 1).is_some_and(|next| c.denied_by(next)),
                about_someone_else: someone_else[i],
                expected: c.expected(),
                about_the_rest: c.about_the_rest(),
                wishes: c.wishes(),
                then: c.then(),
                now: c.now(),
                refutes: c.refutes(),
                never: c.never(),
                directs_the_writer: false,
            })
            .collect();
        // Whose words: a reporter at the start hands the clause over, and a
        // clause that ends at the reporting verb hands over the next one.
        let mut hand_over = false;
        for cl in clauses.iter_mut() {
            let after_connectives = self.skip_connectives(&cl.chars);
            let verb = self.reporter_at_start(&cl.chars, after_connectives);
            let reported = verb.is_some();
            let ends_at_verb = verb.is_some_and(|v| v.ends_clause);
            let hearsay = self.hearsay.within_unless_after(&cl.chars, &self.listener);
            // "面试的时候听别的考生说…": heard, after when.
            let heard = heard_from(&cl.chars[after_connectives..]);
            cl.reported = reported || hand_over || hearsay || heard;
            cl.directs_the_writer = !hearsay && verb.is_some_and(|v| v.directs);
            hand_over = reported && ends_at_verb;
        }
        let hesitates = clauses
            .iter()
            .any(|c| !c.reported && self.hesitation.within(&c.chars));
        Reading { clauses, hesitates }
    }

    /// The verb, when `clause` starts (at `p`, past its connectives) with
    /// someone else saying, thinking or wanting something.
    fn reporter_at_start(&self, clause: &[char], p: usize) -> Option<ReportVerb> {
        // "我有个朋友", "我妈妈": the lead is optional, the reporter is not.
        let starts = |q: usize| self.reporter.prefix(&clause[q..]);
        let at = match starts(p) {
            Some(len) => Some(p + len),
            None => self
                .reporter_lead
                .prefix(&clause[p..])
                .and_then(|lead| starts(p + lead).map(|len| p + lead + len)),
        };
        let mut q = at?;
        // "学长想咨询一下…": a title opening the clause, with no 我 before
        // it, and words said to them: whom the student speaks to.
        if let Some(len) = self.addressee.prefix(&clause[p..]) {
            if self.address.prefix(&clause[p + len..]).is_some() {
                return None;
            }
        }
        // Adverbs and objects between the person and the verb ("也", "跟我").
        for _ in 0..3 {
            if self.report_verb.prefix(&clause[q..]).is_some() {
                break;
            }
            match self.gap.prefix(&clause[q..]) {
                Some(len) => q += len,
                None => break,
            }
        }
        // "他报销特别拖", "他要求太多": a word that opens with a verb of
        // saying or wanting is the person's doing, not their words.
        if self.not_report_verb.prefix(&clause[q..]).is_some() {
            return None;
        }
        let len = self.report_verb.prefix(&clause[q..])?;
        // "让我…", or said as words ("他说让我…").
        let directs_at = |at: usize| {
            self.directive.prefix(&clause[at..]).is_some()
                && self.not_directive.prefix(&clause[at..]).is_none()
        };
        Some(ReportVerb {
            ends_clause: q + len == clause.len(),
            directs: directs_at(q) || directs_at(q + len),
        })
    }

    /// Where `clause` starts past its opening connectives ("但是", "面试的时候").
    fn skip_connectives(&self, clause: &[char]) -> usize {
        let mut p = 0;
        while let Some(len) = self.connective.prefix(&clause[p..]) {
            p += len;
        }
        p
    }
}

/// The verb that hands a clause to someone else.
#[derive(Clone, Copy)]
struct ReportVerb {
    /// The clause ends right at it ("朋友说："): the next clause is theirs too.
    ends_clause: bool,
    /// It tells the writer to do something ("让我", "叫我", `directive`).
    directs: bool,
}

/// "听其他组的人说…", "据师姐说…", "听学长讲": heard from someone, whoever
/// they are — the clause opens with 听 or 据 (after 我) and 说 or 讲 follows
/// within a few characters.
fn heard_from(clause: &[char]) -> bool {
    let from = match clause {
        ['我', '听', ..] => 2,
        ['听', ..] | ['据', ..] => 1,
        _ => return false,
    };
    clause
        .iter()
        .skip(from)
        .take(9)
        .position(|c| matches!(c, '说' | '讲'))
        .is_some_and(|at| at > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reported_clauses_are_told_apart() {
        let lex = SpeechActs::load();
        let r = lex.read("我朋友想考清华大学，我想考北京大学计算机");
        assert!(r.has_reported());
        assert_eq!(r.own_text(), "我想考北京大学计算机");
        assert_eq!(r.reported_text(), "我朋友想考清华大学");
        let r = lex.read("我跟朋友说我想考清华");
        assert!(!r.has_reported(), "the student speaks to a friend");
        // The person opening the message is whom it is said to.
        let r = lex.read("学长想咨询一下清华的环境工程");
        assert!(!r.has_reported(), "the student asks a senior");
        let r = lex.read("我学长想咨询一下清华的环境工程");
        assert!(r.has_reported(), "the student's senior wants to ask");
        let r = lex.read("他想咨询一下清华的环境工程");
        assert!(r.has_reported(), "no one is spoken to as 他");
        let r = lex.read("他怎么样");
        assert!(
            !r.has_reported(),
            "a question about an advisor reports nothing"
        );
        // Hearsay reports, unless the listener is asked whether they heard.
        assert!(lex.read("听说西电不错").has_reported());
        assert!(lex.read("我听说西电不错").has_reported());
        let r = lex.read("你听说过西电吗？我想报网安");
        assert!(!r.has_reported(), "the student asks the agent");
        // A word that opens with a verb of saying or wanting is a deed.
        assert!(!lex.read("但他报销特别拖").has_reported());
        assert!(!lex.read("他要求太多").has_reported());
        assert!(lex.read("他要我们周末来").has_reported());
        // Someone telling the student what to do: reported, and wished.
        let r = lex.read("北方交大，他让我看管理科学与工程");
        assert_eq!(r.own_text(), "北方交大");
        assert_eq!(r.wished_text(), "北方交大，他让我看管理科学与工程");
        assert!(!lex.read("他要我们周末来").clauses()[0].directs_the_writer);
        assert!(lex.read("他说让我去读电气").clauses()[0].directs_the_writer);
        assert!(!lex.read("听说导师让我们周末来").clauses()[0].directs_the_writer);
        // Heard from someone, after when ("面试的时候听…说").
        assert!(lex
            .read("面试的时候听别的考生说这老师很push")
            .has_reported());
        // Rumours passed round a group report too.
        assert!(lex.read("考研群里传他PUA学生").has_reported());
    }
}
