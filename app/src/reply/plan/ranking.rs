//! The calls that lead to a ranking page: `update_ranking` (hand over the
//! list and open it), `recommend_advisors` (highlight, on the ranking they
//! belong to) and `get_statistics` (the ranking's overview). Pure.

use serde_json::Value;

use super::{filters, go, param, result, Here, Step};
use crate::model::{RankingPage, RecommendResult, SortKey};
use crate::pages::ranking_href;
use crate::protocol::ToolCall;

/// The id of the ranking page's overview heading (pages/ranking.rs).
const STATS_ID: &str = "ranking-stats-title";

pub(super) fn plan_ranking(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
    let Some(page) = result::<RankingPage>(call) else {
        // No usable result: still show the ranking the call names.
        if let (Some(school), Some(major)) = (param(call, "school"), param(call, "major")) {
            steps.push(Step::SetRecommendations(Vec::new()));
            let href = ranking_href(&school, &major, SortKey::Overall, 1);
            go(href, Some(filters(&school, &major)), here, steps);
        }
        return;
    };
    let href = ranking_href(&page.school, &page.major, page.sort, page.page);
    let ranking = Some(filters(&page.school, &page.major));
    // Already on that very URL: the page shows it, and a handed-over copy
    // would only linger until some later visit.
    let already = Here::after_navigating(&href, None).url == here.url;
    if !already {
        steps.push(Step::PutRanking(page));
    }
    steps.push(Step::SetRecommendations(Vec::new()));
    go(href, ranking, here, steps);
}

pub(super) fn plan_recommend(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
    let (school, major, advisors) = match result::<RecommendResult>(call) {
        Some(r) => (Some(r.school), Some(r.major), r.advisors),
        None => (param(call, "school"), param(call, "major"), Vec::new()),
    };
    if call.result.is_some() || !advisors.is_empty() {
        steps.push(Step::SetRecommendations(advisors));
    }
    let (Some(school), Some(major)) = (school, major) else {
        return;
    };
    let wanted = filters(&school, &major);
    if here.ranking.as_ref() != Some(&wanted) {
        go(
            ranking_href(&school, &major, SortKey::Overall, 1),
            Some(wanted),
            here,
            steps,
        );
    }
}

/// The figures of a school + major are on its ranking page: go there unless
/// it is on screen, and bring the overview into view.
pub(super) fn plan_statistics(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
    let name = |k: &str| {
        call.result
            .as_ref()
            .and_then(|r| r.get(k))
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| param(call, k))
    };
    let (Some(school), Some(major)) = (name("school"), name("major")) else {
        return;
    };
    let showing = here
        .ranking
        .as_ref()
        .is_some_and(|f| f.school == school && f.major == major);
    if !showing {
        let href = ranking_href(&school, &major, SortKey::Overall, 1);
        go(href, Some(filters(&school, &major)), here, steps);
    }
    steps.push(Step::ScrollTo(STATS_ID));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::plan;
    use super::*;
    use crate::reply::fixtures::{call, home, navigations, ranking_json, recommend_json};

    #[test]
    fn update_ranking_hands_over_the_page_clears_highlights_and_navigates() {
        let calls = [
            call("update_form", json!({"school": "北京大学"}), None),
            call(
                "update_ranking",
                json!({"school": "北京大学", "major": "计算机科学与技术"}),
                Some(ranking_json("北京大学", "计算机科学与技术")),
            ),
        ];
        let plan = plan(&calls, &home());
        assert_eq!(plan.steps.len(), 4);
        assert!(matches!(&plan.steps[0], Step::PutRanking(p) if p.advisors[0].name == "张三"));
        assert_eq!(plan.steps[1], Step::SetRecommendations(vec![]));
        assert_eq!(
            plan.steps[2],
            Step::OpenRanking(filters("北京大学", "计算机科学与技术"))
        );
        assert_eq!(
            plan.steps[3],
            Step::Navigate(ranking_href(
                "北京大学",
                "计算机科学与技术",
                SortKey::Overall,
                1
            ))
        );
        assert_eq!(plan.chips, None);
    }

    #[test]
    fn update_ranking_to_the_url_on_screen_hands_nothing_over() {
        let href = ranking_href("北京大学", "计算机科学与技术", SortKey::Overall, 1);
        let here = Here {
            path: "/ranking".into(),
            url: href,
            ranking: Some(filters("北京大学", "计算机科学与技术")),
        };
        let calls = [call(
            "update_ranking",
            json!({}),
            Some(ranking_json("北京大学", "计算机科学与技术")),
        )];
        assert_eq!(
            plan(&calls, &here).steps,
            vec![Step::SetRecommendations(vec![])]
        );
    }

    #[test]
    fn recommendations_after_a_ranking_in_the_same_reply_do_not_navigate_twice() {
        let calls = [
            call(
                "update_ranking",
                json!({}),
                Some(ranking_json("北京大学", "计算机科学与技术")),
            ),
            call(
                "recommend_advisors",
                json!({}),
                Some(recommend_json("北京大学", "计算机科学与技术")),
            ),
        ];
        let plan = plan(&calls, &home());
        assert_eq!(navigations(&plan).len(), 1);
        assert!(
            matches!(plan.steps.last(), Some(Step::SetRecommendations(list)) if list[0].id == "12345")
        );
    }

    #[test]
    fn recommendations_navigate_only_when_another_ranking_is_on_screen() {
        let calls = [call(
            "recommend_advisors",
            json!({}),
            Some(recommend_json("北京大学", "计算机科学与技术")),
        )];
        let on_it = Here {
            path: "/ranking".into(),
            url: "/ranking?school=%E5%8C%97%E5%A4%A7&major=CS&page=2".into(),
            ranking: Some(filters("北京大学", "计算机科学与技术")),
        };
        let stay = plan(&calls, &on_it);
        assert!(navigations(&stay).is_empty());
        assert_eq!(stay.steps.len(), 1);

        let elsewhere = Here {
            ranking: Some(filters("清华大学", "计算机科学与技术")),
            ..on_it
        };
        let moved = plan(&calls, &elsewhere);
        assert_eq!(
            navigations(&moved),
            vec![ranking_href("北京大学", "计算机科学与技术", SortKey::Overall, 1).as_str()]
        );
        // Its list comes with the page: until then the ranking is marked open.
        assert!(moved
            .steps
            .contains(&Step::OpenRanking(filters("北京大学", "计算机科学与技术"))));
    }

    #[test]
    fn statistics_go_to_the_ranking_overview() {
        let call = ToolCall {
            tool: "get_statistics".into(),
            params: json!({"school": "北京大学", "major": "计算机科学与技术"}),
            result: None,
        };
        let home = plan(
            std::slice::from_ref(&call),
            &Here::after_navigating("/", None),
        );
        // The ranking is open in the page context before its page loads.
        assert_eq!(
            home.steps[0],
            Step::OpenRanking(filters("北京大学", "计算机科学与技术"))
        );
        assert!(
            matches!(&home.steps[1], Step::Navigate(href) if href.starts_with("/ranking?school="))
        );
        assert_eq!(home.steps.last(), Some(&Step::ScrollTo(STATS_ID)));
        let on_it = Here::after_navigating(
            &ranking_href("北京大学", "计算机科学与技术", SortKey::Overall, 1),
            Some(filters("北京大学", "计算机科学与技术")),
        );
        assert_eq!(plan(&[call], &on_it).steps, vec![Step::ScrollTo(STATS_ID)]);
    }
}
