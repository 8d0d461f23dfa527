//! `GET /api/v1/openapi.json`: the OpenAPI 3.1 description of the JSON API
//! (and of `/healthz`, `/readyz`), derived by utoipa from the handlers'
//! `#[utoipa::path]` attributes and the request and response types they
//! take and return (`ToSchema`, which reads the serde attributes), so the
//! document says what the code does. `tests/suite/openapi.rs` checks it
//! against the router definitions and real answers.
//!
//! Every 4xx/5xx of the API is the envelope `{"error": {code, message,
//! field}}`: the shared responses the handlers name live in
//! [`super::responses`], below both this document and the handlers.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use app::protocol::{ChatResponse, ErrorEnvelope};

pub use super::responses::ERROR_CODES;
use super::responses::{Error, RateLimited};
use super::{admin, api_v1, chat, ops, reviews, transcribe, votes};
use crate::agent::stream::{SwitchNotice, VoicePiece};

/// The security scheme of the admin API (`Authorization: Bearer`), as
/// the admin handlers' `security(...)` name it.
const ADMIN_SECURITY: &str = "admin_token";

/// What the derive cannot say: the admin token's scheme.
struct Additions;

impl Modify for Additions {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            ADMIN_SECURITY,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "`Authorization: Bearer <ADMIN_TOKEN>` (the `admin_token` cookie that \
                         `/admin?token=` sets is accepted too). The admin API answers 404 \
                         `unknown_endpoint` while no `ADMIN_TOKEN` is configured; too many \
                         wrong tokens from one client answer 429.",
                    ))
                    .build(),
            ),
        );
    }
}

/// The document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "导师评价网 API",
        description = "The advisor-review site's JSON API: reads (schools, majors, rankings, \
            advisors, reviews, search, compare), writes (reviews, 有用, reports), the agent \
            (`/api/v1/chat`) and the admin. Ids travel as strings of digits. Every error is \
            the envelope of the shared `Error` response."
    ),
    paths(
        api_v1::schools,
        api_v1::majors,
        api_v1::advisors,
        api_v1::advisor,
        api_v1::reviews,
        api_v1::post_review,
        api_v1::search,
        api_v1::compare,
        reviews::edit,
        reviews::delete,
        reviews::report_json,
        votes::vote,
        votes::unvote,
        chat::chat,
        chat::chat_stream,
        chat::switch_agent,
        chat::history,
        transcribe::transcribe,
        admin::admin_json,
        admin::bulk_json,
        admin::hide_json,
        admin::restore_json,
        document,
        ops::healthz,
        ops::ready,
    ),
    components(
        schemas(ErrorEnvelope, ChatResponse, SwitchNotice, VoicePiece),
        responses(Error, RateLimited)
    ),
    modifiers(&Additions),
    tags(
        (name = "reads", description = "Schools, majors, rankings, advisors, reviews, search, compare"),
        (name = "writes", description = "Reviews, 有用 and reports; no login: a client is its IP (behind trusted proxies, `X-Forwarded-For`)"),
        (name = "chat", description = "The agent"),
        (name = "admin", description = "Moderation, with the admin token"),
        (name = "meta", description = "This document"),
        (name = "operations", description = "Health and readiness, at the root"),
    )
)]
pub struct ApiDoc;

/// The document as served, built once.
static DOCUMENT: LazyLock<String> = LazyLock::new(|| {
    ApiDoc::openapi()
        .to_json()
        .expect("the OpenAPI document serializes")
});

/// The document as JSON text (what `GET /api/v1/openapi.json` answers).
pub fn document_json() -> &'static str {
    &DOCUMENT
}

/// Routes under `/api/v1`.
pub fn router() -> Router {
    Router::new().route("/openapi.json", get(document))
}

/// This document: the OpenAPI 3.1 description of the API.
#[utoipa::path(get, path = "/openapi.json", context_path = "/api/v1", tag = "meta",
    responses((status = 200, description = "The OpenAPI 3.1 document", body = Object)))]
async fn document() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        document_json(),
    )
}
