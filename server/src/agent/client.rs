//! What a browser does with a reply, in code: applies each executed tool's
//! result to the page context. The panel does this in WASM; tests and the
//! evaluation command use this to replay conversations as a student would see
//! them, and the session keeps the page a reply leads to, so that a browser
//! still loading that page ([`catching_up`]) is understood as showing it.

use serde::Deserialize;
use serde_json::Value;

use app::model::{AdvisorDetail, Comparison, RankingPage, RecommendResult};
use app::protocol::{PageContext, PageKind, RankingFilters, SelectedAdvisor, ToolCall};

use super::tools::{
    COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS, RECOMMEND_ADVISORS, UPDATE_RANKING,
};

/// Applies the reply's tool results to `page`, as the panel does.
pub fn apply(page: &mut PageContext, calls: &[ToolCall]) {
    for call in calls {
        // Read in place, not cloned: every turn updates the session's page so.
        let Some(result) = call.result.as_ref() else {
            continue;
        };
        match call.tool.as_str() {
            UPDATE_RANKING => {
                if let Ok(p) = RankingPage::deserialize(result) {
                    page.current_page = PageKind::Ranking;
                    page.visible_advisors = p.advisors.iter().map(|a| a.to_visible()).collect();
                    page.selected_advisor = None;
                    page.ranking_filters = Some(RankingFilters {
                        school: p.school,
                        major: p.major,
                    });
                }
            }
            RECOMMEND_ADVISORS => {
                if let Ok(r) = RecommendResult::deserialize(result) {
                    let filters = RankingFilters {
                        school: r.school,
                        major: r.major,
                    };
                    if page.ranking_filters.as_ref() != Some(&filters)
                        || page.current_page != PageKind::Ranking
                    {
                        // The panel navigates to the ranking; its list arrives
                        // with the page, which this emulation cannot fetch.
                        page.current_page = PageKind::Ranking;
                        page.ranking_filters = Some(filters);
                        page.visible_advisors.clear();
                        page.selected_advisor = None;
                    }
                }
            }
            GET_ADVISOR_DETAIL => {
                if let Ok(d) = AdvisorDetail::deserialize(result) {
                    page.current_page = PageKind::Detail;
                    page.selected_advisor = Some(SelectedAdvisor {
                        id: d.id,
                        name: d.name,
                    });
                }
            }
            GET_ADVISOR_REVIEWS => {
                let id = call.params.get("advisor_id").and_then(Value::as_str);
                let name = call.params.get("advisor_name").and_then(Value::as_str);
                if let (Some(id), Some(name)) = (id, name) {
                    page.current_page = PageKind::Detail;
                    page.selected_advisor = Some(SelectedAdvisor {
                        id: id.into(),
                        name: name.into(),
                    });
                }
            }
            COMPARE_ADVISORS => {
                if let Ok(c) = Comparison::deserialize(result) {
                    page.current_page = PageKind::Compare;
                    page.visible_advisors = c.advisors.iter().map(|d| d.to_visible()).collect();
                    page.selected_advisor = None;
                    page.ranking_filters = None;
                }
            }
            _ => {}
        }
    }
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
    use app::protocol::VisibleAdvisor;

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

    #[test]
    fn a_recommendation_elsewhere_clears_the_old_list() {
        let mut page = ranking("清华大学", &["赵六"]);
        let result = serde_json::json!({
            "school": "北京大学", "major": "计算机科学与技术", "advisors": []
        });
        let call = ToolCall {
            tool: RECOMMEND_ADVISORS.into(),
            params: serde_json::json!({}),
            result: Some(result),
        };
        apply(&mut page, &[call]);
        assert_eq!(page.current_page, PageKind::Ranking);
        assert!(page.visible_advisors.is_empty());
        assert_eq!(page.ranking_filters.unwrap().school, "北京大学");
    }
}
