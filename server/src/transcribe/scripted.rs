//! A scripted speech recognizer on loopback, for tests and the end-to-end
//! suite: the OpenAI-compatible `POST /v1/audio/transcriptions` answered from
//! a script of rules, failing the ways a real recognizer fails (an error
//! status, a slow answer), and recording every request so a test can check
//! what the site sent: how many bytes, which container, which prompt.
//!
//! A script is JSON: `{"rules": [{"when_prompt": "贾宏伟", "text": "…"},
//! {"status": 500, "times": 1}, {"delay_ms": 5000, "text": "太晚了"}]}`.
//! Rule fields: `when_prompt` (the prompt contains this), `when_language`
//! (the language asked for is this), `times` (uses
//! before it is spent), `status` (answered with this error status),
//! `delay_ms` (before answering), `text`, `alternatives` (other readings). The first rule that matches and
//! is not spent answers; none → `{"text": ""}` (nothing heard).
//!
//! Besides: `GET /received` (what was received, as JSON), `PUT /script`
//! (a new script; what was received is forgotten), `GET /health`.

use crate::loopback::Served;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Script {
    #[serde(default)]
    pub rules: Vec<Rule>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Rule {
    #[serde(default)]
    pub when_prompt: Option<String>,
    #[serde(default)]
    pub when_language: Option<String>,
    #[serde(default)]
    pub times: Option<u32>,
    #[serde(default)]
    pub status: Option<u16>,
    #[serde(default)]
    pub delay_ms: u64,
    #[serde(default)]
    pub text: Option<String>,
    /// The recognizer's other readings, best first (as `.ci/asr`'s server
    /// answers them).
    #[serde(default)]
    pub alternatives: Vec<String>,
}

/// One request as the recognizer saw it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Received {
    /// Bytes of the `file` part.
    pub bytes: usize,
    /// The container its first bytes say (`webm`, `ogg`, `wav`, `mp4`), or
    /// `unknown`.
    pub container: String,
    pub content_type: String,
    pub file_name: String,
    pub model: String,
    pub language: String,
    pub prompt: String,
    pub response_format: String,
}

struct Shared {
    rules: Mutex<Vec<(Rule, u32)>>,
    received: Mutex<Vec<Received>>,
}

pub struct ScriptedRecognizer {
    served: Served,
    shared: Arc<Shared>,
}

impl ScriptedRecognizer {
    /// Starts on an ephemeral loopback port.
    pub async fn start(script: Script) -> std::io::Result<ScriptedRecognizer> {
        Ok(ScriptedRecognizer::on(
            crate::loopback::ephemeral().await?,
            script,
        ))
    }

    /// Serves on a listener the caller bound (the `mock-asr` command).
    pub fn on(listener: tokio::net::TcpListener, script: Script) -> ScriptedRecognizer {
        let shared = Arc::new(Shared {
            rules: Mutex::new(script.rules.into_iter().map(|r| (r, 0)).collect()),
            received: Mutex::new(Vec::new()),
        });
        let app = Router::new()
            .route("/v1/audio/transcriptions", post(transcriptions))
            .route("/received", get(received))
            .route("/script", put(replace))
            .route("/health", get(|| async { "ok" }))
            .layer(axum::extract::DefaultBodyLimit::max(8 * 1024 * 1024))
            .with_state(shared.clone());
        let served = Served::on(listener, app);
        ScriptedRecognizer { served, shared }
    }

    /// What to put in `ASR_BASE_URL`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.served.addr())
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.received.lock().expect("not poisoned").clone()
    }

    /// Runs until Ctrl-C (the command line).
    pub async fn until_stopped(&mut self) {
        self.served.until_stopped().await
    }
}

async fn received(State(shared): State<Arc<Shared>>) -> Json<Vec<Received>> {
    Json(shared.received.lock().expect("not poisoned").clone())
}

async fn replace(State(shared): State<Arc<Shared>>, Json(script): Json<Script>) -> StatusCode {
    *shared.rules.lock().expect("not poisoned") =
        script.rules.into_iter().map(|r| (r, 0)).collect();
    shared.received.lock().expect("not poisoned").clear();
    StatusCode::NO_CONTENT
}

async fn transcriptions(State(shared): State<Arc<Shared>>, mut form: Multipart) -> Response {
    let mut seen = Received::default();
    loop {
        let field = match form.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => return (StatusCode::BAD_REQUEST, e.to_string()).into_response(),
        };
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            seen.content_type = field.content_type().unwrap_or_default().to_string();
            seen.file_name = field.file_name().unwrap_or_default().to_string();
            let bytes = field.bytes().await.unwrap_or_default();
            seen.bytes = bytes.len();
            seen.container = match super::audio::sniff(&bytes) {
                Some(c) => format!("{c:?}").to_lowercase(),
                None => "unknown".into(),
            };
        } else {
            let value = field.text().await.unwrap_or_default();
            match name.as_str() {
                "model" => seen.model = value,
                "language" => seen.language = value,
                "prompt" => seen.prompt = value,
                "response_format" => seen.response_format = value,
                _ => {}
            }
        }
    }
    let prompt = seen.prompt.clone();
    let language = seen.language.clone();
    shared.received.lock().expect("not poisoned").push(seen);
    let rule = {
        let mut rules = shared.rules.lock().expect("not poisoned");
        rules
            .iter_mut()
            .find(|(r, used)| {
                r.times.is_none_or(|t| *used < t)
                    && r.when_prompt
                        .as_ref()
                        .is_none_or(|w| prompt.contains(w.as_str()))
                    && r.when_language.as_ref().is_none_or(|l| *l == language)
            })
            .map(|(r, used)| {
                *used += 1;
                r.clone()
            })
    };
    let Some(rule) = rule else {
        return Json(json!({"text": ""})).into_response();
    };
    if rule.delay_ms > 0 {
        tokio::time::sleep(Duration::from_millis(rule.delay_ms)).await;
    }
    if let Some(status) = rule.status {
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        return (
            status,
            Json(json!({"error": {"message": "scripted failure"}})),
        )
            .into_response();
    }
    Json(json!({"text": rule.text.unwrap_or_default(), "alternatives": rule.alternatives}))
        .into_response()
}
