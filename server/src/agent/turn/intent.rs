//! `intent`: the few intents code answers alone (seed 001) — greeting,
//! meaningless input, reset — after the speech act of the message is read
//! (issue 16). Resetting is consequential: it passes only as the student's
//! direct instruction; a negation or a question about it is answered and the
//! form stays; someone else's words or a mere mention go on as an ordinary
//! message. "重新开始，我想考清华" resets and goes on with the rest.

use app::protocol::{IntentResult, UserForm};

use super::Turn;
use crate::agent::intent::Intent;
use crate::agent::session::Memory;
use crate::agent::Agent;
use crate::speech_act::{self as speech, Force};

impl Agent {
    pub(super) fn intent(&self, t: &mut Turn<'_>) {
        t.reading = self.acts.read(&t.text);
        let (intent, result) = self.intents.classify(&t.text);
        t.intent = result;
        let turn = t.session.memory.turns;
        let say = |key: &str| self.templates.render(key, turn, &[]);
        let intent = match intent {
            Intent::Reset { rest } => match self.acts.force(&t.reading, speech::Action::Reset) {
                Force::Instruction => Intent::Reset { rest },
                Force::Negation => {
                    return declined(t, say("reset_declined"), "学生说先不重新开始，表单保留")
                }
                Force::Question | Force::Condition => {
                    return declined(t, say("reset_question"), "学生在问或假设重新开始，表单保留")
                }
                Force::Absent | Force::Reported | Force::Mention => Intent::Unknown,
            },
            other => other,
        };
        match intent {
            Intent::Greeting => t.say(say("greeting")),
            Intent::Meaningless => t.say(say("meaningless")),
            Intent::Reset { rest } => {
                t.form = UserForm::default();
                t.memory = Memory::default();
                t.authorised.push(speech::Action::Reset);
                if !rest {
                    t.say(say("reset"));
                }
            }
            Intent::Unknown => {}
        }
    }
}

/// A reset the student did not ask for: answered, nothing changes.
fn declined(t: &mut Turn<'_>, voice: String, reasoning: &str) {
    t.intent = IntentResult {
        intent: Intent::Unknown.name().into(),
        confidence: 0.9,
        reasoning: reasoning.into(),
    };
    t.say(voice);
}
