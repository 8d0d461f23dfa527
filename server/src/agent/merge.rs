//! Code's plan and a model's proposal made into one plan (代码掌舵，AI 划桨:
//! code steers, the model rows). Understanding always runs: the embedded
//! planner plans every turn from the code's analysis, with or without a
//! model, and the model proposes only what code left open. The rules, in
//! code:
//!
//! - **Form values**: what code understood this turn is kept. The model may
//!   fill a field that is empty both in the form and in code's update (made
//!   canonical by validation like any value); it never erases or overwrites
//!   one. So "我想考北京大学计算机系" fills the form when the model says nothing.
//! - **Data calls** (ranking, recommendation, an advisor's details or
//!   reviews, a comparison, statistics): where code knows the act, code's
//!   calls are the turn's and the model's are dropped; where code has none,
//!   the model's stand (validation still checks them).
//! - **Chips**: code's when it has some (an ambiguous name), else the model's.
//! - **Words**: code's wherever code understood the turn (its replies come
//!   from the data and the templates); the model's where code only had its
//!   generic fallback — and not when code fetched data the model did not ask
//!   for. A model reply is further checked against the results once they
//!   exist ([`super::facts`]).

use serde_json::{Map, Value};

use app::protocol::{ToolCall, UserForm};

use super::form;
use super::planner::Plan;
use super::tools::{
    COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS, GET_PLACE_FACTS, GET_STATISTICS,
    PRESENT_OPTIONS, RECOMMEND_ADVISORS, UPDATE_FORM, UPDATE_RANKING,
};

/// Tools whose results are facts about advisors or a ranking.
const DATA_TOOLS: &[&str] = &[
    UPDATE_RANKING,
    RECOMMEND_ADVISORS,
    GET_ADVISOR_DETAIL,
    GET_ADVISOR_REVIEWS,
    COMPARE_ADVISORS,
    GET_STATISTICS,
    GET_PLACE_FACTS,
];

fn is_data(call: &ToolCall) -> bool {
    DATA_TOOLS.contains(&call.tool.as_str())
}

/// The merged plan, and whether its words are the model's (then the facts
/// check applies to them once the tools ran).
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    pub plan: Plan,
    pub model_words: bool,
    /// What code said this turn: the words to use when the model's claim
    /// more than the data holds (empty: narrate the results).
    pub code_voice: String,
}

/// `code`'s plan with what `model` adds where code left it open; `form` is
/// the form before this turn.
pub fn merge(code: Plan, model: Plan, form: &UserForm) -> Merged {
    let mut fields = Map::new();
    for call in code.tool_calls.iter().filter(|c| c.tool == UPDATE_FORM) {
        if let Some(obj) = call.params.as_object() {
            merge_fields(&mut fields, obj);
        }
    }
    let code_fields = fields.clone();
    for call in model.tool_calls.iter().filter(|c| c.tool == UPDATE_FORM) {
        if let Some(obj) = call.params.as_object() {
            fill_open(&mut fields, &code_fields, obj, form);
        }
    }

    let code_data: Vec<&ToolCall> = code.tool_calls.iter().filter(|c| is_data(c)).collect();
    let data: Vec<ToolCall> = if code_data.is_empty() {
        model
            .tool_calls
            .iter()
            .filter(|c| is_data(c))
            .cloned()
            .collect()
    } else {
        code_data.iter().map(|c| (*c).clone()).collect()
    };
    let code_chips: Vec<&ToolCall> = code
        .tool_calls
        .iter()
        .filter(|c| c.tool == PRESENT_OPTIONS)
        .collect();
    let chips: Vec<ToolCall> = if code_chips.is_empty() {
        model
            .tool_calls
            .iter()
            .filter(|c| c.tool == PRESENT_OPTIONS)
            .cloned()
            .collect()
    } else {
        code_chips.into_iter().cloned().collect()
    };
    // Anything else (a consequential tool) is the model's proposal; the
    // speech-act verdict decides in validation.
    let others = model
        .tool_calls
        .iter()
        .filter(|c| c.tool != UPDATE_FORM && c.tool != PRESENT_OPTIONS && !is_data(c))
        .cloned();

    let mut calls = Vec::new();
    if !fields.is_empty() {
        calls.push(ToolCall {
            tool: UPDATE_FORM.into(),
            params: Value::Object(fields),
            result: None,
        });
    }
    calls.extend(data);
    calls.extend(others);
    calls.extend(chips);

    // Code's words stand wherever code understood the turn — they come from
    // the data and the templates; the model speaks where code only had its
    // generic fallback, and not when it spoke without the data code fetched.
    let unasked = code_data
        .iter()
        .any(|c| !model.tool_calls.iter().any(|m| m.tool == c.tool));
    let model_words = !model.voice_response.trim().is_empty() && !unasked && code.open_ended;
    let voice = if model_words {
        model.voice_response
    } else {
        code.voice_response.clone()
    };
    Merged {
        plan: Plan {
            voice_response: voice,
            tool_calls: calls,
            focus: code.focus.or(model.focus),
            about_form: code.about_form || model.about_form,
            open: code.open.or(model.open),
            open_ended: code.open_ended && model.tool_calls.is_empty(),
            offer: code.offer,
            model_calls: model.model_calls,
            tokens: model.tokens,
        },
        model_words,
        code_voice: code.voice_response,
    }
}

/// `into` ← `from`, nested `preferences` merged key by key.
fn merge_fields(into: &mut Map<String, Value>, from: &Map<String, Value>) {
    for (k, v) in from {
        match (into.get_mut(k), v) {
            (Some(Value::Object(have)), Value::Object(more)) => {
                for (pk, pv) in more {
                    have.insert(pk.clone(), pv.clone());
                }
            }
            _ => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

/// The model's form values that fill a field open in the form and in
/// code's update; empty values (an erase) are never taken.
fn fill_open(
    into: &mut Map<String, Value>,
    code: &Map<String, Value>,
    model: &Map<String, Value>,
    form: &UserForm,
) {
    let open = |field: &str| form::field_value(form, field).is_none() && !has_field(code, field);
    for (k, v) in model {
        if k == "preferences" {
            let Some(prefs) = v.as_object() else { continue };
            for (pk, pv) in prefs {
                if non_empty(pv) && open(pk) {
                    let entry = into
                        .entry("preferences")
                        .or_insert_with(|| Value::Object(Map::new()));
                    if let Some(obj) = entry.as_object_mut() {
                        obj.insert(pk.clone(), pv.clone());
                    }
                }
            }
        } else if non_empty(v) && open(k) {
            into.insert(k.clone(), v.clone());
        }
    }
}

fn non_empty(v: &Value) -> bool {
    match v {
        Value::String(s) => !s.trim().is_empty(),
        Value::Number(_) => true,
        _ => false,
    }
}

/// Whether code's update names `field` (preferences nested or not).
fn has_field(fields: &Map<String, Value>, field: &str) -> bool {
    fields.contains_key(field)
        || fields
            .get("preferences")
            .and_then(Value::as_object)
            .is_some_and(|p| p.contains_key(field))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(tool: &str, params: Value) -> ToolCall {
        ToolCall {
            tool: tool.into(),
            params,
            result: None,
        }
    }

    fn plan(voice: &str, calls: Vec<ToolCall>) -> Plan {
        Plan {
            voice_response: voice.into(),
            tool_calls: calls,
            ..Plan::default()
        }
    }

    fn form_of(merged: &Merged) -> Value {
        merged
            .plan
            .tool_calls
            .iter()
            .find(|c| c.tool == UPDATE_FORM)
            .map(|c| c.params.clone())
            .unwrap_or(Value::Null)
    }

    #[test]
    fn what_code_understood_is_kept_when_the_model_says_nothing() {
        let code = plan(
            "好的，北京大学计算机系。",
            vec![call(
                UPDATE_FORM,
                json!({"school": "北京大学", "major": "计算机科学与技术"}),
            )],
        );
        let m = merge(code, plan("", vec![]), &UserForm::default());
        assert_eq!(form_of(&m)["school"], "北京大学");
        assert_eq!(form_of(&m)["major"], "计算机科学与技术");
        assert!(!m.model_words);
        assert_eq!(m.plan.voice_response, "好的，北京大学计算机系。");
    }

    #[test]
    fn the_model_fills_open_fields_and_never_erases_or_overwrites() {
        let code = plan("", vec![call(UPDATE_FORM, json!({"school": "北京大学"}))]);
        let model = plan(
            "好的。",
            vec![call(
                UPDATE_FORM,
                json!({"school": "清华大学", "major": "计算机", "research_direction": "",
                       "degree_type": "学硕", "preferences": {"personality": "温和", "funding": null}}),
            )],
        );
        let form = UserForm {
            degree_type: Some("专硕".into()),
            ..UserForm::default()
        };
        let m = merge(code, model, &form);
        let f = form_of(&m);
        assert_eq!(f["school"], "北京大学", "code's value stays");
        assert_eq!(f["major"], "计算机", "an open field is filled");
        assert!(f.get("research_direction").is_none(), "no erasing");
        assert!(f.get("degree_type").is_none(), "the form's value stays");
        assert_eq!(f["preferences"], json!({"personality": "温和"}));
        assert!(!m.model_words, "code understood the turn: its words");
    }

    #[test]
    fn code_decides_the_data_call_where_it_knows_the_act() {
        let code = plan(
            "",
            vec![call(
                GET_ADVISOR_REVIEWS,
                json!({"advisor_id": "7", "advisor_name": "张三"}),
            )],
        );
        let model = plan(
            "这个导师的评价是优秀的，他的学生评价非常好。",
            vec![call(GET_ADVISOR_DETAIL, json!({"advisor_id": "9"}))],
        );
        let m = merge(code, model, &UserForm::default());
        let tools: Vec<&str> = m.plan.tool_calls.iter().map(|c| c.tool.as_str()).collect();
        assert_eq!(tools, [GET_ADVISOR_REVIEWS]);
        assert_eq!(m.plan.tool_calls[0].params["advisor_id"], "7");
        assert!(!m.model_words, "the model spoke without the reviews");
        assert_eq!(m.plan.voice_response, "", "code narrates the results");
    }

    #[test]
    fn where_code_has_no_data_call_the_models_stand_and_so_do_its_words() {
        let model = plan(
            "我推荐这几位导师。",
            vec![
                call(RECOMMEND_ADVISORS, json!({})),
                call(PRESENT_OPTIONS, json!({})),
            ],
        );
        // Code only had its generic fallback.
        let fallback = Plan {
            open_ended: true,
            ..plan("我可以帮你按学校和专业找导师。", vec![])
        };
        let m = merge(fallback, model, &UserForm::default());
        let tools: Vec<&str> = m.plan.tool_calls.iter().map(|c| c.tool.as_str()).collect();
        assert_eq!(tools, [RECOMMEND_ADVISORS, PRESENT_OPTIONS]);
        assert!(m.model_words);
        assert_eq!(m.plan.voice_response, "我推荐这几位导师。");
        // Code's chips win over the model's.
        let code = plan(
            "",
            vec![call(PRESENT_OPTIONS, json!({"target_field": "school"}))],
        );
        let model = plan(
            "",
            vec![call(PRESENT_OPTIONS, json!({"target_field": "major"}))],
        );
        let m = merge(code, model, &UserForm::default());
        assert_eq!(m.plan.tool_calls.len(), 1);
        assert_eq!(m.plan.tool_calls[0].params["target_field"], "school");
    }
}
