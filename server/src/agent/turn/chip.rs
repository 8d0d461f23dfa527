//! `chip`: a clicked chip sets its form field (or skips it) by code alone;
//! the update goes on through validation like any proposal. A chip answers
//! a question of the form, which is the data side: a casual session
//! switches to the analysis persona.

use app::protocol::IntentResult;

use super::persona::{switch_event, Reason};
use super::{Clicked, Turn};
use crate::agent::option::Chip;
use crate::agent::planner::Plan;
use crate::agent::{ANALYSIS, CASUAL};

/// Reads the turn alone: the chip `session` or `understand` found.
/// Returns what the chip asks; the runner keeps it.
pub(super) fn run(t: &mut Turn<'_>) -> Clicked {
    let (field, call) = match t.understood.chip.clone() {
        Some(Chip::Update { field, call }) => (Some(field), Some(call)),
        Some(Chip::Skip { field }) => (Some(field), None),
        Some(Chip::Text(_)) | None => (None, None),
    };
    let plan = Plan {
        tool_calls: call.into_iter().collect(),
        about_form: true,
        ..Plan::default()
    };
    let intent = IntentResult {
        intent: "option".into(),
        confidence: 1.0,
        reasoning: "点击选项，直接更新表单".into(),
    };
    let mut persona = None;
    if t.input.session.persona == CASUAL {
        if let Some(sink) = t.input.sink {
            sink.switch(ANALYSIS, &app::protocol::switch_message(CASUAL, ANALYSIS));
        }
        persona = Some(ANALYSIS);
        t.reply
            .event(switch_event(CASUAL, ANALYSIS, &Reason::DataNeeded));
    }
    Clicked {
        plan,
        intent,
        persona,
        asked: field,
    }
}
