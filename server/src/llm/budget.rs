//! The turn's latency budget: a voice panel that waits more than
//! a few seconds is broken, whatever the model would have said. The agent
//! runs each turn inside [`within`]; every model call of the turn — the
//! intent classification, the planner, the casual persona, the coach's
//! lines — ends by the turn's deadline (`LLM_TURN_BUDGET_SECS`, default 6 s),
//! and code's own answer is spoken instead of a late one. Outside a turn
//! (the evaluation of the coach alone, say) only the call's own timeout
//! holds.
//!
//! A task-local value rather than a parameter: the deadline belongs to the
//! turn, and every call below it must keep it without each step having to
//! pass it on.

use std::future::Future;
use std::time::{Duration, Instant};

tokio::task_local! {
    static TURN_DEADLINE: Instant;
}

/// Runs `f` with a turn deadline `budget` from now.
pub async fn within<F: Future>(budget: Duration, f: F) -> F::Output {
    TURN_DEADLINE.scope(Instant::now() + budget, f).await
}

/// The deadline of the turn this task runs, if any.
pub fn deadline() -> Option<Instant> {
    TURN_DEADLINE.try_with(|d| *d).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_turn_has_its_deadline_and_nothing_else_does() {
        assert_eq!(deadline(), None);
        let before = Instant::now();
        let inside = within(Duration::from_secs(6), async { deadline() }).await;
        let d = inside.expect("a deadline inside the turn");
        assert!(d >= before + Duration::from_secs(6));
        assert!(d <= Instant::now() + Duration::from_secs(6));
        assert_eq!(deadline(), None);
    }
}
