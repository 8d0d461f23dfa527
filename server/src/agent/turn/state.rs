//! The state of one turn, by phase: what arrived ([`Input`]), what was
//! understood ([`Understood`]), what is proposed ([`Proposed`]), the reply
//! ([`Reply`]) and what the models cost ([`Cost`]), beside the form and the
//! memory the turn carries on. The graph (`super`) says which step runs;
//! this file says what each can read and fill.

use app::protocol::{
    AgentEvent, ChatResponse, ErrorInfo, IntentResult, PageContext, ToolCall, UserForm,
};

use super::super::memory::Memory;
use super::super::nlu::{Analysis, Lexicons};
use super::super::option::Chip;
use super::super::planner::{Plan, PlanError};
use super::super::session_store::Session;
use super::super::stream::VoiceSink;
use super::super::targets::Resolved;
use super::super::{Action, Prepared};
use crate::coach::state::CoachState;
use crate::site::Site;
use crate::speech_act::{self as speech, Reading};

/// Whose words a turn's reply carries, for the facts check in `narrate`.
#[derive(Clone, Debug, Default)]
pub(in crate::agent) enum Words {
    /// Code's own, composed from data.
    #[default]
    Code,
    /// A model's: said only if every advisor name and figure in them is in
    /// the results, the page or code's reply (`fallback`, also what is said
    /// instead; empty = narrate the results). When code resolved the advisor
    /// the turn is about (`about`), the words may name only that advisor and
    /// those in the results, not others on the page.
    Model {
        fallback: String,
        about: Option<String>,
    },
}

/// Everything one turn reads and decides, by phase, in the order the
/// steps fill them: what arrived, what was understood of it, what is
/// proposed to do, and the reply (which a step that answers early, such as
/// a greeting or the coach, fills itself); beside them the form and the
/// memory the turn carries on, and what the models cost.
pub(in crate::agent) struct Turn<'v> {
    pub input: Input<'v>,
    pub understood: Understood,
    pub proposed: Proposed,
    pub reply: Reply,
    pub cost: Cost,
    /// The student's form, as it goes on (a negated value leaves it, a
    /// reset clears it, a chip or a plan fills it).
    pub form: UserForm,
    /// What the conversation remembers for the next turn.
    pub memory: Memory,
}

/// What arrived: the request as `Agent::prepare` checked it.
pub(in crate::agent) struct Input<'v> {
    pub session: Session,
    /// The one page of the turn (the one the student means).
    pub page: PageContext,
    /// The student's words (or the chip's label), as stored.
    pub user_text: String,
    /// The typed or spoken message; empty for a chip.
    pub text: String,
    pub sink: Option<&'v VoiceSink>,
    /// The draft as stored, read with the session (`Agent::prepare`).
    pub stored_draft: Option<CoachState>,
    /// The offer of last turn's place answer (taken from the memory: it
    /// lives one turn).
    pub offered: Option<crate::agent::about_place::PlaceOffer>,
    /// The pair versions read so far this turn (`site::PairVersions`).
    pub versions: std::sync::Arc<crate::site::PairVersions>,
}

/// What the steps understood of the message and the page.
#[derive(Default)]
pub(in crate::agent) struct Understood {
    /// The chip the message stands for: clicked, or answered in words.
    pub chip: Option<Chip>,
    /// The open review draft (`session`).
    pub draft: Option<CoachState>,
    /// Whose words each clause is and what it does to an action (`intent`).
    pub reading: Reading,
    pub intent: IntentResult,
    /// Consequential actions the speech act allows this turn.
    pub authorised: Vec<speech::Action>,
    /// Advisor names the student may say (`understand`).
    pub known: Vec<String>,
    pub analysis: Analysis,
    /// What the message says that code did not read: the analysis's
    /// unexplained fragments that are no persona cue either (`understand`).
    /// A model is asked only when there is some, or code had no answer.
    pub unread: Vec<String>,
    /// Values only someone else's clauses name, or that the student negated.
    pub foreign: Vec<String>,
    pub resolved: Resolved,
    /// The student asks to review the advisor the turn is about
    /// (`understand`; `resolve` then hands the turn to the coach).
    pub wants_review: bool,
    /// Who answers (`persona`).
    pub persona: &'static str,
}

/// What is proposed to do: the plans and the tool calls.
#[derive(Default)]
pub(in crate::agent) struct Proposed {
    /// Code's plan, when the model is asked too (`plan`, for `merge`).
    pub code: Option<Result<Plan, PlanError>>,
    pub proposal: Option<Result<Plan, PlanError>>,
    /// The plan that goes on to validation.
    pub plan: Plan,
    pub words: Words,
    pub calls: Vec<ToolCall>,
}

/// The reply as it is made, and what storing it found.
#[derive(Default)]
pub(in crate::agent) struct Reply {
    pub voice: String,
    pub error: Option<ErrorInfo>,
    pub events: Vec<AgentEvent>,
    /// A planner failed and nothing answers (`apology`).
    pub failure: Option<PlanError>,
    pub persona_out: Option<&'static str>,
    pub draft_out: Option<crate::agent::session_store::Draft>,
    pub response: Option<ChatResponse>,
    /// Counted over the caller's quota when stored (`save`): seconds to wait.
    pub over_limit: Option<u64>,
}

/// What the models cost this turn, and whether the provider is down.
#[derive(Default)]
pub(in crate::agent) struct Cost {
    pub model_calls: u32,
    /// Of `model_calls`, those made by classify, casual and coach (the rest
    /// are the planner's).
    pub calls_by: crate::agent::ModelCalls,
    pub tokens: u32,
    /// The provider failed earlier in this turn: it is not asked again.
    pub model_down: bool,
}

impl<'v> Turn<'v> {
    /// The advisor names the student may say in this turn's message
    /// (`grounding::known_names`), read where the turn stands now.
    pub async fn known_names(&self, site: &Site, lexicons: &Lexicons) -> Vec<String> {
        super::super::grounding::known_names(
            site,
            lexicons,
            &self.input.text,
            &self.input.page,
            &self.memory,
            &self.form,
        )
        .await
    }

    pub(super) fn new(prepared: Prepared, sink: Option<&'v VoiceSink>) -> Turn<'v> {
        let Prepared {
            session,
            draft,
            page,
            act,
        } = prepared;
        let (user_text, text, chip) = match act {
            Action::Text(text) => (text.clone(), text, None),
            Action::Chip { chip, shown } => (shown, String::new(), Some(chip)),
        };
        let mut memory = session.memory.clone();
        let offered = memory.offer.take();
        Turn {
            form: session.form.clone(),
            memory,
            understood: Understood {
                chip,
                persona: crate::agent::persona_named(&session.persona)
                    .unwrap_or(crate::agent::DEFAULT_PERSONA),
                ..Understood::default()
            },
            proposed: Proposed::default(),
            reply: Reply::default(),
            cost: Cost::default(),
            input: Input {
                session,
                page,
                user_text,
                text,
                sink,
                stored_draft: draft,
                versions: Default::default(),
                offered,
            },
        }
    }

    /// What a planner reads of this turn: the one place the turn is shown to
    /// the planners (code's, the model's, the casual persona's), with the
    /// conversation so far (`history`), code's own plan (`understood`) and
    /// where a streamed reply goes (`voice`).
    pub(super) fn plan_input<'a>(
        &'a self,
        history: &'a [crate::agent::session_store::HistoryEntry],
        understood: Option<&'a Plan>,
        voice: Option<&'a VoiceSink>,
    ) -> crate::agent::planner::PlanInput<'a> {
        crate::agent::planner::PlanInput {
            message: &self.input.text,
            analysis: &self.understood.analysis,
            resolved: &self.understood.resolved,
            form: &self.form,
            memory: &self.memory,
            page: &self.input.page,
            history,
            turn: self.input.session.memory.turns,
            understood,
            voice,
        }
    }

    /// The turn's model calls by why: what classify, casual and coach
    /// counted, and the planner's as `unread` or `fallback`.
    pub(super) fn calls_by(&self) -> crate::agent::ModelCalls {
        let mut by = self.cost.calls_by;
        let others = by.intent + by.casual + by.coach;
        let planner = self.cost.model_calls.saturating_sub(others);
        if self.understood.unread.is_empty() {
            by.fallback = planner;
        } else {
            by.unread = planner;
        }
        by
    }

    /// The reply's words, decided by a step that then ends the turn
    /// (it returns [`Outcome::Answered`]).
    pub(super) fn say(&mut self, voice: String) {
        self.reply.voice = voice;
    }
}
