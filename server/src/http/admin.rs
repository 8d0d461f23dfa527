//! The admin, over HTTP: `/admin` (a page of reported and recent reviews
//! with the audit log) and `/api/v1/admin/…`, enabled only when
//! `ADMIN_TOKEN` is set and checking it on every request: missing → 401,
//! wrong → 403, too many wrong → 429.

use std::sync::Arc;

use axum::extract::{Form, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Extension;
use axum::{Json, Router};
use serde::Deserialize;

use app::error::ApiError;

use super::client::ClientId;
use super::limits::{too_many, Limits};
use super::JsonError;

use crate::reviews::admin::{self, Act, AdminReview, AuditEntry, Cursor};
use crate::site::Site;

/// Routes under `/api/v1`.
pub fn api(site: Arc<Site>) -> Router {
    Router::new()
        .route("/admin/reviews", get(admin_json))
        .route("/admin/reviews/bulk", post(bulk_json))
        .route("/admin/reviews/{id}/hide", post(hide_json))
        .route("/admin/reviews/{id}/restore", post(restore_json))
        .with_state(site)
}

/// Page routes: the admin page and its forms.
pub fn pages(site: Arc<Site>) -> Router {
    Router::new()
        .route("/admin", get(admin_page))
        .route("/admin/reviews/bulk", post(bulk_form))
        .route("/admin/reviews/{id}/{action}", post(admin_action_form))
        .with_state(site)
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
            client.secure_cookie()
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
