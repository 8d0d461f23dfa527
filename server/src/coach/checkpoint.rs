//! Checkpoints of the coach's graph state, one per chat session (seed 003's
//! checkpointer): read before a turn, written after it in the same
//! transaction as nothing else — a failed write is logged and the draft
//! stays as it was before the turn.

use crate::db::Pool;

use super::state::CoachState;

#[derive(Clone)]
pub struct Checkpoints {
    pool: Pool,
}

impl Checkpoints {
    pub fn new(pool: Pool) -> Checkpoints {
        Checkpoints { pool }
    }

    /// The draft of a session, if one is in progress. A checkpoint that no
    /// longer parses (an older shape) counts as none.
    pub async fn load(&self, session_id: &str) -> Result<Option<CoachState>, sqlx::Error> {
        let state = crate::store::sessions::checkpoint(&self.pool, session_id).await?;
        Ok(state.and_then(|s| serde_json::from_str(&s).ok()))
    }

    /// Writes the state (the session row must exist: call after the turn is saved).
    pub async fn save(&self, session_id: &str, state: &CoachState) -> Result<(), sqlx::Error> {
        let json = serde_json::to_string(state).unwrap_or_else(|_| "{}".into());
        crate::store::sessions::save_checkpoint(&self.pool, session_id, &json).await
    }

    /// The review was published or abandoned.
    pub async fn clear(&self, session_id: &str) -> Result<(), sqlx::Error> {
        crate::store::sessions::clear_checkpoint(&self.pool, session_id).await
    }
}
