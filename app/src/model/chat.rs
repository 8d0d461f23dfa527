//! A stored conversation as the agent panel restores it after a reload:
//! its messages, form, waiting chips and the page it was last on.

use serde::{Deserialize, Serialize};

/// One message of a conversation as the panel shows it after a reload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ChatMessage {
    /// `user`, `assistant` or `system` (an event such as a persona switch).
    pub role: String,
    pub content: String,
    #[serde(default)]
    pub agent: Option<String>,
}

/// A stored conversation: what the panel restores after a reload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ChatHistory {
    pub session_id: String,
    pub agent: String,
    pub messages: Vec<ChatMessage>,
    pub form: crate::protocol::UserForm,
    /// The chips still waiting for an answer (the last `present_options`), if any.
    pub options: Option<crate::protocol::ToolCall>,
    /// When the session was opened, ISO 8601 UTC.
    #[serde(default)]
    pub start_time: String,
    /// The page the student was on at the last turn, as the panel sent it.
    #[serde(default)]
    pub page_context: crate::protocol::PageContext,
}
