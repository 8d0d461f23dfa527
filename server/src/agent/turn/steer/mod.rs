//! `steer`: code steers, the planner rows ("代码掌舵，AI 划桨").
//! After validation, code applies the form update and enforces the
//! triggers no planner may forget — the ranking when school + major are
//! complete, a recommendation when a preference arrives, the detail page on
//! an explicit choice — skips a ranking the page already shows (the
//! duplicate guard), asks for the next missing field with chips (the data
//! gap decides the phase: `agent::form`), and ends the turn at the chips.
//! The chips are about the form as this turn leaves it, their options drawn
//! from the database ([`chips`]).

mod chips;
#[cfg(test)]
mod tests;

use serde_json::{json, Value};

use app::protocol::{PageKind, RankingFilters, ToolCall, UserForm};
use app::vocabulary::PHD;

use self::chips::ChipSource;
use super::{Steered, Turn};
use crate::agent::form;
use crate::agent::tools::{
    COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS, GET_PLACE_FACTS, GET_STATISTICS,
    PRESENT_OPTIONS, RECOMMEND_ADVISORS, UPDATE_FORM, UPDATE_RANKING,
};
use crate::site::Site;

/// Reads the data besides the turn: the options of the chips.
pub(super) async fn run(site: &Site, t: &mut Turn<'_>) {
    let mut form_after = t.form().clone();
    for call in t.proposed.checked.iter().filter(|c| c.tool == UPDATE_FORM) {
        form::apply_form_update(&mut form_after, &call.params);
    }
    let offers = ChipSource::of(site, &form_after).await;
    steer(t, offers);
}

/// Steers the turn's validated calls (`t.proposed.checked`) into
/// `t.proposed.calls`, the triggers added, the chips of the next gap (from
/// `offers`) last; and the form and the fields asked as the calls leave
/// them (`t.proposed.steered`).
fn steer(t: &mut Turn<'_>, offers: ChipSource) {
    let proposed = t.proposed.checked.clone();
    let (about_form, open) = (t.plan().about_form, t.plan().open.clone());
    let mut form = t.form().clone();
    let mut memory = t.memory().clone();
    // A chip's field is asked: never offered again.
    if let Some(field) = t.proposed.clicked.as_ref().and_then(|c| c.asked.clone()) {
        if !memory.asked.contains(&field) {
            memory.asked.push(field);
        }
    }
    let form = &mut form;
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
            changed.extend(form::apply_form_update(form, &call.params));
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
        let on_screen = t.input.page.current_page == PageKind::Ranking
            && t.input.page.ranking_filters.as_ref() == Some(f);
        let wanted = pair_changed || planner_asked || !on_screen && about_form;
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
                "preferences": preferences_of(form),
            }),
            result: None,
        });
    }

    // Trigger 3: an explicit choice opens the detail page.
    if let Some((id, name)) = &open {
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
        None if about_form && !busy_elsewhere => chips::phase_chips(form, &mut memory, offers),
        None => None,
    };
    t.proposed.steered = Some(Steered {
        form: form.clone(),
        asked: memory.asked,
        pending: chips_call.clone(),
    });
    calls.extend(chips_call);
    t.proposed.calls = calls;
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
