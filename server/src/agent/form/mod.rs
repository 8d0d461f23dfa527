//! The student's form as the agent reads and writes it: one field's value
//! by its name, a field set or cleared, an `update_form` call applied, the
//! phase its gaps decide ([`phase()`]), the values it takes
//! ([`values`]) and what chips about it may be ([`chips`]). A library of the whole
//! agent: the planners ask the phase, the read-back and the merge read
//! fields, the `understand` step takes negated values out, and the `steer`
//! step applies the turn's update (`turn/steer/`).

pub mod chips;
mod phase;
pub mod values;

use serde_json::Value;

use app::protocol::UserForm;
use app::vocabulary::FORM_FIELDS;

pub use self::phase::{phase, Phase};
use crate::catalog::{Catalog, MajorEntry, SchoolEntry};

/// The form's school and major as catalog entries, where they resolve.
pub fn catalog_pair<'c>(
    catalog: &'c Catalog,
    form: &UserForm,
) -> (Option<&'c SchoolEntry>, Option<&'c MajorEntry>) {
    (
        form.school
            .as_deref()
            .and_then(|s| catalog.resolve_school(s).found()),
        form.major
            .as_deref()
            .and_then(|m| catalog.resolve_major(m).found()),
    )
}

/// One form field's value by its name (preferences by their own name).
pub fn field_value<'a>(form: &'a UserForm, field: &str) -> Option<&'a str> {
    match field {
        "school" => form.school.as_deref(),
        "major" => form.major.as_deref(),
        "research_direction" => form.research_direction.as_deref(),
        "personality" => form.preferences.personality.as_deref(),
        "research_style" => form.preferences.research_style.as_deref(),
        "funding" => form.preferences.funding.as_deref(),
        "degree_type" => form.degree_type.as_deref(),
        "enrollment_year" => form.enrollment_year.as_deref(),
        _ => None,
    }
}

/// Sets one form field from a (validated) value; `None` clears it.
pub fn set_field(form: &mut UserForm, field: &str, value: Option<String>) -> bool {
    let slot = match field {
        "school" => &mut form.school,
        "major" => &mut form.major,
        "research_direction" => &mut form.research_direction,
        "personality" => &mut form.preferences.personality,
        "research_style" => &mut form.preferences.research_style,
        "funding" => &mut form.preferences.funding,
        "degree_type" => &mut form.degree_type,
        "enrollment_year" => &mut form.enrollment_year,
        _ => return false,
    };
    if *slot == value {
        return false;
    }
    *slot = value;
    true
}

/// Applies an `update_form` call; returns the fields that changed.
pub fn apply_form_update(form: &mut UserForm, params: &Value) -> Vec<String> {
    let mut changed = Vec::new();
    let get = |k: &str| form_param(params, k).map(str::to_string);
    for &field in FORM_FIELDS {
        if let Some(v) = get(field) {
            if set_field(form, field, Some(v)) {
                changed.push(field.to_string());
            }
        }
    }
    changed
}

/// A form field of `update_form` parameters, at the top level or (for the
/// preferences) under `preferences`, as the protocol nests them.
pub fn form_param<'a>(params: &'a Value, field: &str) -> Option<&'a str> {
    params
        .get(field)
        .or_else(|| params.get("preferences").and_then(|p| p.get(field)))
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}
