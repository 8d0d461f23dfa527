//! `execute`: the steered calls run in order, each with its result
//! attached (`agent::tools`). An advisor that does not exist (a stale or
//! forged id) is the student's answer, not our failure; a failing data
//! source ends the turn with an apology and `error`.

use app::protocol::{ErrorInfo, SelectedAdvisor, ToolCall};

use super::{Answer, Decided, Outcome, Turn};
use crate::agent::replies::Templates;
use crate::agent::tools::{Executor, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS};

/// What the step reads besides the turn: the tools' executor (the data
/// and the recommender) and the words of a failure.
pub(super) struct Deps<'a> {
    pub executor: Executor<'a>,
    pub templates: &'a Templates,
}

impl Deps<'_> {
    /// The plan's tool calls run; an advisor that does not exist, or data
    /// that cannot be read, answers the turn at once.
    pub(super) async fn run(&self, t: &mut Turn<'_>) -> Decided {
        let executor = &self.executor;
        let mut ran = Vec::with_capacity(t.proposed.calls.len());
        let (mut answer, mut opened) = (None, None);
        for call in &t.proposed.calls {
            match executor.execute(call).await {
                Ok(result) => {
                    let call = ToolCall {
                        result,
                        ..call.clone()
                    };
                    if call.tool == GET_ADVISOR_DETAIL || call.tool == GET_ADVISOR_REVIEWS {
                        opened = advisor_of(&call).or(opened);
                    }
                    ran.push(call);
                }
                // What ran before is shown, with the answer that the
                // advisor does not exist.
                Err(e) if e.info.code == "unknown_advisor" => {
                    tracing::info!(tool = %call.tool, "no such advisor");
                    let voice = self
                        .templates
                        .render("advisor_missing", t.memory().turns, &[]);
                    answer = Some(Answer::says(voice));
                    break;
                }
                Err(e) => {
                    tracing::error!(tool = %call.tool, error = %e, "tool failed");
                    // Nothing of a failed turn is shown: the apology alone.
                    let turn = t.memory().turns;
                    let voice = self.templates.render("data_error", turn, &[]);
                    answer = Some(Answer {
                        voice,
                        error: Some(ErrorInfo {
                            code: "upstream_unavailable".into(),
                            message: e.info.message,
                            field: None,
                        }),
                        calls: Some(Vec::new()),
                        ..Answer::default()
                    });
                    break;
                }
            }
        }
        t.proposed.executed = ran;
        t.proposed.opened = opened;
        match answer {
            Some(answer) => Decided::answered(answer),
            None => Outcome::Next.into(),
        }
    }
}

/// The advisor a detail or reviews call was about.
fn advisor_of(call: &ToolCall) -> Option<SelectedAdvisor> {
    let id = call.params.get("advisor_id")?.as_str()?.to_string();
    let name = call
        .result
        .as_ref()
        .and_then(|r| r.get("name"))
        .or_else(|| call.params.get("advisor_name"))
        .and_then(|n| n.as_str())
        .unwrap_or_default()
        .to_string();
    Some(SelectedAdvisor { id, name })
}
