//! The follow-up step: one question about a gap
//! the draft still has — the template's, or with a model its own words
//! about the same gap, if they pass the checks. It also asks, for the
//! editor, when the router's model failed.

use super::Walk;
use crate::coach::state::{CoachState, Dimension};
use crate::coach::Coach;

impl Coach {
    /// The follow-up: one question about a gap — the template's,
    /// or with a model its own words about the same gap, if they pass.
    pub(super) async fn follow_up(
        &self,
        state: &mut CoachState,
        w: &mut Walk<'_>,
        with_model: bool,
    ) {
        w.answered = true;
        let e = state.evaluation.clone().unwrap_or_default();
        if let Some(d) = e.dimensions.first().filter(|_| !e.specific) {
            if !state.asked.contains(d) {
                state.asked.push(*d);
                let said: String = w.text.chars().take(8).collect();
                w.turn.voice = self.say("ask_vague", state, &[("said", &said)]);
                return;
            }
        }
        let gap = self.next_gap(state);
        w.turn.voice = match gap {
            Some(d) => {
                state.asked.push(d);
                self.say(&format!("ask_{}", d.key()), state, &[])
            }
            None => self.say("ask_more", state, &[]),
        };
        let model = w.model.filter(|_| with_model && w.unread);
        if let (Some(client), Some(d)) = (model, gap) {
            w.turn.model_calls += 1;
            match self.follow_up_line(client, state, &e, d, &w.text).await {
                Ok(line) => w.turn.voice = line,
                Err(why) => {
                    w.turn.refused_lines += 1;
                    tracing::info!(why = %why, "the follow-up's model line is not said; the template is");
                }
            }
        }
    }

    /// The next dimension to ask about: never said and never asked.
    fn next_gap(&self, state: &CoachState) -> Option<Dimension> {
        Dimension::ALL
            .into_iter()
            .find(|d| !state.coverage(*d).mentioned && !state.asked.contains(d))
    }
}
