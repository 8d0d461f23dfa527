//! The operator's endpoints, apart from the site's: `/healthz` (the process
//! answers; cheap, no database), `/readyz` (the database answers `SELECT 1`
//! within [`READY_TIMEOUT`]: 200, else 503 with the JSON envelope, so a
//! load balancer stops sending students to an instance that cannot serve
//! them) and `/metrics` (Prometheus text, `observe::metrics`; mounted only
//! when the configuration turns metrics on: on the site's router with
//! `METRICS=on`, on a listener of its own with `METRICS_ADDR`).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use app::error::ApiError;

use super::responses::Error;
use super::JsonError;
use crate::db::Pool;
use crate::site::Site;

/// How long `/readyz` waits for the database.
pub const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// `/healthz` and `/readyz`.
pub fn health(site: Arc<Site>, planner: String) -> Router {
    let pool = site.pool().clone();
    Router::new()
        .route(
            "/healthz",
            get(healthz).with_state((site, Arc::<str>::from(planner))),
        )
        .route("/readyz", get(ready).with_state(pool))
}

/// What `/healthz` answers.
#[derive(Serialize, ToSchema)]
pub(super) struct Health {
    /// Always `ok`.
    status: &'static str,
    /// How many schools the catalog has.
    schools: usize,
    /// Who plans the agent's turns (the rules, or the configured model).
    #[schema(value_type = String)]
    planner: Arc<str>,
}

/// The process answers (no database asked).
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, body = Health, description = "The process is up")))]
async fn healthz(State((site, planner)): State<(Arc<Site>, Arc<str>)>) -> Json<Health> {
    Json(Health {
        status: "ok",
        schools: site.catalog().schools().len(),
        planner,
    })
}

/// What `/readyz` answers when ready.
#[derive(Serialize, ToSchema)]
pub(super) struct Ready {
    /// Always `ok`.
    status: &'static str,
}

/// `/readyz`: 200 `{"status": "ok"}` when the database answers in time.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses(
        (status = 200, body = Ready, description = "The database answered"),
        (status = 503, response = Error),
    ))]
async fn ready(State(pool): State<Pool>) -> Response {
    let answered =
        tokio::time::timeout(READY_TIMEOUT, sqlx::query("SELECT 1").execute(&pool)).await;
    match answered {
        Ok(Ok(_)) => Json(Ready { status: "ok" }).into_response(),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "not ready: the database failed");
            not_ready()
        }
        Err(_) => {
            tracing::warn!(
                waited_ms = READY_TIMEOUT.as_millis() as u64,
                "not ready: the database did not answer in time"
            );
            not_ready()
        }
    }
}

fn not_ready() -> Response {
    let mut e = ApiError::unavailable("数据库暂时无法访问，服务还没有准备好，请稍后再试。");
    e.info.code = "not_ready".into();
    JsonError(e).into_response()
}

/// `GET /metrics` over `pool` (its size and idle connections are read at
/// each scrape). Sets the process's metrics recorder if none is set yet.
pub fn metrics(pool: Pool) -> Router {
    if let Err(e) = crate::observe::metrics::install() {
        tracing::warn!(error = %e, "metrics are not recorded");
    }
    Router::new().route("/metrics", get(scrape).with_state(pool))
}

async fn scrape(State(pool): State<Pool>) -> Response {
    crate::observe::db_pool(pool.size(), pool.num_idle());
    match crate::observe::metrics::render() {
        Some(text) => (
            [(
                header::CONTENT_TYPE,
                "text/plain; version=0.0.4; charset=utf-8",
            )],
            text,
        )
            .into_response(),
        None => JsonError(ApiError::unavailable("指标暂不可用。")).into_response(),
    }
}
