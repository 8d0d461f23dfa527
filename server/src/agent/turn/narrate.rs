//! `narrate`: what the turn says. Nothing internal is spoken (tool names,
//! annotations, JSON: `agent::voice`). A model's words are said only when
//! every advisor name and figure in them is in the turn's results, the page
//! or code's own reply (`agent::facts`); otherwise code's words are said and
//! the reply carries a `degraded` event. Code speaks from the results when
//! no planner did (`agent::narrate`).

use app::protocol::AgentEvent;

use super::{Turn, Words};
use crate::agent::{facts, Agent, DEGRADED};
use crate::voice;

impl Agent {
    pub(super) fn narrate(&self, t: &mut Turn<'_>) {
        let mut spoken = voice::clean(&t.plan.voice_response, &self.tool_names);
        if let Words::Model { fallback, about } = std::mem::take(&mut t.words) {
            let mut grounding = facts::Grounding::default();
            for call in &t.calls {
                grounding.add_json(&call.params);
                if let Some(result) = &call.result {
                    grounding.add_json(result);
                }
            }
            match &about {
                Some(name) => grounding.add_text(name),
                None => grounding.add_page(&t.page),
            }
            grounding.add_figures(&fallback);
            let claims = facts::unsupported(&spoken, &grounding, &t.known, &self.surnames);
            if !claims.is_empty() {
                tracing::warn!(
                    ?claims,
                    "the model's reply states what the data does not; code narrates"
                );
                let mut data = serde_json::Map::new();
                data.insert("reason".into(), "unsupported_facts".into());
                data.insert("claims".into(), claims.into());
                t.events.push(AgentEvent {
                    kind: DEGRADED.into(),
                    data,
                });
                spoken = voice::clean(&fallback, &self.tool_names);
            }
        }
        if t.chip.is_some() && t.calls.is_empty() && t.error.is_none() {
            spoken = self
                .templates
                .render("skip_ack", t.session.memory.turns, &[]);
        }
        t.voice = if spoken.trim().is_empty() {
            self.narrator().narrate(&t.calls, &t.form, t.memory.turns)
        } else {
            spoken
        };
    }
}
