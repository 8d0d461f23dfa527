//! One turn of the agent as an explicit graph: named steps, each a small
//! module of this folder, the edges in one function ([`next`]), one loop
//! with a step cap ([`Agent::walk`]). Code decides every edge; a language
//! model, when configured, is one step (`model`) whose proposal code merges
//! into what it understood itself.
//!
//! ```text
//!  prepared ─▶ session ─┬─ chip clicked ─▶ chip ──────────────────────────────┐
//!                       ├─ draft open ───▶ coach ─────────────────────────────┼──▶ save ─▶ end
//!                       │                    └─ not about the review ─▶ intent
//!                       └─▶ intent ─┬─ greeting / meaningless / reset ────────┤
//!                                   └─▶ understand ─┬─ "第二个" to the chips ─▶ chip
//!                                                   ├─ "先不用" to an offer ──────────┤
//!                                                   ├─ nothing understood, model ─▶ classify ─┬─ greeting / read_back ─┤
//!                                                   │                                         └─▶ resolve
//!                                                   └─▶ resolve ─┬─ "我想评价" ─▶ review ─┤
//!                                                              └─▶ persona ─┬─ casual ─▶ casual ─┤
//!                                                                           └─▶ plan ─┐         │
//!        ┌──────────────────────── model configured ◀───────────────────────────────┤         │
//!        └─▶ model ─▶ merge ─┐                                                     │         │
//!  chip ────────────────────┴─────────────────────────────────────────▶ validate ◀─┘         │
//!  validate ─▶ steer ─▶ execute ─┬─▶ narrate ──────────────────────────────────────────────┤
//!                                └─ no such advisor / data failed ─────────────────────────┤
//!  plan or merge with nothing that answers ─▶ apology ──────────────────────────────────────┘
//! ```
//!
//! - [`session`]: the open review draft, if any (the coach then has the turn).
//! - [`chip`]: a clicked chip sets its field, by code alone.
//! - [`coach`]: the review coach's graph — and `review`, which
//!   opens a review conversation about the resolved advisor.
//! - [`intent`]: the speech act of the message, greeting,
//!   meaningless input and reset (on a direct instruction only).
//! - [`understand`]: code's NLU on the student's own clauses, always — with
//!   or without a model; negated values leave the form; an answer in words
//!   to the chips on screen becomes their click; a yes to a place answer's
//!   offer ("看看导师排名？") names that place, a no ends the turn.
//! - [`classify`]: the model's intent classification, only for a message code
//!   understood nothing of; acted on above a confidence threshold.
//! - [`resolve`]: "第一个", "他", names → advisors, once for every later step.
//! - [`persona`]: who answers, and the casual persona's reply.
//! - [`plan`]: code's plan from the analysis; `model` asks the model only
//!   for what code left open; `merge` keeps what code found and lets the
//!   model add; a broken answer degrades to code's plan; `apology` only
//!   when neither can answer.
//! - [`validate`], [`steer`], [`execute`], [`narrate`]: checked, steered by
//!   the form's gaps, run, and spoken — a model's words only when
//!   every fact in them is in the data.
//! - [`save`]: the reply, stored in one transaction with the session.

mod chip;
pub(super) mod classify;
mod coach;
mod execute;
pub(super) mod intent;
pub(super) mod narrate;
pub(super) mod persona;
mod plan;
mod resolve;
pub(super) mod save;
mod session;
mod steer;
mod understand;
mod validate;

use app::protocol::{
    AgentEvent, ChatResponse, ErrorInfo, IntentResult, PageContext, ToolCall, UserForm,
};

use super::memory::Memory;
use super::nlu::Analysis;
use super::option::Chip;
use super::planner::{Plan, PlanError};
use super::session_store::Session;
use super::stream::VoiceSink;
use super::targets::Resolved;
use super::{Action, Agent, Prepared, TurnStats};
use crate::coach::state::CoachState;
use crate::speech_act::{self as speech, Reading};

/// The most steps one turn may take (the longest path is 14).
const MAX_STEPS: usize = 20;

/// The steps of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    Session,
    Chip,
    Coach,
    Intent,
    Understand,
    Classify,
    Resolve,
    Review,
    Persona,
    Casual,
    Plan,
    Model,
    Merge,
    Apology,
    Validate,
    Steer,
    Execute,
    Narrate,
    Save,
    End,
}

impl Step {
    /// The step's name in the metrics (`agent_turn_duration_seconds`).
    fn name(self) -> &'static str {
        use Step::*;
        match self {
            Session => "session",
            Chip => "chip",
            Coach => "coach",
            Intent => "intent",
            Understand => "understand",
            Classify => "classify",
            Resolve => "resolve",
            Review => "review",
            Persona => "persona",
            Casual => "casual",
            Plan => "plan",
            Model => "model",
            Merge => "merge",
            Apology => "apology",
            Validate => "validate",
            Steer => "steer",
            Execute => "execute",
            Narrate => "narrate",
            Save => "save",
            End => "end",
        }
    }
}

/// The edges: which step follows `step`, read from what the steps found.
fn next(step: Step, t: &Turn<'_>) -> Step {
    use Step::*;
    if t.failure.is_some() && !matches!(step, Apology | Save | End) {
        return Apology;
    }
    match step {
        Session if t.chip.is_some() => Chip,
        Session if t.draft.is_some() => Coach,
        // Not about the review: the agent answers, the draft is kept.
        Coach if t.digressed => Intent,
        Session => Intent,
        Intent if t.answered => Save,
        Intent => Understand,
        Understand if t.chip.is_some() => Chip,
        Understand if t.answered => Save,
        Understand if t.classify => Classify,
        Understand => Resolve,
        Classify if t.answered => Save,
        Classify => Resolve,
        Resolve if t.wants_review => Review,
        Resolve => Persona,
        Persona if t.persona == super::CASUAL => Casual,
        Persona => Plan,
        Plan if t.ask_model => Model,
        Plan => Validate,
        Model => Merge,
        Merge | Chip => Validate,
        Validate => Steer,
        Steer => Execute,
        Execute if t.answered => Save,
        Execute => Narrate,
        Coach | Review | Casual | Apology | Narrate => Save,
        Save | End => End,
    }
}

/// Whose words a turn's reply carries, for the facts check in `narrate`.
#[derive(Clone, Debug, Default)]
pub(super) enum Words {
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

/// Everything one turn reads and decides, step by step.
pub(super) struct Turn<'v> {
    // What arrived.
    pub session: Session,
    pub page: PageContext,
    /// The student's words (or the chip's label), as stored.
    pub user_text: String,
    /// The typed or spoken message; empty for a chip.
    pub text: String,
    pub sink: Option<&'v VoiceSink>,
    pub chip: Option<Chip>,
    // What the steps found.
    /// The open review draft (`session`).
    pub draft: Option<CoachState>,
    /// The draft as stored, read with the session (`Agent::prepare`).
    pub stored_draft: Option<CoachState>,
    /// Whose words each clause is and what it does to an action (`intent`).
    pub reading: Reading,
    pub intent: IntentResult,
    /// Consequential actions the speech act allows this turn.
    pub authorised: Vec<speech::Action>,
    pub form: UserForm,
    pub memory: Memory,
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
    pub wants_review: bool,
    /// A draft is open but the message is not about it (`coach`): the
    /// agent answers and the draft stays as stored.
    pub digressed: bool,
    /// The offer of last turn's place answer (taken from the memory: it
    /// lives one turn).
    pub offered: Option<crate::agent::about_place::PlaceOffer>,
    /// Code understood nothing and a model is configured (`classify`).
    pub classify: bool,
    /// The provider failed earlier in this turn: it is not asked again.
    pub model_down: bool,
    pub persona: &'static str,
    /// Code's plan (`plan`), and whether the model is asked too.
    pub code: Option<Result<Plan, PlanError>>,
    pub ask_model: bool,
    pub proposal: Option<Result<Plan, PlanError>>,
    /// The plan that goes on to validation.
    pub plan: Plan,
    pub words: Words,
    pub calls: Vec<ToolCall>,
    // The reply.
    pub voice: String,
    pub error: Option<ErrorInfo>,
    pub events: Vec<AgentEvent>,
    /// A step answered: the reply is decided.
    pub answered: bool,
    /// A planner failed and nothing answers (`apology`).
    pub failure: Option<PlanError>,
    pub persona_out: Option<&'static str>,
    pub draft_out: Option<crate::agent::session_store::Draft>,
    pub model_calls: u32,
    /// Of `model_calls`, those made by classify, casual and coach (the rest
    /// are the planner's).
    pub calls_by: super::ModelCalls,
    pub tokens: u32,
    pub reply: Option<ChatResponse>,
    /// Counted over the caller's quota when stored (`save`): seconds to wait.
    pub over_limit: Option<u64>,
}

impl<'v> Turn<'v> {
    fn new(prepared: Prepared, sink: Option<&'v VoiceSink>) -> Turn<'v> {
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
            offered,
            classify: false,
            model_down: false,
            persona: super::persona_named(&session.persona).unwrap_or(super::DEFAULT_PERSONA),
            session,
            page,
            user_text,
            text,
            sink,
            chip,
            draft: None,
            stored_draft: draft,
            reading: Reading::default(),
            intent: IntentResult::default(),
            authorised: Vec::new(),
            known: Vec::new(),
            analysis: Analysis::default(),
            unread: Vec::new(),
            foreign: Vec::new(),
            resolved: Resolved::default(),
            wants_review: false,
            digressed: false,
            code: None,
            ask_model: false,
            proposal: None,
            plan: Plan::default(),
            words: Words::Code,
            calls: Vec::new(),
            voice: String::new(),
            error: None,
            events: Vec::new(),
            answered: false,
            failure: None,
            persona_out: None,
            draft_out: None,
            model_calls: 0,
            calls_by: super::ModelCalls::default(),
            tokens: 0,
            reply: None,
            over_limit: None,
        }
    }

    /// What a planner reads of this turn: the one place the turn is shown to
    /// the planners (code's, the model's, the casual persona's), with the
    /// conversation so far (`history`), code's own plan (`understood`) and
    /// where a streamed reply goes (`voice`).
    fn plan_input<'a>(
        &'a self,
        history: &'a [super::session_store::HistoryEntry],
        understood: Option<&'a Plan>,
        voice: Option<&'a VoiceSink>,
    ) -> super::planner::PlanInput<'a> {
        super::planner::PlanInput {
            message: &self.text,
            analysis: &self.analysis,
            resolved: &self.resolved,
            form: &self.form,
            memory: &self.memory,
            page: &self.page,
            history,
            turn: self.session.memory.turns,
            understood,
            voice,
        }
    }

    /// The turn's model calls by why: what classify, casual and coach
    /// counted, and the planner's as `unread` or `fallback`.
    fn calls_by(&self) -> super::ModelCalls {
        let mut by = self.calls_by;
        let others = by.intent + by.casual + by.coach;
        let planner = self.model_calls.saturating_sub(others);
        if self.unread.is_empty() {
            by.fallback = planner;
        } else {
            by.unread = planner;
        }
        by
    }

    /// The turn answers with `voice` and nothing else.
    fn say(&mut self, voice: String) {
        self.voice = voice;
        self.answered = true;
    }
}

impl Agent {
    /// The newest lines of the conversation a model reads (none for a
    /// session this turn opens).
    async fn recent_history(&self, session: &Session) -> Vec<super::session_store::HistoryEntry> {
        if session.is_new {
            return Vec::new();
        }
        self.sessions
            .history(&session.id, super::HISTORY_LINES)
            .await
            .unwrap_or_default()
    }

    /// Runs the graph over a prepared turn. Never fails: a failing
    /// dependency ends in a spoken apology with `error`, and the turn is
    /// stored.
    pub(super) async fn walk(
        &self,
        prepared: Prepared,
        sink: Option<&VoiceSink>,
    ) -> (ChatResponse, TurnStats) {
        let started = std::time::Instant::now();
        let mut t = Turn::new(prepared, sink);
        let mut step = Step::Session;
        // The step that decided the reply: the last before `save`.
        let mut answered_by = Step::Session;
        let mut taken = 0;
        while step != Step::End {
            if !matches!(step, Step::Save | Step::End) {
                answered_by = step;
            }
            if taken == MAX_STEPS {
                // A cycle is a bug in the edges; the turn still answers.
                tracing::error!(?step, "the turn ran {MAX_STEPS} steps without ending");
                t.failure = Some(PlanError {
                    code: "internal_error".into(),
                    message: "回合未能结束".into(),
                });
                self.apology(&mut t);
                self.save(&mut t).await;
                break;
            }
            taken += 1;
            match step {
                Step::Session => self.session_step(&mut t),
                Step::Chip => self.chip(&mut t),
                Step::Coach => self.coach(&mut t).await,
                Step::Intent => self.intent(&mut t),
                Step::Understand => self.understand(&mut t).await,
                Step::Classify => self.classify(&mut t).await,
                Step::Resolve => self.resolve(&mut t).await,
                Step::Review => self.review(&mut t),
                Step::Persona => self.persona(&mut t),
                Step::Casual => self.casual(&mut t).await,
                Step::Plan => self.plan(&mut t).await,
                Step::Model => self.model(&mut t).await,
                Step::Merge => self.merge(&mut t),
                Step::Apology => self.apology(&mut t),
                Step::Validate => self.validate(&mut t).await,
                Step::Steer => self.steer(&mut t).await,
                Step::Execute => self.execute(&mut t).await,
                Step::Narrate => self.narrate(&mut t),
                Step::Save => self.save(&mut t).await,
                Step::End => {}
            }
            step = next(step, &t);
        }
        let elapsed = started.elapsed();
        let micros = elapsed.as_micros() as u64;
        let planner = if self.model.is_some() {
            "model"
        } else {
            "embedded"
        };
        crate::observe::turn(planner, answered_by.name(), elapsed);
        let reply = t.reply.take().expect("the save step always replies");
        tracing::info!(
            session = %crate::agent::session_store::short(&reply.session_id),
            intent = %reply.intent.intent,
            tools = ?reply.tool_calls.iter().map(|c| c.tool.as_str()).collect::<Vec<_>>(),
            error = reply.error.as_ref().map(|e| e.code.as_str()),
            model_calls = t.model_calls,
            tokens = t.tokens,
            steps = taken,
            micros,
            "turn"
        );
        (
            reply,
            TurnStats {
                model_calls: t.model_calls,
                calls_by: t.calls_by(),
                tokens: t.tokens,
                micros,
                over_limit: t.over_limit,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every step leads to `End` within the cap, whatever the flags say.
    #[test]
    fn every_path_ends() {
        let steps = [
            Step::Session,
            Step::Chip,
            Step::Coach,
            Step::Intent,
            Step::Understand,
            Step::Classify,
            Step::Resolve,
            Step::Review,
            Step::Persona,
            Step::Casual,
            Step::Plan,
            Step::Model,
            Step::Merge,
            Step::Apology,
            Step::Validate,
            Step::Steer,
            Step::Execute,
            Step::Narrate,
            Step::Save,
        ];
        for flags in 0u32..128 {
            let mut t = Turn::new(
                Prepared {
                    session: crate::agent::session_store::SessionStore::open(
                        super::super::ANALYSIS,
                    ),
                    draft: None,
                    page: PageContext::default(),
                    act: Action::Text("你好".into()),
                },
                None,
            );
            t.answered = flags & 1 != 0;
            t.wants_review = flags & 2 != 0;
            t.ask_model = flags & 4 != 0;
            if flags & 8 != 0 {
                t.persona = super::super::CASUAL;
            }
            if flags & 16 != 0 {
                t.failure = Some(PlanError {
                    code: "x".into(),
                    message: "x".into(),
                });
            }
            if flags & 32 != 0 {
                t.chip = Some(Chip::Skip {
                    field: "personality".into(),
                });
            }
            t.classify = flags & 64 != 0;
            t.digressed = flags & 2 != 0;
            for start in steps {
                let mut step = start;
                let mut n = 0;
                while step != Step::End {
                    step = next(step, &t);
                    n += 1;
                    assert!(n <= MAX_STEPS, "{start:?} loops with flags {flags:b}");
                }
            }
        }
    }
}
