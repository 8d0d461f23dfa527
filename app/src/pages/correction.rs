//! `/correction` — 申诉/更正: a named person (the advisor, a student,
//! anyone who knows a page is wrong) asks the moderators for a correction or
//! a removal. A plain POST form, like the review form, so it works with
//! JavaScript off: the server (`POST /correction`) stores the request for
//! the admin's list and answers with `?sent=1`, or with this page again
//! showing what was typed and each error next to its field (`?draft=`).
//! `?about=` fills in the advisor (the detail page links here with it).

use leptos::prelude::*;

use crate::sync_hydrate::IntoAnySync;
use leptos_router::hooks::use_query_map;

use crate::api::get_correction_form;
use crate::meta::PageMeta;
use crate::model::correction::{
    CorrectionForm, MAX_CONTACT, MAX_DETAILS, MAX_SUBJECT, MIN_DETAILS, REQUESTERS,
};
use crate::page_context::PageContextStore;
use crate::protocol::PageKind;

const DESCRIPTION: &str = "导师本人、学生或其他知情人认为导师评价网上的内容有误，可以在这里申请更正或删除，管理员会逐条处理。";

/// The form from the server, for a client-side navigation only (hydration
/// reads what the server rendered), like `home::fetch_home`.
async fn fetch_correction_form(draft: Option<String>) -> Result<CorrectionForm, ServerFnError> {
    get_correction_form(draft).await
}

#[component]
pub fn CorrectionPage() -> impl IntoView {
    // Nothing here is an advisor the agent could pick (see `trust`).
    PageContextStore::expect().show_other(PageKind::Home);
    let query = use_query_map();
    let sent = move || query.with(|q| q.get("sent").is_some());
    let about = query.with_untracked(|q| q.get("about").unwrap_or_default());
    let draft = move || query.with(|q| q.get("draft").filter(|d| !d.is_empty()));
    let form = Resource::new(draft, fetch_correction_form);
    view! {
        <PageMeta title="申诉/更正" description=DESCRIPTION/>
        <article class="page trust correction" data-page="correction">
            <h1>"申诉 / 更正"</h1>
            {move || if sent() {
                view! {
                    <div class="notice sent" role="status" data-testid="correction-sent">
                        <p><strong>"已收到你的申诉。"</strong></p>
                        <p>"管理员会尽快核实处理，并通过你留下的联系方式回复你。"</p>
                        <p><a href="/" class="button">"回到首页"</a></p>
                    </div>
                }
                .into_any_sync()
            } else {
                let about = about.clone();
                view! {
                    <p class="lead">
                        "如果你是被评价的导师本人、学生，或发现页面上的信息有误（导师姓名、学校、评价内容等），可以在这里申请更正或删除。"
                        "管理员会逐条核实处理；你填写的联系方式只有管理员能看到。"
                    </p>
                    <Suspense fallback=|| view! { <p class="loading">"正在加载…"</p> }>
                        {move || {
                            let about = about.clone();
                            Suspend::new(async move {
                                match form.await {
                                    Ok(form) => view! { <FormView form about/> }.into_any_sync(),
                                    Err(e) => {
                                        crate::set_http_status(503);
                                        view! { <p class="error">{format!("表单加载失败，请稍后再试（{e}）")}</p> }
                                            .into_any_sync()
                                    }
                                }
                            })
                        }}
                    </Suspense>
                }
                .into_any_sync()
            }}
        </article>
    }
}

#[component]
fn FormView(form: CorrectionForm, about: String) -> impl IntoView {
    let errors = form.errors.clone();
    let error = move |field: &str| {
        errors
            .iter()
            .find(|(f, _)| f == field)
            .map(|(f, m)| view! { <p class="field-error" data-testid=format!("error-{f}")>{m.clone()}</p> })
    };
    let mut values = form.values.clone();
    if values.subject.is_empty() && form.errors.is_empty() {
        values.subject = about.chars().take(MAX_SUBJECT).collect();
    }
    view! {
        {(!form.errors.is_empty()).then(|| view! {
            <p class="form-errors" role="alert" data-testid="form-errors">"申诉没有提交，请按提示修改后再提交。"</p>
        })}
        {error("form")}
        <form id="correction-form" method="post" action="/correction" class="review-form correction-form">
            <label class="text-field" for="correction-subject">"导师姓名或页面链接"</label>
            <input
                id="correction-subject"
                name="subject"
                type="text"
                maxlength=MAX_SUBJECT.to_string()
                required
                placeholder="例如：北京大学 张三，或 /advisor/12"
                value=values.subject.clone()
            />
            {error("subject")}
            <fieldset class="relation-field">
                <legend>"你是"</legend>
                {REQUESTERS.iter().map(|r| {
                    let label = match *r {
                        "本人" => "导师本人",
                        "学生" => "学生",
                        _ => "其他",
                    };
                    view! {
                        <label><input type="radio" name="requester" value=*r checked=values.requester == *r required/>{label}</label>
                    }
                }).collect_view()}
                {error("requester")}
            </fieldset>
            <label class="text-field" for="correction-details">
                {format!("哪里有误，希望怎样更正或删除（{MIN_DETAILS}–{MAX_DETAILS} 字）")}
            </label>
            <textarea
                id="correction-details"
                name="details"
                rows="6"
                minlength=MIN_DETAILS.to_string()
                maxlength=MAX_DETAILS.to_string()
                required
                inner_html=crate::text::textarea_html(&values.details)
            ></textarea>
            {error("details")}
            <label class="text-field" for="correction-contact">"联系方式（邮箱或电话，只有管理员能看到）"</label>
            <input
                id="correction-contact"
                name="contact"
                type="text"
                maxlength=MAX_CONTACT.to_string()
                required
                autocomplete="email"
                value=values.contact.clone()
            />
            {error("contact")}
            <p>
                <button type="submit" class="button primary" data-testid="correction-submit">"提交申诉"</button>
            </p>
        </form>
    }
}
