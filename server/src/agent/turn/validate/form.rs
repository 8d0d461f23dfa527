//! `update_form` checked: school and major become canonical names from the
//! catalog (an ambiguous one becomes a question with chips, a major the
//! school does not offer is dropped), and every other value is one the form
//! takes (`agent::form::values`).

use serde_json::{json, Map, Value};

use app::protocol::ToolCall;

use crate::agent::form::form_param;
use crate::agent::form::values::{degree_value, direction_value, preference_value, year_value};
use crate::agent::nlu::enrollment::current_year;
use crate::agent::tools::chip_call;
use crate::catalog::{Catalog, Resolution};

/// The fields of an `update_form` call that survive validation, chips for
/// an ambiguous school or major, and notes on what was dropped.
pub(super) fn form_params(
    catalog: &Catalog,
    raw: &Value,
    school_before: Option<&str>,
) -> (Map<String, Value>, Option<ToolCall>, Vec<String>) {
    let mut out = Map::new();
    let mut notes = Vec::new();
    let mut chips = None;
    let get = |k: &str| form_param(raw, k);
    let mut school_id = school_before
        .and_then(|s| catalog.resolve_school(s).found())
        .map(|s| s.id);
    if let Some(s) = get("school") {
        match catalog.resolve_school(s) {
            Resolution::Found(school) => {
                out.insert("school".into(), json!(school.name));
                school_id = Some(school.id);
            }
            Resolution::Ambiguous(list) => {
                chips = Some(chip_call(
                    &format!("你说的是哪所{}？", s),
                    list.iter().take(6).map(|x| x.name.clone()).collect(),
                    "school",
                ));
                notes.push(format!("学校“{s}”有歧义，改为提问"));
            }
            Resolution::Unknown => notes.push(format!("未收录的学校“{s}”，已忽略")),
        }
    }
    if let Some(m) = get("major") {
        let resolution = match school_id {
            Some(id) => catalog.resolve_major_at(id, m),
            None => catalog.resolve_major(m),
        };
        match resolution {
            Resolution::Found(major) => {
                let offered = school_id.is_none_or(|id| catalog.advisor_count(id, major.id) > 0);
                if offered {
                    out.insert("major".into(), json!(major.name));
                } else {
                    notes.push(format!("该校没有“{}”专业，已忽略", major.name));
                }
            }
            Resolution::Ambiguous(list) if chips.is_none() => {
                chips = Some(chip_call(
                    "你说的是哪个专业？",
                    list.iter().take(6).map(|x| x.name.clone()).collect(),
                    "major",
                ));
                notes.push(format!("专业“{m}”有歧义，改为提问"));
            }
            _ => notes.push(format!("未收录的专业“{m}”，已忽略")),
        }
    }
    if let Some(d) = get("research_direction").and_then(direction_value) {
        out.insert("research_direction".into(), json!(d));
    }
    let mut prefs = Map::new();
    for field in ["personality", "research_style", "funding"] {
        if let Some(v) = get(field) {
            match preference_value(field, v) {
                Some(v) => {
                    prefs.insert(field.into(), json!(v));
                }
                None => notes.push(format!("{field} 的取值“{v}”不在可选范围内，已忽略")),
            }
        }
    }
    if !prefs.is_empty() {
        out.insert("preferences".into(), Value::Object(prefs));
    }
    if let Some(v) = get("degree_type") {
        match degree_value(v) {
            Some(v) => {
                out.insert("degree_type".into(), json!(v));
            }
            None => notes.push(format!("学位类型“{v}”不在可选范围内，已忽略")),
        }
    }
    if let Some(v) = get("enrollment_year") {
        match year_value(v, current_year()) {
            Some(v) => {
                out.insert("enrollment_year".into(), json!(v));
            }
            None => notes.push(format!("入学年份“{v}”不合理，已忽略")),
        }
    }
    (out, chips, notes)
}
