//! Provider configuration from the `LLM_*` variables (read once with the
//! rest of the configuration, `crate::config`). Nothing set: the embedded
//! planner answers. Any of `LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL` set: the
//! model planner answers, with defaults for the rest (DeepSeek's endpoint and
//! model, so an API key alone is enough there).

use std::time::Duration;

/// How tools reach the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolMode {
    /// Native function calling (`tools` + `tool_choice`).
    Functions,
    /// No `tools` field: the prompt asks for a JSON object (`voice_response`,
    /// `tool_calls`), for
    /// models and servers without function calling.
    Json,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LlmConfig {
    /// Up to and including the version segment, e.g. `https://api.deepseek.com/v1`.
    pub base_url: String,
    /// Sent as a bearer token; local servers (Ollama, vLLM) need none.
    pub api_key: Option<String>,
    pub model: String,
    /// One model call's limit, retries included.
    pub timeout: Duration,
    /// The whole turn's latency budget (`llm::budget`): past it, code's
    /// answer is spoken and the model's dropped, however many calls the
    /// turn made.
    pub turn_budget: Duration,
    /// Further attempts after a connection failure, a 429 or a 5xx.
    pub retries: u32,
    pub mode: ToolMode,
    /// Ask for a streamed reply (speech starts before the reply is complete).
    pub stream: bool,
    pub temperature: f32,
    pub max_tokens: u32,
    /// Tokens of conversation history sent at most (older lines dropped first).
    pub history_tokens: usize,
}

pub const DEFAULT_BASE_URL: &str = "https://api.deepseek.com/v1";
pub const DEFAULT_MODEL: &str = "deepseek-chat";
/// The voice panel's budget: a spoken reply that starts later than this
/// feels broken. Below the 30 s request deadline whatever it is set to.
pub const DEFAULT_TURN_BUDGET_SECS: f64 = 6.0;
/// The defaults of the other variables, as the configuration shows them.
pub const DEFAULT_TIMEOUT_SECS: f64 = 20.0;
pub const DEFAULT_MAX_RETRIES: f64 = 2.0;
pub const DEFAULT_STREAM: bool = true;
pub const DEFAULT_TEMPERATURE: f64 = 0.3;
pub const DEFAULT_MAX_TOKENS: f64 = 400.0;
pub const DEFAULT_HISTORY_TOKENS: f64 = 1200.0;

impl LlmConfig {
    /// From a key → value lookup of the `LLM_*` variables (the process's
    /// configuration, `crate::config`, read once; tests pass a map):
    /// `Ok(None)` when no model is configured, `Err` (a Chinese sentence
    /// naming the variable) when a value is malformed.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Option<LlmConfig>, String> {
        let var = |k: &str| {
            get(k)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let (base_url, api_key, model) =
            (var("LLM_BASE_URL"), var("LLM_API_KEY"), var("LLM_MODEL"));
        if base_url.is_none() && api_key.is_none() && model.is_none() {
            return Ok(None);
        }
        let base_url = base_url
            .unwrap_or_else(|| DEFAULT_BASE_URL.to_string())
            .trim_end_matches('/')
            .to_string();
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(format!(
                "LLM_BASE_URL 必须以 http:// 或 https:// 开头：{base_url}"
            ));
        }
        let number = |k: &str, default: f64, min: f64, max: f64| -> Result<f64, String> {
            match var(k) {
                None => Ok(default),
                Some(v) => match v.parse::<f64>() {
                    Ok(n) if n >= min && n <= max => Ok(n),
                    _ => Err(format!("{k} 应为 {min} 到 {max} 之间的数字，现在是「{v}」")),
                },
            }
        };
        let flag = |k: &str, default: bool| -> Result<bool, String> {
            match var(k).as_deref() {
                None => Ok(default),
                Some("1" | "true" | "yes" | "on") => Ok(true),
                Some("0" | "false" | "no" | "off") => Ok(false),
                Some(v) => Err(format!("{k} 应为 true 或 false，现在是「{v}」")),
            }
        };
        let mode = match var("LLM_TOOL_MODE").as_deref() {
            None | Some("functions") | Some("tools") => ToolMode::Functions,
            Some("json") => ToolMode::Json,
            Some(v) => {
                return Err(format!(
                    "LLM_TOOL_MODE 应为 functions 或 json，现在是「{v}」"
                ))
            }
        };
        Ok(Some(LlmConfig {
            base_url,
            api_key,
            model: model.unwrap_or_else(|| DEFAULT_MODEL.to_string()),
            timeout: Duration::from_secs_f64(number(
                "LLM_TIMEOUT_SECS",
                DEFAULT_TIMEOUT_SECS,
                0.1,
                600.0,
            )?),
            turn_budget: Duration::from_secs_f64(number(
                "LLM_TURN_BUDGET_SECS",
                DEFAULT_TURN_BUDGET_SECS,
                0.1,
                25.0,
            )?),
            retries: number("LLM_MAX_RETRIES", DEFAULT_MAX_RETRIES, 0.0, 5.0)? as u32,
            mode,
            stream: flag("LLM_STREAM", DEFAULT_STREAM)?,
            temperature: number("LLM_TEMPERATURE", DEFAULT_TEMPERATURE, 0.0, 2.0)? as f32,
            max_tokens: number("LLM_MAX_TOKENS", DEFAULT_MAX_TOKENS, 16.0, 8192.0)? as u32,
            history_tokens: number("LLM_HISTORY_TOKENS", DEFAULT_HISTORY_TOKENS, 0.0, 100_000.0)?
                as usize,
        }))
    }

    /// The Chat Completions URL.
    pub fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.base_url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(pairs: &[(&str, &str)]) -> Result<Option<LlmConfig>, String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        LlmConfig::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn nothing_set_means_no_model() {
        assert_eq!(config(&[]).unwrap(), None);
        assert_eq!(config(&[("LLM_BASE_URL", "  ")]).unwrap(), None);
    }

    #[test]
    fn a_key_alone_uses_deepseek_defaults() {
        let c = config(&[("LLM_API_KEY", "sk-x")]).unwrap().unwrap();
        assert_eq!(c.endpoint(), "https://api.deepseek.com/v1/chat/completions");
        assert_eq!(c.model, "deepseek-chat");
        assert_eq!(c.mode, ToolMode::Functions);
        assert!(c.stream);
    }

    #[test]
    fn a_local_server_needs_no_key() {
        let c = config(&[
            ("LLM_BASE_URL", "http://127.0.0.1:11434/v1/"),
            ("LLM_MODEL", "qwen2.5:7b"),
            ("LLM_TOOL_MODE", "json"),
            ("LLM_STREAM", "false"),
            ("LLM_TIMEOUT_SECS", "2.5"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!(c.endpoint(), "http://127.0.0.1:11434/v1/chat/completions");
        assert_eq!(c.api_key, None);
        assert_eq!(c.mode, ToolMode::Json);
        assert!(!c.stream);
        assert_eq!(c.timeout, Duration::from_millis(2500));
    }

    #[test]
    fn malformed_values_are_named_in_chinese() {
        let e = config(&[("LLM_BASE_URL", "api.example.com")]).unwrap_err();
        assert!(e.contains("LLM_BASE_URL"), "{e}");
        let e = config(&[("LLM_API_KEY", "k"), ("LLM_TIMEOUT_SECS", "abc")]).unwrap_err();
        assert!(e.contains("LLM_TIMEOUT_SECS"), "{e}");
        let e = config(&[("LLM_API_KEY", "k"), ("LLM_TOOL_MODE", "xml")]).unwrap_err();
        assert!(e.contains("LLM_TOOL_MODE"), "{e}");
        let e = config(&[("LLM_API_KEY", "k"), ("LLM_STREAM", "maybe")]).unwrap_err();
        assert!(e.contains("LLM_STREAM"), "{e}");
    }
}
