//! The one error type of reads and writes: an HTTP status and the protocol's
//! `{code, message, field}` body with a Chinese message for the student.

use serde::{Deserialize, Serialize};

use crate::protocol::ErrorInfo;

/// The message of `unknown_session`; the panel recognises it (server
/// functions carry only the message) and opens a fresh session.
pub const UNKNOWN_SESSION_MESSAGE: &str = "会话不存在或已过期，请开始新的对话。";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{} ({}): {}", info.code, status, info.message)]
pub struct ApiError {
    pub status: u16,
    pub info: ErrorInfo,
    /// Seconds after which a refused request (429) may be sent again: the
    /// `Retry-After` header of the response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
}

/// The message of a chat turn refused for coming too fast.
pub const TOO_MANY_TURNS_MESSAGE: &str = "消息发得太快了，请稍等一会儿再说。";

impl ApiError {
    fn new(status: u16, code: &str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            info: ErrorInfo {
                code: code.to_string(),
                message: message.into(),
                field: None,
            },
            retry_after: None,
        }
    }

    /// 429 `rate_limited`: too many requests; again in `wait_secs` seconds.
    pub fn too_many(wait_secs: u64, message: impl Into<String>) -> Self {
        ApiError {
            retry_after: Some(wait_secs),
            ..Self::new(429, "rate_limited", message)
        }
    }

    /// 400: the request itself is wrong; nothing was changed.
    pub fn bad_request(code: &str, message: impl Into<String>) -> Self {
        Self::new(400, code, message)
    }

    /// 404: the thing asked for does not exist.
    pub fn not_found(code: &str, message: impl Into<String>) -> Self {
        Self::new(404, code, message)
    }

    /// 503: a dependency (the database) failed; the student may try again.
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(503, "unavailable", message)
    }

    /// Any other status with its code: a request understood but not
    /// processable (422), a dependency that failed its own way (the speech
    /// recognizer: 502, 503, 504), a body over a limit (413).
    pub fn status(status: u16, code: &str, message: impl Into<String>) -> Self {
        Self::new(status, code, message)
    }

    /// Names the input field that broke the rule.
    pub fn with_field(mut self, field: &str) -> Self {
        self.info.field = Some(field.to_string());
        self
    }
}
