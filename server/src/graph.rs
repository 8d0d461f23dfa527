//! The one runner of the site's two graphs, the agent's turn
//! (`agent/turn`) and the review coach's (`coach/graph`): named steps, the
//! edges in one `next`, one loop with a step cap. Each graph says what its
//! steps are and do and where each leads; this says how a walk goes, once,
//! so the two cannot drift apart in how they start, stop or give up.

use std::fmt::Debug;
use std::future::Future;

/// A graph of named steps, walked from [`Graph::START`] until
/// [`Graph::END`].
pub trait Graph {
    /// The steps, by name.
    type Step: Copy + PartialEq + Debug;
    /// What a step decided, which `next` reads.
    type Outcome;
    const START: Self::Step;
    const END: Self::Step;
    /// The most steps one walk may take: a cycle is a bug in the edges.
    const MAX_STEPS: usize;
    /// The graph's name in the log line of a cycle.
    const NAME: &'static str;

    /// Runs `step` on the graph's state.
    fn run(&mut self, step: Self::Step) -> impl Future<Output = Self::Outcome> + Send;

    /// The step that follows `step`, given what it decided (and, for a graph
    /// whose edges read its state, that state).
    fn next(&self, step: Self::Step, outcome: Self::Outcome) -> Self::Step;

    /// The walk ran [`Graph::MAX_STEPS`] steps without ending at `step`:
    /// the graph still answers (an apology), and the walk stops.
    fn cycled(&mut self, step: Self::Step) -> impl Future<Output = ()> + Send;
}

/// What a walk did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Walked<S> {
    /// Steps run.
    pub steps: usize,
    /// The last step run that does not only settle what was decided: the
    /// step that answered, for the metrics.
    pub answered_by: S,
}

/// Walks `g` from its start to its end. `settles(step)` names the steps
/// that only store or close what was decided (they do not count as the
/// step that answered).
pub async fn walk<G: Graph + Send>(
    g: &mut G,
    settles: impl Fn(G::Step) -> bool,
) -> Walked<G::Step> {
    let mut step = G::START;
    let mut walked = Walked {
        steps: 0,
        answered_by: G::START,
    };
    while step != G::END {
        if walked.steps == G::MAX_STEPS {
            tracing::error!(
                ?step,
                graph = G::NAME,
                "the walk ran {} steps without ending",
                G::MAX_STEPS
            );
            g.cycled(step).await;
            break;
        }
        if !settles(step) {
            walked.answered_by = step;
        }
        walked.steps += 1;
        let outcome = g.run(step).await;
        step = g.next(step, outcome);
    }
    walked
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter that goes 0 → 1 → 2 → end, or round forever.
    struct Count {
        cycle: bool,
        cycled: bool,
    }

    impl Graph for Count {
        type Step = u8;
        type Outcome = ();
        const START: u8 = 0;
        const END: u8 = 9;
        const MAX_STEPS: usize = 5;
        const NAME: &'static str = "count";

        async fn run(&mut self, _step: u8) {}

        fn next(&self, step: u8, _: ()) -> u8 {
            match step {
                2 if self.cycle => 0,
                2 => 9,
                s => s + 1,
            }
        }

        async fn cycled(&mut self, _step: u8) {
            self.cycled = true;
        }
    }

    #[tokio::test]
    async fn a_walk_ends_or_gives_up_at_the_cap() {
        let mut g = Count {
            cycle: false,
            cycled: false,
        };
        let w = walk(&mut g, |s| s == 2).await;
        assert_eq!(w.steps, 3);
        assert_eq!(w.answered_by, 1);
        assert!(!g.cycled);
        let mut g = Count {
            cycle: true,
            cycled: false,
        };
        assert_eq!(walk(&mut g, |_| false).await.steps, 5);
        assert!(g.cycled);
    }
}
