//! The page-context store: one set of signals at the app root that mirrors
//! `page_context` of the protocol. The pages keep it true at every navigation;
//! the agent panel sends a snapshot of it with every message, and applies the
//! agent's tool results to it. What each page makes of the context is
//! [`shows`], pure, so that the server reads a reply's page the same way
//! (`crate::reply::page_after`).

pub mod shows;

use leptos::prelude::*;

use crate::model::{AdvisorDetail, Comparison, RankingPage};
use crate::protocol::{PageContext, PageKind, RankingFilters, SelectedAdvisor, VisibleAdvisor};

#[derive(Clone, Copy, Debug)]
pub struct PageContextStore {
    pub current_page: RwSignal<PageKind>,
    pub visible_advisors: RwSignal<Vec<VisibleAdvisor>>,
    pub selected_advisor: RwSignal<Option<SelectedAdvisor>>,
    pub ranking_filters: RwSignal<Option<RankingFilters>>,
}

impl Default for PageContextStore {
    fn default() -> Self {
        Self::new()
    }
}

impl PageContextStore {
    pub fn new() -> Self {
        PageContextStore {
            current_page: RwSignal::new(PageKind::Home),
            visible_advisors: RwSignal::new(Vec::new()),
            selected_advisor: RwSignal::new(None),
            ranking_filters: RwSignal::new(None),
        }
    }

    /// Creates the store and provides it to every component below.
    pub fn provide() -> Self {
        let store = Self::new();
        provide_context(store);
        store
    }

    /// The store provided at the app root.
    pub fn expect() -> Self {
        expect_context::<Self>()
    }

    /// What the page shows right now, as the protocol's `page_context`.
    pub fn snapshot(&self) -> PageContext {
        PageContext {
            current_page: self.current_page.get_untracked(),
            visible_advisors: self.visible_advisors.get_untracked(),
            selected_advisor: self.selected_advisor.get_untracked(),
            ranking_filters: self.ranking_filters.get_untracked(),
        }
    }

    /// The same snapshot, tracked: re-runs whoever reads it when it changes.
    pub fn tracked(&self) -> PageContext {
        PageContext {
            current_page: self.current_page.get(),
            visible_advisors: self.visible_advisors.get(),
            selected_advisor: self.selected_advisor.get(),
            ranking_filters: self.ranking_filters.get(),
        }
    }

    /// On the server only: what a page shows, set while it renders, so that
    /// the page context in the HTML is the page's from the start (the
    /// panel's script reads it before the WASM arrives, `early`). In the
    /// browser the pages' effects keep the store, as the data changes.
    pub fn on_server(&self, show: impl FnOnce(&Self)) {
        #[cfg(feature = "ssr")]
        show(self);
        #[cfg(not(feature = "ssr"))]
        let _ = show;
    }

    /// [`Self::tracked`] as the JSON the agent receives, for the page's
    /// `data-json` attributes.
    pub fn tracked_json(&self) -> String {
        serde_json::to_string(&self.tracked()).unwrap_or_default()
    }

    /// Sets the fields that `show` changes, and only those: a signal set
    /// to the value it holds would still wake whoever reads it.
    fn put(&self, show: impl FnOnce(&mut PageContext)) {
        let mut next = self.snapshot();
        show(&mut next);
        if self.current_page.get_untracked() != next.current_page {
            self.current_page.set(next.current_page);
        }
        if self
            .visible_advisors
            .with_untracked(|v| *v != next.visible_advisors)
        {
            self.visible_advisors.set(next.visible_advisors);
        }
        if self
            .selected_advisor
            .with_untracked(|s| *s != next.selected_advisor)
        {
            self.selected_advisor.set(next.selected_advisor);
        }
        if self
            .ranking_filters
            .with_untracked(|f| *f != next.ranking_filters)
        {
            self.ranking_filters.set(next.ranking_filters);
        }
    }

    /// See [`shows::home`].
    pub fn show_home(&self) {
        self.put(shows::home);
    }

    /// See [`shows::ranking`].
    pub fn show_ranking(&self, page: &RankingPage) {
        self.put(|p| shows::ranking(p, page));
    }

    /// See [`shows::opening_ranking`].
    pub fn open_ranking(&self, filters: RankingFilters) {
        self.put(|p| shows::opening_ranking(p, filters));
    }

    /// See [`shows::detail`].
    pub fn show_detail(&self, detail: &AdvisorDetail) {
        self.put(|p| {
            shows::detail(
                p,
                SelectedAdvisor {
                    id: detail.id.clone(),
                    name: detail.name.clone(),
                },
            )
        });
    }

    /// See [`shows::compare`].
    pub fn show_compare(&self, comparison: &Comparison) {
        self.put(|p| shows::compare(p, comparison));
    }

    /// See [`shows::search`].
    pub fn show_search(&self, results: &crate::model::SearchResults) {
        self.put(|p| shows::search(p, results));
    }

    /// See [`shows::other`].
    pub fn show_other(&self, kind: PageKind) {
        self.put(|p| shows::other(p, kind));
    }
}

/// The page context as the page was rendered: inside a page's data, after
/// [`PageContextStore::on_server`] set it, so the server's HTML carries the
/// advisors on screen (`#page-context`, outside the page, is written before
/// the page's data has arrived). The panel's script reads it before the WASM
/// arrives (`early`); in the browser it follows the store.
#[component]
pub fn RenderedPageContext() -> impl IntoView {
    let store = PageContextStore::expect();
    view! {
        <div
            hidden
            data-page-context=""
            data-json=move || store.tracked_json()
        ></div>
    }
}
