//! Code alone against a model on the same suite: which turns the model
//! rescues and which it breaks. Kept apart from the summary because it reads
//! two runs, not one.

use super::TurnReport;

/// The same suite on code alone and with a model, turn by turn: the turns
/// the model rescues (wrong or half right on code alone, right with it) and
/// those it breaks (right on code alone, wrong with it; there should be
/// none: a model must never make a turn worse).
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    pub turns: usize,
    pub rescued: Vec<String>,
    pub broken: Vec<String>,
}

impl Comparison {
    pub fn of(embedded: &[TurnReport], model: &[TurnReport]) -> Comparison {
        let mut out = Comparison::default();
        for (e, m) in embedded.iter().zip(model) {
            if e.input.starts_with("visit ") {
                continue;
            }
            out.turns += 1;
            let line = || {
                format!(
                    "[{}] #{} «{}» → «{}»",
                    m.dialogue,
                    m.index + 1,
                    m.input,
                    m.voice
                )
            };
            match (e.passed(), m.passed()) {
                (false, true) => out.rescued.push(line()),
                (true, false) => {
                    out.broken
                        .push(format!("{}\n      {}", line(), m.failures.join("; ")))
                }
                _ => {}
            }
        }
        out
    }

    pub fn render(&self) -> String {
        let mut text = format!(
            "turns compared     {}\nrescued by model   {}\nbroken by model    {}\n",
            self.turns,
            self.rescued.len(),
            self.broken.len()
        );
        for line in &self.broken {
            text.push_str(&format!("  BROKEN  {line}\n"));
        }
        text
    }
}
