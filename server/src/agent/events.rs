//! The events a reply carries beyond its words (extensions of the
//! protocol's `events`): a model answer code replaced, a conversation the
//! student ended. (A persona switch's
//! event is the `persona` step's: `turn/persona/switch.rs`.)

use app::protocol::AgentEvent;

/// The event type of a reply whose model answer code replaced (an
/// extension of the protocol's `events`).
pub const DEGRADED: &str = "degraded";

/// A model answer that was broken or failed, replaced by code's plan.
pub(crate) fn degraded_event(code: &str, message: &str) -> AgentEvent {
    crate::observe::degraded(code);
    let mut data = serde_json::Map::new();
    data.insert("reason".into(), code.into());
    // Not `message`: that would be a system line of the conversation.
    data.insert("detail".into(), message.into());
    AgentEvent {
        kind: DEGRADED.into(),
        data,
    }
}

/// The student said goodbye ("好了，谢谢"): the conversation may end. A
/// voice call in the panel hangs up once the reply is spoken; a text
/// conversation simply goes on when the student writes again.
pub(crate) fn conversation_end() -> AgentEvent {
    let mut data = serde_json::Map::new();
    data.insert("reason".into(), "farewell".into());
    AgentEvent {
        kind: app::protocol::CONVERSATION_END.into(),
        data,
    }
}
