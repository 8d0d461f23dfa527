//! 有用 on a review: a form that posts to `/reviews/{id}/helpful` (a toggle
//! that works without JavaScript and comes back to the same page), taken
//! over once hydrated: the click sets or takes back the vote through the
//! JSON API and updates the count in place.

use leptos::prelude::*;
use leptos::task::spawn_local;

#[derive(serde::Deserialize)]
struct Voted {
    voted: bool,
    helpful: i64,
}

#[component]
pub fn HelpfulButton(
    review_id: String,
    advisor_id: String,
    count: i64,
    voted: bool,
    /// The page's query string (order, filter, page) to come back to.
    back: String,
) -> impl IntoView {
    let count = RwSignal::new(count);
    let voted = RwSignal::new(voted);
    let busy = RwSignal::new(false);
    let problem = RwSignal::new(None::<String>);
    let id = StoredValue::new(review_id.clone());
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        let want = !voted.get_untracked();
        let url = format!("/api/v1/reviews/{}/helpful", id.get_value());
        spawn_local(async move {
            let method = if want { "POST" } else { "DELETE" };
            match crate::fetch::send(method, &url, &[], "操作没有成功，请稍后再试。").await
            {
                Ok((_, text)) => match serde_json::from_str::<Voted>(&text) {
                    Ok(v) => {
                        voted.set(v.voted);
                        count.set(v.helpful);
                        problem.set(None);
                    }
                    Err(_) => problem.set(Some("操作没有成功，请稍后再试。".to_string())),
                },
                Err(m) => problem.set(Some(m)),
            }
            busy.set(false);
        });
    };
    view! {
        <form
            class="helpful-form"
            method="post"
            action=format!("/reviews/{review_id}/helpful")
            on:submit=submit
        >
            <input type="hidden" name="advisor_id" value=advisor_id/>
            <input type="hidden" name="back" value=back/>
            <button
                type="submit"
                class="helpful-button"
                class:voted=move || voted.get()
                aria-pressed=move || if voted.get() { "true" } else { "false" }
                disabled=move || busy.get()
                data-testid="helpful-button"
            >
                {crate::components::icons::thumbs_up()}
                <span>{move || if voted.get() { "已觉得有用" } else { "有用" }}</span>
                <span class="helpful-count" data-testid="helpful-count">{move || count.get()}</span>
            </button>
            {move || problem.get().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </form>
    }
}
