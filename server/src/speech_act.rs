//! The speech act of a message (issue 16): which clauses are the student's
//! own words, and what each does to an action it names — instruct it,
//! negate it, ask about it, or only suppose it.
//!
//! Why a step of its own: a word that names an action is not a request for
//! it. "不发布", "发布之前还能改吗？", "如果重新开始会不会更好？" and "我朋友说
//! 重新开始" all contain the action's name and none asks for it; on a review
//! site, taking them as the action publishes a review under the student's
//! name they said no to. So before any consequential action (the actions of
//! `server/lexicons/actions.txt`, the tools marked `consequential` in
//! `prompts/tools.json`) code reads the message here, with or without a
//! language model, and acts only on [`Force::Instruction`] — or on a yes to
//! a yes/no question it asked ([`Answer::Yes`]). Both the search agent
//! (resetting the form) and the review coach (publishing, dropping a draft)
//! use it, so it belongs to neither.
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
//! - For each occurrence of an action phrase (longest first) in the
//!   student's own clause, the words before it are read backwards: request
//!   and filler words ("先", "帮我", "能") are passed over; a negator ("不",
//!   "先别") negates, question words that ask whether ("要不要", "是不是该")
//!   ask, a condition ("如果") supposes, a past or a topic ("上次", "关于")
//!   only mentions. A condition word anywhere earlier in the sentence
//!   supposes too ("如果…，就发布").
//! - Right after the phrase, "的话 / 之前 / 以后" make it a condition or a
//!   time, "的按钮 / 的事" a noun, and an object ("取消组会") makes it part
//!   of another statement, as do other words before it ("导师经常取消…").
//! - A clause that is a question ("？" or a question word) is a polite
//!   request when everything but the phrase is request and polite words
//!   ("能帮我发布吗？", "重新开始好吗？"), otherwise a question about the
//!   action ("发布了老师会知道吗？").
//! - Hesitation anywhere in the student's words ("我再想想", "等一下")
//!   holds every action; a retraction after the phrase takes it back
//!   ("发布吧……算了"), while before it only dismisses what came earlier
//!   ("算了，不写了").
//! - A whole answer to a yes/no question is [`Answer::Yes`] when every
//!   clause is a yes word with polite words around it ("好的", "嗯，发吧"),
//!   [`Answer::No`] when a clause is a no word or the message hesitates.

use crate::text::clauses::{self, Link};
use crate::text::fold::compact as fold;
use crate::text::lexfile;

const SPEECH_ACTS: &str = include_str!("../lexicons/speech_acts.txt");
const ACTIONS: &str = include_str!("../lexicons/actions.txt");

/// A consequential action (`server/lexicons/actions.txt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Publish the summarised review draft.
    Publish,
    /// Drop the review draft.
    Cancel,
    /// Empty the form and start over.
    Reset,
}

impl Action {
    pub const ALL: [Action; 3] = [Action::Publish, Action::Cancel, Action::Reset];

    /// The key in actions.txt and in the tool registry's `action`.
    pub fn key(self) -> &'static str {
        match self {
            Action::Publish => "publish",
            Action::Cancel => "cancel",
            Action::Reset => "reset",
        }
    }

    pub fn from_key(key: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.key() == key)
    }
}

/// What the student's words do to an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Force {
    /// The action is not named at all.
    Absent,
    /// Asked for, plainly or politely: the only force that acts.
    Instruction,
    /// Declined, or held by hesitation.
    Negation,
    /// A question about the action: it gets an answer, nothing changes.
    Question,
    /// A condition or hypothesis: discussed, not done.
    Condition,
    /// Only someone else's words name it.
    Reported,
    /// Named as a past event or a topic, not asked for.
    Mention,
}

impl Force {
    /// Whether code may perform the action.
    pub fn acts(self) -> bool {
        self == Force::Instruction
    }
}

/// A message read as the answer to a yes/no question the agent asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    /// Something else: handled as a new message, the question still pending.
    Other,
}

/// A list of terms, longest first, matched on chars.
#[derive(Debug, Default)]
struct Terms(Vec<Vec<char>>);

impl Terms {
    fn new(terms: &[String]) -> Terms {
        let mut list: Vec<Vec<char>> = terms
            .iter()
            .map(|t| fold(t).chars().collect::<Vec<char>>())
            .filter(|t| !t.is_empty())
            .collect();
        list.sort_by_key(|t| std::cmp::Reverse(t.len()));
        list.dedup();
        Terms(list)
    }

    /// The longest term `s` ends with.
    fn suffix(&self, s: &[char]) -> Option<usize> {
        self.0.iter().find(|t| s.ends_with(t)).map(Vec::len)
    }

    /// The longest term `s` starts with.
    fn prefix(&self, s: &[char]) -> Option<usize> {
        self.0.iter().find(|t| s.starts_with(t)).map(Vec::len)
    }

    /// Whether a term occurs anywhere in `s`.
    fn within(&self, s: &[char]) -> bool {
        self.0
            .iter()
            .any(|t| s.windows(t.len()).any(|w| w == t.as_slice()))
    }

    /// Whether `s` is nothing but terms of `self` and of `others`.
    fn covers(&self, s: &[char], others: &[&Terms]) -> bool {
        let mut p = 0;
        'outer: while p < s.len() {
            let best = std::iter::once(self)
                .chain(others.iter().copied())
                .filter_map(|list| list.prefix(&s[p..]))
                .max();
            match best {
                Some(len) => {
                    p += len;
                    continue 'outer;
                }
                None => return false,
            }
        }
        true
    }
}

/// The word lists of speech_acts.txt and the phrases of actions.txt.
#[derive(Debug, Default)]
pub struct SpeechActs {
    yes: Terms,
    no: Terms,
    negator: Terms,
    gap: Terms,
    hesitation: Terms,
    retract: Terms,
    question: Terms,
    request: Terms,
    ask_first: Terms,
    condition: Terms,
    condition_after: Terms,
    mention: Terms,
    mention_after: Terms,
    follow: Terms,
    reporter: Terms,
    reporter_lead: Terms,
    report_verb: Terms,
    hearsay: Terms,
    connective: Terms,
    polite: Terms,
    actions: Vec<(Action, Terms, Vec<String>)>,
}

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
    /// The next clause says what is true instead ("不是不指导，是…").
    pub denied: bool,
    /// It speaks of another advisor or group ("不管学生的是另一个老师").
    pub about_someone_else: bool,
    /// It says what the writer expected, not what is so ("本来以为…").
    pub expected: bool,
    /// It judges the rest, apart from what came before ("其他都挺好").
    pub about_the_rest: bool,
    /// It wishes for what is lacking ("要是经费再多点就好了").
    pub wishes: bool,
}

/// A message cut into clauses, each with its owner.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    clauses: Vec<Clause>,
    hesitates: bool,
}

impl Reading {
    /// The student's own words, someone else's clauses left out (joined by
    /// "，"): what the form is filled from.
    pub fn own_text(&self) -> String {
        self.join(false)
    }

    /// Someone else's words, the student's own left out.
    pub fn reported_text(&self) -> String {
        self.join(true)
    }

    /// The clauses, in order.
    pub fn clauses(&self) -> &[Clause] {
        &self.clauses
    }

    /// Whether any clause is someone else's.
    pub fn has_reported(&self) -> bool {
        self.clauses.iter().any(|c| c.reported)
    }

    fn join(&self, reported: bool) -> String {
        self.clauses
            .iter()
            .filter(|c| c.reported == reported)
            .map(|c| c.chars.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("，")
    }
}

impl SpeechActs {
    pub fn load() -> SpeechActs {
        let mut lex = SpeechActs::default();
        for e in lexfile::parse("speech_acts.txt", SPEECH_ACTS) {
            let terms = Terms::new(&e.terms);
            let slot = match e.key.as_str() {
                "yes" => &mut lex.yes,
                "no" => &mut lex.no,
                "negator" => &mut lex.negator,
                "gap" => &mut lex.gap,
                "hesitation" => &mut lex.hesitation,
                "retract" => &mut lex.retract,
                "question" => &mut lex.question,
                "request" => &mut lex.request,
                "ask_first" => &mut lex.ask_first,
                "condition" => &mut lex.condition,
                "condition_after" => &mut lex.condition_after,
                "mention" => &mut lex.mention,
                "mention_after" => &mut lex.mention_after,
                "follow" => &mut lex.follow,
                "reporter" => &mut lex.reporter,
                "reporter_lead" => &mut lex.reporter_lead,
                "report_verb" => &mut lex.report_verb,
                "hearsay" => &mut lex.hearsay,
                "connective" => &mut lex.connective,
                "polite" => &mut lex.polite,
                k => panic!("speech_acts.txt: unknown key {k}"),
            };
            *slot = terms;
        }
        for e in lexfile::parse("actions.txt", ACTIONS) {
            let action = Action::from_key(&e.key)
                .unwrap_or_else(|| panic!("actions.txt: unknown action {}", e.key));
            lex.actions.push((action, Terms::new(&e.terms), e.terms));
        }
        lex
    }

    /// The phrases that name `action`, as written in actions.txt.
    pub fn phrases(&self, action: Action) -> &[String] {
        self.actions
            .iter()
            .find(|(a, _, _)| *a == action)
            .map(|(_, _, raw)| raw.as_slice())
            .unwrap_or(&[])
    }

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
                denied: cut.get(i + 1).is_some_and(|next| c.denied_by(next)),
                about_someone_else: c.about_someone_else(),
                expected: c.expected(),
                about_the_rest: c.about_the_rest(),
                wishes: c.wishes(),
            })
            .collect();
        // Whose words: a reporter at the start hands the clause over, and a
        // clause that ends at the reporting verb hands over the next one.
        let mut hand_over = false;
        for cl in clauses.iter_mut() {
            let (reported, ends_at_verb) = self.reporter_at_start(&cl.chars);
            cl.reported = reported || hand_over || self.hearsay.within(&cl.chars);
            hand_over = reported && ends_at_verb;
        }
        let hesitates = clauses
            .iter()
            .any(|c| !c.reported && self.hesitation.within(&c.chars));
        Reading { clauses, hesitates }
    }

    /// Whether `clause` starts with someone else saying, thinking or
    /// wanting something; and whether it ends right at that verb.
    fn reporter_at_start(&self, clause: &[char]) -> (bool, bool) {
        let mut p = 0;
        while let Some(len) = self.connective.prefix(&clause[p..]) {
            p += len;
        }
        // "我有个朋友", "我妈妈": the lead is optional, the reporter is not.
        let starts = |q: usize| self.reporter.prefix(&clause[q..]);
        let at = match starts(p) {
            Some(len) => Some(p + len),
            None => self
                .reporter_lead
                .prefix(&clause[p..])
                .and_then(|lead| starts(p + lead).map(|len| p + lead + len)),
        };
        let Some(mut q) = at else {
            return (false, false);
        };
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
        match self.report_verb.prefix(&clause[q..]) {
            Some(len) => (true, q + len == clause.len()),
            None => (false, false),
        }
    }

    /// What the student's own words do to `action` (see the module doc).
    pub fn force(&self, reading: &Reading, action: Action) -> Force {
        let Some((_, phrases, _)) = self.actions.iter().find(|(a, _, _)| *a == action) else {
            return Force::Absent;
        };
        let mut own: Vec<(usize, usize, Force)> = Vec::new();
        // (clause, end of the phrase, force) of each occurrence in the student's words.
        let mut reported = false;
        for (ci, clause) in reading.clauses.iter().enumerate() {
            let mut p = 0;
            while p < clause.chars.len() {
                let Some(len) = phrases.prefix(&clause.chars[p..]) else {
                    p += 1;
                    continue;
                };
                if clause.reported {
                    reported = true;
                } else {
                    own.push((ci, p + len, self.occurrence(reading, ci, p, p + len)));
                }
                p += len;
            }
        }
        let Some(&(ci, end, last)) = own.last() else {
            return if reported {
                Force::Reported
            } else {
                Force::Absent
            };
        };
        if reading.hesitates || self.retracted_after(reading, ci, end) {
            return Force::Negation;
        }
        last
    }

    /// A retraction after the phrase that ends at (`ci`, `at`), in the
    /// student's words.
    fn retracted_after(&self, reading: &Reading, ci: usize, at: usize) -> bool {
        reading.clauses.iter().enumerate().any(|(i, c)| {
            !c.reported
                && i >= ci
                && self
                    .retract
                    .within(if i == ci { &c.chars[at..] } else { &c.chars })
        })
    }

    /// The force of one occurrence of a phrase, `start..end` of clause `ci`.
    fn occurrence(&self, reading: &Reading, ci: usize, start: usize, end: usize) -> Force {
        let clause = &reading.clauses[ci];
        let before = &clause.chars[..start];
        let after = &clause.chars[end..];
        // A condition said earlier in the sentence governs what follows it.
        let earlier_condition = reading.clauses[..ci].iter().any(|c| {
            c.sentence == clause.sentence && !c.reported && self.condition.within(&c.chars)
        });
        if earlier_condition || self.condition.within(before) {
            return if self.is_question(clause, before, after) {
                Force::Question
            } else {
                Force::Condition
            };
        }
        // Backwards from the phrase over request and filler words.
        let mut rest = before;
        let mut said = None;
        loop {
            let candidates = [
                (self.negator.suffix(rest), Force::Negation),
                (self.ask_first.suffix(rest), Force::Question),
                (self.mention.suffix(rest), Force::Mention),
                (self.condition.suffix(rest), Force::Condition),
                (self.request.suffix(rest), Force::Instruction),
                (self.gap.suffix(rest), Force::Instruction),
            ];
            // The longest word decides: "能不能" is a request, not "不能".
            let best = candidates
                .iter()
                .filter_map(|(len, f)| len.map(|l| (l, *f)))
                .max_by_key(|(l, _)| *l);
            let Some((len, force)) = best else { break };
            rest = &rest[..rest.len() - len];
            if force != Force::Instruction {
                said = Some(force);
                break;
            }
        }
        // Words before it that are not about the action make the phrase part
        // of another statement: "导师经常取消组会", "他从来不放弃学生". A yes
        // or a retraction may come first ("没问题发布", "算了算了不写了").
        let about_it = self
            .polite
            .covers(rest, &[&self.gap, &self.request, &self.yes, &self.retract]);
        match said {
            Some(Force::Negation) if !about_it => return Force::Mention,
            Some(force) => return force,
            None => {}
        }
        let mut tail = after;
        while let Some(len) = self.particle(tail) {
            tail = &tail[len..];
        }
        if self.condition_after.prefix(after).is_some()
            || self.condition_after.prefix(tail).is_some()
        {
            return if self.is_question(clause, before, after) {
                Force::Question
            } else {
                Force::Condition
            };
        }
        if self.mention_after.prefix(after).is_some() {
            return Force::Mention;
        }
        // An object after it that is not the draft or the form ("取消组会",
        // "放弃读博的学生多吗") makes it part of another statement; what is
        // said about the action ("…会怎样", "…老师会知道吗") and a new clause
        // said without a comma ("重来我想考清华") are no object.
        let new_clause = tail.first() == Some(&'我') || self.connective.prefix(tail).is_some();
        let object = !(tail.is_empty()
            || new_clause
            || self.shell(tail)
            || self.follow.prefix(tail).is_some());
        if object {
            return Force::Mention;
        }
        if self.is_question(clause, before, after) {
            return Force::Question;
        }
        if !about_it {
            return Force::Mention;
        }
        Force::Instruction
    }

    /// Whether `s` holds nothing but polite, filler, request and yes words.
    fn shell(&self, s: &[char]) -> bool {
        self.polite
            .covers(s, &[&self.gap, &self.request, &self.yes])
    }

    /// A sentence-final particle or "了" right after a phrase.
    fn particle(&self, s: &[char]) -> Option<usize> {
        matches!(s.first(), Some('了' | '吧' | '啊' | '呀' | '哦')).then_some(1)
    }

    /// Whether the clause asks something beyond a polite request for the
    /// phrase between `before` and `after`.
    fn is_question(&self, clause: &Clause, before: &[char], after: &[char]) -> bool {
        let words = [before, after];
        let asks = clause.question_mark || words.iter().any(|w| self.question.within(w));
        if !asks {
            return false;
        }
        !words.iter().all(|w| self.shell(w))
    }

    /// The message as an answer to a yes/no question the agent asked.
    pub fn answer(&self, reading: &Reading) -> Answer {
        let own: Vec<&Clause> = reading.clauses.iter().filter(|c| !c.reported).collect();
        if own.is_empty() {
            return Answer::Other;
        }
        if reading.hesitates {
            return Answer::No;
        }
        let only = |list: &Terms, c: &Clause| {
            list.within(&c.chars) && list.covers(&c.chars, &[&self.polite])
        };
        if own
            .iter()
            .any(|c| only(&self.no, c) || only(&self.retract, c))
        {
            return Answer::No;
        }
        if own
            .iter()
            .all(|c| only(&self.yes, c) || self.polite.covers(&c.chars, &[]))
            && own.iter().any(|c| self.yes.within(&c.chars))
        {
            return Answer::Yes;
        }
        Answer::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn force(text: &str, action: Action) -> Force {
        let lex = SpeechActs::load();
        lex.force(&lex.read(text), action)
    }

    fn answer(text: &str) -> Answer {
        let lex = SpeechActs::load();
        lex.answer(&lex.read(text))
    }

    #[test]
    fn plain_and_polite_instructions_act() {
        for t in [
            "发布",
            "确认发布",
            "发布吧",
            "好的，发布吧",
            "能帮我发布吗？",
            "可以发布吗？",
            "能不能提交？",
            "麻烦帮我提交一下",
            "发布好吗？",
            "那就发布吧",
        ] {
            assert_eq!(force(t, Action::Publish), Force::Instruction, "{t}");
        }
        assert_eq!(force("算了，不写了", Action::Cancel), Force::Instruction);
        // Spoken input often comes without punctuation.
        for (t, action) in [
            ("没问题发布", Action::Publish),
            ("嗯嗯确认发布", Action::Publish),
            ("那你帮我发布一下", Action::Publish),
            ("直接提交就行", Action::Publish),
            ("我确定要发布", Action::Publish),
            ("算了算了不写了", Action::Cancel),
            ("这条评价不写了", Action::Cancel),
            ("帮我清空一下表单", Action::Reset),
            ("重新开始吧我想考清华", Action::Reset),
        ] {
            assert_eq!(force(t, action), Force::Instruction, "{t}");
        }
        assert_eq!(force("重来，我想考清华", Action::Reset), Force::Instruction);
        assert_eq!(force("重来我想考清华", Action::Reset), Force::Instruction);
        assert_eq!(force("那我们重新开始吧", Action::Reset), Force::Instruction);
        assert_eq!(force("我觉得先不要发布", Action::Publish), Force::Negation);
    }

    #[test]
    fn negations_decline() {
        for t in [
            "不发布",
            "先不要发布",
            "先别发布",
            "别提交",
            "暂时不要发布",
            "还是不要发布了",
            "发布吧……算了",
            "发布？等一下，我再想想",
        ] {
            assert_eq!(force(t, Action::Publish), Force::Negation, "{t}");
        }
        assert_eq!(
            force("先别重新开始，我再想想", Action::Reset),
            Force::Negation
        );
        assert_eq!(force("先别取消", Action::Cancel), Force::Negation);
    }

    #[test]
    fn questions_conditions_reports_and_mentions_do_not_act() {
        let cases = [
            ("发布之前还能改吗？", Action::Publish, Force::Question),
            ("发布了老师会知道吗？", Action::Publish, Force::Question),
            ("是不是该重新开始？", Action::Reset, Force::Question),
            ("要不要重新开始？", Action::Reset, Force::Question),
            (
                "不写了会不会浪费前面写的？",
                Action::Cancel,
                Force::Question,
            ),
            (
                "如果重新开始选学校会不会更好？",
                Action::Reset,
                Force::Question,
            ),
            (
                "如果发布的话我就换个导师",
                Action::Publish,
                Force::Condition,
            ),
            ("如果没问题，就发布", Action::Publish, Force::Condition),
            ("我朋友说重新开始", Action::Reset, Force::Reported),
            ("他说：发布吧", Action::Publish, Force::Reported),
            ("听说有人发布了", Action::Publish, Force::Reported),
            ("上次重新开始花了好久", Action::Reset, Force::Mention),
            ("发布的按钮在哪里？", Action::Publish, Force::Mention),
            // Review content that uses an action's word about something else.
            ("导师经常取消组会", Action::Cancel, Force::Mention),
            ("他从来不放弃学生", Action::Cancel, Force::Mention),
            ("他让我放弃了一个项目", Action::Cancel, Force::Reported),
            ("我放弃了一个offer", Action::Cancel, Force::Mention),
            ("放弃读博的学生多吗？", Action::Cancel, Force::Mention),
            ("重新开始会怎么样？", Action::Reset, Force::Question),
            ("为什么要重新开始？", Action::Reset, Force::Question),
            ("我想考北大", Action::Reset, Force::Absent),
        ];
        for (t, action, want) in cases {
            assert_eq!(force(t, action), want, "{t}");
        }
    }

    #[test]
    fn answers_to_a_yes_no_question() {
        for t in [
            "好",
            "好的",
            "可以",
            "行",
            "嗯",
            "对",
            "是的",
            "没问题",
            "发吧",
            "确认",
            "好的！",
            "嗯，发吧",
        ] {
            assert_eq!(answer(t), Answer::Yes, "{t}");
        }
        for t in [
            "不",
            "不要",
            "先别",
            "算了",
            "再想想",
            "等等",
            "好的，等一下",
        ] {
            assert_eq!(answer(t), Answer::No, "{t}");
        }
        for t in ["经费改成3分", "老师人很好", "我朋友说好", "", "？？"] {
            assert_eq!(answer(t), Answer::Other, "{t}");
        }
    }

    #[test]
    fn reported_clauses_are_told_apart() {
        let lex = SpeechActs::load();
        let r = lex.read("我朋友想考清华大学，我想考北京大学计算机");
        assert!(r.has_reported());
        assert_eq!(r.own_text(), "我想考北京大学计算机");
        assert_eq!(r.reported_text(), "我朋友想考清华大学");
        let r = lex.read("我跟朋友说我想考清华");
        assert!(!r.has_reported(), "the student speaks to a friend");
        let r = lex.read("他怎么样");
        assert!(
            !r.has_reported(),
            "a question about an advisor reports nothing"
        );
    }

    #[test]
    fn every_action_has_phrases_and_bad_input_never_panics() {
        let lex = SpeechActs::load();
        for a in Action::ALL {
            assert!(!lex.phrases(a).is_empty(), "{a:?}");
            assert_eq!(Action::from_key(a.key()), Some(a));
        }
        for t in [
            "",
            "？",
            "，，，",
            "🙂发布",
            "发布发布发布",
            "不",
            "如果",
            "朋友说",
        ] {
            let r = lex.read(t);
            for a in Action::ALL {
                let _ = lex.force(&r, a);
            }
            let _ = lex.answer(&r);
        }
    }
}
