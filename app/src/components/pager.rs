use leptos::prelude::*;
use leptos_router::components::A;

/// Previous / next links and the page position. Plain links, so paging works
/// without JavaScript; the router turns them into client navigations.
#[component]
pub fn Pager(
    page: u32,
    page_count: u32,
    /// Builds the URL of a page number.
    href: impl Fn(u32) -> String + 'static,
) -> impl IntoView {
    if page_count <= 1 {
        return None;
    }
    let prev = (page > 1).then(|| href(page - 1));
    let next = (page < page_count).then(|| href(page + 1));
    Some(view! {
        <nav class="pager" aria-label="分页">
            {prev.map(|h| view! { <A href=h attr:class="pager-prev" attr:rel="prev">"‹ 上一页"</A> })}
            <span class="pager-pos">{format!("第 {page} / {page_count} 页")}</span>
            {next.map(|h| view! { <A href=h attr:class="pager-next" attr:rel="next">"下一页 ›"</A> })}
        </nav>
    })
}
