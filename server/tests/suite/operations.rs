//! What the operator gets from a running site (issue "Run it as a real
//! service"): a request id on every response of the real router.

use crate::common::app;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use tower::ServiceExt;

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
