//! Judging one reply against a turn's expectations: the form fields, the
//! tool calls and their parameters and results, what was said, the persona,
//! the intent and the error code. Kept apart so the expectation rules change
//! without touching how dialogues are replayed.

use serde_json::Value;

use app::protocol::{ChatResponse, UserForm};

use super::Expect;

fn form_value(form: &UserForm, field: &str) -> Option<String> {
    match field {
        "school" => form.school.clone(),
        "major" => form.major.clone(),
        "research_direction" | "direction" => form.research_direction.clone(),
        "personality" => form.preferences.personality.clone(),
        "research_style" => form.preferences.research_style.clone(),
        "funding" => form.preferences.funding.clone(),
        "degree_type" => form.degree_type.clone(),
        "enrollment_year" => form.enrollment_year.clone(),
        _ => None,
    }
}

/// Checks a reply against an expectation; returns the failures.
pub fn check(reply: &ChatResponse, e: &Expect) -> (Vec<String>, (usize, usize), Option<bool>) {
    let mut f = Vec::new();
    let tools: Vec<&str> = reply.tool_calls.iter().map(|c| c.tool.as_str()).collect();
    let mut slots = (0, 0);
    if let Some(form) = &e.form {
        for (field, want) in form {
            slots.0 += 1;
            let got = form_value(&reply.form, field);
            let ok = match want {
                Value::Null => got.is_none(),
                Value::String(s) => got.as_deref() == Some(s.as_str()),
                _ => false,
            };
            if ok {
                slots.1 += 1;
            } else {
                f.push(format!("form.{field}: want {want}, got {got:?}"));
            }
        }
    }
    let mut tool_ok = None;
    let mut tool_fail = |msg: String, f: &mut Vec<String>| {
        tool_ok = Some(false);
        f.push(msg);
    };
    if let Some(want) = &e.tools {
        if tools != want.iter().map(String::as_str).collect::<Vec<_>>() {
            tool_fail(format!("tools: want {want:?}, got {tools:?}"), &mut f);
        }
    }
    for t in &e.tools_include {
        if !tools.contains(&t.as_str()) {
            tool_fail(format!("tools: {t} missing in {tools:?}"), &mut f);
        }
    }
    for t in &e.tools_exclude {
        if tools.contains(&t.as_str()) {
            tool_fail(format!("tools: {t} unexpected in {tools:?}"), &mut f);
        }
    }
    for (tool, want) in &e.params {
        match reply.tool_calls.iter().find(|c| &c.tool == tool) {
            Some(c) => {
                for (k, v) in want.as_object().into_iter().flatten() {
                    if c.params.get(k) != Some(v) {
                        tool_fail(
                            format!("{tool}.{k}: want {v}, got {:?}", c.params.get(k)),
                            &mut f,
                        );
                    }
                }
            }
            None => tool_fail(format!("params: no {tool} call"), &mut f),
        }
    }
    for (tool, name) in &e.first_result {
        let got = reply
            .tool_calls
            .iter()
            .find(|c| &c.tool == tool)
            .and_then(|c| c.result.as_ref())
            .and_then(|r| r.get("advisors"))
            .and_then(|a| a.get(0))
            .and_then(|a| a.get("name"))
            .cloned();
        if got.as_ref() != Some(name) {
            tool_fail(
                format!("{tool} first result: want {name}, got {got:?}"),
                &mut f,
            );
        }
    }
    if tool_ok.is_none()
        && (e.tools.is_some() || !e.tools_include.is_empty() || !e.tools_exclude.is_empty())
    {
        tool_ok = Some(true);
    }
    let voice = &reply.voice_response;
    if let Some(v) = &e.voice {
        if voice != v {
            f.push(format!("voice: want {v:?}, got {voice:?}"));
        }
    }
    if let Some(p) = &e.voice_prefix {
        if !voice.starts_with(p.as_str()) {
            f.push(format!("voice: want prefix {p:?}, got {voice:?}"));
        }
    }
    for c in &e.voice_contains {
        if !voice.contains(c.as_str()) {
            f.push(format!("voice: want {c:?} in {voice:?}"));
        }
    }
    for c in &e.voice_excludes {
        if voice.contains(c.as_str()) {
            f.push(format!("voice: {c:?} must not be in {voice:?}"));
        }
    }
    if let Some(a) = &e.agent {
        if &reply.agent != a {
            f.push(format!("agent: want {a}, got {}", reply.agent));
        }
    }
    if let Some(i) = &e.intent {
        if &reply.intent.intent != i {
            f.push(format!("intent: want {i}, got {}", reply.intent.intent));
        }
    }
    match (&e.error, &reply.error) {
        (Some(want), Some(got)) if want != &got.code => {
            f.push(format!("error: want {want}, got {}", got.code))
        }
        (Some(want), None) => f.push(format!("error: want {want}, got none")),
        (None, Some(got)) => f.push(format!("error: {} ({})", got.code, got.message)),
        _ => {}
    }
    if voice.chars().count() > crate::voice::MAX_CHARS {
        f.push(format!(
            "voice over {} characters: {voice}",
            crate::voice::MAX_CHARS
        ));
    }
    (f, slots, tool_ok)
}
