use crate::meta::PageMeta;
use leptos::prelude::*;

use crate::page_context::PageContextStore;
use crate::protocol::PageKind;

/// The body of a 404: sets the status on the server and says what was missing.
#[component]
pub fn NotFound(#[prop(into)] message: String) -> impl IntoView {
    crate::set_http_status(404);
    PageContextStore::expect().show_other(PageKind::NotFound);
    view! {
        <PageMeta title="页面不存在" description=message.clone()/>
        <section class="not-found" data-page="not_found">
            <h1>"404 · 没有找到"</h1>
            <p class="not-found-message">{message}</p>
            <p><a href="/" class="button">"回到首页"</a></p>
        </section>
    }
}

/// The router's fallback for any unknown path.
#[component]
pub fn NotFoundPage() -> impl IntoView {
    view! { <NotFound message="你访问的页面不存在，可能链接有误或已被移除。"/> }
}
