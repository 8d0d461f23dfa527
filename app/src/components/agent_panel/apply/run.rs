//! The impure half of applying a reply: the [`Step`]s of a
//! [`plan`](crate::reply::plan()) performed against the agent overlay, the page
//! context, the router and the browser's document. Kept apart so that
//! everything deciding *what* happens stays testable without a browser.

use std::time::Duration;

use leptos::prelude::Set;

use crate::agent_state::AgentOverlay;
use crate::page_context::PageContextStore;
use crate::reply::Step;

/// How long [`Step::ScrollTo`] keeps looking for an element that is still loading.
const SCROLL_RETRIES: u32 = 30;
const SCROLL_RETRY_MS: u64 = 100;

/// Performs the steps of a [`plan`](crate::reply::plan()) in order. `navigate` goes to an in-app URL
/// (the router's `use_navigate`, in the panel). What the reply hands over is
/// in the page context at once, before the page it opens has loaded.
pub fn run(
    steps: Vec<Step>,
    overlay: AgentOverlay,
    store: PageContextStore,
    navigate: impl Fn(&str),
) {
    for step in steps {
        match step {
            Step::PutRanking(page) => {
                store.show_ranking(&page);
                overlay.put_ranking(page)
            }
            Step::SetRecommendations(list) => overlay.recommendations.set(list),
            Step::PutDetail(detail) => {
                store.show_detail(&detail);
                overlay.put_detail(*detail)
            }
            Step::OpenRanking(filters) => store.open_ranking(filters),
            Step::PutReviews(page) => overlay.put_reviews(page),
            Step::Navigate(href) => navigate(&href),
            Step::ScrollTo(id) => scroll_into_view_soon(id, SCROLL_RETRIES),
            Step::KeepEditToken { review_id, token } => {
                super::super::storage::save_edit_token(&review_id, &token)
            }
        }
    }
}

/// Scrolls `#id` into view, waiting (briefly) for a page still loading to render it.
fn scroll_into_view_soon(id: &'static str, tries: u32) {
    let found = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id));
    match found {
        Some(el) => el.scroll_into_view(),
        None if tries > 0 => leptos::prelude::set_timeout(
            move || scroll_into_view_soon(id, tries - 1),
            Duration::from_millis(SCROLL_RETRY_MS),
        ),
        None => {}
    }
}
