//! Answers about advisors for the embedded planner: resolving a reference to
//! an advisor, the reply when it points nowhere, describing an advisor from
//! the database, opening their page or reviews, and comparing advisors.
//! Kept apart because it reads the site and the page, not the form.

use serde_json::json;

use app::model::Comparison;
use app::protocol::{SelectedAdvisor, ToolCall};

use super::EmbeddedPlanner;
use crate::agent::form::chips::MAX_CHIPS;
use crate::agent::nlu::{Act, Analysis, Reference};
use crate::agent::planner::{Plan, PlanError, PlanInput};
use crate::agent::targets::{resolve_on_page, Target};
use crate::agent::tools::{chip_call, COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS};

/// Whether `name` is the surname of every advisor of `shown` (王老师 with
/// 王清 and 王健帆 on the page), not a full name several advisors share.
fn by_surname(name: &str, shown: &[SelectedAdvisor]) -> bool {
    shown
        .iter()
        .all(|a| a.name.len() > name.len() && a.name.starts_with(name))
}

impl EmbeddedPlanner {
    /// The advisor a reference points to, as the resolve step found it
    /// (references it did not see point at the page alone).
    pub(super) fn resolve(&self, reference: &Reference, input: &PlanInput<'_>) -> Target {
        input
            .resolved
            .target(reference)
            .cloned()
            .or_else(|| resolve_on_page(reference, input.page, input.memory))
            .unwrap_or(Target::Unclear)
    }

    /// The reply for a reference that points nowhere.
    pub(super) fn unresolved(&self, target: &Target, turn: u32) -> Plan {
        let voice = match target {
            Target::NoList => self.say("no_list", turn, &[]),
            Target::OutOfRange(n) => {
                self.say("ordinal_out_of_range", turn, &[("count", &n.to_string())])
            }
            Target::NotFound(name) => self.say("name_not_found", turn, &[("name", name)]),
            Target::Ambiguous(name, shown) if by_surname(name, shown) => {
                let names: Vec<String> = shown.iter().map(|a| a.name.clone()).collect();
                let list = names.join("、");
                let voice = self.say(
                    "surname_ambiguous",
                    turn,
                    &[("name", name), ("list", &list)],
                );
                return Plan {
                    voice_response: voice,
                    tool_calls: vec![chip_call(
                        &self.say("surname_ambiguous_question", turn, &[]),
                        names.into_iter().take(MAX_CHIPS).collect(),
                        "general",
                    )],
                    ..Plan::default()
                };
            }
            Target::Ambiguous(name, _) => self.say("name_ambiguous", turn, &[("name", name)]),
            Target::Unclear | Target::Found(_) => self.say("which_advisor", turn, &[]),
        };
        Plan {
            voice_response: voice,
            ..Plan::default()
        }
    }

    /// "张三教授主要研究机器学习，学生评价4.5分，大家评价温和、负责。"
    pub(super) async fn describe(
        &self,
        advisor: &SelectedAdvisor,
        turn: u32,
    ) -> Result<String, PlanError> {
        let detail = self
            .site
            .advisor_detail(&advisor.id)
            .await
            .map_err(|e| PlanError {
                code: "upstream_unavailable".into(),
                message: e.info.message,
            })?;
        let Some(d) = detail else {
            return Ok(self.say("name_not_found", turn, &[("name", &advisor.name)]));
        };
        let direction = d
            .directions
            .first()
            .cloned()
            .unwrap_or_else(|| d.major.clone());
        let vars_base = [
            ("name", d.name.as_str()),
            ("title", d.title.as_str()),
            ("direction", direction.as_str()),
        ];
        let Some(avg) = &d.averages else {
            return Ok(self.say("advisor_no_reviews", turn, &vars_base));
        };
        let rating = format!("{:.1}", avg.overall);
        let tags: Vec<&str> = d.tags.iter().take(2).map(|t| t.tag.as_str()).collect();
        let count = d.review_count.to_string();
        let mut vars = vars_base.to_vec();
        vars.push(("rating", &rating));
        vars.push(("count", &count));
        if tags.is_empty() {
            return Ok(self.say("advisor_summary_plain", turn, &vars));
        }
        let tags = format!("大家评价{}", tags.join("、"));
        vars.push(("tags", &tags));
        Ok(self.say("advisor_summary", turn, &vars))
    }

    pub(super) async fn plan_advisor_act(
        &self,
        a: &Analysis,
        input: &PlanInput<'_>,
    ) -> Result<Plan, PlanError> {
        let turn = input.turn;
        let reference = input.resolved.subject.clone().unwrap_or(Reference::Pronoun);
        let target = self.resolve(&reference, input);
        let Target::Found(advisor) = target else {
            // Asked about nobody in particular ("介绍一下"): code has no
            // specific answer, and a model may have one.
            let open_ended = input.resolved.subject.is_none() && target == Target::Unclear;
            if open_ended
                && !crate::agent::nlu::speaks_of_a_person(a, &self.lexicons)
                && crate::agent::nlu::is_question(input.message, &self.lexicons)
            {
                // "中期考核没过会怎样": a question about graduate study, not
                // about an advisor nobody named.
                return Ok(Plan {
                    voice_response: self.say("general_question", turn, &[]),
                    open_ended,
                    ..Plan::default()
                });
            }
            return Ok(Plan {
                open_ended,
                ..self.unresolved(&target, turn)
            });
        };
        let params = json!({"advisor_id": advisor.id, "advisor_name": advisor.name});
        let call = |tool: &str| ToolCall {
            tool: tool.into(),
            params: params.clone(),
            result: None,
        };
        let plan = match a.act {
            Act::OpenDetail => Plan {
                tool_calls: vec![call(GET_ADVISOR_DETAIL)],
                open: Some((advisor.id.clone(), advisor.name.clone())),
                ..Plan::default()
            },
            Act::AskReviews => Plan {
                tool_calls: vec![call(GET_ADVISOR_REVIEWS)],
                ..Plan::default()
            },
            _ => Plan {
                voice_response: self.describe(&advisor, turn).await?,
                ..Plan::default()
            },
        };
        Ok(Plan {
            focus: Some(advisor),
            ..plan
        })
    }

    /// `compare_advisors` for the advisors the message points at, topped up
    /// (for "这两位", or one named against "他") with the advisor talked about
    /// and then the top of the list on screen.
    pub(super) async fn plan_compare(&self, a: &Analysis, input: &PlanInput<'_>) -> Plan {
        let mut chosen: Vec<SelectedAdvisor> = Vec::new();
        for reference in a.references.iter().take(Comparison::MAX) {
            match self.resolve(reference, input) {
                Target::Found(advisor) => {
                    if !chosen.contains(&advisor) {
                        chosen.push(advisor);
                    }
                }
                other => return self.unresolved(&other, input.turn),
            }
        }
        let others = input
            .memory
            .last_advisor
            .iter()
            .chain(input.page.selected_advisor.iter())
            .cloned()
            .chain(input.page.visible_advisors.iter().map(|v| SelectedAdvisor {
                id: v.id.clone(),
                name: v.name.clone(),
            }));
        for advisor in others {
            if chosen.len() >= Comparison::MIN {
                break;
            }
            if !chosen.contains(&advisor) {
                chosen.push(advisor);
            }
        }
        if chosen.len() < Comparison::MIN {
            return Plan {
                voice_response: self.say("compare_which", input.turn, &[]),
                ..Plan::default()
            };
        }
        let (ids, names): (Vec<String>, Vec<String>) = chosen
            .iter()
            .map(|c| (c.id.clone(), c.name.clone()))
            .unzip();
        Plan {
            tool_calls: vec![ToolCall {
                tool: COMPARE_ADVISORS.into(),
                params: json!({"advisor_ids": ids, "advisor_names": names}),
                result: None,
            }],
            ..Plan::default()
        }
    }
}
