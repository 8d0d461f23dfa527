//! The browser's side of a turn, as the server reads it: the page a reply
//! leads to (decided once, in `app::reply`, for the panel and the server
//! alike), which the session keeps so that a browser still loading that
//! page ([`catching_up`]) is understood as showing it; tests, the
//! evaluation and the load tool replay conversations with it.

use app::protocol::{PageContext, PageKind, ToolCall};

/// Applies the reply's tool calls to `page` as the panel does: the one
/// reducer of "a reply applied to a page", [`app::reply::page_after`].
pub fn apply(page: &mut PageContext, calls: &[ToolCall]) {
    *page = app::reply::page_after(page, calls);
}

/// True when the browser is still loading the ranking the last reply led
/// to (a slow network): the panel marks the ranking as open the moment it
/// navigates, and the list follows with the page's data. The student then
/// means that ranking's list: "第三个" right after "我想考北京大学计算机系".
/// Any other page is what it says, the home page too (the student went back).
pub fn catching_up(seen: &PageContext, led_to: &PageContext) -> bool {
    seen.current_page == PageKind::Ranking
        && seen.visible_advisors.is_empty()
        && seen.selected_advisor.is_none()
        && seen.ranking_filters.is_some()
        && led_to.current_page == PageKind::Ranking
        && seen.ranking_filters == led_to.ranking_filters
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::protocol::{RankingFilters, SelectedAdvisor, VisibleAdvisor};

    fn ranking(school: &str, advisors: &[&str]) -> PageContext {
        PageContext {
            current_page: PageKind::Ranking,
            visible_advisors: advisors
                .iter()
                .enumerate()
                .map(|(i, name)| VisibleAdvisor {
                    id: (i + 1).to_string(),
                    name: name.to_string(),
                    title: "教授".into(),
                    rating: 4.0,
                    rank: i as u32 + 1,
                })
                .collect(),
            selected_advisor: None,
            ranking_filters: Some(RankingFilters {
                school: school.into(),
                major: "计算机科学与技术".into(),
            }),
        }
    }

    #[test]
    fn a_ranking_still_loading_is_the_ranking_the_reply_opened() {
        let loading = ranking("北京大学", &[]);
        assert!(catching_up(
            &loading,
            &ranking("北京大学", &["张三", "李四", "王五"])
        ));
        // A recommendation's ranking, whose list the server fetches.
        assert!(catching_up(&loading, &loading));
    }

    #[test]
    fn what_the_browser_shows_wins_over_the_last_reply() {
        let led_to = ranking("北京大学", &["张三", "李四", "王五"]);
        // The student went back home, or on to another ranking.
        assert!(!catching_up(&PageContext::default(), &led_to));
        assert!(!catching_up(&ranking("清华大学", &[]), &led_to));
        assert!(!catching_up(&ranking("北京大学", &["赵六"]), &led_to));
        let detail = PageContext {
            current_page: PageKind::Detail,
            selected_advisor: Some(SelectedAdvisor {
                id: "9".into(),
                name: "赵六".into(),
            }),
            ..Default::default()
        };
        assert!(!catching_up(&detail, &led_to));
        // The last reply opened no ranking.
        assert!(!catching_up(
            &ranking("北京大学", &[]),
            &PageContext::default()
        ));
    }
}
