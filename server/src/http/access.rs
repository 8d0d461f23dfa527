//! What every request leaves behind, put on the site's router outermost
//! ([`layer`]), so that nothing inside can skip it:
//!
//! - **An id** (`x-request-id`): the client's when it sent a sane one (1–64
//!   letters, digits, `-_.:`), else a new UUID; answered on the response.
//! - **A span** carrying method, path (never the query string: it may hold
//!   what a student typed) and the id. Everything logged while serving the
//!   request — the agent's turn, the model calls — is inside it, so each
//!   line names the request. One access line per response adds status and
//!   latency. No body and no client address is logged (a client is a
//!   `observe::client_tag` where one must be named).
//! - **A count** in the metrics by route template (`/api/v1/advisors/{id}`,
//!   never the raw path) and status class (`observe::http_request`).
//! - **A panicking handler** answers 500 with the site's JSON envelope
//!   instead of dropping the connection. Bad input is never answered so
//!   (every parser of outside bytes refuses it with a 4xx and is fuzzed,
//!   `fuzz/`): the guard is for real bugs, so each panic is counted
//!   (`http_panics_total`, by route) and logged with the request's id and
//!   the panic's message, to be found and fixed.

use std::any::Any;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderName, Response};
use axum::middleware::{self, Next};
use axum::response::IntoResponse;
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{
    MakeRequestUuid, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::trace::TraceLayer;
use tracing::Span;

use app::error::ApiError;

use super::JsonError;

/// The header of the request id, both ways.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The longest request id taken from a client.
const MAX_ID: usize = 64;

/// `router` with the id, span, access line, count and panic guard of every
/// request (the module's doc says what each is for).
pub fn layer(router: Router) -> Router {
    // The last layer added is the outermost: a request passes them from
    // the bottom of this list up, its response from the top down.
    router
        .layer(CatchPanicLayer::custom(panicked))
        .layer(middleware::from_fn(count))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(span)
                .on_request(())
                .on_response(access_line)
                .on_failure(()),
        )
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .layer(middleware::from_fn(drop_insane_id))
}

/// A client's request id worth keeping: short, and nothing a log line or a
/// header could be confused by.
fn sane(id: &[u8]) -> bool {
    (1..=MAX_ID).contains(&id.len())
        && id
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(b))
}

/// Middleware: a client's request id that is not [`sane`] (or one of
/// several) is dropped, so a fresh one is made.
async fn drop_insane_id(mut req: Request, next: Next) -> axum::response::Response {
    let ids = req.headers().get_all(&REQUEST_ID);
    let mut n = 0;
    let mut all_sane = true;
    for id in ids {
        n += 1;
        all_sane &= sane(id.as_bytes());
    }
    if n > 1 || !all_sane {
        req.headers_mut().remove(&REQUEST_ID);
    }
    next.run(req).await
}

/// The span of one request: method, path without the query, the id; the
/// status and latency are recorded on it when the response is ready.
fn span(req: &Request) -> Span {
    let id = req
        .extensions()
        .get::<RequestId>()
        .and_then(|id| id.header_value().to_str().ok())
        .unwrap_or_default();
    tracing::info_span!(
        "request",
        method = %req.method(),
        path = %req.uri().path(),
        id = %id,
        status = tracing::field::Empty,
        latency_ms = tracing::field::Empty,
    )
}

/// The access line of a response, in the request's span.
fn access_line(res: &Response<Body>, latency: Duration, span: &Span) {
    let status = res.status().as_u16();
    let ms = latency.as_secs_f64() * 1000.0;
    span.record("status", status);
    span.record("latency_ms", ms);
    if status >= 500 {
        tracing::error!(status, latency_ms = ms, "response");
    } else {
        tracing::info!(status, latency_ms = ms, "response");
    }
}

/// The label of a matched route: its template; what nests a service
/// (`/pkg`) reads as the prefix and `{*rest}`.
fn route_label(matched: Option<&str>) -> String {
    match matched {
        None => "unmatched".to_string(),
        Some(p) => match p.split_once("/{*__private__axum_nest_tail_param}") {
            Some((prefix, _)) => format!("{prefix}/{{*rest}}"),
            None => p.to_string(),
        },
    }
}

/// Middleware: the request counted by route template and status class,
/// and a panic the guard answered counted and logged with the route and
/// the request's id.
async fn count(req: Request, next: Next) -> axum::response::Response {
    let route = route_label(
        req.extensions()
            .get::<MatchedPath>()
            .map(MatchedPath::as_str),
    );
    let id = req
        .extensions()
        .get::<RequestId>()
        .and_then(|id| id.header_value().to_str().ok())
        .unwrap_or_default()
        .to_string();
    let started = Instant::now();
    let res = next.run(req).await;
    crate::observe::http_request(&route, res.status().as_u16(), started.elapsed());
    if let Some(Panicked(what)) = res.extensions().get::<Panicked>() {
        crate::observe::http_panic(&route);
        tracing::error!(route = %route, request_id = %id, panic = %what, "a handler panicked");
    }
    res
}

/// What the panic guard leaves on its answer for [`count`]: the panic's
/// message.
#[derive(Clone)]
struct Panicked(String);

/// The answer to a handler that panicked: 500 and the envelope in Chinese;
/// the panic's message rides on the response to [`count`], which logs it.
fn panicked(err: Box<dyn Any + Send + 'static>) -> Response<Body> {
    let what = err
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| err.downcast_ref::<&str>().copied())
        .unwrap_or("a panic without a message");
    let mut e = ApiError::unavailable("服务器内部出错了，请稍后再试。");
    e.status = 500;
    e.info.code = "internal_error".into();
    let mut res = JsonError(e).into_response();
    res.extensions_mut().insert(Panicked(what.to_string()));
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    fn router() -> Router {
        layer(
            Router::new()
                .route("/ok/{id}", get(|| async { "ok" }))
                .route("/boom", get(boom)),
        )
    }

    async fn boom() -> &'static str {
        panic!("a handler that breaks")
    }

    async fn send(router: Router, path: &str, id: Option<&str>) -> Response<Body> {
        let mut req = Request::builder().uri(path);
        if let Some(id) = id {
            req = req.header("x-request-id", id);
        }
        router
            .oneshot(req.body(Body::empty()).unwrap())
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_500_with_the_envelope_and_its_id() {
        let res = send(router(), "/boom", Some("trace-42")).await;
        assert_eq!(res.status(), 500);
        assert_eq!(res.headers()["x-request-id"], "trace-42");
        assert!(res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json"));
        let body = res.into_body().collect().await.unwrap().to_bytes();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"]["code"], "internal_error");
        assert_eq!(v["error"]["message"], "服务器内部出错了，请稍后再试。");
        // The router still serves after the panic.
        assert_eq!(send(router(), "/ok/1", None).await.status(), 200);
    }

    /// Each panic is counted by route, on a recorder of the test's own.
    #[test]
    fn a_panic_is_counted_by_route() {
        let recorder = metrics_exporter_prometheus::PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        metrics::with_local_recorder(&recorder, || {
            rt.block_on(async {
                assert_eq!(send(router(), "/boom", Some("p-1")).await.status(), 500);
                assert_eq!(send(router(), "/ok/1", None).await.status(), 200);
            })
        });
        let text = handle.render();
        assert!(
            text.contains(r#"http_panics_total{route="/boom"} 1"#),
            "{text}"
        );
        assert!(!text.contains(r#"http_panics_total{route="/ok/{id}"}"#));
    }

    #[tokio::test]
    async fn a_sane_id_is_kept_and_any_other_replaced() {
        let res = send(router(), "/ok/1", Some("abc-123_x.y:z")).await;
        assert_eq!(res.headers()["x-request-id"], "abc-123_x.y:z");
        for insane in ["has space", "<script>", &"x".repeat(65), "名字"] {
            let mut req = Request::builder().uri("/ok/1");
            req = req.header(
                "x-request-id",
                axum::http::HeaderValue::from_bytes(insane.as_bytes()).unwrap(),
            );
            let res = router()
                .oneshot(req.body(Body::empty()).unwrap())
                .await
                .unwrap();
            let given = res.headers()["x-request-id"].to_str().unwrap().to_string();
            assert_ne!(given, insane);
            assert!(uuid::Uuid::parse_str(&given).is_ok(), "{given}");
        }
        let fresh = send(router(), "/ok/1", None).await;
        let id = fresh.headers()["x-request-id"].to_str().unwrap();
        assert!(uuid::Uuid::parse_str(id).is_ok(), "{id}");
    }

    #[test]
    fn routes_are_labelled_by_template() {
        assert_eq!(route_label(None), "unmatched");
        assert_eq!(
            route_label(Some("/api/v1/advisors/{id}")),
            "/api/v1/advisors/{id}"
        );
        assert_eq!(
            route_label(Some("/pkg/{*__private__axum_nest_tail_param}")),
            "/pkg/{*rest}"
        );
    }
}
