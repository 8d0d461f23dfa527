//! What can go wrong talking to a model. Each kind has a stable error code
//! (the reply's `error.code`) and a Chinese message; whether it is worth
//! another attempt is decided here, once.

use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// The turn's budget ran out (slow model, stalled stream).
    #[error("timed out")]
    Timeout,
    /// No connection (refused, DNS, reset before a reply).
    #[error("unreachable: {0}")]
    Unreachable(String),
    /// 429; `Retry-After` when the server sent one.
    #[error("rate limited")]
    RateLimited(Option<Duration>),
    /// 5xx.
    #[error("upstream status {0}")]
    Upstream(u16),
    /// Another 4xx: a wrong key, model name or request shape. Retrying will
    /// not help.
    #[error("rejected with {0}: {1}")]
    Rejected(u16, String),
    /// The reply could not be read: malformed JSON, bad tool arguments, a
    /// stream cut short.
    #[error("bad output: {0}")]
    BadOutput(String),
    /// The model said nothing and called nothing.
    #[error("empty reply")]
    Empty,
}

impl LlmError {
    /// The `error.code` of the reply.
    pub fn code(&self) -> &'static str {
        match self {
            LlmError::Timeout => "upstream_timeout",
            LlmError::Unreachable(_) | LlmError::Upstream(_) => "upstream_unavailable",
            LlmError::RateLimited(_) => "upstream_rate_limited",
            LlmError::Rejected(..) => "upstream_rejected",
            LlmError::BadOutput(_) => "upstream_invalid_output",
            LlmError::Empty => "upstream_empty_reply",
        }
    }

    /// The `error.message` of the reply.
    pub fn message(&self) -> String {
        match self {
            LlmError::Timeout => "语言模型响应超时。".into(),
            LlmError::Unreachable(_) => "无法连接语言模型服务。".into(),
            LlmError::RateLimited(_) => "语言模型服务繁忙（请求过多）。".into(),
            LlmError::Upstream(status) => format!("语言模型服务出错（HTTP {status}）。"),
            LlmError::Rejected(status, _) => {
                format!("语言模型拒绝了请求（HTTP {status}），请检查 LLM_* 配置。")
            }
            LlmError::BadOutput(_) => "语言模型的回复格式有误。".into(),
            LlmError::Empty => "语言模型没有给出回复。".into(),
        }
    }

    /// Worth another attempt: the failure is the server's or the network's,
    /// and transient.
    pub fn retryable(&self) -> bool {
        matches!(
            self,
            LlmError::Unreachable(_) | LlmError::RateLimited(_) | LlmError::Upstream(_)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transient_failures_are_retried_and_the_rest_are_not() {
        assert!(LlmError::Unreachable("refused".into()).retryable());
        assert!(LlmError::RateLimited(None).retryable());
        assert!(LlmError::Upstream(503).retryable());
        assert!(!LlmError::Timeout.retryable());
        assert!(!LlmError::Rejected(401, String::new()).retryable());
        assert!(!LlmError::BadOutput("x".into()).retryable());
        assert!(!LlmError::Empty.retryable());
    }

    #[test]
    fn every_kind_has_a_code_and_a_chinese_message() {
        for e in [
            LlmError::Timeout,
            LlmError::Unreachable(String::new()),
            LlmError::RateLimited(None),
            LlmError::Upstream(500),
            LlmError::Rejected(401, String::new()),
            LlmError::BadOutput(String::new()),
            LlmError::Empty,
        ] {
            assert!(e.code().starts_with("upstream_"));
            assert!(e.message().contains("语言模型"));
        }
    }
}
