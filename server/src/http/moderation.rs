//! Reviews after publishing, over HTTP: the writer's edit and delete
//! (`X-Edit-Token`), reports (JSON, and a plain form for the 举报 button that
//! works without JavaScript), and the admin — `/admin` and
//! `/api/v1/admin/…`, enabled only when `ADMIN_TOKEN` is set and checking it
//! on every request: missing → 401, wrong → 403.

use std::sync::Arc;

use axum::extract::{Form, Path, Query, State};
use axum::handler::Handler;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post, put};
use axum::Extension;
use axum::{Json, Router};
use serde::Deserialize;

use app::error::ApiError;
use app::model::NewReview;

use super::client::ClientId;
use super::limits::{too_many, Limits};
use super::security::{limit, REPORT_BODY, REVIEW_BODY};
use super::{json_body, JsonError};
use crate::reviews::admin::AdminReview;
use crate::reviews::admin::{self, Act, AuditEntry, Cursor};
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
        .route("/admin/reviews", get(admin_json))
        .route("/admin/reviews/bulk", post(bulk_json))
        .route("/admin/reviews/{id}/hide", post(hide_json))
        .route("/admin/reviews/{id}/restore", post(restore_json))
        .with_state(site)
}

/// Page routes: the 举报 form's target and the admin page.
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
        .route("/admin", get(admin_page))
        .route("/admin/reviews/bulk", post(bulk_form))
        .route("/admin/reviews/{id}/{action}", post(admin_action_form))
        .with_state(site)
}

fn token(headers: &HeaderMap) -> String {
    headers
        .get("x-edit-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

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

async fn delete(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, JsonError> {
    moderation::delete(&site, &id, &token(&headers)).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, Default)]
struct ReportBody {
    #[serde(default)]
    reason: String,
    #[serde(default)]
    advisor_id: String,
}

async fn report_json(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    client: ClientId,
    body: axum::body::Bytes,
) -> Result<Json<serde_json::Value>, JsonError> {
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
    Ok(Json(serde_json::json!({
        "reported": true,
        "message": if new { "已举报，管理员会尽快处理。" } else { "你已经举报过这条评价了。" },
    })))
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
                secure(&client)
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

/// The admin token, when the admin is on.
fn admin_token() -> Option<String> {
    std::env::var("ADMIN_TOKEN")
        .ok()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
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

fn refused(status: StatusCode) -> Response {
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
    JsonError(e).into_response()
}

/// Ok, or the response that refuses the request: 404 when the admin is
/// off, 429 after too many wrong tokens from this client, 401 without a
/// token, 403 with a wrong one (which counts against the client).
async fn guard(
    headers: &HeaderMap,
    query_token: Option<&str>,
    client: &ClientId,
    limits: &Limits,
) -> Result<(), Box<Response>> {
    let Some(expected) = admin_token() else {
        return Err(Box::new(refused(StatusCode::NOT_FOUND)));
    };
    if let Some(wait) = limits.admin_failures.exhausted(&client.key).await {
        return Err(Box::new(too_many(
            wait,
            "管理员口令错误次数过多，请稍后再试。",
        )));
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
        None => Err(Box::new(refused(StatusCode::UNAUTHORIZED))),
        Some(t) if same_secret(t, &expected) => Ok(()),
        Some(_) => {
            let _ = limits.admin_failures.hit(&client.key).await;
            tracing::warn!(client = %client.key, "wrong admin token");
            Err(Box::new(refused(StatusCode::FORBIDDEN)))
        }
    }
}

#[derive(Deserialize, Default)]
struct ListQuery {
    after: Option<String>,
    limit: Option<i64>,
}

/// The admin's lists: one keyset page of reported reviews (`?after=` the
/// `next` of the previous page), the recent reviews and the audit log.
async fn admin_lists(
    site: &Site,
    q: &ListQuery,
) -> Result<
    (
        Vec<AdminReview>,
        Option<Cursor>,
        Vec<AdminReview>,
        Vec<AuditEntry>,
    ),
    ApiError,
> {
    let after = q.after.as_deref().and_then(Cursor::decode);
    let (flagged, next) =
        admin::reported(site, after.as_ref(), q.limit.unwrap_or(admin::PAGE)).await?;
    let recent = if after.is_none() {
        admin::recent(site, admin::PAGE).await?
    } else {
        Vec::new()
    };
    Ok((flagged, next, recent, admin::audit_log(site, 50).await?))
}

/// `; Secure` for a cookie of a request that came over https.
fn secure(client: &ClientId) -> &'static str {
    if client.https {
        "; Secure"
    } else {
        ""
    }
}

async fn admin_json(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    client: ClientId,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> Response {
    if let Err(refusal) = guard(&headers, None, &client, &limits).await {
        return *refusal;
    }
    match admin_lists(&site, &q).await {
        Ok((flagged, next, recent, audit)) => Json(serde_json::json!({
            "flagged": flagged,
            "next": next.map(|c| c.encode()),
            "recent": recent,
            "audit": audit,
        }))
        .into_response(),
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

#[derive(Deserialize, Default)]
struct BulkBody {
    #[serde(default)]
    ids: Vec<String>,
    #[serde(default)]
    action: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    by: Option<String>,
}

/// `POST /api/v1/admin/reviews/bulk` `{ids, action: hide|restore, reason}`:
/// all in one transaction, each in the audit log.
async fn bulk_json(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    client: ClientId,
    headers: HeaderMap,
    body: Option<Json<BulkBody>>,
) -> Response {
    if let Err(refusal) = guard(&headers, None, &client, &limits).await {
        return *refusal;
    }
    let body = body.map(|b| b.0).unwrap_or_default();
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
        Ok(changed) => {
            Json(serde_json::json!({"changed": changed, "hidden": hidden})).into_response()
        }
        Err(e) => JsonError(e).into_response(),
    }
}

/// The admin page's bulk form: checked reviews, 隐藏所选 / 恢复所选, a reason.
async fn bulk_form(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    client: ClientId,
    headers: HeaderMap,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    if let Err(refusal) = guard(&headers, None, &client, &limits).await {
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

#[derive(Deserialize, Default)]
struct ReasonBody {
    #[serde(default)]
    reason: String,
}

async fn moderate(
    site: &Site,
    (limits, client, headers): (&Limits, &ClientId, &HeaderMap),
    id: &str,
    hidden: bool,
    reason: String,
) -> Response {
    if let Err(refusal) = guard(headers, None, client, limits).await {
        return *refusal;
    }
    let act = Act {
        actor: actor(headers, client, None),
        reason,
    };
    match admin::set_one_hidden(site, id, hidden, &act).await {
        Ok(()) => Json(serde_json::json!({"id": id, "hidden": hidden})).into_response(),
        Err(e) => JsonError(e).into_response(),
    }
}

async fn hide_json(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    client: ClientId,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Option<Json<ReasonBody>>,
) -> Response {
    let reason = body.map(|b| b.0.reason).unwrap_or_default();
    moderate(&site, (&limits, &client, &headers), &id, true, reason).await
}

async fn restore_json(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    client: ClientId,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Option<Json<ReasonBody>>,
) -> Response {
    let reason = body.map(|b| b.0.reason).unwrap_or_default();
    moderate(&site, (&limits, &client, &headers), &id, false, reason).await
}

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
    after: Option<String>,
}

use app::text::escape_html as escape;

fn rows(list: &[AdminReview]) -> String {
    if list.is_empty() {
        return "<p class=\"muted\">暂无。</p>".into();
    }
    let mut out = String::from("<ul class=\"admin-reviews\">");
    for r in list {
        let (action, label) = if r.status == "hidden" {
            ("restore", "恢复")
        } else {
            ("hide", "隐藏")
        };
        out.push_str(&format!(
            "<li data-testid=\"admin-review\" data-review-id=\"{id}\" data-status=\"{status}\">\
             <p><label><input type=\"checkbox\" name=\"ids\" value=\"{id}\" form=\"bulk-form\"> 选择</label> \
             <a href=\"/advisor/{aid}#review-{id}\">{name}</a> · {overall} 分 · {created} · {status_zh} · 举报 {reports} 次{reasons}</p>\
             <p>{text}</p>\
             <form method=\"post\" action=\"/admin/reviews/{id}/{action}\"><input name=\"reason\" placeholder=\"原因（写入操作记录）\" maxlength=\"500\"> <button type=\"submit\" class=\"button\">{label}</button></form></li>",
            id = r.id,
            aid = r.advisor_id,
            name = escape(&r.advisor_name),
            overall = r.overall,
            created = escape(&r.created_at),
            status = r.status,
            status_zh = if r.status == "hidden" { "已隐藏" } else { "公开" },
            reports = r.reports,
            reasons = r
                .reasons
                .as_deref()
                .map(|x| format!("（{}）", escape(x)))
                .unwrap_or_default(),
            text = escape(&r.text),
        ));
    }
    out.push_str("</ul>");
    out
}

/// The audit log as a table: when, who, what, why.
fn audit_rows(log: &[AuditEntry]) -> String {
    if log.is_empty() {
        return "<p class=\"muted\">暂无。</p>".into();
    }
    let mut out = String::from(
        "<table class=\"admin-audit\"><thead><tr><th>时间</th><th>操作人</th><th>操作</th><th>评价</th><th>原因</th></tr></thead><tbody>",
    );
    for e in log {
        out.push_str(&format!(
            "<tr data-testid=\"audit-entry\"><td>{}</td><td>{}</td><td>{}{}</td><td>#{}</td><td>{}</td></tr>",
            escape(&e.at),
            escape(&e.actor),
            if e.action == "hide" { "隐藏" } else { "恢复" },
            if e.changed.0 { "" } else { "（原本如此）" },
            e.review_id,
            escape(&e.reason),
        ));
    }
    out.push_str("</tbody></table>");
    out
}

use app::text::url_encode as url_escape;

/// `/admin`: flagged and recent reviews with 隐藏 / 恢复. A `?token=` is
/// answered with an HttpOnly cookie and a redirect to the plain `/admin`, so
/// the token does not stay in the address bar or the history.
async fn admin_page(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    client: ClientId,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
) -> Response {
    let query_token = q.token.as_deref().map(str::trim).filter(|t| !t.is_empty());
    if let Err(refusal) = guard(&headers, query_token, &client, &limits).await {
        return *refusal;
    }
    if let Some(t) = query_token {
        let mut response = Redirect::to("/admin").into_response();
        let cookie = format!(
            "admin_token={t}; Path=/admin; HttpOnly; SameSite=Strict{}",
            secure(&client)
        );
        if let Ok(v) = cookie.parse() {
            response.headers_mut().insert(header::SET_COOKIE, v);
        }
        return response;
    }
    let list = ListQuery {
        after: q.after.clone(),
        limit: None,
    };
    let (flagged, next, recent, audit) = match admin_lists(&site, &list).await {
        Ok(lists) => lists,
        Err(e) => return JsonError(e).into_response(),
    };
    let next = next
        .map(|c| {
            let cursor: String = url_escape(&c.encode());
            format!("<p><a class=\"button\" href=\"/admin?after={cursor}\">下一页</a></p>")
        })
        .unwrap_or_default();
    let body = format!(
        "<!DOCTYPE html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\"><title>评价管理 · 导师评价网</title>\
         <link rel=\"stylesheet\" href=\"/pkg/advisor-review.css\"></head><body><main class=\"page admin\">\
         <h1>评价管理</h1>\
         <form id=\"bulk-form\" method=\"post\" action=\"/admin/reviews/bulk\" class=\"admin-bulk\">\
         <input name=\"by\" placeholder=\"操作人\" maxlength=\"40\"> <input name=\"reason\" placeholder=\"原因（写入操作记录）\" maxlength=\"500\"> \
         <button type=\"submit\" name=\"action\" value=\"hide\" class=\"button\">隐藏所选</button> \
         <button type=\"submit\" name=\"action\" value=\"restore\" class=\"button\">恢复所选</button></form>\
         <h2>被举报的评价</h2><p class=\"muted\">举报多的在前，同样多时最近被举报的在前。</p>{}{}<h2>最近发布的评价</h2>{}\
         <h2>操作记录</h2>{}</main></body></html>",
        rows(&flagged),
        next,
        rows(&recent),
        audit_rows(&audit)
    );
    let mut response = Html(body).into_response();
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    response
}

/// The 隐藏 / 恢复 buttons of the admin page.
async fn admin_action_form(
    State(site): State<Arc<Site>>,
    Extension(limits): Extension<Arc<Limits>>,
    client: ClientId,
    Path((id, action)): Path<(String, String)>,
    headers: HeaderMap,
    form: Result<Form<ReasonBody>, axum::extract::rejection::FormRejection>,
) -> Response {
    if let Err(refusal) = guard(&headers, None, &client, &limits).await {
        return *refusal;
    }
    let hidden = match action.as_str() {
        "hide" => true,
        "restore" => false,
        _ => return refused(StatusCode::NOT_FOUND),
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
