//! `validate`: every proposal — code's, a model's, a chip's — checked the
//! same way before anything runs: unknown tools dropped, school and major
//! made canonical names from the database (an ambiguous one becomes a
//! question with chips: [`form`]), preference values known ones, advisor
//! ids that exist ([`advisors`]), chips well formed. A tool the registry
//! marks `consequential` is kept only when code's speech-act verdict
//! authorised its action this turn: no planner performs one on
//! its own. Form values that are only someone else's, or that the student
//! negated, are taken out first, whichever planner proposed them.

mod advisors;
mod form;

use serde_json::{json, Map, Value};

use app::protocol::ToolCall;

use super::Turn;
use crate::agent::form::chips::{fitted_question, is_chip_field, MAX_CHIPS, MIN_CHIPS};
use crate::agent::tools::ToolRegistry;
use crate::agent::tools::{
    self, param, COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS, GET_PLACE_FACTS,
    GET_STATISTICS, PRESENT_OPTIONS, RECOMMEND_ADVISORS, UPDATE_FORM, UPDATE_RANKING,
};
use crate::catalog::Resolution;
use crate::site::Site;

/// What the step reads besides the turn: the tools as registered, and the
/// data every name and id is checked against.
pub(super) struct Deps<'a> {
    pub registry: &'a ToolRegistry,
    pub site: &'a Site,
}

/// Why a proposed call was changed or dropped (logged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Correction {
    pub tool: String,
    pub what: String,
}

impl Deps<'_> {
    pub(super) async fn run(&self, t: &mut Turn<'_>) {
        // The plan's focus and its place offer are remembered by `save`
        // (`Turn::memory_after`); what the plan cost is counted here.
        let (calls, tokens) = (t.plan().model_calls, t.plan().tokens);
        t.cost.spend(None, calls, tokens);
        let proposed = own_values_only(t.plan().tool_calls.clone(), &t.understood.foreign);
        let (calls, corrections) = self.checked(proposed, t).await;
        for c in &corrections {
            tracing::debug!(tool = %c.tool, what = %c.what, "proposal corrected");
        }
        t.proposed.checked = calls;
    }

    /// The proposed calls checked against the form as it stands before this
    /// turn, the page the student sees and the speech act's consent
    /// (`t.understood.authorised`). Returns the calls to keep and what was corrected.
    async fn checked(
        &self,
        proposed: Vec<ToolCall>,
        t: &Turn<'_>,
    ) -> (Vec<ToolCall>, Vec<Correction>) {
        let (form, page) = (t.form(), &t.input.page);
        let catalog = self.site.catalog();
        let mut kept = Vec::new();
        let mut corrections = Vec::new();
        let mut fix = |tool: &str, what: String| {
            corrections.push(Correction {
                tool: tool.to_string(),
                what,
            })
        };
        // The school a later call in this turn refers to, once update_form set it.
        // The school and the major as this turn's form update leaves them:
        // a ranking or a recommendation without its own names is for these.
        let mut school_now = form.school.clone();
        let mut major_now = form.major.clone();
        for call in proposed {
            let Some(spec) = self.registry.get(&call.tool) else {
                fix(&call.tool, "未注册的工具，已忽略".into());
                continue;
            };
            if spec.consequential
                && !spec
                    .action()
                    .is_some_and(|a| t.understood.authorised.contains(&a))
            {
                fix(&call.tool, "有后果的操作，学生没有明确要求，已忽略".into());
                continue;
            }
            match call.tool.as_str() {
                UPDATE_FORM => {
                    let (params, chips, notes) =
                        form::form_params(catalog, &call.params, school_now.as_deref());
                    for n in notes {
                        fix(UPDATE_FORM, n);
                    }
                    if let Some(s) = params.get("school").and_then(Value::as_str) {
                        school_now = Some(s.to_string());
                    }
                    if let Some(m) = params.get("major").and_then(Value::as_str) {
                        major_now = Some(m.to_string());
                    }
                    if !params.is_empty() {
                        kept.push(ToolCall {
                            tool: UPDATE_FORM.into(),
                            params: Value::Object(params),
                            result: None,
                        });
                    }
                    if let Some(c) = chips {
                        kept.push(c);
                    }
                }
                UPDATE_RANKING | RECOMMEND_ADVISORS | GET_STATISTICS => {
                    let school = param(&call, "school")
                        .map(str::to_string)
                        .or_else(|| school_now.clone());
                    let major = param(&call, "major")
                        .map(str::to_string)
                        .or_else(|| major_now.clone());
                    let resolved = school
                        .as_deref()
                        .and_then(|s| catalog.resolve_school(s).found())
                        .and_then(|s| {
                            let m = major.as_deref()?;
                            match catalog.resolve_major_at(s.id, m) {
                                Resolution::Found(m) if catalog.advisor_count(s.id, m.id) > 0 => {
                                    Some((s.name.clone(), m.name.clone()))
                                }
                                _ => None,
                            }
                        });
                    let Some((school, major)) = resolved else {
                        fix(&call.tool, "学校或专业无法确定，已忽略".into());
                        continue;
                    };
                    let mut params = call.params.as_object().cloned().unwrap_or_default();
                    params.insert("school".into(), json!(school));
                    params.insert("major".into(), json!(major));
                    kept.push(ToolCall {
                        tool: call.tool,
                        params: Value::Object(params),
                        result: None,
                    });
                }
                // A school or a major in general: canonical names, at least
                // one; nothing of the form is read or written.
                GET_PLACE_FACTS => {
                    let school = param(&call, "school")
                        .and_then(|s| catalog.resolve_school(s).found())
                        .map(|s| s.name.clone());
                    let major = param(&call, "major")
                        .and_then(|m| catalog.resolve_major(m).found())
                        .map(|m| m.name.clone());
                    if school.is_none() && major.is_none() {
                        fix(&call.tool, "学校和专业都无法确定，已忽略".into());
                        continue;
                    }
                    let topic = match param(&call, "topic") {
                        Some("jobs") => "jobs",
                        _ => "general",
                    };
                    kept.push(ToolCall {
                        tool: call.tool,
                        params: json!({"school": school, "major": major, "topic": topic}),
                        result: None,
                    });
                }
                GET_ADVISOR_DETAIL | GET_ADVISOR_REVIEWS => {
                    match advisors::advisor_ref(self.site, &call, page).await {
                        Some((id, name)) => {
                            let mut params = Map::new();
                            params.insert("advisor_id".into(), json!(id));
                            params.insert("advisor_name".into(), json!(name));
                            kept.push(ToolCall {
                                tool: call.tool,
                                params: Value::Object(params),
                                result: None,
                            });
                        }
                        None => fix(&call.tool, "导师 id 不存在，已忽略".into()),
                    }
                }
                COMPARE_ADVISORS => {
                    let advisors = advisors::compared(self.site, &call.params, page).await;
                    if (2..=4).contains(&advisors.len()) {
                        let (ids, names): (Vec<String>, Vec<String>) = advisors.into_iter().unzip();
                        kept.push(ToolCall {
                            tool: call.tool,
                            params: json!({"advisor_ids": ids, "advisor_names": names}),
                            result: None,
                        });
                    } else {
                        fix(
                            COMPARE_ADVISORS,
                            "可对比的导师不足 2 位或超过 4 位，已忽略".into(),
                        );
                    }
                }
                PRESENT_OPTIONS => match present_options(&call.params) {
                    Some(params) => kept.push(ToolCall {
                        tool: call.tool,
                        params,
                        result: None,
                    }),
                    None => fix(PRESENT_OPTIONS, "选项格式不正确，已忽略".into()),
                },
                _ => kept.push(call),
            }
        }
        (kept, corrections)
    }
}

/// `calls` with every `update_form` value in `foreign` (negated, or only
/// someone else's) taken out; a form update left empty is dropped.
fn own_values_only(calls: Vec<ToolCall>, foreign: &[String]) -> Vec<ToolCall> {
    if foreign.is_empty() {
        return calls;
    }
    let is_foreign = |v: &serde_json::Value| {
        v.as_str()
            .is_some_and(|s| foreign.iter().any(|f| f == s.trim()))
    };
    calls
        .into_iter()
        .filter_map(|mut call| {
            if call.tool != tools::UPDATE_FORM {
                return Some(call);
            }
            if let Some(params) = call.params.as_object_mut() {
                params.retain(|_, v| !is_foreign(v));
                if let Some(prefs) = params
                    .get_mut("preferences")
                    .and_then(|p| p.as_object_mut())
                {
                    prefs.retain(|_, v| !is_foreign(v));
                }
                if params.is_empty() {
                    return None;
                }
            }
            Some(call)
        })
        .collect()
}

/// Well-formed chip parameters: 2–4 distinct non-empty options of
/// at most 20 characters — where more are proposed, the first four, which a
/// proposer lists most likely first (a typed answer is still understood) —
/// a known target field, a question of 5–10 characters.
fn present_options(raw: &Value) -> Option<Value> {
    let mut options: Vec<String> = Vec::new();
    for o in raw.get("options")?.as_array()? {
        let o: String = o.as_str()?.trim().chars().take(20).collect();
        if !o.is_empty() && !options.contains(&o) {
            options.push(o);
        }
    }
    options.truncate(MAX_CHIPS);
    if options.len() < MIN_CHIPS {
        return None;
    }
    let target = raw
        .get("target_field")
        .and_then(Value::as_str)
        .unwrap_or("general");
    let target = if is_chip_field(target) {
        target
    } else {
        "general"
    };
    let question = fitted_question(
        raw.get("question")
            .and_then(Value::as_str)
            .unwrap_or_default(),
        target,
    );
    Some(json!({
        "question": question,
        "options": options,
        "target_field": target,
        "allow_skip": raw.get("allow_skip").and_then(Value::as_bool).unwrap_or(false),
        "multi_select": raw.get("multi_select").and_then(Value::as_bool).unwrap_or(false),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chips_are_bounded_and_deduplicated() {
        let ok = present_options(&json!({
            "question": "选学校", "options": ["北大", "北大", "清华", "", "复旦", "上交", "浙大", "南大", "中科大"],
            "target_field": "school"
        }))
        .unwrap();
        assert_eq!(ok["options"].as_array().unwrap().len(), MAX_CHIPS);
        assert_eq!(ok["options"][1], "清华");
        assert_eq!(
            ok["question"], "想考哪所学校？",
            "3 characters: the field's own"
        );
        assert_eq!(ok["allow_skip"], false);
        assert!(present_options(
            &json!({"question": "x", "options": ["只有一个"], "target_field": "school"})
        )
        .is_none());
        let general =
            present_options(&json!({"options": ["a", "b"], "target_field": "password"})).unwrap();
        assert_eq!(general["target_field"], "general");
        assert_eq!(general["question"], "你想选哪个？");
        let long = present_options(&json!({
            "question": "请问你比较希望导师是哪一种性格呢？", "options": ["温和", "严格"],
            "target_field": "personality"
        }))
        .unwrap();
        assert_eq!(long["question"], "希望导师怎样？");
        let fits = present_options(&json!({
            "question": "喜欢哪类导师？", "options": ["温和", "严格"], "target_field": "personality"
        }))
        .unwrap();
        assert_eq!(fits["question"], "喜欢哪类导师？");
    }
}
