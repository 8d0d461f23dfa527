//! `classify`: seed 001's model classification, for a message code
//! understood nothing of (`agent::classify`). A greeting or a read-back
//! question the model is confident of is answered here, by code's own
//! template and code's own reading of the form; anything else goes on to
//! `resolve` as code would have taken it, with code's `unknown` intent. A
//! provider that is down changes nothing: the turn goes on as it would with
//! no model (flagged `degraded`), and the breaker (`llm::breaker`) spares
//! the planner's call the same wait.

use super::Turn;
use crate::agent::classify::{self, ModelIntent, Unclassified};
use crate::agent::Agent;

impl Agent {
    pub(super) async fn classify(&self, t: &mut Turn<'_>) {
        let Some(model) = &self.model else {
            return;
        };
        match classify::classify(model.client(), &t.text).await {
            Ok((c, tokens)) => {
                t.model_calls += 1;
                t.calls_by.intent += 1;
                t.tokens += tokens;
                tracing::debug!(
                    intent = c.intent.name(),
                    confidence = c.confidence,
                    "model intent"
                );
                let normalized = crate::catalog::normalize(&t.text);
                let question = crate::agent::nlu::is_question(&t.text, &self.lexicons);
                if !c.acted_on()
                    || !self
                        .intent_evidence
                        .supports(c.intent, &normalized, question)
                {
                    tracing::info!(
                        intent = c.intent.name(),
                        confidence = c.confidence,
                        "the model's intent is not taken (below the threshold or not borne out)"
                    );
                    return;
                }
                let turn = t.session.memory.turns;
                t.intent = c.result();
                match c.intent {
                    ModelIntent::Greeting => t.say(self.templates.render("greeting", turn, &[])),
                    ModelIntent::ReadBack => {
                        t.say(
                            self.readback
                                .answer(&t.form, &normalized, &self.templates, turn),
                        )
                    }
                    ModelIntent::Unknown => {}
                }
            }
            Err(Unclassified::Unavailable(e)) => {
                tracing::warn!(error = %e, "the model is unavailable; code takes the turn as it would alone");
                t.model_calls += u32::from(e.was_sent());
                t.calls_by.intent += u32::from(e.was_sent());
                t.model_down = true;
                t.events
                    .push(crate::agent::degraded_event(e.code(), &e.message()));
            }
            Err(Unclassified::Unusable(why)) => {
                t.model_calls += 1;
                t.calls_by.intent += 1;
                tracing::warn!(error = %why, "the model's intent classification is unusable; code's fallback");
            }
        }
    }
}
