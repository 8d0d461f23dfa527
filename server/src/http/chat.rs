//! `POST /api/v1/chat`, `POST /api/v1/chat/stream`,
//! `POST /api/v1/chat/switch_agent` and `GET /api/v1/chat/{session_id}`:
//! the agent's JSON endpoints, the same
//! types as the server functions the panel calls. A body that is not the
//! protocol's JSON answers 400 in Chinese, never axum's plain-text rejection.

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::handler::Handler;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::StreamExt;
use tracing::Instrument;

use app::error::ApiError;
use app::model::ChatHistory;
use app::protocol::{
    ChatRequest, ChatResponse, SwitchAgentData, SwitchAgentRequest, SwitchAgentResponse,
};

use super::responses::{Error, RateLimited};
use super::security::{limit, CHAT_BODY};
use super::JsonError;
use crate::agent::session_store::Caller;
use crate::agent::stream::{StreamEvent, VoiceSink};
use crate::agent::Agent;

pub fn router(agent: Arc<Agent>) -> Router {
    Router::new()
        .route("/chat", post(chat.layer(limit(CHAT_BODY))))
        .route("/chat/stream", post(chat_stream.layer(limit(CHAT_BODY))))
        .route(
            "/chat/switch_agent",
            post(switch_agent.layer(limit(CHAT_BODY))),
        )
        .route("/chat/{session_id}", get(history))
        .with_state(agent)
}

/// What `POST /chat/stream` sends: its events, as the document describes them.
const STREAM_EVENTS: &str = "The turn as Server-Sent Events, in this order: \
    `switch` (only when the persona changes this turn, before its first sentence; \
    `data` is a `SwitchNotice`), \
    `voice` (zero or more: a sentence to speak at once; `data` is a `VoicePiece`, \
    whose `restart` means what was said so far is replaced), \
    then exactly one `reply` (`data` is the turn's whole `ChatResponse`, as `POST /chat` \
    answers it; the stream ends after it). Comment lines keep the connection alive.";

/// The body as a `ChatRequest`, or the protocol's 400.
fn request(body: Result<Json<ChatRequest>, JsonRejection>) -> Result<ChatRequest, JsonError> {
    super::json_body(
        body,
        "应为 {session_id, message 或 option, page_context}（例如 page_context 的格式）。",
    )
}

/// One turn of the agent: the student's message or chip click, with what
/// the page shows; the reply, its tool calls and the form.
#[utoipa::path(post, path = "/chat", context_path = "/api/v1", tag = "chat",
    request_body = ChatRequest,
    responses(
        (status = 200, body = ChatResponse, description = "The reply, stored; a turn whose planner or model failed still answers 200 with `error` set"),
        (status = 400, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 413, response = Error),
        (status = 429, response = RateLimited),
        (status = 503, response = Error),
    ))]
async fn chat(
    State(agent): State<Arc<Agent>>,
    caller: Caller,
    body: Result<Json<ChatRequest>, JsonRejection>,
) -> Result<Json<ChatResponse>, JsonError> {
    let prepared = agent.prepare(request(body)?, caller).await?;
    Ok(Json(agent.answer(prepared).await?))
}

/// The same turn as [`chat`], its sentences sent as they are ready. The
/// request is checked first, so bad input (and a used-up quota) is the
/// usual 4xx JSON; once the stream starts the turn runs to the end even if
/// the student leaves, so it is stored either way — unless it raced other
/// turns of its client past the quota, when the last event's reply carries
/// `rate_limited` and nothing was stored, or the database refused the
/// write, when it carries `storage_unavailable` and its words say the turn
/// was not kept.
#[utoipa::path(post, path = "/chat/stream", context_path = "/api/v1", tag = "chat",
    request_body = ChatRequest,
    responses(
        (status = 200, description = STREAM_EVENTS, content_type = "text/event-stream", body = String),
        (status = 400, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 413, response = Error),
        (status = 429, response = RateLimited),
    ))]
async fn chat_stream(
    State(agent): State<Arc<Agent>>,
    caller: Caller,
    body: Result<Json<ChatRequest>, JsonRejection>,
) -> Result<Response, JsonError> {
    let prepared = agent.prepare(request(body)?, caller).await?;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    // In the request's span: the turn's log lines carry its id.
    tokio::spawn(
        async move {
            let sink = VoiceSink::new(tx);
            let (reply, _) = agent.run(prepared, Some(&sink)).await;
            sink.close(reply);
        }
        .instrument(tracing::Span::current()),
    );
    let events = UnboundedReceiverStream::new(rx).map(|event| {
        Ok::<Event, Infallible>(match event {
            StreamEvent::Switch(notice) => Event::default()
                .event("switch")
                .data(serde_json::to_string(&notice).unwrap_or_default()),
            StreamEvent::Voice(piece) => Event::default()
                .event("voice")
                .data(serde_json::to_string(&piece).unwrap_or_default()),
            StreamEvent::Reply(reply) => Event::default()
                .event("reply")
                .data(serde_json::to_string(&reply).unwrap_or_default()),
        })
    });
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// A stored conversation, as the panel restores it after a reload.
#[utoipa::path(get, path = "/chat/{session_id}", context_path = "/api/v1", tag = "chat",
    params(("session_id" = String, Path, description = "会话编号")),
    responses(
        (status = 200, body = ChatHistory, description = "The conversation"),
        (status = 404, response = Error),
    ))]
async fn history(
    State(agent): State<Arc<Agent>>,
    Path(session_id): Path<String>,
) -> Result<Json<ChatHistory>, JsonError> {
    agent.history(&session_id).await?.map(Json).ok_or_else(|| {
        JsonError(
            ApiError::not_found("unknown_session", "会话不存在或已过期。").with_field("session_id"),
        )
    })
}

/// The persona chosen by hand. Success and failure share the
/// `{code, message, data}` envelope, `code` being the HTTP status.
#[utoipa::path(post, path = "/chat/switch_agent", context_path = "/api/v1", tag = "chat",
    request_body = SwitchAgentRequest,
    responses(
        (status = 200, body = SwitchAgentResponse, description = "Switched: `data` names the persona and the session"),
        (status = 400, body = SwitchAgentResponse, description = "Not a persona, or not the request's shape: `data` is null"),
        (status = 404, body = SwitchAgentResponse, description = "No such session: `data` is null"),
        (status = 413, body = SwitchAgentResponse, description = "The body is too large: `data` is null"),
    ))]
async fn switch_agent(
    State(agent): State<Arc<Agent>>,
    body: Result<Json<SwitchAgentRequest>, JsonRejection>,
) -> Response {
    let result = match body {
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            let mut e = ApiError::bad_request("payload_too_large", "请求内容太大了。");
            e.status = 413;
            Err(e)
        }
        Err(_) => Err(ApiError::bad_request(
            "invalid_request",
            "请求体应为 {\"session_id\": \"…\", \"agent_type\": \"casual\" 或 \"analysis\"}。",
        )),
        Ok(Json(req)) => {
            agent
                .switch_agent(req.session_id.as_deref(), &req.agent_type)
                .await
        }
    };
    let (status, reply) = match result {
        Ok((session_id, to, message)) => (
            StatusCode::OK,
            SwitchAgentResponse {
                code: 200,
                message,
                data: Some(SwitchAgentData {
                    agent_type: to.to_string(),
                    session_id,
                }),
            },
        ),
        Err(e) => (
            StatusCode::from_u16(e.status).unwrap_or(StatusCode::BAD_REQUEST),
            SwitchAgentResponse {
                code: e.status,
                message: e.info.message,
                data: None,
            },
        ),
    };
    (status, Json(reply)).into_response()
}
