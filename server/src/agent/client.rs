//! What a browser does with a reply, in code: applies each executed tool's
//! result to the page context. The panel does this in WASM; tests and the
//! evaluation command use this to replay conversations as a student would see
//! them.

use serde_json::Value;

use app::model::{AdvisorDetail, Comparison, RankingPage, RecommendResult};
use app::protocol::{PageContext, PageKind, RankingFilters, SelectedAdvisor, ToolCall};

use super::tools::{
    COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS, RECOMMEND_ADVISORS, UPDATE_RANKING,
};

/// Applies the reply's tool results to `page`, as the panel does.
pub fn apply(page: &mut PageContext, calls: &[ToolCall]) {
    for call in calls {
        let Some(result) = call.result.clone() else {
            continue;
        };
        match call.tool.as_str() {
            UPDATE_RANKING => {
                if let Ok(p) = serde_json::from_value::<RankingPage>(result) {
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
                if let Ok(r) = serde_json::from_value::<RecommendResult>(result) {
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
                        page.selected_advisor = None;
                    }
                }
            }
            GET_ADVISOR_DETAIL => {
                if let Ok(d) = serde_json::from_value::<AdvisorDetail>(result) {
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
                if let Ok(c) = serde_json::from_value::<Comparison>(result) {
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
