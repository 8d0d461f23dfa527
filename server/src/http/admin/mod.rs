//! The admin, over HTTP: `/admin` (a page of reported and recent reviews,
//! open requests for a correction and the audit log, rendered by Leptos:
//! `app::pages::AdminPage`), its forms and `/api/v1/admin/…`, enabled only when `ADMIN_TOKEN` is set and
//! checking it on every request: missing → 401, wrong → 403, too many wrong
//! → 429. The page's own data (its server function, through
//! `app::api::SiteData::admin`) passes the same check ([`page_lists`]).

use std::future::Future;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Form, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Extension;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use app::error::ApiError;
use app::model::admin::AdminLists;

use super::client::ClientId;
use super::limits::Limits;
use super::responses::{Error, RateLimited};
use super::JsonError;

use crate::reviews::admin::{self, Act};
use crate::site::Site;

mod token;

pub use token::AdminToken;
use token::{check, guard, refused};

/// Routes under `/api/v1`.
pub fn api(site: Arc<Site>) -> Router {
    Router::new()
        .route("/admin/reviews", get(admin_json))
        .route("/admin/reviews/bulk", post(bulk_json))
        .route("/admin/reviews/{id}/hide", post(hide_json))
        .route("/admin/reviews/{id}/restore", post(restore_json))
        .with_state(site)
}

/// The admin page's forms. The page itself (`GET /admin`) is a Leptos
/// route the crate root serves through [`page`].
pub fn pages(site: Arc<Site>) -> Router {
    Router::new()
        .route("/admin/reviews/bulk", post(bulk_form))
        .route("/admin/reviews/{id}/{action}", post(admin_action_form))
        .route("/admin/corrections/{id}/resolve", post(resolve_form))
        .with_state(site)
}

/// A page of the reported reviews.
#[derive(Deserialize, Default, IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct ListQuery {
    /// The cursor of the page to read: the `next` of the page before.
    after: Option<String>,
    /// How many reported reviews a page has.
    limit: Option<i64>,
}

/// The admin's lists: reported reviews (keyset pages), recent reviews, open
/// requests for a correction and the audit log.
#[utoipa::path(get, path = "/admin/reviews", context_path = "/api/v1", tag = "admin",
    params(ListQuery),
    security(("admin_token" = [])),
    responses(
        (status = 200, body = AdminLists, description = "The lists"),
        (status = 400, response = Error),
        (status = 401, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 429, response = RateLimited),
        (status = 503, response = Error),
    ))]
async fn admin_json(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    token: AdminToken,
    client: ClientId,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> Response {
    if let Err(refusal) = guard(&headers, None, &client, (&limits, &token)).await {
        return *refusal;
    }
    match admin::lists(&site, q.after.as_deref(), q.limit).await {
        Ok(lists) => Json(lists).into_response(),
        Err(e) => JsonError(e).into_response(),
    }
}

/// Who acts: the name the admin gives (`X-Admin-Name` or the page's 操作人
/// field; one token is shared, the name tells people apart) and the client.
fn actor(headers: &HeaderMap, client: &ClientId, name: Option<&str>) -> String {
    let name = name
        .or_else(|| headers.get("x-admin-name").and_then(|v| v.to_str().ok()))
        .map(|n| n.trim().chars().take(40).collect::<String>())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "管理员".to_string());
    format!("{name}（{}）", client.key)
}

/// Reviews to hide or restore at once.
#[derive(Deserialize, Default, ToSchema)]
pub(super) struct BulkBody {
    /// Review ids.
    #[serde(default)]
    ids: Vec<String>,
    /// `hide` or `restore`.
    #[serde(default)]
    action: String,
    /// Why, for the audit log.
    #[serde(default)]
    reason: String,
    /// Who acts (else `X-Admin-Name`, else 管理员).
    #[serde(default)]
    by: Option<String>,
}

/// What a bulk action did.
#[derive(Serialize, ToSchema)]
pub(super) struct BulkResult {
    /// How many reviews changed (a hide of a hidden one does not).
    changed: usize,
    hidden: bool,
}

/// `POST /api/v1/admin/reviews/bulk` `{ids, action: hide|restore, reason}`:
/// all in one transaction, each in the audit log.
#[utoipa::path(post, path = "/admin/reviews/bulk", context_path = "/api/v1", tag = "admin",
    request_body = BulkBody,
    params(("X-Admin-Name" = Option<String>, Header, description = "操作人（记入审计日志）")),
    security(("admin_token" = [])),
    responses(
        (status = 200, body = BulkResult, description = "Done, all in one transaction"),
        (status = 400, response = Error),
        (status = 401, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 429, response = RateLimited),
        (status = 503, response = Error),
    ))]
async fn bulk_json(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    token: AdminToken,
    client: ClientId,
    headers: HeaderMap,
    body: Result<Json<BulkBody>, JsonRejection>,
) -> Response {
    if let Err(refusal) = guard(&headers, None, &client, (&limits, &token)).await {
        return *refusal;
    }
    // A body of the wrong shape (ids as numbers) is the API's 400, as
    // every other bad body, not axum's 422.
    let body = match super::json_body(
        body,
        "应为 {ids: [\"12\", …]（评价编号，字符串）, action: \"hide\" 或 \"restore\", reason}。",
    ) {
        Ok(body) => body,
        Err(e) => return e.into_response(),
    };
    let hidden = match body.action.as_str() {
        "hide" => true,
        "restore" => false,
        _ => {
            return JsonError(
                ApiError::bad_request("invalid_action", "action 应为 hide 或 restore。")
                    .with_field("action"),
            )
            .into_response()
        }
    };
    let act = Act {
        actor: actor(&headers, &client, body.by.as_deref()),
        reason: body.reason,
    };
    match admin::set_hidden(&site, &body.ids, hidden, &act).await {
        Ok(changed) => Json(BulkResult { changed, hidden }).into_response(),
        Err(e) => JsonError(e).into_response(),
    }
}

/// The admin page's bulk form: checked reviews, 隐藏所选 / 恢复所选, a reason.
async fn bulk_form(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    token: AdminToken,
    client: ClientId,
    headers: HeaderMap,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    if let Err(refusal) = guard(&headers, None, &client, (&limits, &token)).await {
        return *refusal;
    }
    let get = |k: &str| fields.iter().find(|(f, _)| f == k).map(|(_, v)| v.as_str());
    let ids: Vec<String> = fields
        .iter()
        .filter(|(k, _)| k == "ids")
        .map(|(_, v)| v.clone())
        .collect();
    let hidden = get("action") != Some("restore");
    let act = Act {
        actor: actor(&headers, &client, get("by")),
        reason: get("reason").unwrap_or_default().to_string(),
    };
    match admin::set_hidden(&site, &ids, hidden, &act).await {
        Ok(_) => Redirect::to("/admin").into_response(),
        Err(e) => JsonError(e).into_response(),
    }
}

/// Why a review is hidden or restored (optional), for the audit log.
#[derive(Deserialize, Default, ToSchema)]
pub(super) struct ReasonBody {
    #[serde(default)]
    reason: String,
}

/// The reason of an optional `{reason}` body: none (or blank) is no
/// reason; a body that is not that shape is the API's 400 envelope, not
/// axum's 422 (a reason must not be dropped silently either).
fn reason_of(body: &[u8]) -> Result<String, JsonError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(String::new());
    }
    serde_json::from_slice::<ReasonBody>(body)
        .map(|b| b.reason)
        .map_err(|_| {
            JsonError(ApiError::bad_request(
                "invalid_request",
                "请求字段格式不正确：应为 {reason}（原因，字符串），也可以不带请求体。",
            ))
        })
}

/// What a hide or restore did.
#[derive(Serialize, ToSchema)]
pub(super) struct Moderated {
    /// The review's id, as the path gave it.
    id: String,
    hidden: bool,
}

async fn moderate(
    site: &Site,
    (limits, token, client, headers): (&Limits, &AdminToken, &ClientId, &HeaderMap),
    id: &str,
    hidden: bool,
    body: &[u8],
) -> Response {
    let reason = match reason_of(body) {
        Ok(reason) => reason,
        Err(e) => return e.into_response(),
    };
    if let Err(refusal) = guard(headers, None, client, (limits, token)).await {
        return *refusal;
    }
    let act = Act {
        actor: actor(headers, client, None),
        reason,
    };
    match admin::set_one_hidden(site, id, hidden, &act).await {
        Ok(()) => Json(Moderated {
            id: id.to_string(),
            hidden,
        })
        .into_response(),
        Err(e) => JsonError(e).into_response(),
    }
}

/// Hides one review from readers (in the audit log).
#[utoipa::path(post, path = "/admin/reviews/{id}/hide", context_path = "/api/v1", tag = "admin",
    params(
        ("id" = String, Path, description = "评价编号（正整数）"),
        ("X-Admin-Name" = Option<String>, Header, description = "操作人（记入审计日志）"),
    ),
    request_body(content = Option<ReasonBody>, content_type = "application/json"),
    security(("admin_token" = [])),
    responses(
        (status = 200, body = Moderated, description = "Done"),
        (status = 400, response = Error),
        (status = 401, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 429, response = RateLimited),
        (status = 503, response = Error),
    ))]
async fn hide_json(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    token: AdminToken,
    client: ClientId,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    moderate(
        &site,
        (&limits, &token, &client, &headers),
        &id,
        true,
        &body,
    )
    .await
}

/// Shows a hidden review again (in the audit log).
#[utoipa::path(post, path = "/admin/reviews/{id}/restore", context_path = "/api/v1", tag = "admin",
    params(
        ("id" = String, Path, description = "评价编号（正整数）"),
        ("X-Admin-Name" = Option<String>, Header, description = "操作人（记入审计日志）"),
    ),
    request_body(content = Option<ReasonBody>, content_type = "application/json"),
    security(("admin_token" = [])),
    responses(
        (status = 200, body = Moderated, description = "Done"),
        (status = 400, response = Error),
        (status = 401, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 429, response = RateLimited),
        (status = 503, response = Error),
    ))]
async fn restore_json(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    token: AdminToken,
    client: ClientId,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    moderate(
        &site,
        (&limits, &token, &client, &headers),
        &id,
        false,
        &body,
    )
    .await
}

/// `GET /admin`: the token checked as on every admin request, then the
/// Leptos page rendered by `render` (the app's `/admin` route), never
/// stored by a cache. A `?token=` is answered with an HttpOnly cookie
/// (`Path=/admin`, which the page's server function lives under too) and a
/// redirect to the plain `/admin`, so the token does not stay in the
/// address bar or the history. A refusal renders nothing of the page.
pub async fn page<R, F>(req: Request, render: R) -> Response
where
    R: FnOnce(Request) -> F,
    F: Future<Output = Response>,
{
    let Some(limits) = req.extensions().get::<Arc<Limits>>().cloned() else {
        return JsonError(ApiError::unavailable("管理功能暂不可用，请稍后再试。")).into_response();
    };
    let client = super::client::of(req.extensions());
    let token = AdminToken::of(req.extensions());
    let query_token = match Query::<TokenQuery>::try_from_uri(req.uri()) {
        Ok(Query(q)) => q.token.map(|t| t.trim().to_string()),
        Err(rejection) => return rejection.into_response(),
    }
    .filter(|t| !t.is_empty());
    if let Err(refusal) = guard(
        req.headers(),
        query_token.as_deref(),
        &client,
        (&limits, &token),
    )
    .await
    {
        return *refusal;
    }
    if let Some(t) = query_token {
        let mut response = Redirect::to("/admin").into_response();
        let cookie = format!(
            "admin_token={t}; Path=/admin; HttpOnly; SameSite=Strict{}",
            client.secure_cookie()
        );
        if let Ok(v) = cookie.parse() {
            response.headers_mut().insert(header::SET_COOKIE, v);
        }
        return response;
    }
    let mut response = render(req).await;
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

/// The lists of the admin page for the request `request` (its server
/// function, `app::api::get_admin`): the token checked as on every admin
/// request — the cookie or `Authorization: Bearer`, never a query, which
/// only [`page`] turns into the cookie — then the same read as
/// `GET /api/v1/admin/reviews` ([`admin::lists`]).
pub async fn page_lists(
    site: &Site,
    request: &axum::http::request::Parts,
    after: Option<&str>,
) -> Result<AdminLists, ApiError> {
    let limits = request
        .extensions
        .get::<Arc<Limits>>()
        .ok_or_else(|| ApiError::unavailable("管理功能暂不可用，请稍后再试。"))?;
    let client = super::client::of(&request.extensions);
    let token = AdminToken::of(&request.extensions);
    check(&request.headers, None, &client, (limits, &token)).await?;
    admin::lists(site, after, None).await
}

#[derive(Deserialize, Default)]
struct ResolveBody {
    #[serde(default)]
    by: Option<String>,
    #[serde(default)]
    reason: String,
}

/// The 标记为已处理 button of a request for a correction: handled, with a
/// line in the audit log, then back to the page.
async fn resolve_form(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    token: AdminToken,
    client: ClientId,
    Path(id): Path<String>,
    headers: HeaderMap,
    form: Result<Form<ResolveBody>, axum::extract::rejection::FormRejection>,
) -> Response {
    if let Err(refusal) = guard(&headers, None, &client, (&limits, &token)).await {
        return *refusal;
    }
    let body = form.map(|f| f.0).unwrap_or_default();
    let act = Act {
        actor: actor(&headers, &client, body.by.as_deref()),
        reason: body.reason,
    };
    match crate::reviews::correction::resolve(&site, &id, &act).await {
        Ok(_) => Redirect::to("/admin").into_response(),
        Err(e) => JsonError(e).into_response(),
    }
}

/// The 隐藏 / 恢复 buttons of the admin page.
async fn admin_action_form(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    token: AdminToken,
    client: ClientId,
    Path((id, action)): Path<(String, String)>,
    headers: HeaderMap,
    form: Result<Form<ReasonBody>, axum::extract::rejection::FormRejection>,
) -> Response {
    if let Err(refusal) = guard(&headers, None, &client, (&limits, &token)).await {
        return *refusal;
    }
    let hidden = match action.as_str() {
        "hide" => true,
        "restore" => false,
        _ => return JsonError(refused(StatusCode::NOT_FOUND)).into_response(),
    };
    let act = Act {
        actor: actor(&headers, &client, None),
        reason: form.map(|f| f.0.reason).unwrap_or_default(),
    };
    match admin::set_one_hidden(&site, &id, hidden, &act).await {
        Ok(()) => Redirect::to("/admin").into_response(),
        Err(e) => JsonError(e).into_response(),
    }
}
