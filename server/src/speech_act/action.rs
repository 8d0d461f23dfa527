//! The consequential actions and what a clause of the student's own words
//! does to one: instruct it, negate it, ask about it, suppose it, or only
//! mention it. Here because this is the verdict code acts on — only
//! [`Force::Instruction`] performs an action — and it changes whenever a
//! new way of asking or declining has to be told apart.
//!
//! The rules, over the word lists of `server/lexicons/speech_acts.txt`, on a
//! message already cut and owned by `reading`:
//!
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

use super::{Clause, Reading, SpeechActs};

/// A consequential action (`server/lexicons/actions.txt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Publish the summarised review draft.
    Publish,
    /// Drop the review draft.
    Cancel,
    /// Empty the form and start over.
    Reset,
    /// End the conversation (a voice call ends after the reply).
    End,
}

impl Action {
    pub const ALL: [Action; 4] = [Action::Publish, Action::Cancel, Action::Reset, Action::End];

    /// The key in actions.txt and in the tool registry's `action`.
    pub fn key(self) -> &'static str {
        match self {
            Action::Publish => "publish",
            Action::Cancel => "cancel",
            Action::Reset => "reset",
            Action::End => "end",
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

impl SpeechActs {
    /// What the student's own words do to `action` (see the module doc of `action`).
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn force(text: &str, action: Action) -> Force {
        let lex = SpeechActs::load();
        lex.force(&lex.read(text), action)
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
}
