//! What each page makes of the page context when it is shown: the one
//! place that says it, read by the store in the browser (`super`) and by
//! [`crate::reply::page_after`], the page a reply leads to, on the server.

use crate::model::{AdvisorDetail, Comparison, RankingPage, SearchResults};
use crate::protocol::{PageContext, PageKind, RankingFilters, SelectedAdvisor, VisibleAdvisor};

/// The home page shows no advisors and no filters.
pub fn home(p: &mut PageContext) {
    *p = PageContext::default();
}

/// A ranking is on screen: its filters and its cards, nobody selected.
pub fn ranking(p: &mut PageContext, page: &RankingPage) {
    p.current_page = PageKind::Ranking;
    p.visible_advisors = page.advisors.iter().map(|a| a.to_visible()).collect();
    p.selected_advisor = None;
    p.ranking_filters = Some(RankingFilters {
        school: page.school.clone(),
        major: page.major.clone(),
    });
}

/// A ranking is being opened (its page and data still on the way): it is
/// the page from now on, its list not known yet. The same ranking already
/// on screen is kept as it is.
pub fn opening_ranking(p: &mut PageContext, filters: RankingFilters) {
    if p.current_page == PageKind::Ranking && p.ranking_filters.as_ref() == Some(&filters) {
        return;
    }
    p.current_page = PageKind::Ranking;
    p.visible_advisors = Vec::new();
    p.selected_advisor = None;
    p.ranking_filters = Some(filters);
}

/// A detail page is open. The ranking the student came from stays known,
/// so "第一个" still means what they just saw.
pub fn detail(p: &mut PageContext, advisor: SelectedAdvisor) {
    p.current_page = PageKind::Detail;
    p.selected_advisor = Some(advisor);
}

/// Advisors side by side: they are the list "第一个" and "第二位" refer to,
/// in the order shown; nobody is selected and no ranking is on screen.
/// `rank` is each advisor's place in the ranking of their own school and
/// major, `rating` their plain overall average (0 without reviews), as on a
/// ranking card.
pub fn compare(p: &mut PageContext, comparison: &Comparison) {
    p.current_page = PageKind::Compare;
    p.visible_advisors = comparison
        .advisors
        .iter()
        .map(AdvisorDetail::to_visible)
        .collect();
    p.selected_advisor = None;
    p.ranking_filters = None;
}

/// Search results: the advisors found, in the order shown, are what
/// "第一个" refers to (a result has no rank: 0); no ranking is on screen.
pub fn search(p: &mut PageContext, results: &SearchResults) {
    p.current_page = PageKind::Search;
    p.visible_advisors = results
        .advisors
        .iter()
        .map(|a| VisibleAdvisor {
            id: a.id.clone(),
            name: a.name.clone(),
            title: a.title.clone(),
            rating: a.score,
            rank: 0,
        })
        .collect();
    p.selected_advisor = None;
    p.ranking_filters = None;
}

/// Any other page (a choice of school or major, a 404): nothing selectable.
pub fn other(p: &mut PageContext, kind: PageKind) {
    p.current_page = kind;
    p.visible_advisors = Vec::new();
    p.selected_advisor = None;
}
