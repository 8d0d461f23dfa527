//! What a turn cost — model calls by why they were made, tokens, time — for
//! the log and the evaluation command.

/// What a turn cost, for the log and the evaluation command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnStats {
    pub model_calls: u32,
    /// The same calls by why the model was asked.
    pub calls_by: ModelCalls,
    pub tokens: u32,
    pub micros: u64,
    /// Counted over its caller's quota when it was stored (it raced other
    /// turns of the same client): nothing was stored, the reply says so,
    /// and the client may try again after these many seconds.
    pub over_limit: Option<u64>,
}

/// A turn's model calls by why the model was asked (a model only for what
/// code could not do). `server eval` reports them per turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelCalls {
    /// The model's intent classification of a message code read nothing of.
    pub intent: u32,
    /// The planner, for words code did not read.
    pub unread: u32,
    /// The planner, where code had only its generic fallback (or no plan).
    pub fallback: u32,
    /// The casual persona, for what its replies do not answer.
    pub casual: u32,
    /// The review coach's router and lines.
    pub coach: u32,
}

impl ModelCalls {
    /// The kinds with their names, in report order.
    pub fn named(&self) -> [(&'static str, u32); 5] {
        [
            ("intent", self.intent),
            ("unread", self.unread),
            ("fallback", self.fallback),
            ("casual", self.casual),
            ("coach", self.coach),
        ]
    }

    pub fn add(&mut self, other: &ModelCalls) {
        self.intent += other.intent;
        self.unread += other.unread;
        self.fallback += other.fallback;
        self.casual += other.casual;
        self.coach += other.coach;
    }
}
