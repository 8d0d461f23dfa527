//! `POST /api/v1/chat` and `GET /api/v1/chat/{session_id}`: the agent's JSON
//! endpoints, the same types as the server functions the panel calls. A body
//! that is not the protocol's JSON answers 400 in Chinese, never axum's
//! plain-text rejection.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};

use app::error::ApiError;
use app::model::ChatHistory;
use app::protocol::{ChatRequest, ChatResponse};

use super::JsonError;
use crate::agent::Agent;

pub fn router(agent: Arc<Agent>) -> Router {
    Router::new()
        .route("/chat", post(chat))
        .route("/chat/{session_id}", get(history))
        .with_state(agent)
}

async fn chat(
    State(agent): State<Arc<Agent>>,
    body: Result<Json<ChatRequest>, JsonRejection>,
) -> Result<Json<ChatResponse>, JsonError> {
    let Json(request) = body.map_err(|e| {
        let message = match e {
            JsonRejection::MissingJsonContentType(_) => "请求需要 Content-Type: application/json。",
            JsonRejection::JsonSyntaxError(_) => "请求体不是合法的 JSON。",
            JsonRejection::JsonDataError(_) => "请求字段格式不正确（例如 page_context）。",
            _ => "请求格式不正确。",
        };
        JsonError(ApiError::bad_request("invalid_request", message))
    })?;
    Ok(Json(agent.turn(request).await?))
}

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
