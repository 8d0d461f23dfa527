//! `validate`: every proposal — code's, a model's, a chip's — checked the
//! same way before anything runs (`agent::validate`): unknown tools
//! dropped, names made canonical, preference values known ones, advisor ids
//! that exist, consequential tools only with the speech act's consent. Form
//! values that are only someone else's, or that the student negated, are
//! taken out first, whichever planner proposed them.

use app::protocol::ToolCall;

use super::Turn;
use crate::agent::validate::Validator;
use crate::agent::{tools, Agent};

impl Agent {
    pub(super) async fn validate(&self, t: &mut Turn<'_>) {
        if let Some(focus) = t.plan.focus.clone() {
            t.memory.last_advisor = Some(focus);
        }
        // A model's classification (`classify`) may have cost a call already.
        t.model_calls += t.plan.model_calls;
        t.tokens += t.plan.tokens;
        // A place answer's offer lives until the next turn.
        t.memory.offer = t.plan.offer.take();
        let proposed = own_values_only(std::mem::take(&mut t.plan.tool_calls), &t.foreign);
        let validator = Validator {
            site: &self.site,
            registry: &self.registry,
            authorised: &t.authorised,
        };
        let (calls, corrections) = validator.validate(proposed, &t.form, &t.page).await;
        for c in &corrections {
            tracing::debug!(tool = %c.tool, what = %c.what, "proposal corrected");
        }
        t.calls = calls;
    }
}

/// `calls` with every `update_form` value in `foreign` (negated, or only
/// someone else's) taken out; a form update left empty is dropped.
fn own_values_only(calls: Vec<ToolCall>, foreign: &[String]) -> Vec<ToolCall> {
    if foreign.is_empty() {
        return calls;
    }
    let is_foreign = |v: &serde_json::Value| {
        v.as_str()
            .is_some_and(|s| foreign.iter().any(|f| f == s.trim()))
    };
    calls
        .into_iter()
        .filter_map(|mut call| {
            if call.tool != tools::UPDATE_FORM {
                return Some(call);
            }
            if let Some(params) = call.params.as_object_mut() {
                params.retain(|_, v| !is_foreign(v));
                if let Some(prefs) = params
                    .get_mut("preferences")
                    .and_then(|p| p.as_object_mut())
                {
                    prefs.retain(|_, v| !is_foreign(v));
                }
                if params.is_empty() {
                    return None;
                }
            }
            Some(call)
        })
        .collect()
}
