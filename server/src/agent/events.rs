//! The events a reply carries beyond its words (extensions of the
//! protocol's `events`): a model answer code replaced, and a persona switch.

use app::protocol::AgentEvent;

use super::persona::{self, Reason};

/// The event type of a reply whose model answer code replaced (an
/// extension of the protocol's `events`).
pub const DEGRADED: &str = "degraded";

/// A model answer that was broken or failed, replaced by code's plan.
pub(crate) fn degraded_event(code: &str, message: &str) -> AgentEvent {
    let mut data = serde_json::Map::new();
    data.insert("reason".into(), code.into());
    // Not `message`: that would be a system line of the conversation.
    data.insert("detail".into(), message.into());
    AgentEvent {
        kind: DEGRADED.into(),
        data,
    }
}

/// The `agent_switched` event of seed 002 §2.2, whose message is also the
/// system line stored in the conversation.
pub(crate) fn switch_event(from: &str, to: &'static str, why: &Reason) -> AgentEvent {
    let mut data = serde_json::Map::new();
    data.insert("from".into(), from.into());
    data.insert("to".into(), to.into());
    data.insert("message".into(), persona::switch_message(from, to).into());
    data.insert(
        "reason".into(),
        match why {
            Reason::Asked => "asked".into(),
            Reason::DataNeeded => "data_needed".into(),
            Reason::Keyword(k) => format!("keyword:{k}").into(),
        },
    );
    AgentEvent {
        kind: "agent_switched".into(),
        data,
    }
}
