//! `plan`, `model`, `merge` and `apology` (代码掌舵，AI 划桨: code steers,
//! the model rows).
//!
//! Code plans every turn from its own analysis. A configured model is
//! asked only when the turn needs more than code can say — words code did
//! not read (`Turn::unread`) or no answer but the generic fallback; not
//! when code understood the message whole, nor when it merely restates the
//! ranking on screen — and is told what code understood, as facts. `merge` keeps what code found and lets the model
//! add what code left open (`agent::merge`). A model that fails in any way
//! — down, too slow, skipped by the breaker, empty, unparseable, invalid —
//! leaves the turn exactly as code alone would take it, flagged `degraded`
//! in the reply's events: a model never makes a turn worse than no model.
//! The apology is for a turn code cannot answer either.

use app::protocol::{ErrorInfo, IntentResult, PageContext};

use super::{Answer, Decided, Outcome, Turn, Words};
use crate::agent::nlu::{Act, Analysis, Slot};
use crate::agent::planner::{
    embedded::EmbeddedPlanner, model::ModelPlanner, Plan, PlanError, Planner,
};
use crate::agent::replies::Templates;
use crate::agent::session_store::SessionStore;
use crate::agent::{degraded_event, merge};
use crate::llm::error::code_was_sent;

/// What `plan` reads besides the turn.
pub(super) struct PlanDeps<'a> {
    /// Code's planner, which plans every turn.
    pub embedded: &'a EmbeddedPlanner,
    /// A model is configured (it may be asked for what code left open).
    pub model_configured: bool,
}

impl PlanDeps<'_> {
    pub(super) async fn run(&self, t: &mut Turn<'_>) -> Decided {
        let code = self
            .embedded
            .plan(&t.plan_input(&[], None, t.input.sink))
            .await;
        t.proposed.intent = answered_from_data(t.understood.analysis.act);
        // The model is asked only for what code could not do: words code
        // did not read, or a turn code has only its generic fallback for.
        // Where code understood the message whole it would add nothing and
        // cost seconds.
        let code_short = code.as_ref().map_or(true, |plan| plan.open_ended);
        let ask_model = self.model_configured
            && !t.cost.down()
            && !restates_page(&t.understood.analysis, &t.input.page)
            && answered_from_data(t.understood.analysis.act).is_none()
            && (code_short || !t.understood.unread.is_empty());
        if !ask_model {
            return match code {
                Ok(plan) => {
                    t.proposed.plan = plan;
                    Outcome::Next.into()
                }
                Err(e) => Decided::Failed(e),
            };
        }
        // Words code did not read: its reply is not the whole answer, and
        // the model's may stand in for it (`merge`).
        let unread = !t.understood.unread.is_empty();
        t.proposed.code = Some(code.map(|plan| Plan {
            open_ended: plan.open_ended || unread,
            ..plan
        }));
        Outcome::AskModel.into()
    }
}

/// What `model` reads besides the turn: the model, and the conversation
/// it is shown.
pub(super) struct ModelDeps<'a> {
    pub model: Option<&'a ModelPlanner>,
    pub sessions: &'a SessionStore,
}

impl ModelDeps<'_> {
    pub(super) async fn run(&self, t: &mut Turn<'_>) {
        let Some(model) = self.model else {
            return;
        };
        let history = self.sessions.recent(&t.input.session).await;
        let understood = t.proposed.code.as_ref().and_then(|c| c.as_ref().ok());
        // The model's words reach the student only where code had no
        // answer of its own (`merge`); elsewhere they are not streamed.
        let speaks = understood.is_none_or(|plan| plan.open_ended);
        let voice = if speaks { t.input.sink } else { None };
        let proposal = model.plan(&t.plan_input(&history, understood, voice)).await;
        t.proposed.proposal = Some(proposal);
    }
}

/// `merge` reads the turn alone: code's plan and the model's proposal.
/// What it decides is the merged plan (`proposed.merged`) and whose words
/// it speaks.
pub(super) fn merge(t: &mut Turn<'_>) -> Decided {
    let (Some(proposal), Some(code)) = (t.proposed.proposal.clone(), t.proposed.code.clone())
    else {
        return Outcome::Next.into();
    };
    let merged = match (proposal, code) {
        (Ok(proposal), Ok(code)) => {
            let merged = merge::merge(code, proposal, t.form());
            if merged.model_words {
                t.proposed.words = Words::Model {
                    fallback: merged.code_voice,
                    about: merged.plan.focus.as_ref().map(|a| a.name.clone()),
                };
            }
            merged.plan
        }
        (Ok(proposal), Err(_)) => {
            t.proposed.words = Words::Model {
                fallback: String::new(),
                about: None,
            };
            proposal
        }
        // Nothing to add where code understood the turn: the model did
        // what it was asked (only what code left open), nothing degraded.
        (Err(e), Ok(code)) if e.code == "upstream_empty_reply" && !code.open_ended => {
            tracing::info!("the model added nothing to code's plan");
            Plan {
                model_calls: 1,
                ..code
            }
        }
        // Any other failure: code's plan, as with no model.
        (Err(e), Ok(code)) => {
            tracing::warn!(error = %e, "model failed; code's plan answers (degraded)");
            t.reply.event(degraded_event(&e.code, &e.message));
            Plan {
                model_calls: u32::from(code_was_sent(&e.code)),
                ..code
            }
        }
        // Code could not plan either: what it would say alone.
        (Err(e), Err(code)) => {
            tracing::warn!(error = %e, "model failed and code has no plan");
            t.reply.event(degraded_event(&e.code, &e.message));
            return Decided::Failed(code);
        }
    };
    t.proposed.merged = Some(merged);
    Outcome::Next.into()
}

/// The turn ends in a spoken apology for `e`, with its `error` and no
/// calls (a model that failed still costs its call); reads the words of
/// the apology besides the turn.
pub(super) fn apology(templates: &Templates, t: &mut Turn<'_>, e: PlanError) -> Answer {
    tracing::warn!(error = %e, "planner failed");
    t.cost.spend(None, u32::from(code_was_sent(&e.code)), 0);
    let key = if t.cost.calls() > 0 {
        "model_error"
    } else {
        "data_error"
    };
    Answer {
        voice: templates.render(key, t.input.session.memory.turns, &[]),
        error: Some(ErrorInfo {
            code: e.code,
            message: e.message,
            field: None,
        }),
        calls: Some(Vec::new()),
        ..Answer::default()
    }
}

/// The acts code answers wholly from its own data — the form read back, a
/// school or major's figures — with the reply's intent: no model is asked,
/// so no word of the answer can be anything but data.
fn answered_from_data(act: Act) -> Option<IntentResult> {
    let (intent, reasoning) = match act {
        Act::ReadBack => ("read_back", "学生问已记下的信息，按表单复述"),
        Act::AboutPlace => (
            "general_question",
            "学校或专业的一般问题，用站内数据回答，不填表",
        ),
        _ => return None,
    };
    Some(IntentResult {
        intent: intent.into(),
        confidence: 0.9,
        reasoning: reasoning.into(),
    })
}

/// The message only names the school and major whose ranking the page
/// already shows (the duplicate guard): code answers it without a
/// model call.
fn restates_page(a: &Analysis, page: &PageContext) -> bool {
    let (Some(Slot::One(school)), Some(Slot::One(major))) = (&a.school, &a.major) else {
        return false;
    };
    a.act == Act::None
        && a.references.is_empty()
        && a.research_direction.is_none()
        && a.personality.is_none()
        && a.research_style.is_none()
        && a.funding.is_none()
        && a.rejected.is_empty()
        && page.current_page == app::protocol::PageKind::Ranking
        && page
            .ranking_filters
            .as_ref()
            .is_some_and(|f| &f.school == school && &f.major == major)
}
