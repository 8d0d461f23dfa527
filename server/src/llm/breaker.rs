//! A circuit breaker for the model provider. A provider that is down (or
//! answering 5xx, or timing out) costs every turn its wait and its retries
//! before code answers anyway; after [`TRIPS_AFTER`] such failures in a row
//! the breaker opens and calls are skipped at once for [`COOL_DOWN`], so
//! turns meanwhile cost what the embedded planner costs. Then one call is
//! let through as a probe: an answer closes the breaker, a failure opens it
//! for another cool-down. Failures of the reply itself (garbled output, an
//! empty reply) say the provider is up and do not count.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Consecutive provider failures that open the breaker.
pub const TRIPS_AFTER: u32 = 3;
/// How long an open breaker skips the provider before probing it.
pub const COOL_DOWN: Duration = Duration::from_secs(30);

#[derive(Debug, Default)]
pub struct Breaker {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    failures: u32,
    /// Open until then; `None` while closed.
    open_until: Option<Instant>,
    /// A probe is out (half-open): other calls are still skipped.
    probing: bool,
}

/// Whether a call may go to the provider.
#[derive(Debug, PartialEq, Eq)]
pub enum Admit {
    Call,
    /// Skipped: the provider failed recently; the seconds until the probe.
    Skip(u64),
}

impl Breaker {
    pub fn admit(&self, now: Instant) -> Admit {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        match s.open_until {
            None => Admit::Call,
            Some(until) if now >= until && !s.probing => {
                s.probing = true;
                tracing::info!("model provider: probing after the cool-down");
                Admit::Call
            }
            Some(until) => Admit::Skip(until.saturating_duration_since(now).as_secs().max(1)),
        }
    }

    /// The provider answered: closed again.
    pub fn succeeded(&self) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if s.open_until.is_some() {
            tracing::info!("model provider answered again: breaker closed");
        }
        *s = State::default();
    }

    /// The provider failed (down, 5xx, 429, timed out).
    pub fn failed(&self, now: Instant) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.failures += 1;
        if s.probing || s.failures >= TRIPS_AFTER {
            if s.open_until.is_none() || s.probing {
                tracing::warn!(
                    failures = s.failures,
                    cool_down_s = COOL_DOWN.as_secs(),
                    "model provider keeps failing: skipped until the cool-down ends"
                );
            }
            s.open_until = Some(now + COOL_DOWN);
            s.probing = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_after_failures_in_a_row_and_probes_after_the_cool_down() {
        let b = Breaker::default();
        let t = Instant::now();
        for _ in 0..TRIPS_AFTER - 1 {
            b.failed(t);
            assert_eq!(b.admit(t), Admit::Call);
        }
        b.failed(t);
        assert_eq!(b.admit(t), Admit::Skip(COOL_DOWN.as_secs()));
        // One probe after the cool-down; the others still skip meanwhile.
        let later = t + COOL_DOWN;
        assert_eq!(b.admit(later), Admit::Call);
        assert!(matches!(b.admit(later), Admit::Skip(_)));
        // A failed probe opens it again; an answer closes it.
        b.failed(later);
        assert!(matches!(b.admit(later), Admit::Skip(_)));
        let again = later + COOL_DOWN;
        assert_eq!(b.admit(again), Admit::Call);
        b.succeeded();
        assert_eq!(b.admit(again), Admit::Call);
    }

    #[test]
    fn a_success_between_failures_starts_the_count_again() {
        let b = Breaker::default();
        let t = Instant::now();
        for _ in 0..5 {
            b.failed(t);
            b.failed(t);
            b.succeeded();
        }
        assert_eq!(b.admit(t), Admit::Call);
    }
}
