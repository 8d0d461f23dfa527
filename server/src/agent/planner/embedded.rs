//! The embedded planner: the agent with no language model. It turns the
//! code's analysis of a message (slots, references, the act asked for) into
//! proposed tool calls and a reply from the template file, reading facts from
//! the database where a reply needs them ("张三教授主要研究机器学习…").
//! It is deterministic: the same conversation always gets the same answers.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use app::model::Comparison;
use app::protocol::{SelectedAdvisor, ToolCall};

use super::{Plan, PlanError, PlanInput, Planner};
use crate::agent::about_place::{self, PlaceWords};
use crate::agent::nlu::{Act, Analysis, Lexicons, Reference, Slot};
use crate::agent::readback::ReadBack;
use crate::agent::resolve::{resolve_on_page, Target};
use crate::agent::spoken_names::SpokenNames;
use crate::agent::steer::Phase;
use crate::agent::tools::{
    chip_call, COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS, GET_STATISTICS,
    RECOMMEND_ADVISORS, UPDATE_FORM, UPDATE_RANKING,
};
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

    /// The advisor a reference points to, as the resolve step found it
    /// (references it did not see point at the page alone).
    fn resolve(&self, reference: &Reference, input: &PlanInput<'_>) -> Target {
        input
            .resolved
            .target(reference)
            .cloned()
            .or_else(|| resolve_on_page(reference, input.page, input.memory))
            .unwrap_or(Target::Unclear)
    }

    /// The reply for a reference that points nowhere.
    fn unresolved(&self, target: &Target, turn: u32) -> Plan {
        let voice = match target {
            Target::NoList => self.say("no_list", turn, &[]),
            Target::OutOfRange(n) => {
                self.say("ordinal_out_of_range", turn, &[("count", &n.to_string())])
            }
            Target::NotFound(name) => self.say("name_not_found", turn, &[("name", name)]),
            Target::Ambiguous(name, _) => self.say("name_ambiguous", turn, &[("name", name)]),
            Target::Unclear | Target::Found(_) => self.say("which_advisor", turn, &[]),
        };
        Plan {
            voice_response: voice,
            ..Plan::default()
        }
    }

    /// "张三教授主要研究机器学习，学生评价4.5分，大家评价温和、负责。"
    async fn describe(&self, advisor: &SelectedAdvisor, turn: u32) -> Result<String, PlanError> {
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

    /// The alternatives the student offered, at most four (what a chip row
    /// holds and a voice can say).
    fn not_rejected(&self, names: &[String], a: &Analysis) -> Vec<String> {
        names
            .iter()
            .filter(|n| !a.rejected.contains(n))
            .take(4)
            .cloned()
            .collect()
    }

    /// The form fields the message names, chips for ambiguous ones, and a
    /// reply when something could not be used.
    fn slots(
        &self,
        a: &Analysis,
        input: &PlanInput<'_>,
    ) -> (Map<String, Value>, Option<ToolCall>, Option<String>) {
        let mut fields = Map::new();
        let mut chips = None;
        let mut voice = None;
        let turn = input.turn;
        match &a.school {
            Some(Slot::One(s)) if !a.rejected.contains(s) => {
                fields.insert("school".into(), json!(s));
            }
            Some(Slot::Ambiguous { said, candidates }) => {
                chips = Some(chip_call(
                    &format!("哪所{said}？"),
                    candidates.iter().take(6).cloned().collect(),
                    "school",
                ));
                voice = Some(self.say("ambiguous_school", turn, &[("said", said)]));
            }
            // "北大或者清华都行": which first is the student's choice.
            Some(Slot::Either(names)) => {
                let names = self.not_rejected(names, a);
                chips = Some(chip_call("先看哪一所？", names.clone(), "school"));
                voice = Some(self.say("either_school", turn, &[("list", &names.join("、"))]));
            }
            _ => {}
        }
        match &a.major {
            Some(Slot::One(m)) if !a.rejected.contains(m) => {
                fields.insert("major".into(), json!(m));
            }
            Some(Slot::Ambiguous { said, candidates }) if chips.is_none() => {
                // The school may settle it: keep only the majors it offers.
                let catalog = self.site.catalog();
                let school_name = fields
                    .get("school")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .or_else(|| input.form.school.clone());
                let school = school_name
                    .as_deref()
                    .and_then(|s| catalog.resolve_school(s).found());
                let offered: Vec<String> = candidates
                    .iter()
                    .filter(|m| {
                        school.is_none_or(|s| {
                            catalog
                                .resolve_major(m)
                                .found()
                                .is_some_and(|mm| catalog.advisor_count(s.id, mm.id) > 0)
                        })
                    })
                    .cloned()
                    .collect();
                match offered.as_slice() {
                    [only] => {
                        fields.insert("major".into(), json!(only));
                    }
                    _ => {
                        let list = if offered.len() >= 2 {
                            offered
                        } else {
                            candidates.clone()
                        };
                        chips = Some(chip_call(
                            "哪个专业？",
                            list.into_iter().take(6).collect(),
                            "major",
                        ));
                        voice = Some(self.say("ambiguous_major", turn, &[("said", said)]));
                    }
                }
            }
            Some(Slot::Either(names)) if chips.is_none() => {
                let names = self.not_rejected(names, a);
                chips = Some(chip_call("先看哪个专业？", names.clone(), "major"));
                voice = Some(self.say("either_major", turn, &[("list", &names.join("、"))]));
            }
            _ => {}
        }
        if let Some(d) = &a.research_direction {
            fields.insert("research_direction".into(), json!(d));
        }
        let mut prefs = Map::new();
        for (key, value) in [
            ("personality", &a.personality),
            ("research_style", &a.research_style),
            ("funding", &a.funding),
        ] {
            if let Some(v) = value {
                prefs.insert(key.into(), json!(v));
            }
        }
        if !prefs.is_empty() {
            fields.insert("preferences".into(), Value::Object(prefs));
        }
        if let Some(d) = &a.degree_type {
            fields.insert("degree_type".into(), json!(d));
        }
        if let Some(y) = &a.enrollment_year {
            fields.insert("enrollment_year".into(), json!(y));
        }
        if voice.is_none() {
            let school_known = fields.contains_key("school") || input.form.school.is_some();
            if let Some(s) = &a.unknown_school {
                if !fields.contains_key("school") {
                    voice = Some(self.say("unknown_school", turn, &[("school", s)]));
                }
            } else if let Some(m) = &a.unknown_major {
                if !fields.contains_key("major") {
                    voice = Some(
                        match (
                            school_known,
                            fields
                                .get("school")
                                .and_then(Value::as_str)
                                .or(input.form.school.as_deref()),
                        ) {
                            (true, Some(s)) => {
                                self.say("unknown_major", turn, &[("school", s), ("major", m)])
                            }
                            _ => self.say("unknown_major_no_school", turn, &[("major", m)]),
                        },
                    );
                }
            } else if fields.is_empty() && !a.rejected.is_empty() {
                voice = Some(self.rejected_voice(&a.rejected, input));
            }
        }
        // "计算机，学校再说": the field put off is not pressed for this turn.
        if voice.is_none() {
            let named = |k: &str, form: &Option<String>| {
                fields
                    .get(k)
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .or_else(|| form.clone())
            };
            let school = named("school", &input.form.school);
            let major = named("major", &input.form.major);
            match (school, major) {
                (None, Some(m)) if a.postponed.contains(&"school") => {
                    voice = Some(self.say(
                        "postponed_school",
                        turn,
                        &[("major", &self.names.major(&m))],
                    ));
                }
                (Some(s), None) if a.postponed.contains(&"major") => {
                    voice = Some(self.say("postponed_major", turn, &[("school", &s)]));
                }
                _ => {}
            }
        }
        (fields, chips, voice)
    }

    /// "好的，不做机器学习方向。你希望导师是什么风格呢？": what the student
    /// excluded, said as what it is, then the question of what the form
    /// actually lacks (the phase code steers to; the form here is already
    /// without the excluded values).
    fn rejected_voice(&self, rejected: &[String], input: &PlanInput<'_>) -> String {
        let catalog = self.site.catalog();
        let said: Vec<String> = rejected
            .iter()
            .map(|v| {
                if catalog.resolve_school(v).found().is_some() {
                    format!("不考{v}")
                } else if catalog.resolve_major(v).found().is_some() {
                    format!("不考{v}专业")
                } else if app::vocabulary::FUNDINGS.contains(&v.as_str()) {
                    format!("不要经费{v}的")
                } else if app::vocabulary::PERSONALITIES.contains(&v.as_str())
                    || app::vocabulary::STYLES.contains(&v.as_str())
                {
                    format!("不要{v}的导师")
                } else {
                    format!("不做{v}方向")
                }
            })
            .collect();
        let next = match crate::agent::steer::phase(input.form, input.memory) {
            Phase::AskSchool => "next_school",
            Phase::AskMajor => "next_major",
            Phase::OfferDirection => "next_direction",
            Phase::OfferPersonality => "next_personality",
            Phase::OfferDegree => "next_degree",
            Phase::OfferYear => "next_year",
            Phase::Done => "next_done",
        };
        let next = self.say(next, input.turn, &[]);
        self.say(
            "rejected_only",
            input.turn,
            &[("what", &said.join("，")), ("next", &next)],
        )
    }

    /// A reply about the form after preferences arrived without school/major.
    fn pending_form_voice(
        &self,
        fields: &Map<String, Value>,
        input: &PlanInput<'_>,
    ) -> Option<String> {
        let has_pair = fields.contains_key("school") || fields.contains_key("major");
        let complete_after = (fields.contains_key("school") || input.form.school.is_some())
            && (fields.contains_key("major") || input.form.major.is_some());
        if has_pair || complete_after {
            return None;
        }
        let mut what: Vec<String> = Vec::new();
        if let Some(d) = fields.get("research_direction").and_then(Value::as_str) {
            what.push(d.to_string());
        }
        if let Some(p) = fields.get("preferences").and_then(Value::as_object) {
            what.extend(p.values().filter_map(Value::as_str).map(|v| {
                if v == "充足" || v == "一般" || v == "紧张" {
                    format!("经费{v}")
                } else {
                    v.to_string()
                }
            }));
        }
        (!what.is_empty())
            .then(|| self.say("pref_needs_form", input.turn, &[("what", &what.join("、"))]))
    }

    async fn plan_advisor_act(
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
    async fn plan_compare(&self, a: &Analysis, input: &PlanInput<'_>) -> Plan {
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

    /// `get_statistics` for the school + major named now, else the form's.
    fn plan_statistics(&self, a: &Analysis, input: &PlanInput<'_>) -> Plan {
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

    fn list_on_page(&self, input: &PlanInput<'_>) -> Option<String> {
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

        // What the agent holds, read back from the form (seed 001).
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

        // General knowledge is answered without tools (seed 001).
        if a.act == Act::Faq {
            if let Some(answer) = a.faq.as_deref().and_then(|id| self.lexicons.faq_answer(id)) {
                return Ok(Plan {
                    voice_response: answer.to_string(),
                    ..Plan::default()
                });
            }
        }

        let (fields, chips, slot_voice) = self.slots(a, input);
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
                    if complete {
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
