//! The speech act of a message: which clauses are the student's
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
//! This file holds the word lists ([`SpeechActs`], loaded from
//! `server/lexicons/speech_acts.txt` and `actions.txt`); the rules over them
//! are one file each:
//!
//! - `reading`: cutting a message into clauses and telling whose words each
//!   is (reporters, hearsay, hand-over) — a [`Reading`];
//! - `action`: what the student's own words do to an action — its [`Force`];
//! - `answer`: a whole message as the [`Answer`] to a yes/no question;
//! - `terms`: how a word list is matched against a clause.

mod action;
mod answer;
mod reading;
mod terms;

pub use action::{Action, Force};
pub use answer::Answer;
pub use reading::{Clause, Reading};

use crate::text::lexfile;
use terms::Terms;

const SPEECH_ACTS: &str = include_str!("../../lexicons/speech_acts.txt");
const ACTIONS: &str = include_str!("../../lexicons/actions.txt");

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
    addressee: Terms,
    address: Terms,
    report_verb: Terms,
    not_report_verb: Terms,
    directive: Terms,
    not_directive: Terms,
    hearsay: Terms,
    listener: Terms,
    connective: Terms,
    polite: Terms,
    actions: Vec<(Action, Terms, Vec<String>)>,
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
                "addressee" => &mut lex.addressee,
                "address" => &mut lex.address,
                "report_verb" => &mut lex.report_verb,
                "not_report_verb" => &mut lex.not_report_verb,
                "directive" => &mut lex.directive,
                "not_directive" => &mut lex.not_directive,
                "hearsay" => &mut lex.hearsay,
                "listener" => &mut lex.listener,
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
