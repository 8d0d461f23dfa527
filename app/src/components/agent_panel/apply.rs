//! Turning a reply's tool calls into what happens on the pages.
//!
//! Split in two so the decisions can be unit-tested without a browser:
//! [`plan`] is pure — it reads the tool calls and where the student is, and
//! returns a list of [`Step`]s plus the chips to show — and [`run`] performs
//! the steps against the [`AgentOverlay`] and the router. Every result is
//! taken from the reply itself: the pages are handed the data it carried and
//! never fetch it again.

use std::time::Duration;

use leptos::prelude::Set;
use serde_json::Value;

use crate::agent_state::AgentOverlay;
use crate::model::{
    AdvisorDetail, RankingPage, RecommendResult, RecommendedAdvisor, ReviewPage, ReviewsResult,
    SortKey,
};
use crate::page_context::PageContextStore;
use crate::pages::{encode, ranking_href};
use crate::protocol::{AgentEvent, RankingFilters, ToolCall};

/// Where the student is when a reply arrives, as far as the tool calls care.
/// [`plan`] moves it along as the reply navigates, so that a later call in the
/// same reply ("recommend on the ranking I just opened") sees the new page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Here {
    /// The path without query or hash, e.g. `/advisor/12345`.
    pub path: String,
    /// Path and query as the router holds them (`/ranking?school=…`), no hash.
    pub url: String,
    /// The ranking on screen (canonical names), when the page is a ranking.
    pub ranking: Option<RankingFilters>,
}

impl Here {
    /// The place an in-app link leads to: its path, and the link minus its hash.
    fn after_navigating(href: &str, ranking: Option<RankingFilters>) -> Here {
        let url = href.split('#').next().unwrap_or_default().to_string();
        let path = url.split('?').next().unwrap_or_default().to_string();
        Here { path, url, ranking }
    }
}

/// One effect of a reply on the pages, in the order the reply asked for it.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Hand a ranking to the ranking page the next navigation opens.
    PutRanking(RankingPage),
    /// Replace the highlighted recommendations (empty clears them).
    SetRecommendations(Vec<RecommendedAdvisor>),
    /// Hand an advisor's detail to the detail page the next navigation opens.
    PutDetail(Box<AdvisorDetail>),
    /// Hand a page of reviews to the detail page the next navigation opens.
    PutReviews(ReviewPage),
    /// The page context says this ranking is on screen from now on, its
    /// list still to come: on a slow network the student may speak before
    /// the page's code and data arrive, and means this ranking.
    OpenRanking(RankingFilters),
    /// Go to an in-app URL.
    Navigate(String),
    /// Scroll the element with this id into view once it exists.
    ScrollTo(&'static str),
    /// Keep the edit token of a review the coach just published.
    KeepEditToken { review_id: String, token: String },
}

/// A `present_options` call: the chips shown above the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChipSet {
    pub question: String,
    pub options: Vec<String>,
    /// The form field a click fills (`general` when it is not a form value).
    pub target_field: String,
    pub allow_skip: bool,
    pub multi_select: bool,
}

impl ChipSet {
    /// Reads the chips of a `present_options` call; `None` for any other call
    /// or when there is nothing to click.
    pub fn from_call(call: &ToolCall) -> Option<ChipSet> {
        if call.tool != "present_options" {
            return None;
        }
        let params = &call.params;
        let options: Vec<String> = params
            .get("options")?
            .as_array()?
            .iter()
            .filter_map(|o| match o {
                Value::String(s) => Some(s.trim().to_string()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .filter(|o| !o.is_empty())
            .collect();
        if options.is_empty() {
            return None;
        }
        let text = |key: &str| {
            params
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .trim()
                .to_string()
        };
        let flag = |key: &str| params.get(key).and_then(Value::as_bool).unwrap_or(false);
        let target_field = match text("target_field") {
            f if f.is_empty() => "general".to_string(),
            f => f,
        };
        Some(ChipSet {
            question: text("question"),
            options,
            target_field,
            allow_skip: flag("allow_skip"),
            multi_select: flag("multi_select"),
        })
    }
}

/// What a reply does to the pages: the steps, in order, and the chips that
/// replace the current ones (`None` clears them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub steps: Vec<Step>,
    pub chips: Option<ChipSet>,
}

/// Decides what the tool calls of one reply do, starting from `here`.
/// Calls whose result does not parse fall back to navigating by their params
/// (the page then fetches); unknown tools are ignored.
pub fn plan(calls: &[ToolCall], here: &Here) -> Plan {
    let mut here = here.clone();
    let mut out = Plan::default();
    for call in calls {
        match call.tool.as_str() {
            "update_ranking" => plan_ranking(call, &mut here, &mut out.steps),
            "recommend_advisors" => plan_recommend(call, &mut here, &mut out.steps),
            "get_advisor_detail" => plan_detail(call, &mut here, &mut out.steps),
            "get_advisor_reviews" => plan_reviews(call, &mut here, &mut out.steps),
            "compare_advisors" => plan_compare(call, &mut here, &mut out.steps),
            "get_statistics" => plan_statistics(call, &mut here, &mut out.steps),
            "submit_review" => plan_posted(call, &mut here, &mut out.steps),
            "present_options" => {
                if let Some(chips) = ChipSet::from_call(call) {
                    out.chips = Some(chips);
                }
            }
            // The form is shown from the reply's `form`, not from this call.
            "update_form" => {}
            _ => {}
        }
    }
    out
}

/// A notice as it is spoken: without its leading "[系统]" mark.
pub fn spoken_notice(message: &str) -> String {
    let trimmed = message.trim();
    match trimmed
        .strip_prefix('[')
        .and_then(|rest| rest.split_once(']'))
    {
        Some((_, after)) => after.trim().to_string(),
        None => trimmed.to_string(),
    }
}

/// The system lines a reply's events add to the conversation (a persona
/// switch, say): each event's `message`, in order.
pub fn event_messages(events: &[AgentEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| e.data.get("message").and_then(Value::as_str))
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect()
}

/// Parses a call's result into a model type, logging (not failing) when it does not fit.
fn result<T: serde::de::DeserializeOwned>(call: &ToolCall) -> Option<T> {
    let value = call.result.as_ref().filter(|v| !v.is_null())?;
    match serde_json::from_value(value.clone()) {
        Ok(parsed) => Some(parsed),
        Err(e) => {
            leptos::logging::warn!("{} 的结果无法解析：{e}", call.tool);
            None
        }
    }
}

/// A string (or number) param, trimmed; `None` when missing or empty.
fn param(call: &ToolCall, key: &str) -> Option<String> {
    let text = match call.params.get(key)? {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    (!text.is_empty()).then_some(text)
}

/// Navigates unless the student is already exactly there; returns whether it did.
fn go(
    href: String,
    ranking: Option<RankingFilters>,
    here: &mut Here,
    steps: &mut Vec<Step>,
) -> bool {
    let next = Here::after_navigating(&href, ranking);
    let moved = next.url != here.url;
    if moved {
        if let Some(filters) = &next.ranking {
            steps.push(Step::OpenRanking(filters.clone()));
        }
        steps.push(Step::Navigate(href));
    }
    *here = next;
    moved
}

fn filters(school: &str, major: &str) -> RankingFilters {
    RankingFilters {
        school: school.to_string(),
        major: major.to_string(),
    }
}

fn plan_ranking(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
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

fn plan_recommend(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
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

fn plan_detail(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
    let detail = result::<AdvisorDetail>(call);
    let Some(id) = detail
        .as_ref()
        .map(|d| d.id.clone())
        .or_else(|| param(call, "advisor_id"))
    else {
        return;
    };
    let href = format!("/advisor/{}", encode(&id));
    if here.path == href {
        return;
    }
    if let Some(detail) = detail {
        steps.push(Step::PutDetail(Box::new(detail)));
    }
    go(href, None, here, steps);
}

fn plan_reviews(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
    let reviews = result::<ReviewsResult>(call).map(|r| r.page);
    let Some(id) = reviews
        .as_ref()
        .map(|r| r.advisor_id.clone())
        .or_else(|| param(call, "advisor_id"))
    else {
        return;
    };
    let path = format!("/advisor/{}", encode(&id));
    if here.path != path {
        let page = reviews.as_ref().map(|r| r.page).unwrap_or(1);
        let href = if page > 1 {
            format!("{path}?page={page}#reviews")
        } else {
            format!("{path}#reviews")
        };
        if let Some(reviews) = reviews {
            steps.push(Step::PutReviews(reviews));
        }
        go(href, None, here, steps);
    }
    // The router scrolls to the hash only if the list is already rendered;
    // this catches the case where it renders a moment later.
    steps.push(Step::ScrollTo("reviews"));
}

fn plan_compare(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
    let ids_in = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .map(|ids| {
                ids.iter()
                    .filter_map(|id| match id {
                        Value::String(s) => Some(s.trim().to_string()),
                        Value::Number(n) => Some(n.to_string()),
                        _ => None,
                    })
                    .filter(|id| !id.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut ids = ids_in(call.result.as_ref().and_then(|r| r.get("advisor_ids")));
    if ids.is_empty() {
        ids = ids_in(call.params.get("advisor_ids"));
    }
    if ids.is_empty() {
        return;
    }
    let list = ids
        .iter()
        .map(|id| encode(id))
        .collect::<Vec<_>>()
        .join(",");
    go(format!("/compare?ids={list}"), None, here, steps);
}

/// The figures of a school + major are on its ranking page: go there unless
/// it is on screen, and bring the overview into view.
fn plan_statistics(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
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

/// A review the coach published: keep its edit token, show it on the
/// advisor's page.
fn plan_posted(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
    let Some(result) = call.result.as_ref() else {
        return;
    };
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let review = result.get("review");
    let review_id = text(review.and_then(|r| r.get("id")));
    let advisor_id = text(review.and_then(|r| r.get("advisor_id")))
        .or_else(|| text(call.params.get("advisor_id")));
    let (Some(review_id), Some(advisor_id)) = (review_id, advisor_id) else {
        return;
    };
    if let Some(token) = text(result.get("edit_token")) {
        steps.push(Step::KeepEditToken {
            review_id: review_id.clone(),
            token,
        });
    }
    let href = format!(
        "/advisor/{}?posted={}#review-{}",
        encode(&advisor_id),
        encode(&review_id),
        encode(&review_id)
    );
    go(href, None, here, steps);
}

/// The id of the ranking page's overview heading (pages/ranking.rs).
const STATS_ID: &str = "ranking-stats-title";

/// How long [`Step::ScrollTo`] keeps looking for an element that is still loading.
const SCROLL_RETRIES: u32 = 30;
const SCROLL_RETRY_MS: u64 = 100;

/// Performs the steps of a [`plan`] in order. `navigate` goes to an in-app URL
/// (the router's `use_navigate`, in the panel). What the reply hands over is
/// in the page context at once, before the page it opens has loaded.
pub fn run(
    steps: Vec<Step>,
    overlay: AgentOverlay,
    store: PageContextStore,
    navigate: impl Fn(&str),
) {
    for step in steps {
        match step {
            Step::PutRanking(page) => {
                store.show_ranking(&page);
                overlay.put_ranking(page)
            }
            Step::SetRecommendations(list) => overlay.recommendations.set(list),
            Step::PutDetail(detail) => {
                store.show_detail(&detail);
                overlay.put_detail(*detail)
            }
            Step::OpenRanking(filters) => store.open_ranking(filters),
            Step::PutReviews(page) => overlay.put_reviews(page),
            Step::Navigate(href) => navigate(&href),
            Step::ScrollTo(id) => scroll_into_view_soon(id, SCROLL_RETRIES),
            Step::KeepEditToken { review_id, token } => {
                super::storage::save_edit_token(&review_id, &token)
            }
        }
    }
}

/// Scrolls `#id` into view, waiting (briefly) for a page still loading to render it.
fn scroll_into_view_soon(id: &'static str, tries: u32) {
    let found = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id));
    match found {
        Some(el) => el.scroll_into_view(),
        None if tries > 0 => leptos::prelude::set_timeout(
            move || scroll_into_view_soon(id, tries - 1),
            Duration::from_millis(SCROLL_RETRY_MS),
        ),
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_notice_is_spoken_without_its_mark() {
        assert_eq!(
            spoken_notice("[系统] 已从分析模式切换到闲聊模式"),
            "已从分析模式切换到闲聊模式"
        );
        assert_eq!(spoken_notice("已切换"), "已切换");
    }

    fn call(tool: &str, params: Value, result: Option<Value>) -> ToolCall {
        ToolCall {
            tool: tool.to_string(),
            params,
            result,
        }
    }

    fn ranking_json(school: &str, major: &str) -> Value {
        json!({
            "school": school, "major": major, "sort": "overall", "page": 1, "per_page": 20, "total": 1,
            "advisors": [{
                "id": "12345", "name": "张三", "title": "教授", "rank": 1, "rating": 4.5, "score": 4.4,
                "review_count": 30, "top_tags": ["温和"], "directions": ["机器学习"]
            }]
        })
    }

    fn recommend_json(school: &str, major: &str) -> Value {
        json!({
            "school": school, "major": major,
            "advisors": [{
                "id": "12345", "name": "张三", "title": "教授", "rating": 4.5, "review_count": 30,
                "score": 92.0, "reasons": ["主要研究机器学习"], "directions": ["机器学习"]
            }]
        })
    }

    fn detail_json(id: &str) -> Value {
        json!({
            "id": id, "name": "张三", "title": "教授", "school": "北京大学", "major": "计算机科学与技术",
            "bio": "", "directions": ["机器学习"], "review_count": 0, "averages": null, "score": 4.0,
            "rank": 1, "rank_total": 42, "histogram": [0, 0, 0, 0, 0], "tags": []
        })
    }

    fn reviews_json(id: &str, page: u32) -> Value {
        json!({
            "count": 0, "advisor_id": id, "page": page, "per_page": 10, "total": 0, "average": null, "reviews": []
        })
    }

    fn home() -> Here {
        Here {
            path: "/".into(),
            url: "/".into(),
            ranking: None,
        }
    }

    fn navigations(plan: &Plan) -> Vec<&str> {
        plan.steps
            .iter()
            .filter_map(|s| match s {
                Step::Navigate(h) => Some(h.as_str()),
                _ => None,
            })
            .collect()
    }

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
    fn advisor_detail_is_handed_over_unless_already_open() {
        let calls = [call(
            "get_advisor_detail",
            json!({"advisor_id": "12345"}),
            Some(detail_json("12345")),
        )];
        let plan_home = plan(&calls, &home());
        assert!(matches!(&plan_home.steps[0], Step::PutDetail(d) if d.id == "12345"));
        assert_eq!(plan_home.steps[1], Step::Navigate("/advisor/12345".into()));

        let open = Here {
            path: "/advisor/12345".into(),
            url: "/advisor/12345".into(),
            ranking: None,
        };
        assert!(plan(&calls, &open).steps.is_empty());
    }

    #[test]
    fn reviews_navigate_to_the_anchor_or_scroll_when_on_the_page() {
        let calls = [call(
            "get_advisor_reviews",
            json!({"advisor_id": "12345"}),
            Some(reviews_json("12345", 1)),
        )];
        let from_home = plan(&calls, &home());
        assert!(matches!(&from_home.steps[0], Step::PutReviews(r) if r.advisor_id == "12345"));
        assert_eq!(
            from_home.steps[1],
            Step::Navigate("/advisor/12345#reviews".into())
        );
        assert_eq!(from_home.steps[2], Step::ScrollTo("reviews"));

        let open = Here {
            path: "/advisor/12345".into(),
            url: "/advisor/12345?page=2".into(),
            ranking: None,
        };
        assert_eq!(plan(&calls, &open).steps, vec![Step::ScrollTo("reviews")]);
    }

    #[test]
    fn detail_then_reviews_of_the_same_advisor_navigate_once() {
        let calls = [
            call("get_advisor_detail", json!({}), Some(detail_json("7"))),
            call("get_advisor_reviews", json!({}), Some(reviews_json("7", 1))),
        ];
        let plan = plan(&calls, &home());
        assert_eq!(navigations(&plan), vec!["/advisor/7"]);
        assert_eq!(plan.steps.last(), Some(&Step::ScrollTo("reviews")));
    }

    #[test]
    fn unparsable_results_fall_back_to_the_params() {
        let calls = [
            call(
                "get_advisor_detail",
                json!({"advisor_id": "9"}),
                Some(json!({"oops": true})),
            ),
            call(
                "update_ranking",
                json!({"school": "北京大学", "major": "软件工程"}),
                None,
            ),
        ];
        let plan = plan(&calls, &home());
        assert_eq!(
            navigations(&plan),
            vec![
                "/advisor/9".to_string(),
                ranking_href("北京大学", "软件工程", SortKey::Overall, 1)
            ]
        );
    }

    #[test]
    fn a_published_review_keeps_its_token_and_is_shown() {
        let call = ToolCall {
            tool: "submit_review".into(),
            params: json!({"advisor_id": "7", "advisor_name": "张三"}),
            result: Some(
                json!({"review": {"id": "42", "advisor_id": "7"}, "edit_token": "s3cret"}),
            ),
        };
        let steps = plan(&[call], &Here::after_navigating("/", None)).steps;
        assert_eq!(
            steps,
            vec![
                Step::KeepEditToken {
                    review_id: "42".into(),
                    token: "s3cret".into()
                },
                Step::Navigate("/advisor/7?posted=42#review-42".into()),
            ]
        );
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

    #[test]
    fn compare_goes_to_the_compare_page() {
        let calls = [call(
            "compare_advisors",
            json!({"advisor_ids": ["1", "2"]}),
            None,
        )];
        assert_eq!(
            plan(&calls, &home()).steps,
            vec![Step::Navigate("/compare?ids=1,2".into())]
        );
        let from_result = [call(
            "compare_advisors",
            json!({}),
            Some(json!({"advisor_ids": [3, 4], "advisors": []})),
        )];
        assert_eq!(
            plan(&from_result, &home()).steps,
            vec![Step::Navigate("/compare?ids=3,4".into())]
        );
    }

    #[test]
    fn options_become_chips_and_unknown_tools_are_ignored() {
        let calls = [
            call("switch_agent", json!({"agent_type": "casual"}), None),
            call(
                "present_options",
                json!({
                    "question": "你更看重导师哪一点？", "options": ["温和", "严格", "放养"],
                    "target_field": "personality", "allow_skip": true, "multi_select": true
                }),
                None,
            ),
        ];
        let plan = plan(&calls, &home());
        assert!(plan.steps.is_empty());
        assert_eq!(
            plan.chips,
            Some(ChipSet {
                question: "你更看重导师哪一点？".into(),
                options: vec!["温和".into(), "严格".into(), "放养".into()],
                target_field: "personality".into(),
                allow_skip: true,
                multi_select: true,
            })
        );
    }

    #[test]
    fn chips_default_to_general_single_select_and_need_options() {
        let chips = ChipSet::from_call(&call(
            "present_options",
            json!({"options": ["北京大学", "清华大学"]}),
            None,
        ));
        let chips = chips.expect("chips");
        assert_eq!(chips.target_field, "general");
        assert!(!chips.multi_select && !chips.allow_skip);
        assert_eq!(
            ChipSet::from_call(&call("present_options", json!({"options": []}), None)),
            None
        );
    }

    #[test]
    fn events_with_a_message_become_system_lines() {
        let events: Vec<AgentEvent> = serde_json::from_value(json!([
            {"type": "agent_switched", "from": "casual", "to": "analysis", "message": "[系统] 已从闲聊模式切换到分析模式"},
            {"type": "silent"}
        ]))
        .expect("events");
        assert_eq!(
            event_messages(&events),
            vec!["[系统] 已从闲聊模式切换到分析模式"]
        );
    }
}
