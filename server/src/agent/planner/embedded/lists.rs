//! Figures and lists for the embedded planner: `get_statistics` for the
//! school and major talked about, and the reply naming the ranking already
//! on the page. Kept apart because these read the catalog's figures, not an
//! advisor's record or the form's slots.

use serde_json::json;

use app::protocol::ToolCall;

use super::EmbeddedPlanner;
use crate::agent::nlu::{Analysis, Slot};
use crate::agent::planner::{Plan, PlanInput};
use crate::agent::tools::GET_STATISTICS;

impl EmbeddedPlanner {
    /// `get_statistics` for the school + major named now, else the form's.
    pub(super) fn plan_statistics(&self, a: &Analysis, input: &PlanInput<'_>) -> Plan {
        let named = |slot: &Option<Slot>| match slot {
            Some(Slot::One(name)) => Some(name.clone()),
            _ => None,
        };
        let school = named(&a.school).or_else(|| input.form.school.clone());
        let major = named(&a.major).or_else(|| input.form.major.clone());
        match (school, major) {
            (Some(school), Some(major)) => Plan {
                tool_calls: vec![ToolCall {
                    tool: GET_STATISTICS.into(),
                    params: json!({"school": school, "major": major}),
                    result: None,
                }],
                ..Plan::default()
            },
            _ => Plan {
                voice_response: self.say("stats_needs_form", input.turn, &[]),
                ..Plan::default()
            },
        }
    }

    pub(super) fn list_on_page(&self, input: &PlanInput<'_>) -> Option<String> {
        let filters = input.page.ranking_filters.as_ref()?;
        let first = input.page.visible_advisors.first()?;
        let catalog = self.site.catalog();
        Some(self.say(
            "list_on_page",
            input.turn,
            &[
                (
                    "school_short",
                    &self.names.school_short(catalog, &filters.school),
                ),
                ("major_short", &self.names.major(&filters.major)),
                ("name", &first.name),
                ("title", &first.title),
            ],
        ))
    }
}
