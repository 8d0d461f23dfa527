//! Property tests of the request parsers: random UTF-8, JSON of any shape
//! and bodies of any size sent to the chat, review, report and form
//! endpoints never make the server panic and never answer 5xx.

use crate::common;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use axum::body::Body;
use axum::http::Request;
use proptest::prelude::*;
use serde_json::{json, Value};
use tower::ServiceExt;

/// One site for the whole file, on its own runtime (proptest calls back
/// synchronously).
fn site() -> &'static (tokio::runtime::Runtime, axum::Router, String) {
    static SITE: OnceLock<(tokio::runtime::Runtime, axum::Router, String)> = OnceLock::new();
    SITE.get_or_init(|| {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let (app, id) = rt.block_on(async {
            let (app, _) = common::app().await;
            let v = common::get(
                &app,
                "/api/v1/advisors?school=北京大学&major=计算机科学与技术",
            )
            .await
            .json();
            (app, v["advisors"][0]["id"].as_str().unwrap().to_string())
        });
        (rt, app, id)
    })
}

/// A different client each request, so per-client limits do not hide the parser.
fn next_client() -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    format!(
        "10.{}.{}.{}",
        100 + n / 65_536 % 100,
        n / 256 % 256,
        n % 256
    )
}

fn status_of(method: &str, uri: &str, content_type: &str, body: Vec<u8>) -> u16 {
    let (rt, app, _) = site();
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", content_type)
        .header("x-forwarded-for", next_client())
        .body(Body::from(body))
        .unwrap();
    rt.block_on(async { app.clone().oneshot(req).await.unwrap().status().as_u16() })
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        any::<String>().prop_map(Value::String),
        "[一-龥a-z0-9 ]{0,40}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::hash_map(
                prop_oneof![
                    Just("message".to_string()),
                    Just("option".to_string()),
                    Just("page_context".to_string()),
                    Just("session_id".to_string()),
                    Just("visible_advisors".to_string()),
                    Just("ratings".to_string()),
                    Just("text".to_string()),
                    Just("tags".to_string()),
                    Just("reason".to_string()),
                    any::<String>(),
                ],
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A body: JSON of some shape, raw bytes, or a long run of text.
fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => json_value().prop_map(|v| v.to_string().into_bytes()),
        2 => prop::collection::vec(any::<u8>(), 0..512),
        1 => (any::<char>(), 0usize..40_000).prop_map(|(c, n)| c.to_string().repeat(n).into_bytes()),
        1 => json_value().prop_map(|v| json!({"message": v, "page_context": {"visible_advisors": [v]}}).to_string().into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn chat_never_fails_on_the_server(body in body(), stream in any::<bool>()) {
        let uri = if stream { "/api/v1/chat/stream" } else { "/api/v1/chat" };
        let s = status_of("POST", uri, "application/json", body);
        prop_assert!(s < 500, "{uri}: {s}");
    }

    #[test]
    fn reviews_and_reports_never_fail_on_the_server(body in body(), which in 0u8..4) {
        let id = &site().2;
        let (method, uri) = match which {
            0 => ("POST", format!("/api/v1/advisors/{id}/reviews")),
            1 => ("PUT", "/api/v1/reviews/1".to_string()),
            2 => ("POST", "/api/v1/reviews/1/report".to_string()),
            _ => ("POST", "/api/v1/chat/switch_agent".to_string()),
        };
        let s = status_of(method, &uri, "application/json", body);
        prop_assert!(s < 500, "{method} {uri}: {s}");
    }

    #[test]
    fn forms_never_fail_on_the_server(
        fields in prop::collection::vec((any::<String>(), any::<String>()), 0..8),
        raw in prop::collection::vec(any::<u8>(), 0..256),
        use_raw in any::<bool>(),
        which in 0u8..3,
    ) {
        let id = &site().2;
        let body = if use_raw {
            raw
        } else {
            fields
                .iter()
                .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
                .collect::<Vec<_>>()
                .join("&")
                .into_bytes()
        };
        let uri = match which {
            0 => format!("/reviews/new/{id}"),
            1 => "/reviews/1/report".to_string(),
            _ => "/reviews/1/edit".to_string(),
        };
        let s = status_of("POST", &uri, "application/x-www-form-urlencoded", body);
        prop_assert!(s < 500, "{uri}: {s}");
    }
}

fn enc(s: &str) -> String {
    s.bytes().map(|b| format!("%{b:02X}")).collect()
}
