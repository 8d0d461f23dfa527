use leptos::prelude::*;

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
            {prev.map(|h| view! { <a href=h class="pager-prev" rel="prev">"‹ 上一页"</a> })}
            <span class="pager-pos">{format!("第 {page} / {page_count} 页")}</span>
            {next.map(|h| view! { <a href=h class="pager-next" rel="next">"下一页 ›"</a> })}
        </nav>
    })
}
