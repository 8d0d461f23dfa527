//! Chip clicks: the clicked value goes straight
//! into the form field the chips named — no planner, no model. A `general`
//! chip is sent on as if the student had typed it.

use serde_json::json;

use app::error::ApiError;
use app::protocol::{OptionClick, ToolCall, UserForm};

use super::form::values::{degree_value, direction_value, preference_value, year_value};
use super::tools::UPDATE_FORM;
use crate::catalog::{Catalog, Resolution};

#[derive(Clone, Debug, PartialEq)]
pub enum Chip {
    /// Set a form field.
    Update { field: String, call: ToolCall },
    /// "跳过": the optional field stays empty and is not asked again.
    Skip { field: String },
    /// A `general` chip: treat as typed text.
    Text(String),
}

fn refused() -> ApiError {
    ApiError::bad_request("invalid_option", "这个选项无法识别，请重新选择或直接输入。")
        .with_field("option")
}

pub fn interpret(
    click: &OptionClick,
    catalog: &Catalog,
    form: &UserForm,
) -> Result<Chip, ApiError> {
    let field = click.target_field.as_str();
    if field == "general" {
        return Ok(Chip::Text(click.values.join("、")));
    }
    let Some(first) = click.values.first() else {
        return Ok(Chip::Skip {
            field: field.to_string(),
        });
    };
    let value = match field {
        "school" => catalog
            .resolve_school(first)
            .found()
            .map(|s| s.name.clone()),
        "major" => {
            let school = form
                .school
                .as_deref()
                .and_then(|s| catalog.resolve_school(s).found());
            let resolved = match school {
                Some(s) => catalog.resolve_major_at(s.id, first),
                None => catalog.resolve_major(first),
            };
            match resolved {
                Resolution::Found(m)
                    if school.is_none_or(|s| catalog.advisor_count(s.id, m.id) > 0) =>
                {
                    Some(m.name.clone())
                }
                _ => None,
            }
        }
        "degree_type" => degree_value(first),
        "enrollment_year" => year_value(first, crate::agent::nlu::enrollment::current_year()),
        "research_direction" => {
            let parts: Vec<String> = click
                .values
                .iter()
                .filter_map(|v| direction_value(v))
                .collect();
            direction_value(&parts.join("、"))
        }
        "personality" | "research_style" | "funding" => preference_value(field, first),
        _ => None,
    }
    .ok_or_else(refused)?;
    let params = match field {
        "personality" | "research_style" | "funding" => json!({"preferences": {field: value}}),
        _ => json!({field: value}),
    };
    Ok(Chip::Update {
        field: field.to_string(),
        call: ToolCall {
            tool: UPDATE_FORM.into(),
            params,
            result: None,
        },
    })
}
