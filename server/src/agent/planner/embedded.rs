//! The embedded planner: the agent with no language model. It turns the
//! code's analysis of a message (slots, references, the act asked for) into
//! proposed tool calls and a reply from the template file, reading facts from
//! the database where a reply needs them ("张三教授主要研究机器学习…").
//! It is deterministic: the same conversation always gets the same answers.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use app::model::Comparison;
use app::protocol::{PageContext, SelectedAdvisor, ToolCall};

use super::{Plan, PlanError, PlanInput, Planner};
use crate::agent::narrate::SpokenNames;
use crate::agent::nlu::{Act, Analysis, Lexicons, Reference, Slot};
use crate::agent::session::Memory;
use crate::agent::steer::Phase;
use crate::agent::tools::{
    COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS, GET_STATISTICS, RECOMMEND_ADVISORS,
    UPDATE_FORM, UPDATE_RANKING,
};
use crate::agent::validate::chip_call;
use crate::site::Site;
use crate::text::templates::Templates;

const SURNAMES: &str = include_str!("../../../lexicons/surnames.txt");

/// Words after a name that ask about the person ("王小明老师怎么样").
const NAME_TAILS: &[&str] = &[
    "老师",
    "导师",
    "教授",
    "副教授",
    "研究员",
    "讲师",
    "博导",
    "硕导",
    "怎么样",
    "如何",
    "好不好",
    "人怎么样",
    "靠谱吗",
    "的评价",
    "评价",
    "口碑",
    "的学生评价",
    "的详细信息",
    "的主页",
    "呢",
    "吗",
];

/// A name the catalog does not know, said as the subject of a question:
/// two to four Chinese characters starting with a common surname.
pub fn guess_name(text: &str, surnames: &[String]) -> Option<String> {
    let mut rest: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && !"，。？！?!,.、".contains(*c))
        .collect();
    let mut tails: Vec<&str> = NAME_TAILS.to_vec();
    tails.sort_by_key(|t| std::cmp::Reverse(t.chars().count()));
    loop {
        let before = rest.clone();
        for tail in &tails {
            if let Some(r) = rest.strip_suffix(tail) {
                rest = r.to_string();
            }
        }
        if rest == before {
            break;
        }
    }
    let n = rest.chars().count();
    let cjk = rest.chars().all(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    (cjk && (2..=4).contains(&n)
        && surnames
            .iter()
            .any(|s| rest.starts_with(s.as_str()) && rest.len() > s.len()))
    .then_some(rest)
}

pub struct EmbeddedPlanner {
    site: Arc<Site>,
    lexicons: Arc<Lexicons>,
    templates: Arc<Templates>,
    names: Arc<SpokenNames>,
    surnames: Vec<String>,
}

/// Which advisor a reference points to, or why it points nowhere.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    Found(SelectedAdvisor),
    /// "第一个" with no list on the page (seed 000 §6.3).
    NoList,
    /// "第九个" on a list of three.
    OutOfRange(usize),
    /// "他" with nobody selected or talked about.
    Unclear,
    NotFound(String),
    Ambiguous(String, Vec<SelectedAdvisor>),
}

/// Resolves a reference from what the page shows and what was said before.
pub fn resolve_on_page(
    reference: &Reference,
    page: &PageContext,
    memory: &Memory,
) -> Option<Target> {
    let visible = &page.visible_advisors;
    let pick = |i: usize| SelectedAdvisor {
        id: visible[i].id.clone(),
        name: visible[i].name.clone(),
    };
    Some(match reference {
        Reference::Ordinal(i) if visible.is_empty() => Target::NoList,
        Reference::Ordinal(i) if *i >= visible.len() => Target::OutOfRange(visible.len()),
        Reference::Ordinal(i) => Target::Found(pick(*i)),
        Reference::FromEnd(_) if visible.is_empty() => Target::NoList,
        Reference::FromEnd(i) if *i >= visible.len() => Target::OutOfRange(visible.len()),
        Reference::FromEnd(i) => Target::Found(pick(visible.len() - 1 - i)),
        // "他" is whoever was talked about last; the pipeline makes the page's
        // own selection the last one when the student navigated there.
        Reference::Pronoun => match (&memory.last_advisor, &page.selected_advisor) {
            (Some(a), _) | (None, Some(a)) => Target::Found(a.clone()),
            (None, None) if visible.len() == 1 => Target::Found(pick(0)),
            _ => Target::Unclear,
        },
        Reference::Name(name) => {
            if let Some(i) = visible.iter().position(|a| &a.name == name) {
                Target::Found(pick(i))
            } else if let Some(a) = page
                .selected_advisor
                .iter()
                .chain(memory.last_advisor.iter())
                .find(|a| &a.name == name)
            {
                Target::Found(a.clone())
            } else {
                return None; // needs the database
            }
        }
    })
}

impl EmbeddedPlanner {
    pub fn new(
        site: Arc<Site>,
        lexicons: Arc<Lexicons>,
        templates: Arc<Templates>,
        names: Arc<SpokenNames>,
    ) -> Self {
        let surnames = SURNAMES
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .map(str::to_string)
            .collect();
        EmbeddedPlanner {
            site,
            lexicons,
            templates,
            names,
            surnames,
        }
    }

    fn say(&self, key: &str, turn: u32, vars: &[(&str, &str)]) -> String {
        self.templates.render(key, turn, vars)
    }

    /// The advisor a reference names: page first, then memory, then the
    /// database (within the form's school and major, then site-wide).
    async fn resolve(&self, reference: &Reference, input: &PlanInput<'_>) -> Target {
        if let Some(t) = resolve_on_page(reference, input.page, input.memory) {
            return t;
        }
        let Reference::Name(name) = reference else {
            return Target::Unclear;
        };
        let catalog = self.site.catalog();
        let school = input
            .form
            .school
            .as_deref()
            .and_then(|s| catalog.resolve_school(s).found())
            .map(|s| s.id);
        let major = input
            .form
            .major
            .as_deref()
            .and_then(|m| catalog.resolve_major(m).found())
            .map(|m| m.id);
        let mut rows = self
            .site
            .advisors_named(name, school, major)
            .await
            .unwrap_or_default();
        if rows.is_empty() && school.is_some() {
            rows = self
                .site
                .advisors_named(name, None, None)
                .await
                .unwrap_or_default();
        }
        let found: Vec<SelectedAdvisor> = rows
            .iter()
            .map(|r| SelectedAdvisor {
                id: r.id.to_string(),
                name: r.name.clone(),
            })
            .collect();
        match found.len() {
            0 => Target::NotFound(name.clone()),
            1 => Target::Found(found[0].clone()),
            _ => Target::Ambiguous(name.clone(), found),
        }
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

    /// The ranking this turn's form update will put on screen, when it is
    /// another one than the page shows (the school or major just named).
    async fn page_after(
        &self,
        fields: &Map<String, Value>,
        input: &PlanInput<'_>,
    ) -> Option<PageContext> {
        let named = |k: &str| fields.get(k).and_then(Value::as_str).map(str::to_string);
        if named("school").is_none() && named("major").is_none() {
            return None;
        }
        let school = named("school").or_else(|| input.form.school.clone())?;
        let major = named("major").or_else(|| input.form.major.clone())?;
        let catalog = self.site.catalog();
        let school = catalog.resolve_school(&school).found()?;
        let major = catalog.resolve_major(&major).found()?;
        let same = input
            .page
            .ranking_filters
            .as_ref()
            .is_some_and(|f| f.school == school.name && f.major == major.name);
        if same {
            return None;
        }
        let ranking = self
            .site
            .ranking_page(school, major, app::model::SortKey::Overall, 1)
            .await
            .ok()?;
        Some(PageContext {
            current_page: app::protocol::PageKind::Ranking,
            visible_advisors: ranking.advisors.iter().map(|a| a.to_visible()).collect(),
            selected_advisor: None,
            ranking_filters: Some(app::protocol::RankingFilters {
                school: ranking.school,
                major: ranking.major,
            }),
        })
    }

    async fn plan_advisor_act(
        &self,
        a: &Analysis,
        input: &PlanInput<'_>,
    ) -> Result<Plan, PlanError> {
        let turn = input.turn;
        let reference = a
            .references
            .first()
            .cloned()
            .or_else(|| guess_name(input.message, &self.surnames).map(Reference::Name))
            .unwrap_or(Reference::Pronoun);
        let target = self.resolve(&reference, input).await;
        let Target::Found(advisor) = target else {
            return Ok(self.unresolved(&target, turn));
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
            match self.resolve(reference, input).await {
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
        let about_advisor =
            matches!(
                a.act,
                Act::AskAbout | Act::AskReviews | Act::OpenDetail | Act::Compare
            ) || (a.act == Act::None && !a.references.is_empty() && fields.is_empty());
        if about_advisor && (!a.references.is_empty() || fields.is_empty()) {
            // "清华计算机排第一的是谁": a position in the list this turn is
            // about to show, not in the one on screen.
            let shown = match a.references.first() {
                Some(Reference::Ordinal(_) | Reference::FromEnd(_)) => {
                    self.page_after(&fields, input).await
                }
                _ => None,
            };
            let mut plan = match &shown {
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
            _ if complete => say("fallback_with_form"),
            _ => say("fallback"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_names_are_recognised_by_surname() {
        let surnames: Vec<String> = ["王", "欧阳", "李"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            guess_name("王小明怎么样", &surnames).as_deref(),
            Some("王小明")
        );
        assert_eq!(
            guess_name("欧阳娜娜老师如何？", &surnames).as_deref(),
            Some("欧阳娜娜")
        );
        assert_eq!(
            guess_name("李华的学生评价", &surnames).as_deref(),
            Some("李华")
        );
        assert_eq!(guess_name("怎么样", &surnames), None);
        assert_eq!(guess_name("这个导师怎么样", &surnames), None);
        assert_eq!(guess_name("王", &surnames), None);
    }
}
