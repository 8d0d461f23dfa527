//! `session`: the session is loaded and the page checked by
//! `Agent::prepare`; this step finds the review draft a message continues.
//! An open draft gives the coach the turn until the review is published or
//! abandoned.

use super::Turn;
use crate::agent::Agent;

impl Agent {
    pub(super) async fn session_step(&self, t: &mut Turn<'_>) {
        if t.chip.is_some() || t.session.is_new {
            return;
        }
        match self.drafts.load(&t.session.id).await {
            Ok(draft) => t.draft = draft,
            Err(e) => tracing::warn!(error = %e, "could not read the review draft"),
        }
    }
}
