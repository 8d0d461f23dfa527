//! The choose step: before the summary, a dimension the student's words did
//! not decide (named without a judgement, or not said) is offered as score
//! chips, never invented.

use serde_json::json;

use app::protocol::ToolCall;

use super::Walk;
use crate::coach::state::{CoachState, Dimension};
use crate::coach::Coach;

impl Coach {
    /// Score chips for the first dimension the words did not decide.
    pub(super) fn choose(&self, state: &mut CoachState, w: &mut Walk<'_>) {
        let Some(d) = state.undecided() else {
            w.error = Some("choose: nothing undecided".into());
            return;
        };
        let c = state.coverage(d);
        state.chosen.push(d);
        state.choosing = Some(d);
        w.turn.calls.push(score_chips(d, c.score.unwrap_or(3)));
        w.turn.reasoning = format!("{}的分数从原话看不出来，请学生选", d.name());
        let key = if c.mentioned {
            "choose_unsure"
        } else {
            "choose_unsaid"
        };
        let voice = self.say(key, state, &[("dimension", d.name())]);
        w.say(voice);
    }
}

/// Score chips for `d`: four scores around `around`, sent on as typed
/// ("3分", which the coach binds to the dimension it asked about).
fn score_chips(d: Dimension, around: u8) -> ToolCall {
    let start = around.saturating_sub(2).clamp(1, 2);
    let options: Vec<String> = (start..start + 4).map(|v| format!("{v}分")).collect();
    ToolCall {
        tool: "present_options".into(),
        params: json!({
            "question": format!("{}打几分？", d.name()),
            "options": options,
            "target_field": "general",
            "allow_skip": false,
            "multi_select": false,
        }),
        result: None,
    }
}
