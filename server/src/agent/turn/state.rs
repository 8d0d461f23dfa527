//! The state of one turn, by phase: what arrived ([`Input`]), what was
//! understood ([`Understood`]), what is proposed ([`Proposed`]), the reply
//! ([`Reply`]) and what the models cost ([`Cost`]), beside the form and the
//! memory the turn carries on. The graph (`super`) says which step runs;
//! this file says what each can read and fill.

use app::protocol::{
    AgentEvent, ErrorInfo, IntentResult, PageContext, SelectedAdvisor, ToolCall, UserForm,
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
/// proposed to do, and the reply; beside them what the models cost.
/// Each field has one writer. What several steps decide together is read
/// through one reducer here: the form as it stands ([`Turn::form`]), the
/// memory for the next turn ([`Turn::memory_after`]), the plan
/// ([`Turn::plan`]), the turn's intent ([`Turn::intent`]).
pub(in crate::agent) struct Turn<'v> {
    pub input: Input<'v>,
    pub understood: Understood,
    pub proposed: Proposed,
    pub reply: Reply,
    pub cost: Cost,
}

/// An empty form and memory, for a turn that reset the conversation.
static EMPTY_FORM: std::sync::LazyLock<UserForm> = std::sync::LazyLock::new(UserForm::default);
static EMPTY_MEMORY: std::sync::LazyLock<Memory> = std::sync::LazyLock::new(Memory::default);

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
    /// What the conversation remembered, as the turn starts (the offer
    /// taken out: `offered`).
    pub memory: Memory,
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
    /// What the message is, by code's intents (`intent`).
    pub intent: IntentResult,
    /// What a model classified it as, where code understood nothing and the
    /// model's label was taken (`classify`).
    pub classified: Option<IntentResult>,
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
    /// A strong switch ended a persona chosen by hand (`persona`).
    pub manual_ended: bool,
    /// The form without the values the student negated (`understand`).
    pub form: Option<UserForm>,
}

/// What is proposed to do: the plans and the tool calls, each phase of the
/// calls in its own field (checked, steered, run).
#[derive(Default)]
pub(in crate::agent) struct Proposed {
    /// What a clicked chip (or chips answered in words) asks (`chip`).
    pub clicked: Option<Clicked>,
    /// Code's plan, when the model is asked too (`plan`, for `merge`).
    pub code: Option<Result<Plan, PlanError>>,
    pub proposal: Option<Result<Plan, PlanError>>,
    /// Code's plan where no model is asked (`plan`).
    pub plan: Plan,
    /// Code's plan and the model's proposal merged (`merge`).
    pub merged: Option<Plan>,
    /// The intent of a plan code answers from its own data (`plan`).
    pub intent: Option<IntentResult>,
    pub words: Words,
    /// The plan's calls as checked (`validate`).
    pub checked: Vec<ToolCall>,
    /// The checked calls steered: the form's triggers and chips (`steer`).
    pub calls: Vec<ToolCall>,
    /// The steered calls run, each with its result (`execute`).
    pub executed: Vec<ToolCall>,
    /// The form, the fields asked and the chips on screen as the steered
    /// calls leave them (`steer`).
    pub steered: Option<Steered>,
    /// The advisor whose detail or reviews the calls opened (`execute`).
    pub opened: Option<SelectedAdvisor>,
}

/// What `steer` leaves of the form and the memory.
pub(in crate::agent) struct Steered {
    pub form: UserForm,
    /// Every optional field offered as chips so far.
    pub asked: Vec<String>,
    /// The chips the reply leaves on screen.
    pub pending: Option<ToolCall>,
}

/// A chip that stands for the message: the form update it asks, and what
/// the turn is then.
pub(in crate::agent) struct Clicked {
    pub plan: Plan,
    pub intent: IntentResult,
    /// A chip is the data side: a casual session turns analytical.
    pub persona: Option<&'static str>,
    /// The optional field the chip answered or skipped: never asked again.
    pub asked: Option<String>,
}

/// The reply a step decided, as a value: the graph's runner stores it
/// ([`Reply::answer`]), the one place that writes a reply.
#[derive(Default)]
pub(in crate::agent) struct Answer {
    pub voice: String,
    /// What the turn answered as; `None`: as it was understood
    /// ([`Turn::intent`]).
    pub intent: Option<IntentResult>,
    pub error: Option<ErrorInfo>,
    /// The calls the page gets; `None`: those that ran.
    pub calls: Option<Vec<ToolCall>>,
    /// The review draft: kept (checkpointed by `save`) or dropped; `None`
    /// leaves it as stored.
    pub draft: Option<crate::agent::session_store::Draft>,
    /// The chips the reply leaves on screen (`Some(None)`: none); `None`
    /// leaves last turn's.
    pub chips: Option<Option<ToolCall>>,
    /// The advisor the reply is about, remembered for "他".
    pub about: Option<SelectedAdvisor>,
}

impl Answer {
    /// Words alone: the turn's intent, the calls that ran, no error.
    pub fn says(voice: String) -> Answer {
        Answer {
            voice,
            ..Answer::default()
        }
    }

    /// Words that answer the turn as `intent`.
    pub fn as_intent(voice: String, intent: IntentResult) -> Answer {
        Answer {
            voice,
            intent: Some(intent),
            ..Answer::default()
        }
    }
}

/// The reply as it is made.
#[derive(Default)]
pub(in crate::agent) struct Reply {
    /// The step that answered decided it (stored by the runner alone).
    pub answer: Option<Answer>,
    /// A ledger: each step adds what it reports ([`Reply::event`]).
    events: Vec<AgentEvent>,
    /// A planner failed and nothing answers (`apology`).
    pub failure: Option<PlanError>,
    pub persona_out: Option<&'static str>,
}

impl Reply {
    /// Adds an event to the reply (a switch, a degraded answer, the end).
    pub fn event(&mut self, event: AgentEvent) {
        self.events.push(event);
    }

    pub fn events(&self) -> &[AgentEvent] {
        &self.events
    }
}

/// What the models cost this turn, and whether the provider is down: a
/// ledger each step that asks a model adds its own line to
/// ([`Cost::spend`]); no step sets or takes what another spent.
#[derive(Default)]
pub(in crate::agent) struct Cost {
    model_calls: u32,
    /// Of `model_calls`, those made by classify, casual and coach (the rest
    /// are the planner's).
    calls_by: crate::agent::ModelCalls,
    tokens: u32,
    /// The provider failed earlier in this turn: it is not asked again.
    model_down: bool,
}

/// Who asked a model, besides the planner.
#[derive(Clone, Copy, Debug)]
pub(in crate::agent) enum Asker {
    Intent,
    Casual,
    Coach,
}

impl Cost {
    /// `calls` model calls and `tokens` tokens spent, by `asker` (`None`:
    /// the planner).
    pub fn spend(&mut self, asker: Option<Asker>, calls: u32, tokens: u32) {
        self.model_calls += calls;
        self.tokens += tokens;
        match asker {
            Some(Asker::Intent) => self.calls_by.intent += calls,
            Some(Asker::Casual) => self.calls_by.casual += calls,
            Some(Asker::Coach) => self.calls_by.coach += calls,
            None => {}
        }
    }

    /// The provider failed: no later step of the turn asks it.
    pub fn provider_down(&mut self) {
        self.model_down = true;
    }

    pub fn calls(&self) -> u32 {
        self.model_calls
    }

    pub fn tokens(&self) -> u32 {
        self.tokens
    }

    pub fn down(&self) -> bool {
        self.model_down
    }
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
            self.memory(),
            self.form(),
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
                memory,
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
            form: self.form(),
            memory: self.memory(),
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

    /// The student asked to start over (`intent`).
    pub(super) fn reset(&self) -> bool {
        self.understood.authorised.contains(&speech::Action::Reset)
    }

    /// The form as it stands: as stored, or empty after a reset; without
    /// what the student negated (`understand`); as the steered calls leave
    /// it (`steer`).
    pub(super) fn form(&self) -> &UserForm {
        if let Some(steered) = &self.proposed.steered {
            &steered.form
        } else if let Some(form) = &self.understood.form {
            form
        } else if self.reset() {
            &EMPTY_FORM
        } else {
            &self.input.session.form
        }
    }

    /// What the conversation remembers as the turn reads it: as stored, or
    /// nothing after a reset. What the turn adds is [`Turn::memory_after`].
    pub(super) fn memory(&self) -> &Memory {
        if self.reset() {
            &EMPTY_MEMORY
        } else {
            &self.input.memory
        }
    }

    /// The memory for the next turn: the turn's, with what the steps
    /// decided — a manual persona ended, the fields asked and the chips on
    /// screen, the advisor talked about (one opened, else the plan's focus,
    /// else the one a review is about), the place answer's offer.
    pub(super) fn memory_after(&self) -> Memory {
        let mut memory = self.memory().clone();
        if self.understood.manual_ended {
            memory.persona_manual = false;
        }
        let answer = self.reply.answer.as_ref();
        if let Some(steered) = &self.proposed.steered {
            memory.asked = steered.asked.clone();
            memory.pending = steered.pending.clone();
        }
        if let Some(chips) = answer.and_then(|a| a.chips.clone()) {
            memory.pending = chips;
        }
        let advisor = self.proposed.opened.as_ref();
        let advisor = advisor
            .or(self.plan().focus.as_ref())
            .or(answer.and_then(|a| a.about.as_ref()));
        if let Some(advisor) = advisor {
            memory.last_advisor = Some(advisor.clone());
        }
        if let Some(advisor) = memory.last_advisor.clone() {
            memory.remember(&advisor);
        }
        memory.offer = self.plan().offer.clone();
        memory
    }

    /// The plan that goes on to validation: a chip's, the merged one, or
    /// code's.
    pub(super) fn plan(&self) -> &Plan {
        match (&self.proposed.clicked, &self.proposed.merged) {
            (Some(clicked), _) => &clicked.plan,
            (None, Some(merged)) => merged,
            (None, None) => &self.proposed.plan,
        }
    }

    /// The persona the reply is stored under, if it changed: the persona
    /// step's choice, or the analysis persona a chip asks.
    pub(super) fn persona_out(&self) -> Option<&'static str> {
        let clicked = self.proposed.clicked.as_ref().and_then(|c| c.persona);
        clicked.or(self.reply.persona_out)
    }

    /// What the turn is, the most specific word last: the answer's own,
    /// a chip's, a plan answered from data, a model's label, code's intents.
    pub(super) fn intent(&self) -> IntentResult {
        let answered = self.reply.answer.as_ref().and_then(|a| a.intent.as_ref());
        answered
            .or(self.proposed.clicked.as_ref().map(|c| &c.intent))
            .or(self.proposed.intent.as_ref())
            .or(self.understood.classified.as_ref())
            .unwrap_or(&self.understood.intent)
            .clone()
    }
}
