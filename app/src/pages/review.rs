use leptos::prelude::*;

use crate::meta::PageMeta;
use crate::sync_hydrate::IntoAnySync;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::api::get_review_form;
use crate::model::{NewReview, ReviewForm};
use crate::page_context::PageContextStore;
use crate::pages::NotFound;
use crate::protocol::PageKind;

/// The scores of the form, as (field, label).
const SCORES: [(&str, &str); 5] = [
    ("academic", "学术水平"),
    ("funding", "科研经费"),
    ("relationship", "师生关系"),
    ("prospects", "学生前途"),
    ("overall", "综合评分"),
];
use crate::vocabulary::{MAX_TAGS, MAX_TEXT, MIN_TEXT, RELATIONS};

/// `/advisor/:id/review` — the review form. A plain POST form, so it works
/// with JavaScript off: the server answers with the new review, or with this
/// page again showing what was typed and each error next to its field
/// (`?draft=`). Hydrated, it counts the characters as the student types.
/// The form from the server, for a client-side navigation only (hydration
/// reads what the server rendered): a chunk of its own, like
/// `home::fetch_home`.
async fn fetch_review_form(
    id: String,
    draft: Option<String>,
    edit: Option<String>,
) -> Result<Option<ReviewForm>, ServerFnError> {
    get_review_form(id, draft, edit).await
}

#[component]
pub fn ReviewFormPage() -> impl IntoView {
    let store = PageContextStore::expect();
    let params = use_params_map();
    let query = use_query_map();
    let key = move || {
        (
            params.with(|p| p.get("id").unwrap_or_default()),
            query.with(|q| q.get("draft")),
            query.with(|q| q.get("edit")),
        )
    };
    let data = Resource::new(key, |(id, draft, edit)| fetch_review_form(id, draft, edit));
    Effect::new(move |_| {
        if data.get().is_some() {
            store.show_other(PageKind::Review);
        }
    });
    view! {
        <Suspense fallback=|| view! { <p class="loading">"正在加载评价表单…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(Some(form)) => view! { <FormView form/> }.into_any_sync(),
                    Ok(None) => view! { <NotFound message="没有找到这位导师。".to_string()/> }.into_any_sync(),
                    Err(e) => {
                        crate::set_http_status(503);
                        view! { <p class="error">{format!("评价表单加载失败，请稍后再试（{e}）")}</p> }.into_any_sync()
                    }
                }
            })}
        </Suspense>
    }
}

#[component]
fn FormView(form: ReviewForm) -> impl IntoView {
    let values = form.values.clone().unwrap_or_default();
    let errors = form.errors.clone();
    let error = move |field: &str| {
        errors
            .iter()
            .find(|(f, _)| f == field)
            .map(|(f, m)| view! { <p class="field-error" data-testid=format!("error-{f}")>{m.clone()}</p> })
    };
    let score = |v: &NewReview, f: &str| match f {
        "academic" => v.ratings.academic,
        "funding" => v.ratings.funding,
        "relationship" => v.ratings.relationship,
        "prospects" => v.ratings.prospects,
        _ => v.ratings.overall,
    };
    let typed = RwSignal::new(values.text.chars().count());
    let action = match &form.editing {
        Some(rid) => format!("/reviews/{rid}/edit"),
        None => format!("/reviews/new/{}", form.advisor_id),
    };
    let verb = if form.editing.is_some() {
        "修改对"
    } else {
        "评价"
    };
    let back = format!("/advisor/{}", form.advisor_id);
    view! {
        <PageMeta
            title=format!("评价{}", form.advisor_name)
            description=format!(
                "为{} {}的{}写一条评价：四维评分、标签和你的读研经历。",
                form.school, form.major, form.advisor_name
            )
        />
        <section class="review-form-page" data-page="review">
            <p class="crumbs"><a href=back.clone()>{format!("{} · {} · {}", form.school, form.major, form.advisor_name)}</a></p>
            <h1>{format!("{verb}{}", form.advisor_name)}{form.editing.is_some().then_some("的评价")}</h1>
            <p class="muted">"请写真实的读研经历。不要写联系方式、身份证号、邮箱、导师的私生活，也不要写出其他同学的姓名。"</p>
            {(!form.errors.is_empty()).then(|| view! {
                <p class="form-errors" role="alert" data-testid="form-errors">"评价没有发布，请按提示修改后再提交。"</p>
            })}
            <form id="review-form" method="post" action=action class="review-form">
                {SCORES.iter().map(|(field, label)| {
                    let current = score(&values, field);
                    let name = field.to_string();
                    view! {
                        <fieldset class="score-field">
                            <legend>{*label}</legend>
                            {(1..=5u8).map(|n| view! {
                                <label class="score-choice">
                                    <input type="radio" name=name.clone() value=n.to_string() checked=current == n required/>
                                    {n.to_string()}
                                </label>
                            }).collect_view()}
                            {error(&format!("ratings.{field}"))}
                        </fieldset>
                    }
                }).collect_view()}
                <fieldset class="tag-field">
                    <legend>{format!("标签（最多 {MAX_TAGS} 个）")}</legend>
                    {form.tags.iter().map(|t| {
                        let on = values.tags.contains(t);
                        view! {
                            <label class="tag-choice">
                                <input type="checkbox" name="tags" value=t.clone() checked=on/>
                                {t.clone()}
                            </label>
                        }
                    }).collect_view()}
                    {error("tags")}
                </fieldset>
                <label class="text-field" for="review-text">{format!("评价内容（{MIN_TEXT}–{MAX_TEXT} 字）")}</label>
                <textarea
                    id="review-text"
                    name="text"
                    rows="8"
                    minlength=MIN_TEXT.to_string()
                    maxlength=MAX_TEXT.to_string()
                    required
                    on:input=move |ev| typed.set(event_target_value(&ev).chars().count())
                    inner_html=crate::text::textarea_html(&values.text)
                ></textarea>
                <p class="muted" data-testid="text-count">{move || format!("已写 {} 字", typed.get())}</p>
                {error("text")}
                <fieldset class="relation-field">
                    <legend>"你和导师的关系"</legend>
                    {RELATIONS.iter().map(|r| view! {
                        <label><input type="radio" name="relation" value=*r checked=values.relation == *r required/>{*r}</label>
                    }).collect_view()}
                    {error("relation")}
                </fieldset>
                <fieldset class="recommend-field" data-testid="recommend-field">
                    <legend>"是否推荐报考这位导师？"<span class="muted">"（可不答）"</span></legend>
                    {[("yes", "推荐", Some(true)), ("no", "不推荐", Some(false)), ("", "不回答", None)]
                        .into_iter()
                        .map(|(value, label, answer)| view! {
                            <label>
                                <input type="radio" name="recommend" value=value checked=values.recommend == answer/>
                                {label}
                            </label>
                        })
                        .collect_view()}
                </fieldset>
                <button type="submit" class="button primary" data-testid="review-submit">
                    {if form.editing.is_some() { "保存修改" } else { "发布评价" }}
                </button>
            </form>
        </section>
    }
}
