//! The call that leads to the compare page: `compare_advisors`, whose ids
//! come from its result or, failing that, its params. Pure.

use serde_json::Value;

use super::{go, Here, Step};
use crate::pages::encode;
use crate::protocol::ToolCall;

pub(super) fn plan_compare(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::plan;
    use super::*;
    use crate::reply::fixtures::{call, home};

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
}
