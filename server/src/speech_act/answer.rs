//! A whole message read as the answer to a yes/no question the agent asked
//! ("发布吗？" — "好的"). Here because it is a different question from what
//! a clause does to an action: the whole message is weighed, not a phrase in
//! it, and only the yes, no, retraction and polite words count.
//!
//! The answer is [`Answer::Yes`] when every clause of the student's own
//! words is a yes word with polite words around it ("好的", "嗯，发吧"),
//! [`Answer::No`] when a clause is a no word or the message hesitates.

use super::terms::Terms;
use super::{Clause, Reading, SpeechActs};

/// A message read as the answer to a yes/no question the agent asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    /// Something else: handled as a new message, the question still pending.
    Other,
}

impl SpeechActs {
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

    fn answer(text: &str) -> Answer {
        let lex = SpeechActs::load();
        lex.answer(&lex.read(text))
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
}
