//! The page-context store: one set of signals at the app root that mirrors
//! `page_context` of the protocol. The pages keep it true at every navigation;
//! the agent panel sends a snapshot of it with every message, and applies the
//! agent's tool results to it.

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

    /// The home page shows no advisors and no filters.
    pub fn show_home(&self) {
        self.current_page.set(PageKind::Home);
        self.visible_advisors.set(Vec::new());
        self.selected_advisor.set(None);
        self.ranking_filters.set(None);
    }

    /// A ranking is on screen: its filters and its cards, nobody selected.
    pub fn show_ranking(&self, page: &RankingPage) {
        self.current_page.set(PageKind::Ranking);
        self.visible_advisors
            .set(page.advisors.iter().map(|a| a.to_visible()).collect());
        self.selected_advisor.set(None);
        self.ranking_filters.set(Some(RankingFilters {
            school: page.school.clone(),
            major: page.major.clone(),
        }));
    }

    /// A ranking is being opened (its page and data still on the way): it
    /// is the page from now on, its list not known yet. The same ranking
    /// already on screen is kept as it is.
    pub fn open_ranking(&self, filters: RankingFilters) {
        let same = self.current_page.get_untracked() == PageKind::Ranking
            && self.ranking_filters.get_untracked().as_ref() == Some(&filters);
        if same {
            return;
        }
        self.current_page.set(PageKind::Ranking);
        self.visible_advisors.set(Vec::new());
        self.selected_advisor.set(None);
        self.ranking_filters.set(Some(filters));
    }

    /// A detail page is open. The ranking the student came from stays known,
    /// so "第一个" still means what they just saw.
    pub fn show_detail(&self, detail: &AdvisorDetail) {
        self.current_page.set(PageKind::Detail);
        self.selected_advisor.set(Some(SelectedAdvisor {
            id: detail.id.clone(),
            name: detail.name.clone(),
        }));
    }

    /// Advisors side by side: they are the list "第一个" and "第二位" refer
    /// to, in the order shown; nobody is selected and no ranking is on screen.
    /// `rank` is each advisor's place in the ranking of their own school and
    /// major, `rating` their plain overall average (0 without reviews), as on
    /// a ranking card.
    pub fn show_compare(&self, comparison: &Comparison) {
        self.current_page.set(PageKind::Compare);
        self.visible_advisors.set(
            comparison
                .advisors
                .iter()
                .map(AdvisorDetail::to_visible)
                .collect(),
        );
        self.selected_advisor.set(None);
        self.ranking_filters.set(None);
    }

    /// Search results: the advisors found, in the order shown, are what
    /// "第一个" refers to (a result has no rank: 0); no ranking is on screen.
    pub fn show_search(&self, results: &crate::model::SearchResults) {
        self.current_page.set(PageKind::Search);
        self.visible_advisors.set(
            results
                .advisors
                .iter()
                .map(|a| VisibleAdvisor {
                    id: a.id.clone(),
                    name: a.name.clone(),
                    title: a.title.clone(),
                    rating: a.score,
                    rank: 0,
                })
                .collect(),
        );
        self.selected_advisor.set(None);
        self.ranking_filters.set(None);
    }

    /// Any other page (a choice of school or major, a 404): nothing selectable.
    pub fn show_other(&self, kind: PageKind) {
        self.current_page.set(kind);
        self.visible_advisors.set(Vec::new());
        self.selected_advisor.set(None);
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
