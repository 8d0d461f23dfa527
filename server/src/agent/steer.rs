//! Code steers, the planner rows (seed 004 "代码掌舵，AI 划桨"): after
//! validation, code applies the form update and enforces the triggers no
//! planner may forget — the ranking when school + major are complete, a
//! recommendation when a preference arrives, the detail page on an explicit
//! choice — skips a ranking the page already shows (seed 001's duplicate
//! guard), asks for the next missing field with chips (the data gap decides
//! the phase), and ends the turn at the chips.

use serde_json::{json, Value};

use app::protocol::{PageContext, PageKind, RankingFilters, ToolCall, UserForm};

use super::memory::Memory;
use super::tools::{
    COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS, GET_PLACE_FACTS, GET_STATISTICS,
    PRESENT_OPTIONS, RECOMMEND_ADVISORS, UPDATE_FORM, UPDATE_RANKING,
};
use super::validate::form_param;
use app::vocabulary::{DEGREES, FORM_FIELDS, PERSONALITIES};

/// Where the conversation stands, derived from what the form still lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    AskSchool,
    AskMajor,
    /// Form complete; research direction not given and not yet offered.
    OfferDirection,
    /// Form complete; personality not given and not yet offered.
    OfferPersonality,
    /// Form complete; degree type (学硕 / 专硕 / 直博) not given, not yet offered.
    OfferDegree,
    /// Form complete; enrollment year not given and not yet offered.
    OfferYear,
    Done,
}

pub use app::vocabulary::{DEGREE, DIRECTION, PERSONALITY, PHD, YEAR};

/// The phase is a function of the data gaps and of what was already offered.
pub fn phase(form: &UserForm, memory: &Memory) -> Phase {
    let asked = |f: &str| memory.asked.iter().any(|a| a == f);
    if form.school.is_none() {
        Phase::AskSchool
    } else if form.major.is_none() {
        Phase::AskMajor
    } else if form.research_direction.is_none() && !asked(DIRECTION) {
        Phase::OfferDirection
    } else if form.preferences.personality.is_none() && !asked(PERSONALITY) {
        Phase::OfferPersonality
    } else if form.degree_type.is_none() && !asked(DEGREE) {
        Phase::OfferDegree
    } else if form.enrollment_year.is_none() && !asked(YEAR) {
        Phase::OfferYear
    } else {
        Phase::Done
    }
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

/// What steering needs to know about the turn besides the calls.
pub struct TurnFacts<'a> {
    pub page: &'a PageContext,
    /// The turn was about the form (a slot named, a chip answered).
    pub about_form: bool,
    /// An advisor the student explicitly chose to open (id, name).
    pub open: Option<(String, String)>,
}

/// The chips of each phase, computed by the caller from the database.
pub struct ChipSource {
    pub schools: Vec<String>,
    pub majors: Vec<String>,
    pub directions: Vec<String>,
    /// Enrollment years to offer, nearest first.
    pub years: Vec<String>,
}

/// The result of steering: the calls to execute and the new form and memory.
pub struct Steered {
    pub calls: Vec<ToolCall>,
    pub form: UserForm,
    pub memory: Memory,
    pub changed: Vec<String>,
}

fn has(calls: &[ToolCall], tool: &str) -> bool {
    calls.iter().any(|c| c.tool == tool)
}

fn preferences_of(form: &UserForm) -> Value {
    json!({
        "research_direction": form.research_direction,
        "personality": form.preferences.personality,
        "research_style": form.preferences.research_style,
        "funding": form.preferences.funding,
        "degree_type": form.degree_type,
    })
}

/// Steers one turn. `chips` is asked for lazily, only when a phase needs chips.
pub fn steer(
    proposed: Vec<ToolCall>,
    form_before: &UserForm,
    memory_before: &Memory,
    facts: &TurnFacts<'_>,
    chips: impl FnOnce(&UserForm) -> ChipSource,
) -> Steered {
    let mut form = form_before.clone();
    let mut memory = memory_before.clone();
    let mut changed = Vec::new();

    // The planner's own order up to its first chips; anything after them is
    // dropped (the turn stops at present_options), the chips go last.
    let mut calls: Vec<ToolCall> = Vec::new();
    let mut planner_chips: Option<ToolCall> = None;
    for call in proposed {
        if call.tool == PRESENT_OPTIONS {
            planner_chips = Some(call);
            break;
        }
        if call.tool == UPDATE_FORM {
            changed.extend(apply_form_update(&mut form, &call.params));
        }
        calls.push(call);
    }
    let complete = form.school.is_some() && form.major.is_some();
    let filters = complete.then(|| RankingFilters {
        school: form.school.clone().unwrap_or_default(),
        major: form.major.clone().unwrap_or_default(),
    });

    // Trigger 1: school + major complete and one of them new → ranking.
    let pair_changed = changed.iter().any(|f| f == "school" || f == "major");
    if let Some(f) = &filters {
        let planner_asked = has(&calls, UPDATE_RANKING);
        calls.retain(|c| c.tool != UPDATE_RANKING);
        let on_screen = facts.page.current_page == PageKind::Ranking
            && facts.page.ranking_filters.as_ref() == Some(f);
        let wanted = pair_changed || planner_asked || !on_screen && facts.about_form;
        // Duplicate guard: the page already shows exactly this ranking.
        if wanted && !on_screen {
            let at = calls
                .iter()
                .position(|c| c.tool == UPDATE_FORM)
                .map_or(0, |i| i + 1);
            calls.insert(
                at,
                ToolCall {
                    tool: UPDATE_RANKING.into(),
                    params: json!({"school": f.school, "major": f.major}),
                    result: None,
                },
            );
        }
    } else {
        calls.retain(|c| c.tool != UPDATE_RANKING && c.tool != RECOMMEND_ADVISORS);
    }

    // Trigger 2: a preference with a complete form (or a form completed while
    // preferences wait) → recommendation from the form.
    // A degree type matters to the choice only for 直博 (who may supervise PhDs).
    let pref_changed = changed.iter().any(|f| {
        matches!(
            f.as_str(),
            "research_direction" | "personality" | "research_style" | "funding"
        ) || (f == "degree_type" && form.degree_type.as_deref() == Some(PHD))
    });
    let any_pref = form.research_direction.is_some()
        || form.preferences.personality.is_some()
        || form.preferences.research_style.is_some()
        || form.preferences.funding.is_some();
    if complete && (pref_changed || has(&calls, RECOMMEND_ADVISORS) || (pair_changed && any_pref)) {
        calls.retain(|c| c.tool != RECOMMEND_ADVISORS);
        calls.push(ToolCall {
            tool: RECOMMEND_ADVISORS.into(),
            params: json!({
                "school": form.school,
                "major": form.major,
                "preferences": preferences_of(&form),
            }),
            result: None,
        });
    }

    // Trigger 3: an explicit choice opens the detail page.
    if let Some((id, name)) = &facts.open {
        if !has(&calls, GET_ADVISOR_DETAIL) {
            calls.push(ToolCall {
                tool: GET_ADVISOR_DETAIL.into(),
                params: json!({"advisor_id": id, "advisor_name": name}),
                result: None,
            });
        }
    }

    // Phases: the next gap of the form is asked with chips, unless the turn
    // was about something else (an advisor, a question) or already asks.
    let busy_elsewhere = has(&calls, GET_ADVISOR_DETAIL)
        || has(&calls, GET_ADVISOR_REVIEWS)
        || has(&calls, COMPARE_ADVISORS)
        || has(&calls, GET_STATISTICS)
        || has(&calls, GET_PLACE_FACTS);
    let chips_call = match planner_chips {
        Some(c) => Some(c),
        None if facts.about_form && !busy_elsewhere => phase_chips(&form, &mut memory, chips),
        None => None,
    };
    memory.pending = chips_call.clone();
    calls.extend(chips_call);

    Steered {
        calls,
        form,
        memory,
        changed,
    }
}

/// A phase's chips (seed 004): at most four options — the sources list the
/// most likely first — and a question of 5–10 characters.
fn chips(
    question: &str,
    mut options: Vec<String>,
    field: &str,
    allow_skip: bool,
    multi: bool,
) -> Option<ToolCall> {
    options.truncate(super::validate::MAX_CHIPS);
    (options.len() >= super::validate::MIN_CHIPS).then(|| ToolCall {
        tool: PRESENT_OPTIONS.into(),
        params: json!({
            "question": super::validate::fitted_question(question, field),
            "options": options,
            "target_field": field,
            "allow_skip": allow_skip,
            "multi_select": multi,
        }),
        result: None,
    })
}

fn phase_chips(
    form: &UserForm,
    memory: &mut Memory,
    source: impl FnOnce(&UserForm) -> ChipSource,
) -> Option<ToolCall> {
    let current = phase(form, memory);
    if current == Phase::Done {
        return None;
    }
    let src = source(form);
    match current {
        Phase::AskSchool => chips("想考哪所学校？", src.schools, "school", false, false),
        Phase::AskMajor => chips("想考哪个专业？", src.majors, "major", false, false),
        Phase::OfferDirection => {
            memory.asked.push(DIRECTION.to_string());
            chips("感兴趣的研究方向", src.directions, DIRECTION, true, true)
        }
        Phase::OfferPersonality => {
            memory.asked.push(PERSONALITY.to_string());
            chips(
                "希望导师的风格",
                PERSONALITIES.iter().map(|s| s.to_string()).collect(),
                PERSONALITY,
                true,
                false,
            )
        }
        Phase::OfferDegree => {
            memory.asked.push(DEGREE.to_string());
            chips(
                "想读哪种学位？",
                DEGREES.iter().map(|s| s.to_string()).collect(),
                DEGREE,
                true,
                false,
            )
        }
        Phase::OfferYear => {
            memory.asked.push(YEAR.to_string());
            chips("打算哪年入学？", src.years, YEAR, true, false)
        }
        Phase::Done => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(school: Option<&str>, major: Option<&str>) -> UserForm {
        UserForm {
            school: school.map(str::to_string),
            major: major.map(str::to_string),
            ..UserForm::default()
        }
    }

    fn update(params: Value) -> ToolCall {
        ToolCall {
            tool: UPDATE_FORM.into(),
            params,
            result: None,
        }
    }

    fn source(_: &UserForm) -> ChipSource {
        ChipSource {
            schools: vec!["北京大学".into(), "清华大学".into()],
            majors: vec!["计算机科学与技术".into(), "软件工程".into()],
            directions: vec!["机器学习".into(), "计算机视觉".into(), "数据库".into()],
            years: vec!["2027".into(), "2028".into(), "2029".into()],
        }
    }

    fn tools(calls: &[ToolCall]) -> Vec<&str> {
        calls.iter().map(|c| c.tool.as_str()).collect()
    }

    fn facts(page: &PageContext) -> TurnFacts<'_> {
        TurnFacts {
            page,
            about_form: true,
            open: None,
        }
    }

    #[test]
    fn a_complete_form_triggers_the_ranking_even_if_the_planner_forgot() {
        let page = PageContext::default();
        let out = steer(
            vec![update(
                json!({"school": "北京大学", "major": "计算机科学与技术"}),
            )],
            &UserForm::default(),
            &Memory::default(),
            &facts(&page),
            source,
        );
        assert_eq!(
            tools(&out.calls),
            vec![UPDATE_FORM, UPDATE_RANKING, PRESENT_OPTIONS]
        );
        assert_eq!(out.calls[1].params["school"], "北京大学");
        assert_eq!(out.calls[2].params["target_field"], DIRECTION);
        assert_eq!(out.calls[2].params["multi_select"], true);
        assert!(out.form.status().is_complete);
        assert_eq!(out.memory.asked, vec![DIRECTION]);
    }

    #[test]
    fn the_ranking_already_on_screen_is_not_requested_again() {
        let page = PageContext {
            current_page: PageKind::Ranking,
            ranking_filters: Some(RankingFilters {
                school: "北京大学".into(),
                major: "计算机科学与技术".into(),
            }),
            ..PageContext::default()
        };
        let before = form(Some("北京大学"), Some("计算机科学与技术"));
        let out = steer(
            vec![
                update(json!({"school": "北京大学", "major": "计算机科学与技术"})),
                ToolCall {
                    tool: UPDATE_RANKING.into(),
                    params: json!({}),
                    result: None,
                },
            ],
            &before,
            &Memory {
                asked: vec![DIRECTION.into(), PERSONALITY.into()],
                ..Memory::default()
            },
            &facts(&page),
            source,
        );
        assert!(
            !tools(&out.calls).contains(&UPDATE_RANKING),
            "{:?}",
            tools(&out.calls)
        );
    }

    #[test]
    fn a_preference_with_a_complete_form_triggers_a_recommendation() {
        let page = PageContext::default();
        let before = form(Some("北京大学"), Some("计算机科学与技术"));
        let out = steer(
            vec![update(
                json!({"research_direction": "机器学习", "preferences": {"personality": "温和"}}),
            )],
            &before,
            &Memory {
                asked: vec![DIRECTION.into()],
                ..Memory::default()
            },
            &TurnFacts {
                page: &page,
                about_form: true,
                open: None,
            },
            source,
        );
        let names = tools(&out.calls);
        assert!(names.contains(&RECOMMEND_ADVISORS), "{names:?}");
        let rec = out
            .calls
            .iter()
            .find(|c| c.tool == RECOMMEND_ADVISORS)
            .unwrap();
        assert_eq!(rec.params["preferences"]["personality"], "温和");
        assert_eq!(rec.params["preferences"]["research_direction"], "机器学习");
        // The next gap is asked in the same turn: the degree type.
        let chips = out.calls.last().unwrap();
        assert_eq!(chips.tool, PRESENT_OPTIONS);
        assert_eq!(chips.params["target_field"], DEGREE);
        assert_eq!(phase(&out.form, &out.memory), Phase::OfferYear);
    }

    #[test]
    fn only_a_phd_degree_changes_the_recommendation() {
        let page = PageContext::default();
        let before = form(Some("北京大学"), Some("计算机科学与技术"));
        let memory = Memory {
            asked: vec![DIRECTION.into(), PERSONALITY.into()],
            ..Memory::default()
        };
        let run = |degree: &str| {
            steer(
                vec![update(json!({"degree_type": degree}))],
                &before,
                &memory,
                &facts(&page),
                source,
            )
        };
        let phd = run("直博");
        assert!(tools(&phd.calls).contains(&RECOMMEND_ADVISORS));
        assert_eq!(phd.form.degree_type.as_deref(), Some("直博"));
        let master = run("学硕");
        assert!(!tools(&master.calls).contains(&RECOMMEND_ADVISORS));
        // Then the enrollment year is asked, with the years of the source.
        let chips = master.calls.last().unwrap();
        assert_eq!(chips.params["target_field"], YEAR);
        assert_eq!(chips.params["options"][0], "2027");
    }

    #[test]
    fn missing_fields_are_asked_in_order_with_chips() {
        let page = PageContext::default();
        let out = steer(
            vec![update(json!({"major": "计算机科学与技术"}))],
            &UserForm::default(),
            &Memory::default(),
            &facts(&page),
            source,
        );
        assert_eq!(tools(&out.calls), vec![UPDATE_FORM, PRESENT_OPTIONS]);
        assert_eq!(out.calls[1].params["target_field"], "school");
        let out = steer(
            vec![update(json!({"school": "北京大学"}))],
            &UserForm::default(),
            &Memory::default(),
            &facts(&page),
            source,
        );
        assert_eq!(out.calls[1].params["target_field"], "major");
    }

    #[test]
    fn the_turn_stops_at_the_first_chips() {
        let page = PageContext::default();
        let chip = ToolCall {
            tool: PRESENT_OPTIONS.into(),
            params: json!({"question": "q", "options": ["a", "b"], "target_field": "general"}),
            result: None,
        };
        let out = steer(
            vec![chip.clone(), update(json!({"school": "北京大学"})), chip],
            &UserForm::default(),
            &Memory::default(),
            &TurnFacts {
                page: &page,
                about_form: false,
                open: None,
            },
            source,
        );
        assert_eq!(
            tools(&out.calls),
            vec![PRESENT_OPTIONS],
            "nothing after the chips runs"
        );
        assert_eq!(out.form, UserForm::default());
        assert!(out.memory.pending.is_some());
    }

    #[test]
    fn an_explicit_choice_opens_the_detail_page() {
        let page = PageContext::default();
        let out = steer(
            vec![],
            &UserForm::default(),
            &Memory::default(),
            &TurnFacts {
                page: &page,
                about_form: false,
                open: Some(("1".into(), "张三".into())),
            },
            source,
        );
        assert_eq!(tools(&out.calls), vec![GET_ADVISOR_DETAIL]);
    }

    #[test]
    fn phases_follow_the_data_gaps() {
        let mut m = Memory::default();
        assert_eq!(phase(&UserForm::default(), &m), Phase::AskSchool);
        assert_eq!(phase(&form(Some("a"), None), &m), Phase::AskMajor);
        assert_eq!(phase(&form(None, Some("b")), &m), Phase::AskSchool);
        let f = form(Some("a"), Some("b"));
        assert_eq!(phase(&f, &m), Phase::OfferDirection);
        m.asked.push(DIRECTION.into());
        assert_eq!(phase(&f, &m), Phase::OfferPersonality);
        m.asked.push(PERSONALITY.into());
        assert_eq!(phase(&f, &m), Phase::OfferDegree);
        m.asked.push(DEGREE.into());
        assert_eq!(phase(&f, &m), Phase::OfferYear);
        m.asked.push(YEAR.into());
        assert_eq!(phase(&f, &m), Phase::Done);
        let mut filled = f.clone();
        filled.degree_type = Some("专硕".into());
        filled.enrollment_year = Some("2027".into());
        let m = Memory {
            asked: vec![DIRECTION.into(), PERSONALITY.into()],
            ..Memory::default()
        };
        assert_eq!(
            phase(&filled, &m),
            Phase::Done,
            "given fields are not asked"
        );
    }
}
