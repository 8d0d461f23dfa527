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
        (status, Json(ErrorEnvelope { error: self.0.info })).into_response()
    }
}
