//! `steer`: code, not the prompt, decides what the turn adds (seed 004):
//! the triggers (a complete form shows the ranking, wishes bring a
//! recommendation), the duplicate guard, and the chips of the phase the
//! form's gaps decide (`agent::steer`). The chips are about the form as this
//! turn leaves it, drawn from the database (`Agent::chip_source`).

use super::Turn;
use crate::agent::steer::{self, TurnFacts};
use crate::agent::{tools, Agent};

impl Agent {
    pub(super) async fn steer(&self, t: &mut Turn<'_>) {
        let mut form_after = t.form.clone();
        for call in t.calls.iter().filter(|c| c.tool == tools::UPDATE_FORM) {
            steer::apply_form_update(&mut form_after, &call.params);
        }
        let chip_data = self.chip_source(&form_after).await;
        let facts = TurnFacts {
            page: &t.page,
            about_form: t.plan.about_form,
            open: t.plan.open.clone(),
        };
        let steered = steer::steer(
            std::mem::take(&mut t.calls),
            &t.form,
            &t.memory,
            &facts,
            |_| chip_data,
        );
        t.calls = steered.calls;
        t.form = steered.form;
        t.memory = steered.memory;
    }
}
