//! 有用 over HTTP: `POST /api/v1/reviews/{id}/helpful` sets the client's vote,
//! `DELETE` takes it back (both answer `{review_id, voted, helpful}`), and
//! `POST /reviews/{id}/helpful` is the detail page's button without
//! JavaScript: it toggles, then goes back to the review. One vote per
//! client (the identity `http::client` gives every request); no login.

use std::sync::Arc;

use axum::extract::{Form, Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use app::error::ApiError;

use super::client::ClientId;
use super::responses::Error;
use super::JsonError;
use crate::reviews::moderation::review_id;
use crate::site::Site;
use crate::store::votes::{self, Vote};

/// Routes under `/api/v1`.
pub fn api(site: Arc<Site>) -> Router {
    Router::new()
        .route("/reviews/{id}/helpful", post(vote).delete(unvote))
        .with_state(site)
}

/// Page routes: the button's form target.
pub fn pages(site: Arc<Site>) -> Router {
    Router::new()
        .route("/reviews/{id}/helpful", post(toggle_form))
        .with_state(site)
}

/// What a vote left: whether this client's vote stands, and the count.
#[derive(Serialize, ToSchema)]
pub(super) struct Voted {
    review_id: String,
    voted: bool,
    helpful: i64,
}

fn unavailable(e: sqlx::Error) -> JsonError {
    tracing::error!(error = %e, "vote failed");
    JsonError(ApiError::unavailable("操作没有成功，请稍后再试。"))
}

fn unknown_review() -> JsonError {
    JsonError(ApiError::not_found("unknown_review", "没有找到这条评价。"))
}

async fn set(site: &Site, id: &str, client: &ClientId, vote: Vote) -> Result<Voted, JsonError> {
    let id = review_id(id)?;
    let state = votes::vote(site.pool(), id, &client.key, vote)
        .await
        .map_err(unavailable)?
        .ok_or_else(unknown_review)?;
    Ok(Voted {
        review_id: id.to_string(),
        voted: state.voted,
        helpful: state.count,
    })
}

/// 有用: this client's vote for the review (again: no change).
#[utoipa::path(post, path = "/reviews/{id}/helpful", context_path = "/api/v1", tag = "writes",
    params(("id" = String, Path, description = "评价编号（正整数）")),
    responses(
        (status = 200, body = Voted, description = "This client's vote and the review's 有用 count"),
        (status = 400, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 503, response = Error),
    ))]
async fn vote(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    client: ClientId,
) -> Result<Json<Voted>, JsonError> {
    Ok(Json(set(&site, &id, &client, Vote::Set).await?))
}

/// Takes this client's 有用 back (none: no change).
#[utoipa::path(delete, path = "/reviews/{id}/helpful", context_path = "/api/v1", tag = "writes",
    params(("id" = String, Path, description = "评价编号（正整数）")),
    responses(
        (status = 200, body = Voted, description = "This client's vote and the review's 有用 count"),
        (status = 400, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 503, response = Error),
    ))]
async fn unvote(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    client: ClientId,
) -> Result<Json<Voted>, JsonError> {
    Ok(Json(set(&site, &id, &client, Vote::Unset).await?))
}

#[derive(Deserialize, Default)]
struct ToggleForm {
    #[serde(default)]
    advisor_id: String,
    /// The page's query string (sort, filter, page), to come back to it.
    #[serde(default)]
    back: String,
}

/// The button without JavaScript: toggles this client's vote, then back to
/// the review on the page it was on.
async fn toggle_form(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    client: ClientId,
    Form(form): Form<ToggleForm>,
) -> Response {
    match set(&site, &id, &client, Vote::Toggle).await {
        Ok(v) => {
            // Redirects carry digits and the page's own query only.
            let advisor: String = form
                .advisor_id
                .chars()
                .filter(char::is_ascii_digit)
                .collect();
            let back = safe_query(&form.back);
            let sep = if back.is_empty() { "" } else { "&" };
            Redirect::to(&format!(
                "/advisor/{advisor}?{back}{sep}voted={}#review-{}",
                v.review_id, v.review_id
            ))
            .into_response()
        }
        Err(e) => e.into_response(),
    }
}

/// A query string safe to put back into a redirect: only the detail page's
/// own parameters, re-encoded.
fn safe_query(q: &str) -> String {
    form_urlencoded::parse(q.trim_start_matches('?').as_bytes())
        .filter(|(k, _)| matches!(k.as_ref(), "sort" | "relation" | "tag" | "page"))
        .map(|(k, v)| format!("{k}={}", app::text::url_encode(&v)))
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_pages_parameters_go_back_into_the_redirect() {
        assert_eq!(
            safe_query("sort=helpful&relation=%E5%9C%A8%E8%AF%BB&evil=//x.com&page=2"),
            "sort=helpful&relation=%E5%9C%A8%E8%AF%BB&page=2"
        );
        assert_eq!(safe_query("tag=a%2Fb"), "tag=a%2Fb");
        assert_eq!(safe_query(""), "");
        assert_eq!(safe_query("%"), "");
        assert_eq!(safe_query("?page=3"), "page=3");
    }
}
