//! The pure half of applying a reply: what its tool calls do to the pages,
//! decided without a browser so it can be unit-tested. This file holds the
//! vocabulary ([`Here`], [`Step`], [`Plan`]), the loop over the calls and
//! the helpers every call shares; one file per page a call leads to holds
//! what that call decides (`ranking`, `advisor`, `compare`).

mod advisor;
mod compare;
mod ranking;

use serde_json::Value;

use super::chips::ChipSet;
use crate::model::{AdvisorDetail, RankingPage, RecommendedAdvisor, ReviewPage};
use crate::protocol::{RankingFilters, ToolCall, ToolName};

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
        let Some(tool) = call.name() else { continue };
        match tool {
            ToolName::UpdateRanking => ranking::plan_ranking(call, &mut here, &mut out.steps),
            ToolName::RecommendAdvisors => ranking::plan_recommend(call, &mut here, &mut out.steps),
            ToolName::GetAdvisorDetail => advisor::plan_detail(call, &mut here, &mut out.steps),
            ToolName::GetAdvisorReviews => advisor::plan_reviews(call, &mut here, &mut out.steps),
            ToolName::CompareAdvisors => compare::plan_compare(call, &mut here, &mut out.steps),
            ToolName::GetStatistics => ranking::plan_statistics(call, &mut here, &mut out.steps),
            ToolName::SubmitReview => advisor::plan_posted(call, &mut here, &mut out.steps),
            ToolName::PresentOptions => {
                if let Some(chips) = ChipSet::from_call(call) {
                    out.chips = Some(chips);
                }
            }
            // The form is shown from the reply's `form`, not from this call;
            // a school or major's facts and a reset change no page.
            ToolName::UpdateForm | ToolName::GetPlaceFacts | ToolName::ResetForm => {}
        }
    }
    out
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
pub(super) fn param(call: &ToolCall, key: &str) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::fixtures::{call, home, navigations};
    use super::*;
    use crate::model::SortKey;
    use crate::pages::ranking_href;

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
}
