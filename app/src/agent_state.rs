//! What the agent's tool results leave on the pages: data the reply already
//! carried (so a page shows it without fetching it again) and the highlighted
//! recommendations. The panel writes here; the pages read.

use leptos::prelude::*;

use crate::model::{AdvisorDetail, RankingPage, RecommendedAdvisor, ReviewPage, SortKey};

/// Results handed from a reply to the page it navigates to. Each is taken
/// once: a later visit to the same URL fetches fresh data as usual.
#[derive(Clone, Debug, Default)]
struct Prefetched {
    ranking: Option<RankingPage>,
    detail: Option<AdvisorDetail>,
    reviews: Option<ReviewPage>,
}

#[derive(Clone, Copy, Debug)]
pub struct AgentOverlay {
    prefetched: StoredValue<Prefetched>,
    /// Advisors the agent recommended for the ranking on screen, best first.
    pub recommendations: RwSignal<Vec<RecommendedAdvisor>>,
}

impl AgentOverlay {
    pub fn provide() -> Self {
        let overlay = AgentOverlay {
            prefetched: StoredValue::new(Prefetched::default()),
            recommendations: RwSignal::new(Vec::new()),
        };
        provide_context(overlay);
        overlay
    }

    pub fn expect() -> Self {
        expect_context::<Self>()
    }

    pub fn put_ranking(&self, page: RankingPage) {
        self.prefetched.update_value(|p| p.ranking = Some(page));
    }

    /// The prefetched ranking if it is the one asked for (names as the reply gave them).
    pub fn take_ranking(
        &self,
        school: &str,
        major: &str,
        sort: SortKey,
        page: u32,
    ) -> Option<RankingPage> {
        let mut out = None;
        self.prefetched.update_value(|p| {
            if p.ranking.as_ref().is_some_and(|r| {
                r.school == school && r.major == major && r.sort == sort && r.page == page
            }) {
                out = p.ranking.take();
            }
        });
        out
    }

    pub fn put_detail(&self, detail: AdvisorDetail) {
        self.prefetched.update_value(|p| p.detail = Some(detail));
    }

    pub fn take_detail(&self, id: &str) -> Option<AdvisorDetail> {
        let mut out = None;
        self.prefetched.update_value(|p| {
            if p.detail.as_ref().is_some_and(|d| d.id == id) {
                out = p.detail.take();
            }
        });
        out
    }

    pub fn put_reviews(&self, reviews: ReviewPage) {
        self.prefetched.update_value(|p| p.reviews = Some(reviews));
    }

    pub fn take_reviews(&self, id: &str, page: u32) -> Option<ReviewPage> {
        let mut out = None;
        self.prefetched.update_value(|p| {
            if p.reviews
                .as_ref()
                .is_some_and(|r| r.advisor_id == id && r.page == page)
            {
                out = p.reviews.take();
            }
        });
        out
    }

    /// The recommendation for an advisor on screen, if the agent made one.
    pub fn recommendation(&self, id: &str) -> Option<RecommendedAdvisor> {
        self.recommendations
            .with(|list| list.iter().find(|r| r.id == id).cloned())
    }
}
