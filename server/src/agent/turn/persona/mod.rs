//! `persona` and `casual`: who answers. The persona switches on
//! what the student says, or holds a manual choice (the rules and their
//! word lists: [`switch`]); a switch is an event of the reply. The casual
//! persona answers warmly without tools — the form, the page and the
//! history stay as they are, shared with the analysis persona.

mod switch;

use app::protocol::{switch_message, IntentResult};

pub(in crate::agent) use self::switch::PersonaLexicon;
pub(super) use self::switch::{switch_event, Reason};
use super::{Answer, Asker, Outcome, Turn};
use crate::agent::planner::model::ModelPlanner;
use crate::agent::replies::{self, Templates};
use crate::agent::session_store::SessionStore;
use crate::agent::{persona_named, DEFAULT_PERSONA};
use crate::voice;

/// The personas' words — what switches them, the casual persona's
/// topics — loaded once: the steps' own lexicon.
pub(in crate::agent) fn lexicon() -> &'static PersonaLexicon {
    static LEXICON: std::sync::OnceLock<PersonaLexicon> = std::sync::OnceLock::new();
    LEXICON.get_or_init(PersonaLexicon::load)
}

/// The casual persona's replies, loaded once.
fn casual_replies() -> &'static Templates {
    static REPLIES: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    REPLIES.get_or_init(replies::casual)
}

/// `persona` reads the turn and the personas' words ([`lexicon`]).
pub(super) fn persona(t: &mut Turn<'_>) -> Outcome {
    let normalized = crate::catalog::normalize(&t.input.text);
    let decided = lexicon().decide(
        &normalized,
        &t.understood.analysis,
        &t.input.session.persona,
        t.memory().persona_manual,
    );
    t.understood.persona = match decided {
        Some((to, why)) => {
            if why.strong() {
                t.understood.manual_ended = true;
            }
            if let Some(sink) = t.input.sink {
                sink.switch(to, &switch_message(&t.input.session.persona, to));
            }
            t.reply
                .event(switch_event(&t.input.session.persona, to, &why));
            to
        }
        None => persona_named(&t.input.session.persona).unwrap_or(DEFAULT_PERSONA),
    };
    t.reply.persona_out = Some(t.understood.persona);
    if let Some(sink) = t.input.sink {
        sink.set_agent(t.understood.persona);
    }
    if t.understood.persona == crate::agent::CASUAL {
        Outcome::Casual
    } else {
        Outcome::Next
    }
}

/// What `casual` reads besides the turn and the personas' words: the
/// model it may ask, the conversation it is shown, and the tools' names
/// it never speaks.
pub(super) struct CasualDeps<'a> {
    pub model: Option<&'a ModelPlanner>,
    pub sessions: &'a SessionStore,
    pub tool_names: &'a [String],
}

impl CasualDeps<'_> {
    pub(super) async fn run(&self, t: &mut Turn<'_>) -> Answer {
        let turn = t.input.session.memory.turns;
        let intent = IntentResult {
            intent: "chitchat".into(),
            confidence: 0.8,
            reasoning: "闲聊模式：陪伴与鼓励，不调用数据工具".into(),
        };
        let embedded = |t: &Turn<'_>| {
            let normalized = crate::catalog::normalize(&t.input.text);
            let key = format!("casual_{}", lexicon().topic(&normalized));
            casual_replies().render(&key, turn, &[])
        };
        // The persona's own reply answers what its topic words cover; a
        // model is asked when the student said more than they do.
        let Some(model) = self.model.filter(|_| !t.understood.unread.is_empty()) else {
            return Answer::as_intent(embedded(t), intent);
        };
        let history = self.sessions.recent(&t.input.session).await;
        let reply = model
            .chat_casual(&t.plan_input(&history, None, t.input.sink))
            .await;
        let voice = match reply {
            Ok(plan) => {
                t.cost
                    .spend(Some(Asker::Casual), plan.model_calls, plan.tokens);
                voice::clean(&plan.voice_response, self.tool_names)
            }
            // As with no model: the persona's own reply (flagged `degraded`).
            Err(e) => {
                tracing::warn!(error = %e, "casual persona's model failed; its template answers");
                let sent = crate::llm::error::code_was_sent(&e.code);
                t.cost.spend(Some(Asker::Casual), u32::from(sent), 0);
                t.reply
                    .event(crate::agent::degraded_event(&e.code, &e.message));
                embedded(t)
            }
        };
        Answer::as_intent(voice, intent)
    }
}
