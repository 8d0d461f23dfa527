//! `/admin` — the moderators' page: the reported reviews (one keyset page at
//! a time, `?after=`), the recent reviews, the open requests for a
//! correction (`/correction`) and the audit log, with 隐藏 / 恢复 for one
//! review and for the checked ones, and 已处理 for a request.
//!
//! It exists so that the admin is rendered like every other page, by Leptos,
//! which escapes what strangers wrote (review texts, report reasons, names)
//! instead of a hand-written HTML string doing it. The forms are plain HTML
//! posts to the server's admin routes (`/admin/reviews/…`), which check the
//! token and redirect back here, so moderating needs no JavaScript.
//!
//! The token never reaches this code: the server refuses `/admin` before
//! rendering without it, and checks it again for the lists' server function
//! ([`crate::api::get_admin`]); a refusal renders its message, no review.

use leptos::prelude::*;

use crate::meta::PageMeta;
use crate::sync_hydrate::IntoAnySync;
use leptos_router::hooks::use_query_map;

use crate::api::get_admin;
use crate::error::ApiError;
use crate::model::admin::{AdminLists, AdminReview, AuditEntry};
use crate::model::correction::CorrectionRequest;
use crate::page_context::PageContextStore;
use crate::pages::encode;
use crate::protocol::PageKind;

/// The placeholder of the reason fields (the reason goes into the log).
const REASON: &str = "原因（写入操作记录）";

/// The lists from the server, for a client-side navigation only (the
/// 下一页 link once hydrated; hydration reads what the server rendered):
/// a chunk of its own, like `home::fetch_home`.
async fn fetch_admin(after: Option<String>) -> Result<Result<AdminLists, ApiError>, ServerFnError> {
    get_admin(after).await
}

#[component]
pub fn AdminPage() -> impl IntoView {
    // Nothing on this page is an advisor the panel could pick; the protocol
    // has no admin page kind, so the panel sees a page like the home page.
    PageContextStore::expect().show_other(PageKind::Home);
    let query = use_query_map();
    let after = move || query.with(|q| q.get("after").filter(|a| !a.is_empty()));
    let lists = Resource::new(after, fetch_admin);
    view! {
        <PageMeta title="评价管理" description="管理员处理被举报的评价和申诉。"/>
        <section class="page admin" data-page="admin">
            <h1>"评价管理"</h1>
            <Suspense fallback=|| view! { <p class="loading">"正在加载…"</p> }>
                {move || Suspend::new(async move {
                    match lists.await {
                        Ok(Ok(lists)) => view! { <Lists lists/> }.into_any_sync(),
                        Ok(Err(e)) => {
                            crate::set_http_status(e.status);
                            view! { <p class="error" role="alert">{e.info.message}</p> }.into_any_sync()
                        }
                        Err(e) => {
                            crate::set_http_status(503);
                            view! { <p class="error">{format!("评价管理加载失败，请稍后再试（{e}）")}</p> }
                                .into_any_sync()
                        }
                    }
                })}
            </Suspense>
        </section>
    }
}

/// The bulk form, the two lists and the log.
#[component]
fn Lists(lists: AdminLists) -> impl IntoView {
    let next = lists.next.map(|cursor| {
        view! { <p><a class="button" href=format!("/admin?after={}", encode(&cursor))>"下一页"</a></p> }
    });
    view! {
        // The checkboxes of the rows belong to this form (`form="bulk-form"`).
        <form id="bulk-form" method="post" action="/admin/reviews/bulk" class="admin-bulk">
            <input name="by" placeholder="操作人" maxlength="40"/>
            " "
            <input name="reason" placeholder=REASON maxlength="500"/>
            " "
            <button type="submit" name="action" value="hide" class="button">"隐藏所选"</button>
            " "
            <button type="submit" name="action" value="restore" class="button">"恢复所选"</button>
        </form>
        <h2>"被举报的评价"</h2>
        <p class="muted">"举报多的在前，同样多时最近被举报的在前。"</p>
        <Reviews list=lists.flagged/>
        {next}
        <h2>"最近发布的评价"</h2>
        <Reviews list=lists.recent/>
        <h2>"申诉与更正"</h2>
        <p class="muted">"来自申诉/更正表单，最新的在前；处理后标记为已处理，它就离开这个列表。"</p>
        <Corrections list=lists.corrections/>
        <h2>"操作记录"</h2>
        <Audit log=lists.audit/>
    }
}

/// Reviews with their checkbox and their own 隐藏 or 恢复 form.
#[component]
fn Reviews(list: Vec<AdminReview>) -> impl IntoView {
    if list.is_empty() {
        return view! { <p class="muted">"暂无。"</p> }.into_any_sync();
    }
    view! {
        <ul class="admin-reviews">
            {list.into_iter().map(|r| view! { <Row r/> }).collect_view()}
        </ul>
    }
    .into_any_sync()
}

#[component]
fn Row(r: AdminReview) -> impl IntoView {
    let (action, label, status_zh) = if r.is_hidden() {
        ("restore", "恢复", "已隐藏")
    } else {
        ("hide", "隐藏", "公开")
    };
    let meta = format!(
        " · {} 分 · {} · {status_zh} · 举报 {} 次{}",
        r.overall,
        r.created_at,
        r.reports,
        r.reasons
            .as_deref()
            .map(|x| format!("（{x}）"))
            .unwrap_or_default(),
    );
    view! {
        <li data-testid="admin-review" data-review-id=r.id.to_string() data-status=r.status.clone()>
            <p>
                <label>
                    <input type="checkbox" name="ids" value=r.id.to_string() form="bulk-form"/>
                    " 选择"
                </label>
                " "
                <a href=format!("/advisor/{}#review-{}", r.advisor_id, r.id)>{r.advisor_name.clone()}</a>
                {meta}
            </p>
            <p>{r.text.clone()}</p>
            <form method="post" action=format!("/admin/reviews/{}/{action}", r.id)>
                <input name="reason" placeholder=REASON maxlength="500"/>
                " "
                <button type="submit" class="button">{label}</button>
            </form>
        </li>
    }
}

/// The open requests for a correction, each with its 已处理 form.
#[component]
fn Corrections(list: Vec<CorrectionRequest>) -> impl IntoView {
    if list.is_empty() {
        return view! { <p class="muted">"暂无。"</p> }.into_any_sync();
    }
    view! {
        <ul class="admin-reviews admin-corrections">
            {list.into_iter().map(|c| view! {
                <li data-testid="admin-correction" data-correction-id=c.id.to_string()>
                    <p>
                        <strong>{format!("申诉 #{}", c.id)}</strong>
                        {format!(" · {} · {} · ", c.created_at, c.requester)}
                        {c.subject.clone()}
                    </p>
                    <p>{c.details.clone()}</p>
                    <p class="muted">{format!("联系方式：{}", c.contact)}</p>
                    <form method="post" action=format!("/admin/corrections/{}/resolve", c.id)>
                        <input name="by" placeholder="操作人" maxlength="40"/>
                        " "
                        <input name="reason" placeholder=REASON maxlength="500"/>
                        " "
                        <button type="submit" class="button">"标记为已处理"</button>
                    </form>
                </li>
            }).collect_view()}
        </ul>
    }
    .into_any_sync()
}

/// The audit log as a table: when, who, what, which review, why.
#[component]
fn Audit(log: Vec<AuditEntry>) -> impl IntoView {
    if log.is_empty() {
        return view! { <p class="muted">"暂无。"</p> }.into_any_sync();
    }
    view! {
        <table class="admin-audit">
            <thead>
                <tr><th>"时间"</th><th>"操作人"</th><th>"操作"</th><th>"对象"</th><th>"原因"</th></tr>
            </thead>
            <tbody>
                {log.into_iter().map(|e| {
                    let (verb, target) = match e.action.as_str() {
                        "hide" => ("隐藏", "#"),
                        "resolve_correction" => ("处理申诉", "申诉 #"),
                        _ => ("恢复", "#"),
                    };
                    let what = format!("{verb}{}", if e.changed { "" } else { "（原本如此）" });
                    view! {
                        <tr data-testid="audit-entry">
                            <td>{e.at}</td>
                            <td>{e.actor}</td>
                            <td>{what}</td>
                            <td>{format!("{target}{}", e.review_id)}</td>
                            <td>{e.reason}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any_sync()
}
