//! The advisor review site's pages, shared protocol types and server functions.
//!
//! Compiled twice: with `ssr` into the server (rendering HTML, running server
//! function bodies) and with `hydrate` into the browser's WASM (taking over the
//! server's HTML in place).

pub mod agent_state;
pub mod api;
pub mod boot;
pub mod components;
pub mod error;
pub mod fetch;
pub mod hydrated;
pub mod js;
pub mod load_failure;
pub mod meta;
pub mod model;
pub mod page_context;
pub mod pages;
pub mod policy;
pub mod protocol;
pub mod reply;
pub mod sse;
pub mod sync_hydrate;
pub mod text;
pub mod vocabulary;
pub mod voice_input;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, HashedStylesheet, MetaTags, Title};
use leptos_router::{
    components::{Route, Router, Routes, A},
    path, SsrMode,
};

use crate::agent_state::AgentOverlay;
use crate::components::AgentPanel;
use crate::page_context::PageContextStore;
use crate::pages::{
    AboutPage, AdminPage, AdvisorPage, ComparePage, CorrectionPage, HomePage, NotFoundPage,
    PrivacyPage, RankingPageView, ReviewFormPage, RulesPage, SearchPage,
};
use crate::sync_hydrate::IntoAnySync;

/// The HTML document around the app, rendered on the server only.
///
/// The icons are plain elements here rather than `leptos_meta` components
/// inside `App`: they never change (each page's description and Open Graph
/// tags do: `meta::PageMeta`). The stylesheet,
/// the module and the WASM have the content's hash in their names (the
/// build's `hash-files`), so a browser may keep them for good and one page
/// never mixes two deploys' files.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    let nonce = leptos::nonce::use_nonce();
    view! {
        <!DOCTYPE html>
        <html lang="zh-CN">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                // Before the stylesheet: a script after it waits for it.
                <script nonce=nonce.clone()>{load_failure::script()}</script>
                <HashedStylesheet options=options.clone() id="leptos"/>
                <link rel="icon" type="image/svg+xml" href="/favicon.svg"/>
                <link rel="apple-touch-icon" href="/apple-touch-icon.png"/>
                <AutoReload options=options.clone()/>
                <boot::AppScripts options=options.clone()/>
                <MetaTags/>
                <voice_input::VoiceInputMeta/>
            </head>
            <body>
                <App/>
                // After the app's HTML, outside what hydration walks: the
                // panel's input works from here on (agent_panel/early.rs).
                <script nonce=nonce>{components::agent_panel_early::script()}</script>
            </body>
        </html>
    }
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    meta::provide_once();
    let store = PageContextStore::provide();
    AgentOverlay::provide();
    crate::hydrated::Hydrated::provide();

    view! {
        <Title formatter=|text: String| {
            if text.is_empty() { "导师评价网".to_string() } else { format!("{text} · 导师评价网") }
        }/>
        <Router>
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
            <main class="site-main">
                <Routes fallback=|| view! { <NotFoundPage/> }>
                    // Async: the whole page arrives as HTML, so it works with
                    // JavaScript off and the status code can depend on data.
                    <Route path=path!("") view=|| view! { <HomePage/> }.into_any_sync() ssr=SsrMode::Async/>
                    <Route path=path!("/ranking") view=|| view! { <RankingPageView/> }.into_any_sync() ssr=SsrMode::Async/>
                    <Route path=path!("/advisor/:id") view=|| view! { <AdvisorPage/> }.into_any_sync() ssr=SsrMode::Async/>
                    <Route path=path!("/advisor/:id/review") view=|| view! { <ReviewFormPage/> }.into_any_sync() ssr=SsrMode::Async/>
                    <Route path=path!("/compare") view=|| view! { <ComparePage/> }.into_any_sync() ssr=SsrMode::Async/>
                    <Route path=path!("/search") view=|| view! { <SearchPage/> }.into_any_sync() ssr=SsrMode::Async/>
                    <Route path=path!("/rules") view=|| view! { <RulesPage/> }.into_any_sync() ssr=SsrMode::Async/>
                    <Route path=path!("/privacy") view=|| view! { <PrivacyPage/> }.into_any_sync() ssr=SsrMode::Async/>
                    <Route path=path!("/about") view=|| view! { <AboutPage/> }.into_any_sync() ssr=SsrMode::Async/>
                    <Route path=path!("/correction") view=|| view! { <CorrectionPage/> }.into_any_sync() ssr=SsrMode::Async/>
                    // The server answers `/admin` itself when the token is
                    // missing or wrong, and renders this route only with it
                    // (server `http::admin::page`).
                    <Route path=path!("/admin") view=|| view! { <AdminPage/> }.into_any_sync() ssr=SsrMode::Async/>
                </Routes>
            </main>
                <footer class="site-footer">
                    <nav class="footer-links" aria-label="关于本站">
                        <A href="/about">"关于"</A>
                        <A href="/rules">"发帖规则"</A>
                        <A href="/privacy">"隐私说明"</A>
                        <A href="/correction">"申诉/更正"</A>
                    </nav>
                    <p>"导师评价网 · 评价来自学生，仅供参考。演示数据为虚构。"</p>
                </footer>
                <AgentPanel/>
                // The page context as the agent will receive it, kept in the DOM so
                // that tests (and curious engineers) can see what the store holds.
                <div
                    id="page-context"
                    hidden
                    data-current-page=move || store.current_page.get().as_str()
                    data-json=move || store.tracked_json()
                ></div>
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
