//! Reviews after publishing, over HTTP, on the writer's and the reader's
//! side: the writer's edit and delete (`X-Edit-Token`, or the form with the
//! token in a cookie), the review form's POST without JavaScript, and
//! reports (JSON, and a plain form for the 举报 button). The admin's side is
//! `http::admin`.

use std::sync::Arc;

use axum::extract::{Form, Path, State};
use axum::handler::Handler;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use app::error::ApiError;
use app::model::NewReview;

use super::client::ClientId;
use super::responses::Error;
use super::security::{limit, REPORT_BODY, REVIEW_BODY};
use super::{json_body, JsonError};
use crate::reviews::moderation;
use crate::site::Site;

/// Routes under `/api/v1`.
pub fn api(site: Arc<Site>) -> Router {
    Router::new()
        .route(
            "/reviews/{id}",
            put(edit.layer(limit(REVIEW_BODY))).delete(delete),
        )
        .route(
            "/reviews/{id}/report",
            post(report_json.layer(limit(REPORT_BODY))),
        )
        .with_state(site)
}

/// Page routes: the 举报 form's target and the review form's.
pub fn pages(site: Arc<Site>) -> Router {
    Router::new()
        .route(
            "/reviews/{id}/report",
            post(report_form.layer(limit(REPORT_BODY))),
        )
        .route(
            "/reviews/new/{advisor_id}",
            post(review_form_post.layer(limit(REVIEW_BODY))),
        )
        .route(
            "/reviews/{id}/edit",
            post(review_edit_post.layer(limit(REVIEW_BODY))),
        )
        .with_state(site)
}

fn token(headers: &HeaderMap) -> String {
    headers
        .get("x-edit-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

/// The writer replaces their review (within the edit window), proving it
/// with the token `POST /advisors/{id}/reviews` answered; the same rules
/// as a new review.
#[utoipa::path(put, path = "/reviews/{id}", context_path = "/api/v1", tag = "writes",
    params(
        ("id" = String, Path, description = "评价编号（正整数）"),
        ("X-Edit-Token" = String, Header, description = "发布时返回的 edit_token"),
    ),
    request_body = NewReview,
    responses(
        (status = 204, description = "Replaced"),
        (status = 400, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 413, response = Error),
        (status = 503, response = Error),
    ))]
async fn edit(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<NewReview>, axum::extract::rejection::JsonRejection>,
) -> Result<StatusCode, JsonError> {
    let review = json_body(body, "应为 {ratings, tags, text, relation}。")?;
    moderation::edit(&site, &id, &token(&headers), review).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The writer deletes their review, proving it with its token.
#[utoipa::path(delete, path = "/reviews/{id}", context_path = "/api/v1", tag = "writes",
    params(
        ("id" = String, Path, description = "评价编号（正整数）"),
        ("X-Edit-Token" = String, Header, description = "发布时返回的 edit_token"),
    ),
    responses(
        (status = 204, description = "Deleted"),
        (status = 400, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 503, response = Error),
    ))]
async fn delete(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, JsonError> {
    moderation::delete(&site, &id, &token(&headers)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A report's body (all optional); the 举报 form also sends the advisor's id
/// to come back to.
#[derive(Deserialize, Default, ToSchema)]
pub(super) struct ReportBody {
    /// 举报理由.
    #[serde(default)]
    reason: String,
    #[serde(default)]
    advisor_id: String,
}

/// What a report answers.
#[derive(Serialize, ToSchema)]
pub(super) struct Reported {
    reported: bool,
    /// 已举报…, or that this client had reported it already.
    message: &'static str,
}

/// Reports a review to the moderators (once per client; again: no change).
/// The body may be empty.
#[utoipa::path(post, path = "/reviews/{id}/report", context_path = "/api/v1", tag = "writes",
    params(("id" = String, Path, description = "评价编号（正整数）")),
    request_body(content = Option<ReportBody>, content_type = "application/json"),
    responses(
        (status = 200, body = Reported, description = "Reported (or reported before by this client)"),
        (status = 400, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 413, response = Error),
        (status = 503, response = Error),
    ))]
async fn report_json(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    client: ClientId,
    body: axum::body::Bytes,
) -> Result<Json<Reported>, JsonError> {
    // The body is optional (`{"reason": …}`); when there is one it must be it.
    let reason = if body.iter().all(u8::is_ascii_whitespace) {
        String::new()
    } else {
        serde_json::from_slice::<ReportBody>(&body)
            .map_err(|_| {
                JsonError(ApiError::bad_request(
                    "invalid_request",
                    "请求体应为 {\"reason\": \"举报理由\"}（可以省略）。",
                ))
            })?
            .reason
    };
    let new = moderation::report(&site, &id, &client.key, &reason).await?;
    Ok(Json(Reported {
        reported: true,
        message: if new {
            "已举报，管理员会尽快处理。"
        } else {
            "你已经举报过这条评价了。"
        },
    }))
}

/// The 举报 button without JavaScript: report, then back to the review.
async fn report_form(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    client: ClientId,
    Form(body): Form<ReportBody>,
) -> Response {
    // Redirects carry the parsed number, never the path as given.
    let id = match moderation::review_id(&id) {
        Ok(n) => n,
        Err(e) => return JsonError(e).into_response(),
    };
    match moderation::report(&site, &id.to_string(), &client.key, &body.reason).await {
        Ok(_) => {
            let advisor: String = body
                .advisor_id
                .chars()
                .filter(char::is_ascii_digit)
                .collect();
            Redirect::to(&format!("/advisor/{advisor}?reported={id}#review-{id}")).into_response()
        }
        Err(e) => JsonError(e).into_response(),
    }
}

/// Back to the form at `form` (a URL ending in `?` or `&`) with a draft of
/// what was typed and its errors.
async fn back_to_form(
    site: &Site,
    form: &str,
    review: NewReview,
    errors: Vec<(String, String)>,
) -> Response {
    match crate::reviews::form::Drafts::new(site.pool().clone())
        .put(review, errors)
        .await
    {
        Ok(draft) => Redirect::to(&format!("{form}draft={draft}#review-form")).into_response(),
        Err(e) => JsonError(e).into_response(),
    }
}

/// The review form's POST (`/advisor/:id/review` posts here): the review,
/// or back to the form with every field's error and what was typed.
async fn review_form_post(
    State(site): State<Arc<Site>>,
    Path(advisor_id): Path<String>,
    client: ClientId,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    use crate::reviews::form::{field_errors, from_fields};
    let advisor: String = advisor_id.chars().filter(char::is_ascii_digit).collect();
    let name = match site.advisor_row(&advisor).await {
        Ok(Some(row)) => row.name,
        Ok(None) => {
            return JsonError(ApiError::not_found("unknown_advisor", "没有找到这位导师。"))
                .into_response()
        }
        Err(e) => return JsonError(e).into_response(),
    };
    let review = crate::reviews::submit::clean(from_fields(&fields));
    let errors = field_errors(&review, &name);
    if !errors.is_empty() {
        return back_to_form(
            &site,
            &format!("/advisor/{advisor}/review?"),
            review,
            errors,
        )
        .await;
    }
    match crate::reviews::submit(&site, &advisor, review.clone(), &client.key).await {
        Ok(posted) => {
            let rid = posted.review.id;
            let mut response =
                Redirect::to(&format!("/advisor/{advisor}?posted={rid}#review-{rid}"))
                    .into_response();
            let cookie = format!(
                "review-token-{rid}={}; Path=/; Max-Age=86400; SameSite=Lax{}",
                posted.edit_token,
                client.secure_cookie()
            );
            if let Ok(v) = cookie.parse() {
                response.headers_mut().insert(header::SET_COOKIE, v);
            }
            response
        }
        Err(e) => {
            let field = e.info.field.clone().unwrap_or_else(|| "text".into());
            back_to_form(
                &site,
                &format!("/advisor/{advisor}/review?"),
                review,
                vec![(field, e.info.message)],
            )
            .await
        }
    }
}

/// The edit token of review `id` in the request's cookies (the form and the
/// coach both keep it as `review-token-<id>`).
fn cookie_token(headers: &HeaderMap, id: &str) -> String {
    let name = format!("review-token-{id}=");
    headers
        .get(header::COOKIE)
        .and_then(|v| v.to_str().ok())
        .and_then(|c| {
            c.split(';')
                .map(str::trim)
                .find_map(|kv| kv.strip_prefix(name.as_str()))
        })
        .unwrap_or_default()
        .to_string()
}

/// The review form in edit mode posts here: the writer's cookie proves it.
async fn review_edit_post(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    use crate::reviews::form::from_fields;
    let id = match moderation::review_id(&id) {
        Ok(n) => n.to_string(),
        Err(e) => return JsonError(e).into_response(),
    };
    let advisor = match moderation::advisor_of(&site, &id).await {
        Ok(a) => a,
        Err(e) => return JsonError(e).into_response(),
    };
    let review = crate::reviews::submit::clean(from_fields(&fields));
    match moderation::edit(&site, &id, &cookie_token(&headers, &id), review.clone()).await {
        Ok(()) => {
            Redirect::to(&format!("/advisor/{advisor}?edited={id}#review-{id}")).into_response()
        }
        Err(e) if e.status == 400 => {
            let field = e.info.field.clone().unwrap_or_else(|| "text".into());
            back_to_form(
                &site,
                &format!("/advisor/{advisor}/review?edit={id}&"),
                review,
                vec![(field, e.info.message)],
            )
            .await
        }
        Err(e) => JsonError(e).into_response(),
    }
}
