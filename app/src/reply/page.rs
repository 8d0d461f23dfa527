//! The page a reply leads to, as its page context: the [`Step`]s of
//! [`plan`] played the way the panel plays them (`agent_panel/apply/run`),
//! with the data they hand over, each page showing itself as in the
//! browser (`page_context::shows`). A ranking opened by the reply lists what
//! the reply carried, or nothing yet when the page fetches its own list (a
//! recommendation on another ranking); an advisor's page is named by the
//! detail handed over, the call's own params, or the list it was picked
//! from; the compare page lists the comparison the call returned. And
//! [`catching_up`]: whether a browser reporting a ranking still loading is
//! showing the page the last reply led to.

use serde::Deserialize;

use super::plan::{param, plan, Here, Step};
use crate::model::{AdvisorDetail, Comparison, RankingPage, SortKey};
use crate::page_context::shows;
use crate::pages::{encode, ranking_href};
use crate::protocol::{PageContext, PageKind, SelectedAdvisor, ToolCall, ToolName};

/// Where the student is, as far as [`plan`] cares, read from the page
/// context the browser reports (a ranking is taken at its first page, by
/// its default order: the context does not say more).
pub fn here(page: &PageContext) -> Here {
    let at = |url: String, ranking| {
        let path = url.split('?').next().unwrap_or_default().to_string();
        Here { path, url, ranking }
    };
    match (
        &page.current_page,
        &page.ranking_filters,
        &page.selected_advisor,
    ) {
        (PageKind::Ranking, Some(f), _) => at(
            ranking_href(&f.school, &f.major, SortKey::Overall, 1),
            Some(f.clone()),
        ),
        (PageKind::Detail, _, Some(a)) => at(format!("/advisor/{}", encode(&a.id)), None),
        (PageKind::Compare, _, _) => {
            let ids: Vec<String> = page
                .visible_advisors
                .iter()
                .map(|a| encode(&a.id))
                .collect();
            at(format!("/compare?ids={}", ids.join(",")), None)
        }
        (PageKind::Home, _, _) => at("/".to_string(), None),
        (kind, _, _) => at(format!("/{}", kind.as_str()), None),
    }
}

/// The page context once the reply's steps are done, starting from `seen`:
/// each page shows itself as it does in the browser ([`shows`]).
pub fn page_after(seen: &PageContext, calls: &[ToolCall]) -> PageContext {
    let mut page = seen.clone();
    let mut ranking: Option<RankingPage> = None;
    let mut detail: Option<AdvisorDetail> = None;
    for step in plan(calls, &here(seen)).steps {
        match step {
            Step::PutRanking(p) => ranking = Some(p),
            Step::PutDetail(d) => detail = Some(*d),
            Step::OpenRanking(filters) => shows::opening_ranking(&mut page, filters),
            Step::Navigate(href) => {
                let path = href.split(['?', '#']).next().unwrap_or_default();
                if path == "/ranking" {
                    if let Some(p) = ranking.take() {
                        shows::ranking(&mut page, &p);
                    }
                } else if let Some(id) = path.strip_prefix("/advisor/") {
                    if let Some(advisor) = advisor_named(id, detail.take(), calls, &page) {
                        shows::detail(&mut page, advisor);
                    }
                } else if path == "/compare" {
                    if let Some(c) = comparison(calls) {
                        shows::compare(&mut page, &c);
                    }
                }
            }
            Step::SetRecommendations(_)
            | Step::PutReviews(_)
            | Step::ScrollTo(_)
            | Step::KeepEditToken { .. } => {}
        }
    }
    page
}

/// The advisor whose page `id` (as it stands in the path) is: the detail
/// handed over, else a call that names the advisor (`advisor_id` with
/// `advisor_name`), else the advisor of that id on the page left.
fn advisor_named(
    id: &str,
    detail: Option<AdvisorDetail>,
    calls: &[ToolCall],
    left: &PageContext,
) -> Option<SelectedAdvisor> {
    let selected = |id: &str, name: &str| SelectedAdvisor {
        id: id.to_string(),
        name: name.to_string(),
    };
    if let Some(d) = detail.filter(|d| encode(&d.id) == id) {
        return Some(selected(&d.id, &d.name));
    }
    let named = calls.iter().find_map(|c| {
        let own = param(c, "advisor_id").filter(|a| encode(a) == id)?;
        Some(selected(&own, &param(c, "advisor_name")?))
    });
    named
        .or_else(|| {
            left.visible_advisors
                .iter()
                .find(|a| encode(&a.id) == id)
                .map(|a| selected(&a.id, &a.name))
        })
        .or_else(|| {
            left.selected_advisor
                .clone()
                .filter(|a| encode(&a.id) == id)
        })
}

/// The comparison a `compare_advisors` call of the reply returned.
fn comparison(calls: &[ToolCall]) -> Option<Comparison> {
    calls
        .iter()
        .filter(|c| c.name() == Some(ToolName::CompareAdvisors))
        .find_map(|c| Comparison::deserialize(c.result.as_ref()?).ok())
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
    use serde_json::json;

    use super::*;
    use crate::reply::fixtures::{call, detail_json, ranking, ranking_json};

    #[test]
    fn a_ranking_handed_over_is_the_list_on_screen() {
        let calls = [call(
            "update_ranking",
            json!({"school": "北京大学", "major": "计算机科学与技术"}),
            Some(ranking_json("北京大学", "计算机科学与技术")),
        )];
        let page = page_after(&PageContext::default(), &calls);
        assert_eq!(page.current_page, PageKind::Ranking);
        assert_eq!(page.visible_advisors[0].name, "张三");
        assert_eq!(page.ranking_filters.unwrap().school, "北京大学");
    }

    #[test]
    fn a_recommendation_elsewhere_clears_the_old_list() {
        let result = json!({
            "school": "北京大学", "major": "计算机科学与技术", "advisors": []
        });
        let calls = [call("recommend_advisors", json!({}), Some(result))];
        let page = page_after(&ranking("清华大学", &["赵六"]), &calls);
        assert_eq!(page.current_page, PageKind::Ranking);
        assert!(page.visible_advisors.is_empty());
        assert_eq!(page.ranking_filters.unwrap().school, "北京大学");
        // On its own ranking it changes nothing.
        let here = ranking("北京大学", &["张三"]);
        let result = json!({
            "school": "北京大学", "major": "计算机科学与技术", "advisors": []
        });
        let calls = [call("recommend_advisors", json!({}), Some(result))];
        assert_eq!(page_after(&here, &calls), here);
    }

    #[test]
    fn an_advisor_is_named_by_the_detail_the_params_or_the_list() {
        let calls = [call(
            "get_advisor_detail",
            json!({"advisor_id": "12345"}),
            Some(detail_json("12345")),
        )];
        let page = page_after(&PageContext::default(), &calls);
        assert_eq!(page.current_page, PageKind::Detail);
        assert_eq!(page.selected_advisor.as_ref().unwrap().id, "12345");
        // The reviews of an advisor from the list left, by its params.
        let calls = [call(
            "get_advisor_reviews",
            json!({"advisor_id": "2", "advisor_name": "李四"}),
            None,
        )];
        let page = page_after(&ranking("北京大学", &["张三", "李四"]), &calls);
        assert_eq!(
            page.selected_advisor,
            Some(SelectedAdvisor {
                id: "2".into(),
                name: "李四".into()
            })
        );
        // Without a name anywhere the page stays as it was.
        let calls = [call(
            "get_advisor_detail",
            json!({"advisor_id": "77"}),
            None,
        )];
        assert_eq!(
            page_after(&PageContext::default(), &calls),
            PageContext::default()
        );
    }

    #[test]
    fn the_compare_page_lists_the_comparison() {
        let detail = detail_json("1");
        let calls = [call(
            "compare_advisors",
            json!({"advisor_ids": ["1", "2"]}),
            Some(json!({"advisor_ids": ["1", "2"], "advisors": [detail.clone(), detail]})),
        )];
        let page = page_after(&ranking("北京大学", &["张三", "李四"]), &calls);
        assert_eq!(page.current_page, PageKind::Compare);
        assert_eq!(page.visible_advisors.len(), 2);
        assert_eq!(page.ranking_filters, None);
    }

    #[test]
    fn where_the_student_is_reads_the_page_context() {
        assert_eq!(here(&PageContext::default()).path, "/");
        let h = here(&ranking("北京大学", &[]));
        assert_eq!(h.path, "/ranking");
        assert_eq!(h.ranking.unwrap().school, "北京大学");
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
