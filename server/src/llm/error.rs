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
    /// Not called: the provider failed several times in a row and is
    /// skipped for a cool-down (`llm::breaker`); the seconds left.
    #[error("skipped for {0} s after repeated failures")]
    Skipped(u64),
    /// The turn's latency budget (`llm::budget`) was spent while the model
    /// was still answering: its late answer is dropped, code answers.
    #[error("over the turn's latency budget")]
    OverBudget,
    /// Not called: the turn's latency budget was already spent.
    #[error("no time left in the turn's latency budget")]
    NoTimeLeft,
}

/// Error codes of failures for which no request reached the provider: such
/// a turn cost no model call.
const NOT_SENT: &[&str] = &["upstream_skipped", "upstream_no_time_left"];

/// Whether a failure with the error `code` (a planner's `PlanError`, made
/// from an [`LlmError`]) cost a model call: a model's failure that was not
/// skipped before any request went out.
pub fn code_was_sent(code: &str) -> bool {
    code.starts_with("upstream_") && !NOT_SENT.contains(&code)
}

impl LlmError {
    /// The `error.code` of the reply.
    pub fn code(&self) -> &'static str {
        match self {
            LlmError::Timeout => "upstream_timeout",
            LlmError::Unreachable(_) | LlmError::Upstream(_) => "upstream_unavailable",
            LlmError::Skipped(_) => "upstream_skipped",
            LlmError::OverBudget => "upstream_over_budget",
            LlmError::NoTimeLeft => "upstream_no_time_left",
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
            LlmError::Skipped(_) => "语言模型服务暂时不可用，已由站内规则回答。".into(),
            LlmError::OverBudget | LlmError::NoTimeLeft => {
                "语言模型没能在本回合的时限内答完，已由站内规则回答。".into()
            }
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

    /// The provider itself failed (down, overloaded, too slow), as opposed
    /// to answering something unusable: what the breaker counts.
    pub fn provider_failed(&self) -> bool {
        self.retryable() || matches!(self, LlmError::Timeout | LlmError::OverBudget)
    }

    /// A request reached the provider (the turn paid a model call).
    pub fn was_sent(&self) -> bool {
        code_was_sent(self.code())
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
            LlmError::Skipped(30),
            LlmError::OverBudget,
            LlmError::NoTimeLeft,
        ] {
            assert!(e.code().starts_with("upstream_"));
            assert!(e.message().contains("语言模型"));
        }
    }
}
