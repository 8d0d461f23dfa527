//! Checkpoints of the coach's graph state, one per chat session (the graph's
//! checkpointer): read with the session before a turn, written in the same
//! transaction that stores the turn (`agent::session_store::SessionStore`), so a
//! draft and the conversation it came from are never out of step. This
//! module is their shape on the way in and out.

use super::state::CoachState;

/// The draft a stored checkpoint holds. One that no longer parses (an
/// older shape) counts as none.
pub fn parse(state: Option<&str>) -> Option<CoachState> {
    state.and_then(|s| serde_json::from_str(s).ok())
}

/// The draft as it is stored.
pub fn json(state: &CoachState) -> String {
    serde_json::to_string(state).unwrap_or_else(|_| "{}".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draft_survives_its_checkpoint_and_a_stale_one_is_none() {
        let state = CoachState::default();
        assert_eq!(parse(Some(&json(&state))), Some(state));
        assert_eq!(parse(Some("{\"not\": \"a draft\"")), None);
        assert_eq!(parse(None), None);
    }
}
