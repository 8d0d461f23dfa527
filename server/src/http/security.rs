//! What every response and every request passes through before any handler
//! does work, so no single handler can forget it:
//!
//! - [`headers`]: `X-Content-Type-Options`, `Referrer-Policy`,
//!   `X-Frame-Options`, a default Content-Security-Policy for responses that
//!   set none (the pages set their own, with the nonce of their inline
//!   hydration scripts: [`page_csp`]).
//! - [`same_origin_writes`]: a browser's cross-site POST/PUT/DELETE is
//!   refused (`Sec-Fetch-Site`, else `Origin` against `Host`), so no other
//!   site can make a visitor's browser post a form with the visitor's cookies.
//! - [`json_errors`]: any error of the API that is not already the
//!   `{"error": …}` envelope (a body over the limit, a timeout, a rejected
//!   extractor) becomes one, in Chinese.
//! - [`limit`]: request body limits per route, answered 413 before the body
//!   is read, and a hard limit for everything; [`timeout`]: a request that
//!   takes too long answers 408.

use std::time::Duration;

use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use app::error::ApiError;

use super::JsonError;

/// Body limits, in bytes. A review is at most 2000 characters: as a form
/// every CJK character is 9 bytes (`%E5%BC%A0`), as JSON at most 6 (`\u5f20`).
pub const REVIEW_BODY: usize = 24 * 1024;
/// A report: a reason of a few hundred characters.
pub const REPORT_BODY: usize = 4 * 1024;
/// A request for a correction: 2000 characters of details and a few short
/// fields, as a form (9 bytes a CJK character).
pub const CORRECTION_BODY: usize = 32 * 1024;
/// A chat turn: 500 characters and a page context of at most 200 advisors.
pub const CHAT_BODY: usize = 64 * 1024;
/// Anything else (admin actions, server functions).
pub const DEFAULT_BODY: usize = 64 * 1024;
/// No request body anywhere is read past this.
pub const HARD_BODY: usize = 256 * 1024;
/// The longest any request may take before it answers 408 (a model's whole
/// turn budget is 20 s by default).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The policy for responses that set none: nothing inline, nothing framed.
const DEFAULT_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
    img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// The policy of a rendered page: its inline scripts (hydration, resolved
/// resources) carry `nonce`; the WASM module needs `wasm-unsafe-eval`.
pub fn page_csp(nonce: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
         object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// Inside a page render: the response carries [`page_csp`] with the nonce
/// Leptos put on this render's inline scripts.
pub fn provide_page_csp() {
    use leptos::prelude::use_context;
    let (Some(nonce), Some(res)) = (
        leptos::nonce::use_nonce(),
        use_context::<leptos_axum::ResponseOptions>(),
    ) else {
        return;
    };
    if let Ok(v) = HeaderValue::from_str(&page_csp(&nonce)) {
        res.insert_header(header::CONTENT_SECURITY_POLICY, v);
    }
}

/// Middleware: the security headers of every response.
pub async fn headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    let set = |h: &mut axum::http::HeaderMap, name: header::HeaderName, value: &'static str| {
        if !h.contains_key(&name) {
            h.insert(name, HeaderValue::from_static(value));
        }
    };
    set(h, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(h, header::REFERRER_POLICY, "same-origin");
    set(h, header::X_FRAME_OPTIONS, "DENY");
    set(h, header::CONTENT_SECURITY_POLICY, DEFAULT_CSP);
    set(
        h,
        header::HeaderName::from_static("permissions-policy"),
        "camera=(), geolocation=(), microphone=(self)",
    );
    res
}

/// Whether a request that changes something came from another site.
fn cross_site(req: &Request) -> bool {
    if let Some(site) = req
        .headers()
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
    {
        // `none`: typed into the address bar or a bookmark; `same-site`: a
        // sibling subdomain, which could be someone else's — refused too.
        return !matches!(site, "same-origin" | "none");
    }
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        // Neither header: not a browser (or a very old one); nothing to check.
        return false;
    };
    let origin = origin.to_str().unwrap_or("null");
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let origin_host = origin
        .split_once("://")
        .map(|(_, rest)| rest.trim_end_matches('/'))
        .unwrap_or("null");
    host.is_empty() || !origin_host.eq_ignore_ascii_case(host)
}

/// Middleware: refuses a browser's cross-site write with 403.
pub async fn same_origin_writes(req: Request, next: Next) -> Response {
    let writes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if writes && cross_site(&req) {
        let mut e = ApiError::bad_request(
            "cross_site_request",
            "来自其他网站的提交已拒绝，请在本站页面上操作。",
        );
        e.status = 403;
        return JsonError(e).into_response();
    }
    next.run(req).await
}

/// The envelope's code and message for a status that reached the client
/// without one.
fn describe(status: StatusCode) -> (&'static str, String) {
    match status.as_u16() {
        400 | 422 => ("invalid_request", "请求格式不正确。".into()),
        404 => ("unknown_endpoint", "没有这个接口。".into()),
        405 => ("method_not_allowed", "这个接口不支持该请求方法。".into()),
        408 => ("request_timeout", "请求处理超时，请稍后再试。".into()),
        411 => ("length_required", "请求需要 Content-Length。".into()),
        413 => ("payload_too_large", "请求内容太大了。".into()),
        415 => (
            "unsupported_media_type",
            "请求的 Content-Type 不正确（应为 application/json）。".into(),
        ),
        429 => ("rate_limited", "请求太频繁了，请稍后再试。".into()),
        s if s >= 500 => ("internal_error", "服务器暂时出了问题，请稍后再试。".into()),
        _ => ("invalid_request", "请求无法处理。".into()),
    }
}

/// The routes whose errors are the JSON envelope: the API, and the targets
/// of the site's plain forms (pages and server functions keep their own).
fn speaks_json(req: &Request) -> bool {
    let path = req.uri().path();
    path.starts_with("/api/v1/")
        || (req.method() != Method::GET
            && (path.starts_with("/reviews/") || path.starts_with("/admin/")))
}

/// Middleware: an error response of the API without the JSON envelope gets
/// one (same status, `Retry-After` and other headers kept).
pub async fn json_errors(req: Request, next: Next) -> Response {
    if !speaks_json(&req) {
        return next.run(req).await;
    }
    let res = next.run(req).await;
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json"));
    if is_json {
        return res;
    }
    let (code, message) = describe(status);
    if status.is_server_error() {
        tracing::error!(%status, "an API error without an envelope");
    }
    let mut e = ApiError::bad_request(code, message);
    e.status = status.as_u16();
    let (mut parts, _) = res.into_parts();
    let fresh = JsonError(e).into_response();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, fresh.into_body())
}

/// A body limit of `bytes` for the route it layers: axum's extractors stop
/// reading there and answer 413 (which the handlers turn into the envelope).
pub fn limit(bytes: usize) -> axum::extract::DefaultBodyLimit {
    axum::extract::DefaultBodyLimit::max(bytes)
}

/// The backstop for whatever reads a body without axum's extractors (server
/// functions): a declared length over it is refused before anything is read,
/// an undeclared one is cut off there.
pub fn hard_limit() -> tower_http::limit::RequestBodyLimitLayer {
    tower_http::limit::RequestBodyLimitLayer::new(HARD_BODY)
}

/// The whole-request deadline.
pub fn timeout() -> tower_http::timeout::TimeoutLayer {
    tower_http::timeout::TimeoutLayer::with_status_code(
        StatusCode::REQUEST_TIMEOUT,
        REQUEST_TIMEOUT,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    fn req(method: Method, headers: &[(&str, &str)]) -> Request {
        let mut b = Request::builder().method(method).uri("/x");
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        b.body(Body::empty()).unwrap()
    }

    #[test]
    fn cross_site_writes_are_told_apart() {
        assert!(cross_site(&req(
            Method::POST,
            &[("sec-fetch-site", "cross-site")]
        )));
        assert!(cross_site(&req(
            Method::POST,
            &[("sec-fetch-site", "same-site")]
        )));
        assert!(!cross_site(&req(
            Method::POST,
            &[("sec-fetch-site", "same-origin")]
        )));
        assert!(cross_site(&req(
            Method::POST,
            &[("origin", "https://evil.example"), ("host", "site.example")]
        )));
        assert!(cross_site(&req(
            Method::POST,
            &[("origin", "null"), ("host", "site.example")]
        )));
        assert!(!cross_site(&req(
            Method::POST,
            &[
                ("origin", "http://127.0.0.1:3000"),
                ("host", "127.0.0.1:3000")
            ]
        )));
        // curl and other non-browsers send neither.
        assert!(!cross_site(&req(Method::POST, &[])));
    }

    #[test]
    fn the_page_policy_names_its_nonce() {
        let p = page_csp("abc123");
        assert!(p.contains("'nonce-abc123'"));
        assert!(p.contains("frame-ancestors 'none'"));
        assert!(!p.contains("unsafe-eval'") || p.contains("wasm-unsafe-eval"));
    }
}
