//! The embedded planner: the agent with no language model. It turns the
//! code's analysis of a message (slots, references, the act asked for) into
//! proposed tool calls and a reply from the template file, reading facts from
//! the database where a reply needs them ("张三教授主要研究机器学习…").
//! It is deterministic: the same conversation always gets the same answers.
//!
//! - [`form`]: the form fields a message names, chips, and replies about them.
//! - [`advisor`]: answers about one advisor, and comparing advisors.
//! - [`lists`]: statistics and the ranking already on the page.

mod advisor;
mod form;
mod lists;

use std::sync::Arc;

use serde_json::{json, Value};

use app::protocol::ToolCall;

use super::{Plan, PlanError, PlanInput, Planner};
use crate::agent::about_place::{self, PlaceWords};
use crate::agent::nlu::{Act, Analysis, Lexicons, Reference};
use crate::agent::readback::ReadBack;
use crate::agent::spoken_names::SpokenNames;
use crate::agent::tools::{RECOMMEND_ADVISORS, UPDATE_FORM, UPDATE_RANKING};
use crate::site::Site;
use crate::text::templates::Templates;

pub struct EmbeddedPlanner {
    site: Arc<Site>,
    lexicons: Arc<Lexicons>,
    templates: Arc<Templates>,
    names: Arc<SpokenNames>,
    readback: ReadBack,
    place_words: PlaceWords,
}

impl EmbeddedPlanner {
    pub fn new(
        site: Arc<Site>,
        lexicons: Arc<Lexicons>,
        templates: Arc<Templates>,
        names: Arc<SpokenNames>,
    ) -> Self {
        EmbeddedPlanner {
            site,
            lexicons,
            templates,
            names,
            readback: ReadBack::load(),
            place_words: PlaceWords::load(),
        }
    }

    fn say(&self, key: &str, turn: u32, vars: &[(&str, &str)]) -> String {
        self.templates.render(key, turn, vars)
    }
}

#[async_trait::async_trait]
impl Planner for EmbeddedPlanner {
    fn name(&self) -> String {
        "embedded".to_string()
    }

    fn reads_history(&self) -> bool {
        false
    }

    async fn plan(&self, input: &PlanInput<'_>) -> Result<Plan, PlanError> {
        let a = input.analysis;
        let turn = input.turn;

        // What the agent holds, read back from the form.
        if a.act == Act::ReadBack {
            return Ok(Plan {
                voice_response: self.readback.answer(
                    input.form,
                    &crate::catalog::normalize(input.message),
                    &self.templates,
                    turn,
                ),
                ..Plan::default()
            });
        }
        // A school or major in general: the site's figures, then an offer
        // to search; the form stays as it is.
        if a.act == Act::AboutPlace {
            let (tool_calls, offer) = about_place::plan(&self.place_words, a, input.form);
            return Ok(Plan {
                tool_calls,
                offer,
                ..Plan::default()
            });
        }

        // General knowledge is answered without tools.
        if a.act == Act::Faq {
            if let Some(answer) = a.faq.as_deref().and_then(|id| self.lexicons.faq_answer(id)) {
                return Ok(Plan {
                    voice_response: answer.to_string(),
                    ..Plan::default()
                });
            }
        }

        let (mut fields, chips, slot_voice) = self.slots(a, input);
        // "同济、冯云老师" on 同济's ranking: a school or major the form or
        // the page already holds, said beside an advisor, only says where
        // that advisor is; the advisor is what the student asks about.
        if !a.references.is_empty() && chips.is_none() {
            let shown = input.page.ranking_filters.as_ref();
            fields.retain(|k, v| {
                let (held, on_page) = match k.as_str() {
                    "school" => (&input.form.school, shown.map(|f| &f.school)),
                    "major" => (&input.form.major, shown.map(|f| &f.major)),
                    _ => return true,
                };
                let v = v.as_str();
                !(v.is_some() && (held.as_deref() == v || on_page.map(String::as_str) == v))
            });
        }
        let about_form = !fields.is_empty() || chips.is_some() || a.act == Act::Skip;
        let mut calls = Vec::new();
        if !fields.is_empty() {
            calls.push(ToolCall {
                tool: UPDATE_FORM.into(),
                params: Value::Object(fields.clone()),
                result: None,
            });
        }
        if let Some(c) = chips {
            calls.push(c);
            return Ok(Plan {
                voice_response: slot_voice.unwrap_or_default(),
                tool_calls: calls,
                about_form,
                ..Plan::default()
            });
        }

        // Two to four advisors side by side: named, pointed at ("第一个和第
        // 二个"), or "这两位" (the ones talked about, else the top of the page).
        if a.act == Act::Compare && (!a.references.is_empty() || a.pair) {
            let mut plan = self.plan_compare(a, input).await;
            if !calls.is_empty() {
                let mut all = calls;
                all.append(&mut plan.tool_calls);
                plan.tool_calls = all;
                plan.about_form = true;
            }
            return Ok(plan);
        }

        // The figures of the school + major just named (or the form's).
        if a.act == Act::Statistics && !calls.is_empty() {
            let mut plan = self.plan_statistics(a, input);
            calls.append(&mut plan.tool_calls);
            plan.tool_calls = calls;
            plan.about_form = true;
            return Ok(plan);
        }

        // Questions about an advisor on (or off) the page; a bare reference
        // ("第二位呢") asks about that advisor like the turn before did.
        // "帮我找一下叫王小明的老师": finding a person the search knows is
        // opening their page, not choosing advisors.
        let finding_named = a.references.is_empty()
            && fields.is_empty()
            && matches!(a.act, Act::Recommend | Act::ListAdvisors)
            && matches!(input.resolved.subject, Some(Reference::Name(_)))
            && input.resolved.subject_advisor().is_some();
        let opened;
        let a = if finding_named {
            opened = Analysis {
                act: Act::OpenDetail,
                ..a.clone()
            };
            &opened
        } else {
            a
        };
        let about_advisor =
            matches!(
                a.act,
                Act::AskAbout | Act::AskReviews | Act::OpenDetail | Act::Compare
            ) || (a.act == Act::None && !a.references.is_empty() && fields.is_empty());
        if about_advisor && (!a.references.is_empty() || fields.is_empty()) {
            // "清华计算机排第一的是谁": a position in the list this turn is
            // about to show, not in the one on screen (the resolve step
            // counted in that list).
            let mut plan = match &input.resolved.shown {
                Some(page) => {
                    let input = PlanInput { page, ..*input };
                    self.plan_advisor_act(a, &input).await?
                }
                None => self.plan_advisor_act(a, input).await?,
            };
            if !fields.is_empty() {
                let mut all = calls;
                all.append(&mut plan.tool_calls);
                plan.tool_calls = all;
                plan.about_form = true;
            }
            return Ok(plan);
        }

        if !fields.is_empty() || slot_voice.is_some() {
            let voice = slot_voice
                .or_else(|| self.pending_form_voice(&fields, input))
                .unwrap_or_default();
            if a.act == Act::Recommend {
                calls.push(ToolCall {
                    tool: RECOMMEND_ADVISORS.into(),
                    params: json!({}),
                    result: None,
                });
            }
            return Ok(Plan {
                voice_response: voice,
                tool_calls: calls,
                about_form,
                ..Plan::default()
            });
        }

        let complete = input.form.school.is_some() && input.form.major.is_some();
        let say = |key: &str| {
            Ok(Plan {
                voice_response: self.say(key, turn, &[]),
                ..Plan::default()
            })
        };
        match a.act {
            Act::Recommend if complete => Ok(Plan {
                tool_calls: vec![ToolCall {
                    tool: RECOMMEND_ADVISORS.into(),
                    params: json!({}),
                    result: None,
                }],
                ..Plan::default()
            }),
            Act::Recommend => say("recommend_needs_form"),
            Act::ListAdvisors => match self.list_on_page(input) {
                Some(voice) => Ok(Plan {
                    voice_response: voice,
                    ..Plan::default()
                }),
                None if complete => Ok(Plan {
                    tool_calls: vec![ToolCall {
                        tool: UPDATE_RANKING.into(),
                        params: json!({}),
                        result: None,
                    }],
                    about_form: true,
                    ..Plan::default()
                }),
                None => say("ask_school_major"),
            },
            Act::Statistics => Ok(self.plan_statistics(a, input)),
            Act::Thanks => say("thanks"),
            Act::Goodbye => say("goodbye"),
            Act::Help => say("help"),
            Act::WantExam => say("want_exam"),
            Act::Skip if input.memory.pending.is_some() => Ok(Plan {
                voice_response: String::new(),
                about_form: true,
                ..Plan::default()
            }),
            _ => Ok(Plan {
                voice_response: self.say(
                    if general_question(a, input.message, &self.lexicons) {
                        "general_question"
                    } else if complete {
                        "fallback_with_form"
                    } else {
                        "fallback"
                    },
                    turn,
                    &[],
                ),
                open_ended: true,
                ..Plan::default()
            }),
        }
    }
}

/// A question code read nothing in: no school, major, preference or advisor
/// ("研究生有寒暑假吗"). It is about graduate study in general, which the
/// embedded planner holds no facts on: it says so instead of steering the
/// student back to the form as if the question were not heard.
fn general_question(a: &Analysis, message: &str, lex: &Lexicons) -> bool {
    a.school.is_none()
        && a.major.is_none()
        && a.research_direction.is_none()
        && a.references.is_empty()
        && a.personality.is_none()
        && a.research_style.is_none()
        && a.funding.is_none()
        && crate::agent::nlu::is_question(message, lex)
}
