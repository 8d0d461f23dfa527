//! What the operator gets from a running site (issue "Run it as a real
//! service"): `/readyz` that asks the database, `/metrics` whose counts move
//! with the requests, turns and reviews of the real router, and a request id
//! on every response.

use crate::common::{self, app, get, post_json};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use tower::ServiceExt;

/// The value of the series `series` (name and labels as rendered), 0 when
/// it is not there yet.
fn value(metrics: &str, series: &str) -> f64 {
    metrics
        .lines()
        .find_map(|l| {
            l.strip_prefix(series)?
                .strip_prefix(' ')?
                .trim()
                .parse()
                .ok()
        })
        .unwrap_or(0.0)
}

#[tokio::test]
async fn readiness_asks_the_database_and_health_does_not() {
    let (app, site) = app().await;
    let r = get(&app, "/readyz").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json(), serde_json::json!({"status": "ok"}));

    // The database gone: not ready, in Chinese, as the envelope; the
    // process itself is still healthy.
    site.pool().close().await;
    let r = get(&app, "/readyz").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    let v = r.json();
    assert_eq!(v["error"]["code"], "not_ready");
    assert!(common::has_chinese(v["error"]["message"].as_str().unwrap()));
    let r = get(&app, "/healthz").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["status"], "ok");
}

#[tokio::test]
async fn metrics_count_requests_by_route_turns_and_refused_reviews() {
    let (app, _) = app().await;
    let id = common::zhang_id(&app).await;
    let before = get(&app, "/metrics").await;
    assert_eq!(before.status, StatusCode::OK);
    let before = before.body;

    // Two reads of one route template, a missing advisor, a chat turn, a
    // review refused for its length.
    for _ in 0..2 {
        assert_eq!(
            get(&app, &format!("/api/v1/advisors/{id}")).await.status,
            StatusCode::OK
        );
    }
    assert_eq!(
        get(&app, "/api/v1/advisors/999999999").await.status,
        StatusCode::NOT_FOUND
    );
    let turn = post_json(
        &app,
        "/api/v1/chat",
        r#"{"message": "你好", "page_context": {"current_page": "home"}}"#,
    )
    .await;
    assert_eq!(turn.status, StatusCode::OK, "{}", turn.body);
    let refused = post_json(
        &app,
        &format!("/api/v1/advisors/{id}/reviews"),
        &common::review_json("太短了").to_string(),
    )
    .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);

    let after = get(&app, "/metrics").await.body;
    let moved = |series: &str| value(&after, series) - value(&before, series);
    // Other tests of this process count too: at least what this one did.
    assert!(moved(r#"http_requests_total{route="/api/v1/advisors/{id}",status="2xx"}"#) >= 2.0);
    assert!(moved(r#"http_requests_total{route="/api/v1/advisors/{id}",status="4xx"}"#) >= 1.0);
    assert!(
        !after.contains("/api/v1/advisors/999999999"),
        "a raw path is a label"
    );
    assert!(
        after.contains(r#"agent_turn_duration_seconds_count{planner="embedded",step="intent"}"#),
        "{after}"
    );
    assert!(moved(r#"reviews_refused_total{rule="too_short"}"#) >= 1.0);
    assert!(after.contains("# TYPE http_request_duration_seconds histogram"));
    assert!(value(&after, "db_pool_connections") >= 1.0);
    assert!(after.contains("db_pool_idle "));
}

#[tokio::test]
async fn metrics_are_off_unless_configured() {
    let site = common::site().await;
    let options = leptos::config::LeptosOptions::builder()
        .output_name("advisor-review")
        .build();
    let agent = std::sync::Arc::new(server::agent::Agent::new(site.clone()));
    let app = server::app_router_with(site, agent, options, server::http::Settings::default());
    assert_eq!(get(&app, "/metrics").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn every_response_carries_a_request_id() {
    let (app, _) = app().await;
    let send = |id: Option<&'static str>| {
        let app = app.clone();
        async move {
            let mut req = Request::get("/api/v1/schools");
            if let Some(id) = id {
                req = req.header("x-request-id", id);
            }
            app.oneshot(req.body(Body::empty()).unwrap()).await.unwrap()
        }
    };
    let kept = send(Some("lb-7f3a.42")).await;
    assert_eq!(kept.status(), StatusCode::OK);
    assert_eq!(kept.headers()["x-request-id"], "lb-7f3a.42");
    let fresh = send(None).await;
    let id = fresh.headers()["x-request-id"].to_str().unwrap();
    assert!(uuid::Uuid::parse_str(id).is_ok(), "{id}");
    let replaced = send(Some("two words")).await;
    assert_ne!(replaced.headers()["x-request-id"], "two words");
}
