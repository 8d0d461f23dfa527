//! `session`: the session and its review draft are read (one read) and the
//! page checked by `Agent::prepare`; this step takes up the draft a message
//! continues. An open draft gives the coach the turn until the review is
//! published or abandoned; a clicked chip is the agent's, and leaves the
//! draft as stored.

use super::{Outcome, Turn};

/// Reads the turn alone: a clicked chip, or the draft as stored.
pub(super) fn run(t: &mut Turn<'_>) -> Outcome {
    if t.understood.chip.is_some() {
        return Outcome::Chip;
    }
    t.understood.draft = t.input.stored_draft.take();
    if t.understood.draft.is_some() {
        Outcome::Draft
    } else {
        Outcome::Next
    }
}
