//! One completion: the request, the reply (whole or streamed), and the
//! failure policy. The turn has one deadline (`LLM_TIMEOUT_SECS`) that covers
//! every attempt and every pause between them, so a turn never hangs past it.
//! Transient failures (no connection, 429, 5xx) are retried with exponential
//! backoff and jitter, but only while nothing has been streamed to the
//! student yet: a retry must never make the panel say a sentence twice.
//! A provider that keeps failing is skipped for a while (`llm::breaker`).

use std::time::{Duration, Instant};

use reqwest::header::{CONTENT_TYPE, RETRY_AFTER};
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::config::LlmConfig;
use super::error::LlmError;
use super::sse::{SseDecoder, ToolCallAssembler};
use super::wire::{arguments_text, ReplyBody, RequestBody, Usage, WireMessage};

/// What to send; the model, sampling and streaming come from the config.
#[derive(Clone, Debug, Default)]
pub struct CompletionRequest {
    pub messages: Vec<WireMessage>,
    /// Function definitions, or `None` (JSON-output mode, or no tools wanted).
    pub tools: Option<Value>,
    pub tool_choice: Option<Value>,
    /// This call's sampling temperature (a phase's, from
    /// `prompts/model/flow.conf`); `None` is the configured `LLM_TEMPERATURE`.
    pub temperature: Option<f32>,
}

/// A tool call as the model sent it: arguments still unparsed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawToolCall {
    pub name: String,
    pub arguments: String,
}

/// What the model said.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Completion {
    pub content: String,
    pub tool_calls: Vec<RawToolCall>,
    pub usage: Option<Usage>,
    /// HTTP attempts it took (1 without retries).
    pub attempts: u32,
}

/// First pause before a retry; doubled each time, plus up to half again of jitter.
const BACKOFF_BASE: Duration = Duration::from_millis(200);
/// The longest `Retry-After` honoured; longer waits are not worth a student's time.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(5);
/// How much of a rejected request's body goes to the log.
const BODY_SNIPPET: usize = 300;
/// The most a reply may weigh, whole or streamed: `LLM_MAX_TOKENS` of
/// Chinese is a few kilobytes, so more is a server sending garbage, which
/// must not grow the server's memory for as long as the deadline lasts.
pub const MAX_REPLY_BYTES: usize = 1024 * 1024;

pub struct LlmClient {
    http: reqwest::Client,
    config: LlmConfig,
    breaker: super::breaker::Breaker,
}

impl LlmClient {
    pub fn new(config: LlmConfig) -> Result<LlmClient, String> {
        let http = reqwest::Client::builder()
            .connect_timeout(config.timeout.min(Duration::from_secs(5)))
            .build()
            .map_err(|e| format!("无法创建 HTTP 客户端：{e}"))?;
        Ok(LlmClient {
            http,
            config,
            breaker: Default::default(),
        })
    }

    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// One completion within the deadline. `on_content` receives the reply's
    /// text as it arrives (once, whole, when the reply is not streamed).
    /// Skipped at once while the breaker is open. Counted in the metrics
    /// (`observe::model_call`), whatever the outcome.
    pub async fn complete(
        &self,
        request: &CompletionRequest,
        on_content: &mut (dyn FnMut(&str) + Send),
    ) -> Result<Completion, LlmError> {
        use crate::observe::ModelCall;
        let started = Instant::now();
        let result = self.complete_admitted(request, on_content).await;
        crate::observe::model_call(
            match &result {
                Ok(c) => ModelCall::Answered {
                    prompt: c.usage.map_or(0, |u| u.prompt_tokens),
                    completion: c.usage.map_or(0, |u| u.completion_tokens),
                },
                Err(e @ (LlmError::NoTimeLeft | LlmError::Skipped(_))) => {
                    ModelCall::NotSent(e.code())
                }
                Err(e) => ModelCall::Failed(e.code()),
            },
            started.elapsed(),
        );
        result
    }

    /// [`LlmClient::complete`] unless the budget is spent or the breaker open.
    async fn complete_admitted(
        &self,
        request: &CompletionRequest,
        on_content: &mut (dyn FnMut(&str) + Send),
    ) -> Result<Completion, LlmError> {
        use super::breaker::Admit;
        // The turn's budget is spent: no request, and nothing the breaker
        // should learn from (it would take it for an answer).
        if super::budget::deadline().is_some_and(|t| t <= Instant::now()) {
            return Err(LlmError::NoTimeLeft);
        }
        if let Admit::Skip(left) = self.breaker.admit(Instant::now()) {
            return Err(LlmError::Skipped(left));
        }
        let result = self.complete_within_deadline(request, on_content).await;
        match &result {
            Ok(_) => self.breaker.succeeded(),
            Err(e) if e.provider_failed() => self.breaker.failed(Instant::now()),
            // The provider answered, if badly: it is up.
            Err(_) => self.breaker.succeeded(),
        }
        result
    }

    async fn complete_within_deadline(
        &self,
        request: &CompletionRequest,
        on_content: &mut (dyn FnMut(&str) + Send),
    ) -> Result<Completion, LlmError> {
        let own = Instant::now() + self.config.timeout;
        // The turn's budget, when it ends first: its expiry is code's turn.
        let turn = super::budget::deadline().filter(|t| *t < own);
        let deadline = turn.unwrap_or(own);
        let expired = || match turn {
            Some(_) => LlmError::OverBudget,
            None => LlmError::Timeout,
        };
        let mut attempt: u32 = 0;
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(expired());
            }
            let mut streamed = false;
            let result = {
                let mut relay = |delta: &str| {
                    streamed = true;
                    on_content(delta);
                };
                match tokio::time::timeout(remaining, self.attempt(request, &mut relay)).await {
                    Err(_) => {
                        let e = expired();
                        tracing::warn!(error = %e, waited_ms = remaining.as_millis() as u64, "the model's answer came too late and is dropped");
                        Err(e)
                    }
                    Ok(r) => r,
                }
            };
            match result {
                Ok(mut completion) => {
                    completion.attempts = attempt + 1;
                    return Ok(completion);
                }
                Err(e) if e.retryable() && !streamed && attempt < self.config.retries => {
                    let wait = pause(attempt, &e);
                    if Instant::now() + wait >= deadline {
                        return Err(e);
                    }
                    tracing::warn!(error = %e, attempt = attempt + 1, wait_ms = wait.as_millis() as u64, "model call failed, retrying");
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    async fn attempt(
        &self,
        request: &CompletionRequest,
        on_content: &mut (dyn FnMut(&str) + Send),
    ) -> Result<Completion, LlmError> {
        let stream = self.config.stream;
        let body = RequestBody {
            model: &self.config.model,
            messages: &request.messages,
            tools: request.tools.as_ref(),
            tool_choice: request.tool_choice.as_ref(),
            temperature: request.temperature.unwrap_or(self.config.temperature),
            max_tokens: self.config.max_tokens,
            stream,
            stream_options: stream.then(|| json!({"include_usage": true})),
        };
        let mut builder = self.http.post(self.config.endpoint()).json(&body);
        if let Some(key) = &self.config.api_key {
            builder = builder.bearer_auth(key);
        }
        let response = builder.send().await.map_err(transport)?;
        let status = response.status();
        if status == StatusCode::TOO_MANY_REQUESTS {
            let after = response
                .headers()
                .get(RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(retry_after);
            return Err(LlmError::RateLimited(after));
        }
        if status.is_server_error() {
            return Err(LlmError::Upstream(status.as_u16()));
        }
        if !status.is_success() {
            // Four bytes a character at most: enough for the snippet.
            let text = read_up_to(response, BODY_SNIPPET * 4)
                .await
                .map(|(b, _)| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            let snippet: String = text.chars().take(BODY_SNIPPET).collect();
            return Err(LlmError::Rejected(status.as_u16(), snippet));
        }
        // Some servers ignore `stream`; read whatever came.
        let is_stream = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/event-stream"));
        if is_stream {
            read_stream(response, on_content).await
        } else {
            let (bytes, whole) = read_up_to(response, MAX_REPLY_BYTES).await?;
            if !whole {
                return Err(too_long());
            }
            let completion = read_whole(&bytes)?;
            if !completion.content.is_empty() {
                on_content(&completion.content);
            }
            Ok(completion)
        }
    }
}

/// A `Retry-After` in seconds, at most [`MAX_RETRY_AFTER`]. Bounded
/// before it becomes a `Duration`: `1e30` seconds overflows one.
fn retry_after(value: &str) -> Option<Duration> {
    let s = value.trim().parse::<f64>().ok()?;
    (s.is_finite() && s >= 0.0)
        .then(|| Duration::from_secs_f64(s.min(MAX_RETRY_AFTER.as_secs_f64())))
}

/// At most `limit` bytes of a body ([`crate::outbound::read_up_to`]).
async fn read_up_to(
    response: reqwest::Response,
    limit: usize,
) -> Result<(Vec<u8>, bool), LlmError> {
    crate::outbound::read_up_to(response, limit)
        .await
        .map_err(transport)
}

/// The pause before retry `attempt + 1`: the server's `Retry-After` when it
/// gave one, else exponential backoff with jitter (so clients that failed
/// together do not retry together).
fn pause(attempt: u32, error: &LlmError) -> Duration {
    if let LlmError::RateLimited(Some(after)) = error {
        return *after;
    }
    let base = BACKOFF_BASE * 2u32.saturating_pow(attempt.min(6));
    base + base.mul_f64(jitter() * 0.5)
}

/// A number in [0, 1) that differs between processes and calls; good enough
/// for spreading retries, no random-number crate needed.
fn jitter() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default(),
    );
    (h.finish() >> 11) as f64 / (1u64 << 53) as f64
}

fn transport(e: reqwest::Error) -> LlmError {
    if e.is_timeout() {
        LlmError::Timeout
    } else if e.is_decode() {
        LlmError::BadOutput(format!("reply unreadable: {e}"))
    } else {
        LlmError::Unreachable(e.to_string())
    }
}

/// A non-streamed reply (public for the fuzz target `model_json`).
pub fn read_whole(bytes: &[u8]) -> Result<Completion, LlmError> {
    let body: ReplyBody = serde_json::from_slice(bytes)
        .map_err(|e| LlmError::BadOutput(format!("reply is not JSON: {e}")))?;
    let message = body
        .choices
        .into_iter()
        .next()
        .and_then(|c| c.message)
        .unwrap_or_default();
    let tool_calls = message
        .tool_calls
        .unwrap_or_default()
        .into_iter()
        .filter_map(|c| {
            let f = c.function?;
            Some(RawToolCall {
                name: f.name.unwrap_or_default(),
                arguments: arguments_text(&f.arguments),
            })
        })
        .collect();
    Ok(Completion {
        content: message.content.unwrap_or_default(),
        tool_calls,
        usage: body.usage,
        attempts: 1,
    })
}

/// A streamed reply: content relayed as it comes, tool calls assembled.
async fn read_stream(
    mut response: reqwest::Response,
    on_content: &mut (dyn FnMut(&str) + Send),
) -> Result<Completion, LlmError> {
    let mut reader = StreamReader::default();
    while !reader.done() {
        let Some(bytes) = response.chunk().await.map_err(transport)? else {
            break;
        };
        reader.push(&bytes, on_content)?;
    }
    reader.finish(on_content)
}

/// The bytes of a streamed reply, as they arrive, into a [`Completion`]:
/// the SSE events decoded, each chunk's content relayed, tool-call deltas
/// assembled. Apart from the HTTP so that it can be fed any bytes (the
/// fuzz target `sse`, `fuzz/`).
#[derive(Default)]
pub struct StreamReader {
    decoder: SseDecoder,
    calls: ToolCallAssembler,
    content: String,
    usage: Option<Usage>,
    received: usize,
    finished: bool,
    done: bool,
}

impl StreamReader {
    /// `[DONE]` came: nothing after it is read.
    pub fn done(&self) -> bool {
        self.done
    }

    /// Feeds the next piece of the body.
    pub fn push(
        &mut self,
        bytes: &[u8],
        on_content: &mut (dyn FnMut(&str) + Send),
    ) -> Result<(), LlmError> {
        self.received = self.received.saturating_add(bytes.len());
        if self.received > MAX_REPLY_BYTES {
            return Err(too_long());
        }
        for payload in self.decoder.push(bytes) {
            self.event(&payload, on_content)?;
        }
        Ok(())
    }

    /// The body ended: the reply, or why it is not one.
    pub fn finish(
        mut self,
        on_content: &mut (dyn FnMut(&str) + Send),
    ) -> Result<Completion, LlmError> {
        for payload in self.decoder.finish() {
            self.event(&payload, on_content)?;
        }
        if !self.done && !self.finished {
            return Err(LlmError::BadOutput(
                "stream ended before the reply was complete".into(),
            ));
        }
        let tool_calls = self
            .calls
            .finish()
            .into_iter()
            .map(|c| RawToolCall {
                name: c.name,
                arguments: c.arguments,
            })
            .collect();
        Ok(Completion {
            content: self.content,
            tool_calls,
            usage: self.usage,
            attempts: 1,
        })
    }

    fn event(
        &mut self,
        payload: &str,
        on_content: &mut (dyn FnMut(&str) + Send),
    ) -> Result<(), LlmError> {
        let payload = payload.trim();
        if self.done || payload.is_empty() {
            return Ok(());
        }
        if payload == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        let chunk: ReplyBody = serde_json::from_str(payload)
            .map_err(|e| LlmError::BadOutput(format!("stream chunk is not JSON: {e}")))?;
        if chunk.usage.is_some() {
            self.usage = chunk.usage;
        }
        if let Some(choice) = chunk.choices.into_iter().next() {
            if let Some(delta) = choice.delta.or(choice.message) {
                if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
                    self.content.push_str(&text);
                    on_content(&text);
                }
                if let Some(deltas) = delta.tool_calls {
                    self.calls
                        .push(&deltas)
                        .map_err(|e| LlmError::BadOutput(e.to_string()))?;
                }
            }
            if choice.finish_reason.is_some() {
                self.finished = true;
            }
        }
        Ok(())
    }
}

fn too_long() -> LlmError {
    LlmError::BadOutput(format!("reply longer than {MAX_REPLY_BYTES} bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_after_of_any_size_is_bounded_without_a_panic() {
        assert_eq!(retry_after(" 2 "), Some(Duration::from_secs(2)));
        assert_eq!(retry_after("1e30"), Some(MAX_RETRY_AFTER));
        assert_eq!(retry_after("1.7976931348623157e308"), Some(MAX_RETRY_AFTER));
        for garbage in ["inf", "NaN", "-1", "Wed, 21 Oct 2026 07:28:00 GMT", ""] {
            assert_eq!(retry_after(garbage), None, "{garbage}");
        }
    }

    #[test]
    fn a_stream_is_read_alike_however_it_is_cut_and_bounded_in_size() {
        let body = "data: {\"choices\":[{\"delta\":{\"content\":\"北京\"}}]}\n\n\
                    data: {\"choices\":[{\"delta\":{\"content\":\"大学\"},\"finish_reason\":\"stop\"}]}\n\n\
                    data: [DONE]\n\ndata: not json after the end\n\n";
        for cut in 0..body.len() {
            let mut reader = StreamReader::default();
            let mut said = String::new();
            let mut relay = |t: &str| said.push_str(t);
            reader.push(&body.as_bytes()[..cut], &mut relay).unwrap();
            reader.push(&body.as_bytes()[cut..], &mut relay).unwrap();
            let completion = reader.finish(&mut relay).unwrap();
            assert_eq!(completion.content, "北京大学");
            assert_eq!(said, "北京大学");
        }
        let mut reader = StreamReader::default();
        let mut relay = |_: &str| {};
        let flood = vec![b'x'; MAX_REPLY_BYTES + 1];
        assert!(matches!(
            reader.push(&flood, &mut relay),
            Err(LlmError::BadOutput(_))
        ));
        // A tool call's index is the server's number: a huge one is refused,
        // not made room for.
        let mut reader = StreamReader::default();
        let huge = "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":18446744073709551615,\"function\":{\"name\":\"x\"}}]}}]}\n\n";
        assert!(matches!(
            reader.push(huge.as_bytes(), &mut relay),
            Err(LlmError::BadOutput(_))
        ));
    }

    #[test]
    fn backoff_doubles_with_bounded_jitter_and_honours_retry_after() {
        for attempt in 0..3 {
            let base = BACKOFF_BASE * 2u32.pow(attempt);
            let p = pause(attempt, &LlmError::Upstream(503));
            assert!(p >= base && p <= base + base / 2, "{p:?}");
        }
        let after = Duration::from_millis(1500);
        assert_eq!(pause(0, &LlmError::RateLimited(Some(after))), after);
    }

    #[test]
    fn a_whole_reply_is_read_with_its_tool_calls() {
        let c = read_whole(
            r#"{"choices":[{"message":{"content":"好的。","tool_calls":[{"id":"1","type":"function","function":{"name":"update_form","arguments":"{\"school\":\"北京大学\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}"#
                .as_bytes(),
        )
        .unwrap();
        assert_eq!(c.content, "好的。");
        assert_eq!(c.tool_calls[0].name, "update_form");
        assert_eq!(c.usage.unwrap().total(), 120);
        assert!(matches!(read_whole(b"<html>"), Err(LlmError::BadOutput(_))));
    }

    /// A call the turn's budget leaves no time for goes nowhere and teaches
    /// the breaker nothing: failures before and after it still add up.
    #[tokio::test]
    async fn a_call_with_no_time_left_leaves_the_breaker_as_it_was() {
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}/v1", closed.local_addr().unwrap());
        drop(closed);
        let config = LlmConfig::from_lookup(|k| match k {
            "LLM_BASE_URL" => Some(base.clone()),
            "LLM_MAX_RETRIES" => Some("0".into()),
            _ => None,
        })
        .unwrap()
        .unwrap();
        let client = LlmClient::new(config).unwrap();
        let request = CompletionRequest {
            messages: Vec::new(),
            tools: None,
            tool_choice: None,
            temperature: None,
        };
        let call = || async { client.complete(&request, &mut |_| {}).await };
        for _ in 1..super::super::breaker::TRIPS_AFTER {
            assert!(matches!(call().await, Err(LlmError::Unreachable(_))));
        }
        let spent = super::super::budget::within(Duration::ZERO, call()).await;
        assert_eq!(spent, Err(LlmError::NoTimeLeft));
        assert!(matches!(call().await, Err(LlmError::Unreachable(_))));
        assert!(matches!(call().await, Err(LlmError::Skipped(_))));
    }
}
