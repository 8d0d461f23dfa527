//! The chips above the input: a `present_options` call read into what the
//! panel shows and what a click fills. Pure, so [`plan`](super::plan()) and
//! the restored conversation read a call the same way.

use serde_json::Value;

use crate::protocol::ToolCall;

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
        if call.name() != Some(crate::protocol::ToolName::PresentOptions) {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::fixtures::call;
    use super::*;

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
}
