//! The model's prompt, assembled per turn from the files in `prompts/model/`
//! (no prompt text lives in Rust code): the system prompt, the task of the
//! current phase (the data gaps decide it),
//! the form and the page context, what this turn's tool choice means where
//! the server cannot enforce it, the history trimmed to a token budget, and
//! the student's message.

use serde_json::{json, Value};

use app::protocol::{PageContext, UserForm};

use super::{Plan, PlanInput};
use crate::agent::form::{self, Phase};
use crate::agent::tools::UPDATE_FORM;
use crate::llm::wire::WireMessage;
use crate::llm::ToolMode;
pub use crate::text::templates::fill;

const SYSTEM: &str = include_str!("../../../../prompts/model/system.txt");
const CASUAL: &str = include_str!("../../../../prompts/model/casual.txt");
const CONTEXT: &str = include_str!("../../../../prompts/model/context.txt");
const ASK_SCHOOL: &str = include_str!("../../../../prompts/model/phases/ask_school.txt");
const ASK_MAJOR: &str = include_str!("../../../../prompts/model/phases/ask_major.txt");
const OFFER_DIRECTION: &str = include_str!("../../../../prompts/model/phases/offer_direction.txt");
const OFFER_PERSONALITY: &str =
    include_str!("../../../../prompts/model/phases/offer_personality.txt");
const OFFER_DEGREE: &str = include_str!("../../../../prompts/model/phases/offer_degree.txt");
const OFFER_YEAR: &str = include_str!("../../../../prompts/model/phases/offer_year.txt");
const DONE: &str = include_str!("../../../../prompts/model/phases/done.txt");
const TOOL_NONE: &str = include_str!("../../../../prompts/model/tool_none.txt");
const TOOL_FORCED: &str = include_str!("../../../../prompts/model/tool_forced.txt");
const JSON_OUTPUT: &str = include_str!("../../../../prompts/model/json_output.txt");
const TURN: &str = include_str!("../../../../prompts/model/turn.txt");
const HISTORY_TOOLS: &str = include_str!("../../../../prompts/model/history_tools.txt");
const UNDERSTOOD: &str = include_str!("../../../../prompts/model/understood.txt");

/// Which tools the model may call this turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolChoice {
    /// The model decides.
    Auto,
    /// A casual answer: no tools.
    None,
    /// The code knows this turn needs this tool.
    Force(&'static str),
}

impl ToolChoice {
    /// The `tool_choice` field of a function-calling request.
    pub fn wire(&self) -> Value {
        match self {
            ToolChoice::Auto => json!("auto"),
            ToolChoice::None => json!("none"),
            ToolChoice::Force(name) => json!({"type": "function", "function": {"name": name}}),
        }
    }
}

const FLOW: &str = include_str!("../../../../prompts/model/flow.conf");

/// The name of a phase in `prompts/model/flow.conf` (and of its task file).
pub fn phase_key(phase: Phase) -> &'static str {
    match phase {
        Phase::AskSchool => "ask_school",
        Phase::AskMajor => "ask_major",
        Phase::OfferDirection => "offer_direction",
        Phase::OfferPersonality => "offer_personality",
        Phase::OfferDegree => "offer_degree",
        Phase::OfferYear => "offer_year",
        Phase::Done => "done",
    }
}

/// The temperature `prompts/model/flow.conf` gives `key` (a phase's key or
/// `casual`); `None` when it gives none. The file is read once, on first use
/// (every model call asks).
pub fn temperature(key: &str) -> Option<f32> {
    static TEMPERATURES: std::sync::OnceLock<Vec<(String, f32)>> = std::sync::OnceLock::new();
    TEMPERATURES
        .get_or_init(|| {
            crate::text::lexfile::parse("flow.conf", FLOW)
                .into_iter()
                .filter_map(|e| {
                    let t = e.terms.first()?.parse::<f32>().ok()?;
                    (0.0..=2.0).contains(&t).then_some((e.key, t))
                })
                .collect()
        })
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, t)| *t)
}

/// The phase's task, with the form's values filled in.
pub fn phase_task(form: &UserForm, phase: Phase) -> String {
    let template = match phase {
        Phase::AskSchool => ASK_SCHOOL,
        Phase::AskMajor => ASK_MAJOR,
        Phase::OfferDirection => OFFER_DIRECTION,
        Phase::OfferPersonality => OFFER_PERSONALITY,
        Phase::OfferDegree => OFFER_DEGREE,
        Phase::OfferYear => OFFER_YEAR,
        Phase::Done => DONE,
    };
    let or_none = |v: &Option<String>| v.clone().unwrap_or_else(|| "未填".to_string());
    fill(
        template,
        &[
            ("school", &or_none(&form.school)),
            ("major", &or_none(&form.major)),
            ("direction", &or_none(&form.research_direction)),
        ],
    )
}

/// The page context as the model reads it: compact JSON, at most the first
/// `limit` advisors of the list (the ranking's top is what "第一个" means).
fn page_json(page: &PageContext, limit: usize) -> String {
    let mut page = page.clone();
    page.visible_advisors.truncate(limit);
    serde_json::to_string(&page).unwrap_or_default()
}

/// A rough token count: a Chinese character is about one token, four ASCII
/// characters about one. Used only to keep history under its budget.
pub fn estimate_tokens(text: &str) -> usize {
    let (wide, narrow): (usize, usize) =
        text.chars().fold(
            (0, 0),
            |(w, n), c| if c.is_ascii() { (w, n + 1) } else { (w + 1, n) },
        );
    wide + narrow.div_ceil(4)
}

/// Advisors of the page shown to the model.
const PAGE_ADVISORS: usize = 20;

/// The messages of one turn.
pub fn messages(
    input: &PlanInput<'_>,
    choice: &ToolChoice,
    mode: ToolMode,
    tools: &Value,
    history_budget: usize,
) -> Vec<WireMessage> {
    // The system message is the same on every turn (the rules, and in JSON
    // mode the tools), so a server that caches prompts — llama.cpp, vLLM,
    // DeepSeek — reuses it and the tools block its chat template puts after
    // it; what changes per turn (phase, form, page, what code understood)
    // goes with the student's message, last.
    let mut system = vec![SYSTEM.trim().to_string()];
    if mode == ToolMode::Json {
        let listed = tools
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|t| t["function"].to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        system.push(fill(JSON_OUTPUT, &[("tools", &listed)]));
    }
    let phase = form::phase(input.form, input.memory);
    let mut state = vec![
        phase_task(input.form, phase),
        fill(
            CONTEXT,
            &[
                (
                    "form",
                    &serde_json::to_string(input.form).unwrap_or_default(),
                ),
                ("page", &page_json(input.page, PAGE_ADVISORS)),
            ],
        ),
    ];
    if let Some(plan) = input.understood {
        state.push(fill(UNDERSTOOD, &[("facts", &understood(plan))]));
    }
    match choice {
        ToolChoice::Auto => {}
        ToolChoice::None => state.push(TOOL_NONE.trim().to_string()),
        // Function calling enforces it; JSON mode can only ask.
        ToolChoice::Force(name) if mode == ToolMode::Json => {
            state.push(fill(TOOL_FORCED, &[("tool", name)]))
        }
        ToolChoice::Force(_) => {}
    }
    let mut out = vec![WireMessage::new("system", system.join("\n\n"))];
    out.extend(history(input, history_budget));
    out.push(WireMessage::new(
        "user",
        fill(
            TURN,
            &[
                ("state", &state.join("\n\n")),
                ("message", input.message.trim()),
            ],
        ),
    ));
    out
}

/// Code's plan as the facts line of the prompt: the form values it found,
/// the tools it will run (with the advisor they are about), what it says.
pub fn understood(plan: &Plan) -> String {
    let mut parts = Vec::new();
    for call in &plan.tool_calls {
        match call.tool.as_str() {
            UPDATE_FORM => {
                parts.push(format!(
                    "表单 {}",
                    serde_json::to_string(&call.params).unwrap_or_default()
                ));
            }
            tool => match call.params.get("advisor_name").and_then(Value::as_str) {
                Some(name) => parts.push(format!("{tool}（{name}）")),
                None => parts.push(tool.to_string()),
            },
        }
    }
    if !plan.voice_response.trim().is_empty() {
        parts.push(format!("回答「{}」", plan.voice_response.trim()));
    }
    if parts.is_empty() {
        "（没有确定任何字段或操作）".to_string()
    } else {
        parts.join("；")
    }
}

/// The casual persona's messages: its own system prompt, the form (so it
/// knows what the student is aiming for), the shared history, the message.
pub fn casual_messages(input: &PlanInput<'_>, history_budget: usize) -> Vec<WireMessage> {
    let system = [
        CASUAL.trim().to_string(),
        fill(
            CONTEXT,
            &[
                (
                    "form",
                    &serde_json::to_string(input.form).unwrap_or_default(),
                ),
                ("page", &page_json(input.page, 0)),
            ],
        ),
    ];
    let mut out = vec![WireMessage::new("system", system.join("\n\n"))];
    out.extend(history(input, history_budget));
    out.push(WireMessage::new("user", input.message.trim()));
    out
}

/// The newest history lines that fit the budget, oldest first. Assistant
/// lines say which tools ran. A history that starts with an assistant line is
/// allowed (the budget may cut a user line off).
fn history(input: &PlanInput<'_>, budget: usize) -> Vec<WireMessage> {
    let mut used = 0;
    let mut kept = Vec::new();
    for entry in input.history.iter().rev() {
        let role = match entry.role.as_str() {
            "user" | "assistant" => entry.role.as_str(),
            _ => continue,
        };
        let mut content = entry.content.trim().to_string();
        if role == "assistant" && !entry.tools.is_empty() {
            content.push_str(&fill(HISTORY_TOOLS, &[("tools", &entry.tools.join("、"))]));
        }
        if content.is_empty() {
            continue;
        }
        let cost = estimate_tokens(&content) + 4;
        if used + cost > budget {
            break;
        }
        used += cost;
        kept.push(WireMessage::new(role, content));
    }
    kept.reverse();
    kept
}

#[cfg(test)]
mod flow_tests {
    use super::*;

    #[test]
    fn every_phase_has_a_temperature_and_the_last_is_the_lowest() {
        let phases = [
            Phase::AskSchool,
            Phase::AskMajor,
            Phase::OfferDirection,
            Phase::OfferPersonality,
            Phase::OfferDegree,
            Phase::OfferYear,
            Phase::Done,
        ];
        let temps: Vec<f32> = phases
            .iter()
            .map(|p| temperature(phase_key(*p)).unwrap_or_else(|| panic!("{p:?}")))
            .collect();
        let done = temperature("done").unwrap();
        assert!(temps.iter().all(|t| *t >= done));
        assert!(temperature("casual").is_some());
        assert_ne!(temperature("ask_school"), temperature("offer_direction"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::memory::Memory;
    use crate::agent::nlu::Analysis;
    use crate::agent::session_store::HistoryEntry;

    fn entry(role: &str, content: &str, tools: &[&str]) -> HistoryEntry {
        HistoryEntry {
            role: role.into(),
            content: content.into(),
            tools: tools.iter().map(|t| t.to_string()).collect(),
        }
    }

    #[test]
    fn the_prompt_carries_phase_form_page_and_trimmed_history() {
        let analysis = Analysis::default();
        let form = UserForm {
            school: Some("北京大学".into()),
            ..UserForm::default()
        };
        let memory = Memory::default();
        let page = PageContext::default();
        let history: Vec<HistoryEntry> = (0..40)
            .flat_map(|i| {
                [
                    entry("user", &format!("第{i}句话，说了一些关于导师的事情"), &[]),
                    entry("assistant", &format!("第{i}句回答。"), &["update_form"]),
                ]
            })
            .collect();
        let input = PlanInput {
            message: "计算机",
            analysis: &analysis,
            resolved: &Default::default(),
            form: &form,
            memory: &memory,
            page: &page,
            history: &history,
            turn: 3,
            understood: None,
            voice: None,
        };
        let m = messages(
            &input,
            &ToolChoice::Auto,
            ToolMode::Functions,
            &json!([]),
            200,
        );
        assert_eq!(m[0].role, "system");
        assert!(m[0].content.contains("导师推荐") || m[0].content.contains("择导助手"));
        // The system message is the same whatever the turn (prompt caches).
        assert!(!m[0].content.contains("还不知道专业"), "{}", m[0].content);
        let last = &m.last().unwrap().content;
        assert!(last.contains("学校是北京大学，还不知道专业"), "{last}");
        assert!(last.contains("\"school\":\"北京大学\""));
        assert!(last.contains("\"current_page\""));
        assert!(last.ends_with("【学生说】\n计算机"), "{last}");
        let kept = &m[1..m.len() - 1];
        assert!(
            !kept.is_empty() && kept.len() < 80,
            "{} lines kept",
            kept.len()
        );
        let cost: usize = kept.iter().map(|w| estimate_tokens(&w.content) + 4).sum();
        assert!(cost <= 200);
        // The newest lines are the ones kept, with the tools that ran.
        assert!(kept.last().unwrap().content.starts_with("第39句回答。"));
        assert!(kept.last().unwrap().content.contains("update_form"));
    }

    #[test]
    fn json_mode_lists_the_tools_and_asks_for_forced_ones() {
        let analysis = Analysis::default();
        let form = UserForm::default();
        let memory = Memory::default();
        let page = PageContext::default();
        let input = PlanInput {
            message: "你好",
            analysis: &analysis,
            resolved: &Default::default(),
            form: &form,
            memory: &memory,
            page: &page,
            history: &[],
            turn: 0,
            understood: None,
            voice: None,
        };
        let tools = json!([{"type": "function", "function": {"name": "update_form", "description": "更新表单"}}]);
        let m = messages(
            &input,
            &ToolChoice::Force("update_form"),
            ToolMode::Json,
            &tools,
            100,
        );
        assert!(m[0].content.contains("voice_response"));
        assert!(m[0].content.contains("\"name\":\"update_form\""));
        assert!(m
            .last()
            .unwrap()
            .content
            .contains("必须调用工具 update_form"));
        assert_eq!(ToolChoice::None.wire(), json!("none"));
        assert_eq!(ToolChoice::Force("x").wire()["function"]["name"], "x");
    }
}
