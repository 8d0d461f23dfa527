//! The advisor review site's pages, shared protocol types and server functions.
//!
//! Compiled twice: with `ssr` into the server (rendering HTML, running server
//! function bodies) and with `hydrate` into the browser's WASM (taking over the
//! server's HTML in place).

pub mod agent_state;
pub mod api;
pub mod components;
pub mod error;
pub mod fetch;
pub mod hydrated;
pub mod load_failure;
pub mod model;
pub mod page_context;
pub mod pages;
pub mod protocol;
pub mod routes;
pub mod split;
pub mod sync_hydrate;
pub mod text;
pub mod vocabulary;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Title};
use leptos_router::{
    components::{Route, Router, Routes, A},
    path, Lazy, SsrMode,
};

use crate::agent_state::AgentOverlay;
use crate::components::AgentPanel;
use crate::page_context::PageContextStore;
use crate::pages::NotFoundPage;
use crate::routes::{
    AdminRoute, AdvisorRoute, CompareRoute, HomeRoute, RankingRoute, ReviewRoute, SearchRoute,
};
use crate::sync_hydrate::SyncHydrate;

/// The HTML document around the app, rendered on the server only.
///
/// The stylesheet, icon and description are plain elements here rather than
/// `leptos_meta` components inside `App`: they never change, and under
/// `hydrate_lazy` (the split build) those components fail to hydrate.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="zh-CN">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name="description" content="导师评价与推荐：按学校和专业查看导师排行、学生评价，并让语音助手帮你挑选导师。"/>
                <link rel="stylesheet" id="leptos" href="/pkg/advisor-review.css"/>
                <link rel="icon" type="image/svg+xml" href="/favicon.svg"/>
                <AutoReload options=options.clone()/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let store = PageContextStore::provide();
    AgentOverlay::provide();
    crate::hydrated::Hydrated::provide();

    view! {
        <Title formatter=|text: String| {
            if text.is_empty() { "导师评价网".to_string() } else { format!("{text} · 导师评价网") }
        }/>
        <Router>
            // Only the routes wait for a chunk while hydrating; the rest
            // hydrates synchronously (crate::sync_hydrate).
            {SyncHydrate(view! {
                <header class="site-header">
                    <A href="/" attr:class="brand">
                        <span class="brand-mark">"导"</span>
                        <span class="brand-name">"导师评价网"</span>
                    </A>
                    <crate::components::NameSearch/>
                    <nav class="site-nav">
                        <A href="/">"首页"</A>
                        <A href="/ranking?school=北京大学&major=计算机科学与技术">"示例排行"</A>
                    </nav>
                </header>
            })}
            <main class="site-main">
                <Routes fallback=|| view! { <NotFoundPage/> }>
                    // Async: the whole page arrives as HTML, so it works with
                    // JavaScript off and the status code can depend on data.
                    // Lazy: in the browser each page's code is its own chunk
                    // (crate::routes), loaded by the page that needs it.
                    <Route path=path!("") view={Lazy::<HomeRoute>::new()} ssr=SsrMode::Async/>
                    <Route path=path!("/ranking") view={Lazy::<RankingRoute>::new()} ssr=SsrMode::Async/>
                    <Route path=path!("/advisor/:id") view={Lazy::<AdvisorRoute>::new()} ssr=SsrMode::Async/>
                    <Route path=path!("/advisor/:id/review") view={Lazy::<ReviewRoute>::new()} ssr=SsrMode::Async/>
                    <Route path=path!("/compare") view={Lazy::<CompareRoute>::new()} ssr=SsrMode::Async/>
                    <Route path=path!("/search") view={Lazy::<SearchRoute>::new()} ssr=SsrMode::Async/>
                    // The server answers `/admin` itself when the token is
                    // missing or wrong, and renders this route only with it
                    // (server `http::admin::page`).
                    <Route path=path!("/admin") view={Lazy::<AdminRoute>::new()} ssr=SsrMode::Async/>
                </Routes>
            </main>
            {SyncHydrate(view! {
                <footer class="site-footer">
                    <p>"导师评价网 · 评价来自学生，仅供参考。演示数据为虚构。"</p>
                </footer>
                <AgentPanel/>
                // The page context as the agent will receive it, kept in the DOM so
                // that tests (and curious engineers) can see what the store holds.
                <div
                    id="page-context"
                    hidden
                    data-current-page=move || store.current_page.get().as_str()
                    data-json=move || serde_json::to_string(&store.tracked()).unwrap_or_default()
                ></div>
            })}
        </Router>
    }
}

/// Sets the HTTP status of the server-rendered response (404 for a missing
/// advisor, say). A no-op in the browser, where there is no response.
#[allow(unused_variables)]
pub fn set_http_status(code: u16) {
    #[cfg(feature = "ssr")]
    if let (Some(opts), Ok(status)) = (
        use_context::<leptos_axum::ResponseOptions>(),
        http::StatusCode::from_u16(code),
    ) {
        opts.set_status(status);
    }
}
