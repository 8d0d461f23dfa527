//! 删除我的评价: for a review written in this browser, once hydrated. The
//! writer's edit token is what proves it — kept in `localStorage` when the
//! review coach published it, in a cookie when the form did — and the
//! button appears only where the browser holds one.

use leptos::prelude::*;
use leptos::task::spawn_local;

/// The `localStorage` key the agent panel keeps a coach-written review's token under.
fn storage_key(review_id: &str) -> String {
    format!("advisor-review-token:{review_id}")
}

/// The edit token of `review_id`, if this browser has it.
fn find_token(review_id: &str) -> Option<String> {
    let window = web_sys::window()?;
    let document = window.document()?;
    if let Some(t) = window
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item(&storage_key(review_id)).ok().flatten())
    {
        // The edit form proves the writer with a cookie: keep one too.
        keep_cookie(&document, review_id, &t);
        return Some(t);
    }
    let cookies = js_sys::Reflect::get(&document, &"cookie".into())
        .ok()?
        .as_string()?;
    let name = format!("review-token-{review_id}=");
    cookies
        .split(';')
        .map(str::trim)
        .find_map(|c| c.strip_prefix(name.as_str()))
        .map(str::to_string)
}

/// The token as the cookie the server reads when the edit form is sent.
pub fn keep_cookie(document: &web_sys::Document, review_id: &str, token: &str) {
    // Over https the cookie is never sent in clear text.
    let https = document
        .location()
        .and_then(|l| l.protocol().ok())
        .is_some_and(|p| p == "https:");
    let secure = if https { "; secure" } else { "" };
    let cookie =
        format!("review-token-{review_id}={token}; path=/; max-age=86400; samesite=lax{secure}");
    let _ = js_sys::Reflect::set(document, &"cookie".into(), &cookie.into());
}

/// `DELETE /api/v1/reviews/{id}` with the token; the Chinese reason on refusal.
async fn delete_review(review_id: &str, token: &str) -> Result<(), String> {
    crate::fetch::send(
        "DELETE",
        &format!("/api/v1/reviews/{review_id}"),
        &[("X-Edit-Token", token)],
        "删除失败，请稍后再试。",
    )
    .await
    .map(|_| ())
}

#[component]
pub fn DeleteMine(review_id: String, advisor_id: String) -> impl IntoView {
    let edit_href = format!("/advisor/{advisor_id}/review?edit={review_id}");
    let token = RwSignal::new(None::<String>);
    let problem = RwSignal::new(None::<String>);
    let id = StoredValue::new(review_id);
    // Browser only: after hydration, look for the token.
    Effect::new(move |_| token.set(id.with_value(|id| find_token(id))));
    let delete = move |_| {
        let Some(t) = token.get_untracked() else {
            return;
        };
        let review = id.get_value();
        spawn_local(async move {
            match delete_review(&review, &t).await {
                Ok(()) => {
                    if let Some(w) = web_sys::window() {
                        if let Ok(Some(s)) = w.local_storage() {
                            let _ = s.remove_item(&storage_key(&review));
                        }
                        let _ = w.location().reload();
                    }
                }
                Err(m) => problem.set(Some(m)),
            }
        });
    };
    view! {
        {move || token.get().map(|_| view! {
            <a class="link-button" href=edit_href.clone() data-testid="edit-mine">"修改"</a>
            " "
            <button type="button" class="link-button" data-testid="delete-mine" on:click=delete>
                "删除我的评价"
            </button>
        })}
        {move || problem.get().map(|m| view! { <span class="field-error">{m}</span> })}
    }
}
