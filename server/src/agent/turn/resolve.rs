//! `resolve`: the advisors the message points at, found once
//! (`agent::resolve`) and read by every later step — the planners, the
//! review coach's subject, the facts a model is told.

use super::Turn;
use crate::agent::resolve::{self, Scene};
use crate::agent::Agent;

impl Agent {
    pub(super) async fn resolve(&self, t: &mut Turn<'_>) {
        let scene = Scene {
            message: &t.text,
            analysis: &t.analysis,
            page: &t.page,
            memory: &t.memory,
            form: &t.form,
        };
        t.resolved = resolve::resolve(&self.site, &self.surnames, &scene).await;
    }
}
