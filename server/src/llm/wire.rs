//! The JSON of OpenAI-compatible Chat Completions, as far as this site uses
//! it. Replies are read leniently — every field optional — because the
//! compatible servers differ in what they leave out.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A message sent to the model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WireMessage {
    pub role: String,
    pub content: String,
}

impl WireMessage {
    pub fn new(role: &str, content: impl Into<String>) -> WireMessage {
        WireMessage {
            role: role.to_string(),
            content: content.into(),
        }
    }
}

/// The request body.
#[derive(Clone, Debug, Serialize)]
pub struct RequestBody<'a> {
    pub model: &'a str,
    pub messages: &'a [WireMessage],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<&'a Value>,
    pub temperature: f32,
    pub max_tokens: u32,
    pub stream: bool,
    /// Asks streaming servers for a final chunk with token usage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_options: Option<Value>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Usage {
    #[serde(default)]
    pub prompt_tokens: u32,
    #[serde(default)]
    pub completion_tokens: u32,
    #[serde(default)]
    pub total_tokens: u32,
}

impl Usage {
    pub fn total(&self) -> u32 {
        self.total_tokens
            .max(self.prompt_tokens + self.completion_tokens)
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct FunctionCall {
    #[serde(default)]
    pub name: Option<String>,
    /// A JSON text (a few servers send an object instead; both are accepted).
    #[serde(default)]
    pub arguments: Option<Value>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct ToolCallWire {
    /// Which call a stream delta continues (streaming only).
    #[serde(default)]
    pub index: Option<usize>,
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub function: Option<FunctionCall>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct ReplyMessage {
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default)]
    pub tool_calls: Option<Vec<ToolCallWire>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Choice {
    #[serde(default)]
    pub message: Option<ReplyMessage>,
    /// Streaming chunks carry `delta` instead of `message`.
    #[serde(default)]
    pub delta: Option<ReplyMessage>,
    #[serde(default)]
    pub finish_reason: Option<String>,
}

/// A whole reply, or one chunk of a streamed one.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ReplyBody {
    #[serde(default)]
    pub choices: Vec<Choice>,
    #[serde(default)]
    pub usage: Option<Usage>,
}

/// `arguments` as text, whichever way the server sent it.
pub fn arguments_text(arguments: &Option<Value>) -> String {
    match arguments {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}
