//! The tool registry and the executor. Tools are declared once, in
//! `prompts/tools.json` (name, description, JSON-schema parameters): the
//! embedded planner proposes them by name, a language model gets them as
//! function definitions, and validation drops anything not registered. A new
//! tool is a registry entry plus an arm in [`Executor::execute`], never a new
//! intent.
//!
//! A tool marked `"consequential": true` (resetting the form, publishing a
//! review — anything the student could not take back) names its `action` in
//! `server/lexicons/actions.txt`; validation keeps a call of it only when
//! code's speech-act verdict authorised that action this turn. A
//! tool with `"planner": false` is reported by code (the review coach's
//! `submit_review`) and never offered to a language model.
//!
//! It is also where the calls and results code builds and reads have their
//! names and shapes — the tool-name constants, [`param`], [`chip_call`] and
//! [`PlaceResult`] — so the modules that plan, check, answer and narrate
//! (`validate`, `about_place`, `turn/narrate.rs`, the planners) all import them from
//! here, and this module imports none of those.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use app::error::ApiError;
use app::model::{ReviewsResult, SortKey};
use app::protocol::ToolCall;

use super::recommend::{self, Candidate, Recommender, Wanted};
use crate::catalog::Resolution;
use app::protocol::ToolName;

use crate::places::PlaceFacts;
use crate::site::Site;
use crate::speech_act::Action;

const TOOLS: &str = include_str!("../../../prompts/tools.json");

// The tools' wire names, from the protocol's one list (`app::protocol::ToolName`).
pub const UPDATE_FORM: &str = ToolName::UpdateForm.as_str();
pub const UPDATE_RANKING: &str = ToolName::UpdateRanking.as_str();
pub const RECOMMEND_ADVISORS: &str = ToolName::RecommendAdvisors.as_str();
pub const GET_ADVISOR_DETAIL: &str = ToolName::GetAdvisorDetail.as_str();
pub const GET_ADVISOR_REVIEWS: &str = ToolName::GetAdvisorReviews.as_str();
pub const PRESENT_OPTIONS: &str = ToolName::PresentOptions.as_str();
pub const COMPARE_ADVISORS: &str = ToolName::CompareAdvisors.as_str();
pub const GET_STATISTICS: &str = ToolName::GetStatistics.as_str();
pub const GET_PLACE_FACTS: &str = ToolName::GetPlaceFacts.as_str();
pub const RESET_FORM: &str = ToolName::ResetForm.as_str();

/// One registered tool.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: Value,
    /// Performed only on code's speech-act verdict for `action`.
    #[serde(default)]
    pub consequential: bool,
    /// The key of the action in actions.txt.
    #[serde(default)]
    pub action: Option<String>,
    /// Offered to a language model as a function (default).
    #[serde(default = "offered")]
    pub planner: bool,
}

fn offered() -> bool {
    true
}

impl ToolSpec {
    /// The consequential action this tool performs, if any.
    pub fn action(&self) -> Option<Action> {
        self.action.as_deref().and_then(Action::from_key)
    }
}

#[derive(Clone, Debug)]
pub struct ToolRegistry {
    specs: Vec<ToolSpec>,
    /// The tools' names, which a reply never speaks (`voice::clean`).
    names: Vec<String>,
}

impl ToolRegistry {
    /// The tools shipped in `prompts/tools.json`.
    pub fn load() -> ToolRegistry {
        let specs: Vec<ToolSpec> =
            serde_json::from_str(TOOLS).expect("prompts/tools.json is valid (checked by a test)");
        let names = specs.iter().map(|s| s.name.clone()).collect();
        ToolRegistry { specs, names }
    }

    /// Every tool's name, in the registry's order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn get(&self, name: &str) -> Option<&ToolSpec> {
        self.specs.iter().find(|s| s.name == name)
    }

    pub fn specs(&self) -> &[ToolSpec] {
        &self.specs
    }

    /// The tools a planner may propose (those a model is offered).
    pub fn planner_specs(&self) -> impl Iterator<Item = &ToolSpec> {
        self.specs.iter().filter(|s| s.planner)
    }

    /// The tools in the shape of OpenAI-compatible function calling.
    pub fn function_definitions(&self) -> Value {
        Value::Array(
            self.planner_specs()
                .map(|s| {
                    json!({"type": "function", "function": {
                        "name": s.name, "description": s.description, "parameters": s.parameters
                    }})
                })
                .collect(),
        )
    }
}

/// A string parameter of a call.
pub fn param<'a>(call: &'a ToolCall, key: &str) -> Option<&'a str> {
    call.params
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A `present_options` call.
pub fn chip_call(question: &str, options: Vec<String>, target_field: &str) -> ToolCall {
    ToolCall {
        tool: PRESENT_OPTIONS.into(),
        params: json!({
            "question": question,
            "options": options,
            "target_field": target_field,
            "allow_skip": false,
            "multi_select": false,
        }),
        result: None,
    }
}

/// The `get_place_facts` result as the tool returns it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlaceResult {
    #[serde(default)]
    pub school: Option<String>,
    #[serde(default)]
    pub city: Option<String>,
    #[serde(default)]
    pub tier: Option<String>,
    #[serde(default)]
    pub major: Option<String>,
    #[serde(default)]
    pub topic: String,
    #[serde(flatten)]
    pub facts: PlaceFacts,
}

/// Runs validated tool calls against the database and returns their results.
pub struct Executor<'a> {
    pub site: &'a Site,
    pub recommender: &'a Recommender,
    /// The pair versions the turn has read (`site::PairVersions`).
    pub versions: &'a crate::site::PairVersions,
}

impl Executor<'_> {
    /// The result of one call; `None` for tools whose effect is on the page
    /// only (`update_form`, `present_options`).
    pub async fn execute(&self, call: &ToolCall) -> Result<Option<Value>, ApiError> {
        let to_value = |v: Result<Value, serde_json::Error>| {
            v.map(Some)
                .map_err(|_| ApiError::unavailable("结果无法序列化"))
        };
        match call.tool.as_str() {
            UPDATE_RANKING => {
                let (school, major) = self.school_and_major(call)?;
                let page = self
                    .site
                    .ranking_page_in(school, major, SortKey::Overall, 1, self.versions)
                    .await?;
                to_value(serde_json::to_value(page))
            }
            RECOMMEND_ADVISORS => {
                let (school, major) = self.school_and_major(call)?;
                let prefs = call
                    .params
                    .get("preferences")
                    .cloned()
                    .unwrap_or(Value::Null);
                let get = |k: &str| prefs.get(k).and_then(Value::as_str).map(str::to_string);
                let wanted = Wanted {
                    direction: get("research_direction"),
                    personality: get("personality"),
                    style: get("research_style"),
                    funding: get("funding"),
                    degree: get("degree_type"),
                };
                let want = wanted.direction.as_deref();
                let max = recommend::MAX_CANDIDATES;
                let facts = self
                    .site
                    .candidate_facts(
                        (school.id, major.id),
                        max,
                        want,
                        self.versions,
                        |top, directory| {
                            recommend::shortlist(top, &directory.directions, want, max)
                        },
                    )
                    .await?;
                let empty: Vec<String> = Vec::new();
                let no_tags = Vec::new();
                let candidates: Vec<Candidate<'_>> = facts
                    .rows
                    .iter()
                    .map(|row| Candidate {
                        row,
                        directions: facts.directions.get(&row.id).unwrap_or(&empty),
                        tags: facts.tags.get(&row.id).unwrap_or(&no_tags),
                    })
                    .collect();
                let result = self.recommender.recommend(
                    &school.name,
                    &major.name,
                    &candidates,
                    &wanted,
                    &facts.priors,
                );
                to_value(serde_json::to_value(result))
            }
            GET_ADVISOR_DETAIL => {
                let id = param(call, "advisor_id").unwrap_or_default();
                let detail =
                    self.site.advisor_detail(id).await?.ok_or_else(|| {
                        ApiError::not_found("unknown_advisor", "没有找到这位导师。")
                    })?;
                to_value(serde_json::to_value(detail))
            }
            GET_ADVISOR_REVIEWS => {
                let id = param(call, "advisor_id").unwrap_or_default();
                let page = self
                    .site
                    .reviews(id, &app::model::ReviewQuery::first(1), None)
                    .await?
                    .ok_or_else(|| ApiError::not_found("unknown_advisor", "没有找到这位导师。"))?;
                to_value(serde_json::to_value(ReviewsResult {
                    count: page.total,
                    page,
                }))
            }
            COMPARE_ADVISORS => {
                let ids: Vec<String> = call
                    .params
                    .get("advisor_ids")
                    .and_then(Value::as_array)
                    .map(|ids| {
                        ids.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default();
                let comparison = self.site.compare(&ids).await?;
                let mut result = serde_json::to_value(&comparison)
                    .map_err(|_| ApiError::unavailable("结果无法序列化"))?;
                result["advisor_ids"] = json!(comparison
                    .advisors
                    .iter()
                    .map(|a| a.id.clone())
                    .collect::<Vec<_>>());
                Ok(Some(result))
            }
            GET_STATISTICS => {
                let (school, major) = self.school_and_major(call)?;
                let stats = self.site.ranking_stats(school, major).await?;
                let mut result = serde_json::to_value(stats)
                    .map_err(|_| ApiError::unavailable("结果无法序列化"))?;
                result["school"] = json!(school.name);
                result["major"] = json!(major.name);
                Ok(Some(result))
            }
            GET_PLACE_FACTS => {
                let catalog = self.site.catalog();
                let school = param(call, "school").and_then(|s| catalog.resolve_school(s).found());
                let major = param(call, "major").and_then(|m| match school {
                    Some(s) => catalog.resolve_major_at(s.id, m).found(),
                    None => catalog.resolve_major(m).found(),
                });
                if school.is_none() && major.is_none() {
                    return Err(ApiError::bad_request("invalid_tool_call", "缺少学校或专业"));
                }
                let facts = self.site.place_facts(school, major).await?;
                let result = PlaceResult {
                    school: school.map(|s| s.name.clone()),
                    city: school.map(|s| s.city.clone()),
                    tier: school.map(|s| s.tier.clone()),
                    major: major.map(|m| m.name.clone()),
                    topic: param(call, "topic").unwrap_or("general").to_string(),
                    facts,
                };
                to_value(serde_json::to_value(result))
            }
            // The form was emptied by code's own reset, on the verdict that
            // authorised this call: nothing is left to do.
            RESET_FORM => Ok(None),
            _ => Ok(None),
        }
    }

    fn school_and_major(
        &self,
        call: &ToolCall,
    ) -> Result<(&crate::catalog::SchoolEntry, &crate::catalog::MajorEntry), ApiError> {
        let catalog = self.site.catalog();
        let school = param(call, "school")
            .and_then(|s| catalog.resolve_school(s).found())
            .ok_or_else(|| ApiError::bad_request("invalid_tool_call", "缺少学校"))?;
        let major = match param(call, "major").map(|m| catalog.resolve_major_at(school.id, m)) {
            Some(Resolution::Found(m)) => m,
            _ => return Err(ApiError::bad_request("invalid_tool_call", "缺少专业")),
        };
        Ok((school, major))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry the model is offered and the protocol's list of tools
    /// the panel applies are the same tools, by the same names.
    #[test]
    fn the_registry_and_the_protocols_tool_names_are_one_list() {
        let registry = ToolRegistry::load();
        let registered: Vec<&str> = registry.specs().iter().map(|s| s.name.as_str()).collect();
        let named: Vec<&str> = ToolName::ALL.iter().map(|t| t.as_str()).collect();
        assert_eq!(registered, named);
        for name in registered {
            assert_eq!(ToolName::parse(name).map(ToolName::as_str), Some(name));
        }
        assert_eq!(ToolName::parse("switch_agent"), None);
    }

    #[test]
    fn the_registry_parses_and_every_tool_has_a_schema_and_a_description() {
        let registry = ToolRegistry::load();
        for name in [
            UPDATE_FORM,
            UPDATE_RANKING,
            RECOMMEND_ADVISORS,
            GET_ADVISOR_DETAIL,
            GET_ADVISOR_REVIEWS,
            PRESENT_OPTIONS,
            COMPARE_ADVISORS,
            GET_STATISTICS,
            GET_PLACE_FACTS,
        ] {
            let spec = registry
                .get(name)
                .unwrap_or_else(|| panic!("{name} registered"));
            assert!(
                spec.description.chars().count() > 20,
                "{name} needs a real description"
            );
            assert_eq!(spec.parameters["type"], "object");
        }
        assert!(registry.get("delete_everything").is_none());
        // Consequential tools name an action the speech-act step knows.
        let consequential: Vec<&ToolSpec> = registry
            .specs()
            .iter()
            .filter(|s| s.consequential)
            .collect();
        assert!(consequential.len() >= 2);
        for spec in consequential {
            assert!(spec.action().is_some(), "{} names its action", spec.name);
        }
        assert!(registry.get(RESET_FORM).is_some_and(|s| s.planner));
        assert!(registry.get("submit_review").is_some_and(|s| !s.planner));
        assert!(registry
            .specs()
            .iter()
            .filter(|s| !s.consequential)
            .all(|s| s.action.is_none()));
        let defs = registry.function_definitions();
        assert_eq!(defs[0]["type"], "function");
        assert!(defs.as_array().unwrap().len() >= 6);
    }
}
