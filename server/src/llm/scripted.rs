//! A scripted OpenAI-compatible server on loopback: the model for tests,
//! demos and the end-to-end suite, so that nothing needs a real model or the
//! internet. It speaks real HTTP — `POST /v1/chat/completions`, whole or
//! streamed as server-sent events — answers from a script of rules, can be
//! told to fail the ways real providers fail, and records every request it
//! receives so tests can check what the agent sent.
//!
//! A script is JSON:
//!
//! ```json
//! {"rules": [
//!   {"when": "北京大学",                      // the last user message contains this (absent: any)
//!    "reply": {"content": "好的，北京大学计算机系。正在筛选导师…",
//!              "tool_calls": [{"name": "update_form", "arguments": {"school": "北京大学"}}]}},
//!   {"when": "超时", "delay_ms": 5000, "reply": {"content": "太晚了"}},
//!   {"when": "繁忙", "status": 429, "times": 1},
//!   {"when": "坏了", "raw": "data: {\"choices\": [\n\n"}
//! ]}
//! ```
//!
//! Rule fields: `when` (substring of the last user message), `when_system`
//! (substring of the system prompt), `times` (uses before the rule is spent),
//! `when_tools` (the request has `tools`, or has not), `status` and `error`
//! (an error status answered with this message), `delay_ms` (before
//! the headers), `chunk_chars` (streamed content and arguments are cut into
//! pieces this long; default 3), `chunk_delay_ms` (after each piece of
//! content; tool calls follow without pauses), `raw` (a
//! body sent verbatim — malformed JSON, a stream cut short), `reply`. The first
//! rule that matches and is not spent answers; no rule → 404.

use crate::loopback::Served;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::StreamExt;

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Script {
    #[serde(default)]
    pub rules: Vec<Rule>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Rule {
    #[serde(default)]
    pub when: Option<String>,
    #[serde(default)]
    pub when_system: Option<String>,
    /// Matches only requests with (`true`) or without (`false`) `tools`.
    #[serde(default)]
    pub when_tools: Option<bool>,
    #[serde(default)]
    pub times: Option<u32>,
    #[serde(default)]
    pub status: Option<u16>,
    /// The error body's message with `status`.
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub delay_ms: u64,
    #[serde(default)]
    pub chunk_chars: Option<usize>,
    #[serde(default)]
    pub chunk_delay_ms: u64,
    #[serde(default)]
    pub raw: Option<String>,
    #[serde(default)]
    pub reply: Option<ScriptedReply>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct ScriptedReply {
    #[serde(default)]
    pub content: String,
    #[serde(default)]
    pub tool_calls: Vec<ScriptedCall>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ScriptedCall {
    pub name: String,
    /// An object (sent as its JSON text) or a string sent as is — a malformed
    /// one included.
    #[serde(default)]
    pub arguments: Value,
}

/// A request as the server received it.
#[derive(Clone, Debug)]
pub struct Received {
    pub body: Value,
    pub authorization: Option<String>,
}

impl Received {
    /// The text of every message, joined (what the model was shown).
    pub fn prompt_text(&self) -> String {
        self.body["messages"]
            .as_array()
            .map(|m| {
                m.iter()
                    .filter_map(|m| m["content"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default()
    }

    /// The student's words of the last user message (the turn's state
    /// before them left out, see [`split_turn`]).
    pub fn last_user_message(&self) -> String {
        split_turn(&last_of_role(&self.body, "user")).1.to_string()
    }
}

struct Shared {
    rules: Mutex<Vec<(Rule, u32)>>,
    received: Mutex<Vec<Received>>,
    /// Streamed replies sent to their last byte.
    streams_finished: std::sync::atomic::AtomicUsize,
}

/// A running scripted server; it stops when dropped.
pub struct ScriptedServer {
    served: Served,
    shared: Arc<Shared>,
}

impl ScriptedServer {
    /// Starts on an ephemeral loopback port.
    pub async fn start(script: Script) -> std::io::Result<ScriptedServer> {
        Ok(ScriptedServer::on(
            crate::loopback::ephemeral().await?,
            script,
        ))
    }

    /// Serves on a listener the caller bound (the `mock-llm` command).
    pub fn on(listener: tokio::net::TcpListener, script: Script) -> ScriptedServer {
        let shared = Arc::new(Shared {
            rules: Mutex::new(script.rules.into_iter().map(|r| (r, 0)).collect()),
            received: Mutex::new(Vec::new()),
            streams_finished: std::sync::atomic::AtomicUsize::new(0),
        });
        let served = Served::on(listener, router(shared.clone()));
        ScriptedServer { served, shared }
    }

    /// What to put in `LLM_BASE_URL`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.served.addr())
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.received.lock().expect("not poisoned").clone()
    }

    /// How many streamed replies have been sent completely (a test can tell
    /// that speech started while the model was still talking).
    pub fn streams_finished(&self) -> usize {
        self.shared
            .streams_finished
            .load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Runs until Ctrl-C (the command line).
    pub async fn until_stopped(&mut self) {
        self.served.until_stopped().await
    }
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/v1/chat/completions", post(completions))
        .route("/chat/completions", post(completions))
        .with_state(shared)
}

/// The agent sends the turn's state (phase, form, page, what code
/// understood) and then, after this mark, the student's words in one user
/// message (`prompts/model/turn.txt`).
pub const STUDENT_MARK: &str = "【学生说】";

/// (state, words) of a user message; a message without the mark is all words.
pub fn split_turn(content: &str) -> (&str, &str) {
    match content.rfind(STUDENT_MARK) {
        Some(i) => (&content[..i], content[i + STUDENT_MARK.len()..].trim()),
        None => ("", content),
    }
}

fn last_of_role(body: &Value, role: &str) -> String {
    body["messages"]
        .as_array()
        .and_then(|m| m.iter().rev().find(|m| m["role"] == role))
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

async fn completions(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let authorization = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    shared
        .received
        .lock()
        .expect("not poisoned")
        .push(Received {
            body: body.clone(),
            authorization,
        });
    // `when` reads the student's words; `when_system` the instructions,
    // wherever the prompt puts them (the system message, the turn's state).
    let last_user = last_of_role(&body, "user");
    let (state, words) = split_turn(&last_user);
    let user = words.to_string();
    let system = format!("{}\n{state}", last_of_role(&body, "system"));
    let rule = {
        let mut rules = shared.rules.lock().expect("not poisoned");
        rules
            .iter_mut()
            .find(|(r, used)| {
                r.times.is_none_or(|t| *used < t)
                    && r.when.as_deref().is_none_or(|w| user.contains(w))
                    && r.when_system.as_deref().is_none_or(|w| system.contains(w))
                    && r.when_tools
                        .is_none_or(|t| t == body.get("tools").is_some())
            })
            .map(|(r, used)| {
                *used += 1;
                r.clone()
            })
    };
    let Some(rule) = rule else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({"error": {"message": format!("no scripted reply for «{user}»")}})),
        )
            .into_response();
    };
    if rule.delay_ms > 0 {
        tokio::time::sleep(Duration::from_millis(rule.delay_ms)).await;
    }
    let stream = body["stream"].as_bool().unwrap_or(false);
    if let Some(status) = rule.status.filter(|s| *s != 200) {
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        return (
            status,
            Json(
                json!({"error": {"message": rule.error.as_deref().unwrap_or("scripted failure")}}),
            ),
        )
            .into_response();
    }
    let content_type = if stream {
        "text/event-stream"
    } else {
        "application/json"
    };
    if let Some(raw) = rule.raw {
        return ([(header::CONTENT_TYPE, content_type)], raw).into_response();
    }
    let reply = rule.reply.unwrap_or_default();
    let prompt_chars: usize = body["messages"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|m| m["content"].as_str())
                .map(|c| c.chars().count())
                .sum()
        })
        .unwrap_or(0);
    let calls: Vec<(String, String)> = reply
        .tool_calls
        .iter()
        .map(|c| {
            let args = match &c.arguments {
                Value::String(s) => s.clone(),
                Value::Null => "{}".to_string(),
                other => other.to_string(),
            };
            (c.name.clone(), args)
        })
        .collect();
    let completion_chars =
        reply.content.chars().count() + calls.iter().map(|(_, a)| a.chars().count()).sum::<usize>();
    // Roughly what a Chinese tokenizer gives: two characters a token.
    let usage = json!({
        "prompt_tokens": prompt_chars / 2,
        "completion_tokens": completion_chars / 2 + 1,
        "total_tokens": prompt_chars / 2 + completion_chars / 2 + 1,
    });
    let finish = if calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    if !stream {
        let tool_calls: Vec<Value> = calls
            .iter()
            .enumerate()
            .map(|(i, (name, args))| {
                json!({"id": format!("call_{i}"), "type": "function",
                       "function": {"name": name, "arguments": args}})
            })
            .collect();
        let mut message = json!({"role": "assistant", "content": reply.content});
        if !tool_calls.is_empty() {
            message["tool_calls"] = Value::Array(tool_calls);
        }
        return Json(json!({
            "id": "scripted", "object": "chat.completion",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": usage,
        }))
        .into_response();
    }
    let size = rule.chunk_chars.unwrap_or(3).max(1);
    let chunk = |delta: Value, finish: Option<&str>| {
        let c = json!({"id": "scripted", "object": "chat.completion.chunk",
                       "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
        format!("data: {c}\n\n")
    };
    // (event, pause after it): the pause applies to the spoken text, the
    // part whose timing a test observes; tool calls follow at once.
    let pause = Duration::from_millis(rule.chunk_delay_ms);
    let mut events = vec![(
        chunk(json!({"role": "assistant", "content": ""}), None),
        pause,
    )];
    for piece in pieces(&reply.content, size) {
        events.push((chunk(json!({"content": piece}), None), pause));
    }
    let mut events: Vec<(String, Duration)> = events;
    let quick = |e: String| (e, Duration::ZERO);
    for (i, (name, args)) in calls.iter().enumerate() {
        events.push(quick(chunk(
            json!({"tool_calls": [{"index": i, "id": format!("call_{i}"), "type": "function",
                                   "function": {"name": name, "arguments": ""}}]}),
            None,
        )));
        for piece in pieces(args, size) {
            events.push(quick(chunk(
                json!({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}),
                None,
            )));
        }
    }
    events.push(quick(chunk(json!({}), Some(finish))));
    if body["stream_options"]["include_usage"] == true {
        events.push(quick(format!(
            "data: {}\n\n",
            json!({"id": "scripted", "object": "chat.completion.chunk", "choices": [], "usage": usage})
        )));
    }
    events.push(quick("data: [DONE]\n\n".to_string()));
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
    tokio::spawn(async move {
        for (e, pause) in events {
            if tx.send(Bytes::from(e)).is_err() {
                return;
            }
            if !pause.is_zero() {
                tokio::time::sleep(pause).await;
            }
        }
        shared
            .streams_finished
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    });
    let body = Body::from_stream(UnboundedReceiverStream::new(rx).map(Ok::<Bytes, Infallible>));
    ([(header::CONTENT_TYPE, "text/event-stream")], body).into_response()
}

/// `text` cut into pieces of `size` characters.
fn pieces(text: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}
