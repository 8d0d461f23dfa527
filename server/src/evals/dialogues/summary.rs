//! A suite's scores from its turn reports (pass rate, slot and tool-call
//! accuracy, model calls and tokens, latencies) and the summary the
//! evaluation command prints under the per-turn lines.

use super::TurnReport;
use crate::agent::ModelCalls;

/// A suite's scores.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub dialogues: usize,
    /// Turns the student took (visits not counted) and those that passed.
    pub turns: usize,
    pub passed: usize,
    /// Form fields expected / right.
    pub slots: (usize, usize),
    /// Turns with a tool expectation / met.
    pub tool_turns: (usize, usize),
    pub model_calls: u64,
    /// The same calls by why the model was asked.
    pub calls_by: ModelCalls,
    /// Turns on which the model was asked at all.
    pub model_turns: usize,
    pub tokens: u64,
    /// Turns that ended in an apology.
    pub errors: usize,
    /// Spoken names and figures found in neither results nor page.
    pub unsupported: usize,
    /// Turns code answered for a broken model answer.
    pub degraded: usize,
    pub p50_micros: u128,
    pub p95_micros: u128,
    /// Time to the first spoken sentence, p50 and p95.
    pub first_voice_p50_micros: u128,
    pub first_voice_p95_micros: u128,
}

impl Summary {
    pub fn of(dialogues: usize, reports: &[TurnReport]) -> Summary {
        let turns: Vec<&TurnReport> = reports
            .iter()
            .filter(|r| !r.input.starts_with("visit "))
            .collect();
        let mut micros: Vec<u128> = turns.iter().map(|r| r.micros).collect();
        micros.sort_unstable();
        let mut first: Vec<u128> = turns.iter().filter_map(|r| r.first_voice_micros).collect();
        first.sort_unstable();
        let at = |list: &[u128], p: usize| {
            list.get((list.len() * p / 100).min(list.len().saturating_sub(1)))
                .copied()
                .unwrap_or(0)
        };
        let pct = |p: usize| at(&micros, p);
        Summary {
            dialogues,
            turns: turns.len(),
            passed: turns.iter().filter(|r| r.passed()).count(),
            slots: turns
                .iter()
                .fold((0, 0), |(a, b), r| (a + r.slots.0, b + r.slots.1)),
            tool_turns: turns
                .iter()
                .filter_map(|r| r.tool_check)
                .fold((0, 0), |(a, b), ok| (a + 1, b + usize::from(ok))),
            model_calls: turns.iter().map(|r| u64::from(r.model_calls)).sum(),
            calls_by: turns
                .iter()
                .fold(Default::default(), |mut by: ModelCalls, r| {
                    by.add(&r.calls_by);
                    by
                }),
            model_turns: turns.iter().filter(|r| r.model_calls > 0).count(),
            tokens: turns.iter().map(|r| u64::from(r.tokens)).sum(),
            errors: turns.iter().filter(|r| r.error.is_some()).count(),
            unsupported: turns.iter().map(|r| r.unsupported.len()).sum(),
            degraded: turns.iter().filter(|r| r.degraded).count(),
            p50_micros: pct(50),
            p95_micros: pct(95),
            first_voice_p50_micros: at(&first, 50),
            first_voice_p95_micros: at(&first, 95),
        }
    }

    /// The report the evaluation command prints under the per-turn lines.
    pub fn render(&self, planner: &str) -> String {
        let ratio = |n: usize, d: usize| {
            if d == 0 {
                "—".to_string()
            } else {
                format!("{n}/{d} ({:.1}%)", n as f64 * 100.0 / d as f64)
            }
        };
        let per_turn = |n: u64| {
            if self.turns == 0 {
                0.0
            } else {
                n as f64 / self.turns as f64
            }
        };
        format!(
            "planner            {planner}\n\
             dialogues          {}\n\
             turns passed       {}\n\
             slot accuracy      {}\n\
             tool-call accuracy {}\n\
             model calls/turn   {:.2}  ({}; asked on {} turns)\n\
             tokens/turn        {:.0}\n\
             apologies          {}\n\
             degraded to code   {}\n\
             unsupported facts  {}\n\
             latency p50 / p95  {:.2} ms / {:.2} ms\n\
             first sentence     {:.2} ms / {:.2} ms (p50 / p95)\n",
            self.dialogues,
            ratio(self.passed, self.turns),
            ratio(self.slots.1, self.slots.0),
            ratio(self.tool_turns.1, self.tool_turns.0),
            per_turn(self.model_calls),
            self.calls_by
                .named()
                .iter()
                .map(|(why, n)| format!("{why} {:.2}", per_turn(u64::from(*n))))
                .collect::<Vec<_>>()
                .join(" · "),
            self.model_turns,
            per_turn(self.tokens),
            self.errors,
            self.degraded,
            self.unsupported,
            self.p50_micros as f64 / 1000.0,
            self.p95_micros as f64 / 1000.0,
            self.first_voice_p50_micros as f64 / 1000.0,
            self.first_voice_p95_micros as f64 / 1000.0,
        )
    }
}
