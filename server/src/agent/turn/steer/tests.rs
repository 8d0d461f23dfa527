//! The steering's triggers, duplicate guard and phase chips, on turns built
//! from a form, a memory, a page and a plan.

use serde_json::{json, Value};

use app::protocol::{PageContext, PageKind, RankingFilters, ToolCall, UserForm, ANALYSIS};
use app::vocabulary::{DEGREE, DIRECTION, PERSONALITY, YEAR};

use super::chips::ChipSource;
use super::{steer, Turn};
use crate::agent::form::{phase, Phase};
use crate::agent::memory::Memory;
use crate::agent::planner::Plan;
use crate::agent::session_store::SessionStore;
use crate::agent::tools::{
    GET_ADVISOR_DETAIL, PRESENT_OPTIONS, RECOMMEND_ADVISORS, UPDATE_FORM, UPDATE_RANKING,
};
use crate::agent::{Action, Prepared};

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

fn source() -> ChipSource {
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

fn about_form() -> Plan {
    Plan {
        about_form: true,
        ..Plan::default()
    }
}

/// The turn after steering `proposed` from `form` and `memory` on
/// `page`, with `plan`'s flags (about the form, an advisor to open).
fn steered(
    proposed: Vec<ToolCall>,
    form: &UserForm,
    memory: &Memory,
    page: &PageContext,
    plan: Plan,
) -> Turn<'static> {
    let mut session = SessionStore::open(ANALYSIS);
    session.form = form.clone();
    session.memory = memory.clone();
    let prepared = Prepared {
        session,
        draft: None,
        page: page.clone(),
        act: Action::Text(String::new()),
    };
    let mut t = Turn::new(prepared, None);
    t.proposed.checked = proposed;
    t.proposed.plan = plan;
    steer(&mut t, source());
    t
}

#[test]
fn a_complete_form_triggers_the_ranking_even_if_the_planner_forgot() {
    let page = PageContext::default();
    let out = steered(
        vec![update(
            json!({"school": "北京大学", "major": "计算机科学与技术"}),
        )],
        &UserForm::default(),
        &Memory::default(),
        &page,
        about_form(),
    );
    assert_eq!(
        tools(&out.proposed.calls),
        vec![UPDATE_FORM, UPDATE_RANKING, PRESENT_OPTIONS]
    );
    assert_eq!(out.proposed.calls[1].params["school"], "北京大学");
    assert_eq!(out.proposed.calls[2].params["target_field"], DIRECTION);
    assert_eq!(out.proposed.calls[2].params["multi_select"], true);
    assert!(out.form().status().is_complete);
    assert_eq!(out.memory_after().asked, vec![DIRECTION]);
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
    let out = steered(
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
        &page,
        about_form(),
    );
    assert!(
        !tools(&out.proposed.calls).contains(&UPDATE_RANKING),
        "{:?}",
        tools(&out.proposed.calls)
    );
}

#[test]
fn a_preference_with_a_complete_form_triggers_a_recommendation() {
    let page = PageContext::default();
    let before = form(Some("北京大学"), Some("计算机科学与技术"));
    let out = steered(
        vec![update(
            json!({"research_direction": "机器学习", "preferences": {"personality": "温和"}}),
        )],
        &before,
        &Memory {
            asked: vec![DIRECTION.into()],
            ..Memory::default()
        },
        &page,
        Plan {
            about_form: true,
            open: None,
            ..Plan::default()
        },
    );
    let names = tools(&out.proposed.calls);
    assert!(names.contains(&RECOMMEND_ADVISORS), "{names:?}");
    let rec = out
        .proposed
        .calls
        .iter()
        .find(|c| c.tool == RECOMMEND_ADVISORS)
        .unwrap();
    assert_eq!(rec.params["preferences"]["personality"], "温和");
    assert_eq!(rec.params["preferences"]["research_direction"], "机器学习");
    // The next gap is asked in the same turn: the degree type.
    let chips = out.proposed.calls.last().unwrap();
    assert_eq!(chips.tool, PRESENT_OPTIONS);
    assert_eq!(chips.params["target_field"], DEGREE);
    assert_eq!(phase(out.form(), &out.memory_after()), Phase::OfferYear);
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
        steered(
            vec![update(json!({"degree_type": degree}))],
            &before,
            &memory,
            &page,
            about_form(),
        )
    };
    let phd = run("直博");
    assert!(tools(&phd.proposed.calls).contains(&RECOMMEND_ADVISORS));
    assert_eq!(phd.form().degree_type.as_deref(), Some("直博"));
    let master = run("学硕");
    assert!(!tools(&master.proposed.calls).contains(&RECOMMEND_ADVISORS));
    // Then the enrollment year is asked, with the years of the source.
    let chips = master.proposed.calls.last().unwrap();
    assert_eq!(chips.params["target_field"], YEAR);
    assert_eq!(chips.params["options"][0], "2027");
}

#[test]
fn missing_fields_are_asked_in_order_with_chips() {
    let page = PageContext::default();
    let out = steered(
        vec![update(json!({"major": "计算机科学与技术"}))],
        &UserForm::default(),
        &Memory::default(),
        &page,
        about_form(),
    );
    assert_eq!(
        tools(&out.proposed.calls),
        vec![UPDATE_FORM, PRESENT_OPTIONS]
    );
    assert_eq!(out.proposed.calls[1].params["target_field"], "school");
    let out = steered(
        vec![update(json!({"school": "北京大学"}))],
        &UserForm::default(),
        &Memory::default(),
        &page,
        about_form(),
    );
    assert_eq!(out.proposed.calls[1].params["target_field"], "major");
}

#[test]
fn the_turn_stops_at_the_first_chips() {
    let page = PageContext::default();
    let chip = ToolCall {
        tool: PRESENT_OPTIONS.into(),
        params: json!({"question": "q", "options": ["a", "b"], "target_field": "general"}),
        result: None,
    };
    let out = steered(
        vec![chip.clone(), update(json!({"school": "北京大学"})), chip],
        &UserForm::default(),
        &Memory::default(),
        &page,
        Plan {
            about_form: false,
            open: None,
            ..Plan::default()
        },
    );
    assert_eq!(
        tools(&out.proposed.calls),
        vec![PRESENT_OPTIONS],
        "nothing after the chips runs"
    );
    assert_eq!(*out.form(), UserForm::default());
    assert!(out.memory_after().pending.is_some());
}

#[test]
fn an_explicit_choice_opens_the_detail_page() {
    let page = PageContext::default();
    let out = steered(
        vec![],
        &UserForm::default(),
        &Memory::default(),
        &page,
        Plan {
            about_form: false,
            open: Some(("1".into(), "张三".into())),
            ..Plan::default()
        },
    );
    assert_eq!(tools(&out.proposed.calls), vec![GET_ADVISOR_DETAIL]);
}
