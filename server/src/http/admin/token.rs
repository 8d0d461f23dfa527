//! Who may act as the admin: the token the site was built with, compared
//! in constant time, and the refusals (404 off, 401 without, 403 wrong,
//! 429 after too many wrong ones from a client). Apart from what the admin
//! does (`super`), since the two change for different reasons.

use std::sync::Arc;

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use app::error::ApiError;

use super::super::client::ClientId;
use super::super::limits::Limits;
use super::super::JsonError;

/// The admin token the site was built with (`ADMIN_TOKEN`, read once by
/// the configuration and put on every request by the router); none: the
/// admin is off.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct AdminToken(pub(super) Option<Arc<str>>);

/// Never the token itself.
impl std::fmt::Debug for AdminToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "AdminToken(set)"
        } else {
            "AdminToken(off)"
        })
    }
}

impl AdminToken {
    /// `token` trimmed; empty or none turns the admin off.
    pub fn new(token: Option<&str>) -> AdminToken {
        AdminToken(
            token
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(Arc::from),
        )
    }

    /// The token of a request (the admin is off without one).
    pub(super) fn of(extensions: &axum::http::Extensions) -> AdminToken {
        extensions.get::<AdminToken>().cloned().unwrap_or_default()
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for AdminToken {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<AdminToken, Self::Rejection> {
        Ok(AdminToken::of(&parts.extensions))
    }
}

/// Equal secrets, compared in time that does not depend on where they
/// differ (their SHA-256 digests, so not even on their lengths).
fn same_secret(given: &str, expected: &str) -> bool {
    use sha2::{Digest, Sha256};
    use subtle::ConstantTimeEq;
    let a = Sha256::digest(given.trim().as_bytes());
    let b = Sha256::digest(expected.as_bytes());
    a.as_slice().ct_eq(b.as_slice()).into()
}

/// The refusal of a request the admin does not serve (401, 403, or 404
/// when the admin is off), with its Chinese message.
pub(super) fn refused(status: StatusCode) -> ApiError {
    let message = if status == StatusCode::UNAUTHORIZED {
        "需要管理员口令。"
    } else if status == StatusCode::FORBIDDEN {
        "管理员口令不正确。"
    } else {
        "页面不存在。"
    };
    let mut e = ApiError::bad_request(
        match status.as_u16() {
            401 => "unauthorized",
            403 => "forbidden",
            _ => "unknown_endpoint",
        },
        message,
    );
    e.status = status.as_u16();
    e
}

/// Ok, or why the request is refused: 404 when the admin is off, 429 after
/// too many wrong tokens from this client, 401 without a token, 403 with a
/// wrong one (which counts against the client). The token is the query's
/// (`/admin?token=` only), else `Authorization: Bearer`, else the
/// `admin_token` cookie.
pub(super) async fn check(
    headers: &HeaderMap,
    query_token: Option<&str>,
    client: &ClientId,
    (limits, token): (&Limits, &AdminToken),
) -> Result<(), ApiError> {
    let Some(expected) = token.0.as_deref() else {
        return Err(refused(StatusCode::NOT_FOUND));
    };
    if let Some(wait) = limits.admin_failures.exhausted(&client.key).await {
        return Err(ApiError::too_many(
            wait,
            "管理员口令错误次数过多，请稍后再试。",
        ));
    }
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let cookie = headers
        .get(header::COOKIE)
        .and_then(|v| v.to_str().ok())
        .and_then(|c| {
            c.split(';')
                .map(str::trim)
                .find_map(|kv| kv.strip_prefix("admin_token="))
        });
    match query_token.or(bearer).or(cookie) {
        None => Err(refused(StatusCode::UNAUTHORIZED)),
        Some(t) if same_secret(t, expected) => Ok(()),
        Some(_) => {
            let _ = limits.admin_failures.hit(&client.key).await;
            tracing::warn!(client = %crate::observe::client_tag(&client.key), "wrong admin token");
            Err(refused(StatusCode::FORBIDDEN))
        }
    }
}

/// [`check`], a refusal as the response that answers it (the JSON envelope,
/// with `Retry-After` on a 429).
pub(super) async fn guard(
    headers: &HeaderMap,
    query_token: Option<&str>,
    client: &ClientId,
    limits: (&Limits, &AdminToken),
) -> Result<(), Box<Response>> {
    check(headers, query_token, client, limits)
        .await
        .map_err(|e| Box::new(JsonError(e).into_response()))
}
