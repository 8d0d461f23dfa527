//! Turns an [`ApiError`] into `{"error": {"code", "message"}}` with its status.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use app::error::ApiError;
use app::protocol::ErrorEnvelope;

/// An API error on its way out as JSON.
#[derive(Debug)]
pub struct JsonError(pub ApiError);

impl From<ApiError> for JsonError {
    fn from(e: ApiError) -> Self {
        JsonError(e)
    }
}

impl IntoResponse for JsonError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.0.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let retry_after = self.0.retry_after;
        let mut res = (status, Json(ErrorEnvelope { error: self.0.info })).into_response();
        if let Some(v) = retry_after.and_then(|s| s.to_string().parse().ok()) {
            res.headers_mut().insert(axum::http::header::RETRY_AFTER, v);
        }
        res
    }
}

/// A JSON body, or the envelope naming what was wrong with it: too large
/// (413), not JSON (400), or JSON of the wrong shape (400 with `shape`, the
/// body the endpoint expects).
pub fn json_body<T>(
    body: Result<axum::Json<T>, axum::extract::rejection::JsonRejection>,
    shape: &str,
) -> Result<T, JsonError> {
    use axum::extract::rejection::JsonRejection;
    let rejection = match body {
        Ok(axum::Json(v)) => return Ok(v),
        Err(r) => r,
    };
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        let mut e = ApiError::bad_request("payload_too_large", "请求内容太大了。");
        e.status = 413;
        return Err(JsonError(e));
    }
    let message = match rejection {
        JsonRejection::MissingJsonContentType(_) => {
            "请求需要 Content-Type: application/json。".to_string()
        }
        JsonRejection::JsonSyntaxError(_) => "请求体不是合法的 JSON。".to_string(),
        JsonRejection::JsonDataError(_) => format!("请求字段格式不正确：{shape}"),
        _ => "请求格式不正确。".to_string(),
    };
    Err(JsonError(ApiError::bad_request("invalid_request", message)))
}
