//! The pages as lazily loaded routes: in the browser each page's view is
//! its own WASM chunk (`cargo leptos build --split`), fetched when a page
//! hydrates or is navigated to, so the first page a student opens downloads
//! the runtime, the header and the panel plus that one page — not the review
//! form, the advisor's charts and the comparison radar too (issue 13).
//!
//! On the server nothing changes: `#[lazy_route]` compiles to a plain call
//! there, and every page still renders as HTML first.
//!
//! A route's `data` is empty: each page reads its own data through its server
//! functions inside its view (as before the split), so the data's
//! deserializers live in the page's chunk. The request itself (`fetch_*` in
//! each page) is a chunk of its own: hydration reads what the server rendered
//! and never sends it.
//!
//! Each page's view hydrates synchronously once its chunk is there
//! ([`crate::sync_hydrate`]).

use leptos::prelude::*;

use crate::sync_hydrate::IntoAnySync;
use leptos_router::{lazy_route, LazyRoute};

use crate::pages::{
    AdminPage, AdvisorPage, ComparePage, HomePage, RankingPageView, ReviewFormPage, SearchPage,
};

/// `/`: the form the agent fills.
pub struct HomeRoute;

#[lazy_route]
impl LazyRoute for HomeRoute {
    fn data() -> Self {
        HomeRoute
    }

    fn view(_this: Self) -> AnyView {
        view! { <HomePage/> }.into_any_sync()
    }
}

/// `/ranking`: a school's and major's advisors, ranked.
pub struct RankingRoute;

#[lazy_route]
impl LazyRoute for RankingRoute {
    fn data() -> Self {
        RankingRoute
    }

    fn view(_this: Self) -> AnyView {
        view! { <RankingPageView/> }.into_any_sync()
    }
}

/// `/advisor/:id`: one advisor, the reviews and the charts.
pub struct AdvisorRoute;

#[lazy_route]
impl LazyRoute for AdvisorRoute {
    fn data() -> Self {
        AdvisorRoute
    }

    fn view(_this: Self) -> AnyView {
        view! { <AdvisorPage/> }.into_any_sync()
    }
}

/// `/advisor/:id/review`: the review form.
pub struct ReviewRoute;

#[lazy_route]
impl LazyRoute for ReviewRoute {
    fn data() -> Self {
        ReviewRoute
    }

    fn view(_this: Self) -> AnyView {
        view! { <ReviewFormPage/> }.into_any_sync()
    }
}

/// `/compare`: advisors side by side, with the radar.
pub struct CompareRoute;

#[lazy_route]
impl LazyRoute for CompareRoute {
    fn data() -> Self {
        CompareRoute
    }

    fn view(_this: Self) -> AnyView {
        view! { <ComparePage/> }.into_any_sync()
    }
}

/// `/search`: advisors found by name.
pub struct SearchRoute;

#[lazy_route]
impl LazyRoute for SearchRoute {
    fn data() -> Self {
        SearchRoute
    }

    fn view(_this: Self) -> AnyView {
        view! { <SearchPage/> }.into_any_sync()
    }
}

/// `/admin`: the moderators' page (the server lets only the admin token
/// through). Its own chunk, so no student downloads it.
pub struct AdminRoute;

#[lazy_route]
impl LazyRoute for AdminRoute {
    fn data() -> Self {
        AdminRoute
    }

    fn view(_this: Self) -> AnyView {
        view! { <AdminPage/> }.into_any_sync()
    }
}
