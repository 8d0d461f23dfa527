//! Dialogue suites: conversations with expectations per turn, replayed
//! against the agent the way a browser would (each reply's tool results are
//! applied to the page context before the next turn). The test suite and the
//! evaluation command read the same JSONL format, one dialogue per line:
//!
//! ```json
//! {"name": "seed 4.1", "turns": [
//!   {"say": "我想考北京大学计算机系",
//!    "expect": {"form": {"school": "北京大学"}, "tools": ["update_form", "update_ranking", "present_options"],
//!               "voice_prefix": "好的，北京大学计算机系。"}},
//!   {"click": {"target_field": "personality", "values": ["温和"]}, "expect": {"tools_include": ["recommend_advisors"]}},
//!   {"visit": {"ranking": ["北京大学", "计算机科学与技术"]}},
//!   {"visit": {"advisor": "张三"}},
//!   {"visit": "home"}
//! ]}
//! ```
//!
//! Expectations (all optional): `form` (fields that must equal; `null` means
//! empty; `direction`, `personality`, `research_style`, `funding` included),
//! `tools` (the exact sequence), `tools_include`, `tools_exclude`, `params`
//! (per tool, a subset of its parameters), `first_result` (per tool, the name
//! of the first advisor of its result), `voice` (exact), `voice_prefix`,
//! `voice_contains` (all of a list), `voice_excludes` (none of a list), `intent`, `agent` (the persona), `error` (the reply's error
//! code; without it, a reply with an error fails an expectation).

use serde::Deserialize;
use serde_json::{Map, Value};

use app::model::SortKey;
use app::protocol::{
    ChatRequest, ChatResponse, OptionClick, PageContext, PageKind, SelectedAdvisor, UserForm,
};

use super::{client, Agent};
use crate::site::Site;

#[derive(Clone, Debug, Deserialize)]
pub struct Dialogue {
    pub name: String,
    pub turns: Vec<Turn>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Turn {
    #[serde(default)]
    pub say: Option<String>,
    #[serde(default)]
    pub click: Option<OptionClick>,
    #[serde(default)]
    pub visit: Option<Value>,
    #[serde(default)]
    pub expect: Option<Expect>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Expect {
    #[serde(default)]
    pub form: Option<Map<String, Value>>,
    #[serde(default)]
    pub tools: Option<Vec<String>>,
    #[serde(default)]
    pub tools_include: Vec<String>,
    #[serde(default)]
    pub tools_exclude: Vec<String>,
    #[serde(default)]
    pub params: Map<String, Value>,
    #[serde(default)]
    pub first_result: Map<String, Value>,
    #[serde(default)]
    pub voice: Option<String>,
    #[serde(default)]
    pub voice_prefix: Option<String>,
    #[serde(default)]
    pub voice_contains: Vec<String>,
    /// None of these may be said (the generic fallback, say).
    #[serde(default)]
    pub voice_excludes: Vec<String>,
    #[serde(default)]
    pub intent: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
    /// The persona that must answer (`casual` / `analysis`).
    #[serde(default)]
    pub agent: Option<String>,
}

/// How one turn went against its expectations.
#[derive(Clone, Debug)]
pub struct TurnReport {
    pub dialogue: String,
    pub index: usize,
    pub input: String,
    pub voice: String,
    pub tools: Vec<String>,
    pub failures: Vec<String>,
    /// Form fields expected / expected and right.
    pub slots: (usize, usize),
    /// Whether a tool expectation was given and met.
    pub tool_check: Option<bool>,
    pub micros: u128,
    /// From the message sent to its first spoken sentence (streamed as the
    /// panel receives it).
    pub first_voice_micros: Option<u128>,
    pub model_calls: u32,
    /// The same calls by why the model was asked.
    pub calls_by: super::ModelCalls,
    pub tokens: u32,
    /// The reply's error code, when it was an apology.
    pub error: Option<String>,
    /// Advisor names and figures spoken that neither the turn's results nor
    /// the page the student saw contain (facts only from data).
    pub unsupported: Vec<String>,
    /// Code's plan answered for a model whose answer was broken.
    pub degraded: bool,
}

impl TurnReport {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Parses a JSONL suite (blank lines and `//` comment lines are skipped).
pub fn parse_suite(text: &str) -> Result<Vec<Dialogue>, String> {
    crate::text::jsonl::parse(text)
}

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

/// Puts the emulated browser on a page, as a student clicking around would.
async fn visit(site: &Site, page: &mut PageContext, target: &Value) -> Result<(), String> {
    if target.as_str() == Some("home") {
        *page = PageContext::default();
        return Ok(());
    }
    if let Some(pair) = target.get("ranking").and_then(Value::as_array) {
        let (school, major) = (
            pair.first().and_then(Value::as_str).unwrap_or_default(),
            pair.get(1).and_then(Value::as_str).unwrap_or_default(),
        );
        let view = site
            .ranking(school, major, SortKey::Overall, 1)
            .await
            .map_err(|e| e.to_string())?;
        let app::model::RankingView::Ranking(p) = view else {
            return Err(format!("no ranking for {school}/{major}"));
        };
        page.current_page = PageKind::Ranking;
        page.visible_advisors = p.advisors.iter().map(|a| a.to_visible()).collect();
        page.selected_advisor = None;
        page.ranking_filters = Some(app::protocol::RankingFilters {
            school: p.school,
            major: p.major,
        });
        return Ok(());
    }
    if let Some(name) = target.get("advisor").and_then(Value::as_str) {
        let rows = site
            .advisors_named(name, None, None)
            .await
            .map_err(|e| e.to_string())?;
        let row = rows.first().ok_or_else(|| format!("no advisor {name}"))?;
        page.current_page = PageKind::Detail;
        page.selected_advisor = Some(SelectedAdvisor {
            id: row.id.to_string(),
            name: row.name.clone(),
        });
        return Ok(());
    }
    Err(format!("unknown visit {target}"))
}

/// Replays one dialogue in a fresh session.
pub async fn run_dialogue(agent: &Agent, site: &Site, d: &Dialogue) -> Vec<TurnReport> {
    let mut reports = Vec::new();
    let mut session_id: Option<String> = None;
    let mut page = PageContext::default();
    for (index, turn) in d.turns.iter().enumerate() {
        let mut report = TurnReport {
            dialogue: d.name.clone(),
            index,
            input: String::new(),
            voice: String::new(),
            tools: Vec::new(),
            failures: Vec::new(),
            slots: (0, 0),
            tool_check: None,
            micros: 0,
            model_calls: 0,
            first_voice_micros: None,
            calls_by: Default::default(),
            tokens: 0,
            error: None,
            unsupported: Vec::new(),
            degraded: false,
        };
        if let Some(target) = &turn.visit {
            report.input = format!("visit {target}");
            if let Err(e) = visit(site, &mut page, target).await {
                report.failures.push(e);
            }
            reports.push(report);
            continue;
        }
        let request = ChatRequest {
            session_id: session_id.clone(),
            message: turn.say.clone(),
            option: turn.click.clone(),
            page_context: page.clone(),
        };
        report.input = turn
            .say
            .clone()
            .or_else(|| {
                turn.click
                    .as_ref()
                    .map(|c| format!("click {}={:?}", c.target_field, c.values))
            })
            .unwrap_or_default();
        let started = std::time::Instant::now();
        // Through a voice sink, as the panel's stream: when the first
        // sentence would be spoken is what a student waits for.
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let sink = super::stream::VoiceSink::new(tx);
        let first_voice = tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                if matches!(event, super::stream::StreamEvent::Voice(_)) {
                    return Some(started.elapsed().as_micros());
                }
            }
            None
        });
        let outcome = agent.turn_measured(request, Some(&sink)).await;
        if let Ok((reply, _)) = &outcome {
            sink.close(reply.clone());
        }
        drop(sink);
        report.first_voice_micros = first_voice.await.ok().flatten();
        match outcome {
            Ok((reply, stats)) => {
                report.micros = started.elapsed().as_micros();
                report.model_calls = stats.model_calls;
                report.calls_by = stats.calls_by;
                report.tokens = stats.tokens;
                report.error = reply.error.as_ref().map(|e| e.code.clone());
                session_id = Some(reply.session_id.clone());
                report.unsupported = agent.unsupported_claims(&reply, &page).await;
                report.degraded = reply
                    .events
                    .iter()
                    .any(|e| e.kind == super::DEGRADED && e.data.get("claims").is_none());
                client::apply(&mut page, &reply.tool_calls);
                report.voice = reply.voice_response.clone();
                report.tools = reply.tool_calls.iter().map(|c| c.tool.clone()).collect();
                if let Some(e) = &turn.expect {
                    let (failures, slots, tool_check) = check(&reply, e);
                    report.failures = failures;
                    report.slots = slots;
                    report.tool_check = tool_check;
                }
            }
            Err(e) => report.failures.push(format!("request failed: {e}")),
        }
        reports.push(report);
    }
    reports
}

/// A suite's scores.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub dialogues: usize,
    /// Turns the student took (visits not counted) and those that passed.
    pub turns: usize,
    pub passed: usize,
    /// Form fields expected / right.
    pub slots: (usize, usize),
    /// Turns with a tool expectation / met.
    pub tool_turns: (usize, usize),
    pub model_calls: u64,
    /// The same calls by why the model was asked.
    pub calls_by: super::ModelCalls,
    /// Turns on which the model was asked at all.
    pub model_turns: usize,
    pub tokens: u64,
    /// Turns that ended in an apology.
    pub errors: usize,
    /// Spoken names and figures found in neither results nor page.
    pub unsupported: usize,
    /// Turns code answered for a broken model answer.
    pub degraded: usize,
    pub p50_micros: u128,
    pub p95_micros: u128,
    /// Time to the first spoken sentence, p50 and p95.
    pub first_voice_p50_micros: u128,
    pub first_voice_p95_micros: u128,
}

impl Summary {
    pub fn of(dialogues: usize, reports: &[TurnReport]) -> Summary {
        let turns: Vec<&TurnReport> = reports
            .iter()
            .filter(|r| !r.input.starts_with("visit "))
            .collect();
        let mut micros: Vec<u128> = turns.iter().map(|r| r.micros).collect();
        micros.sort_unstable();
        let mut first: Vec<u128> = turns.iter().filter_map(|r| r.first_voice_micros).collect();
        first.sort_unstable();
        let at = |list: &[u128], p: usize| {
            list.get((list.len() * p / 100).min(list.len().saturating_sub(1)))
                .copied()
                .unwrap_or(0)
        };
        let pct = |p: usize| at(&micros, p);
        Summary {
            dialogues,
            turns: turns.len(),
            passed: turns.iter().filter(|r| r.passed()).count(),
            slots: turns
                .iter()
                .fold((0, 0), |(a, b), r| (a + r.slots.0, b + r.slots.1)),
            tool_turns: turns
                .iter()
                .filter_map(|r| r.tool_check)
                .fold((0, 0), |(a, b), ok| (a + 1, b + usize::from(ok))),
            model_calls: turns.iter().map(|r| u64::from(r.model_calls)).sum(),
            calls_by: turns
                .iter()
                .fold(Default::default(), |mut by: super::ModelCalls, r| {
                    by.add(&r.calls_by);
                    by
                }),
            model_turns: turns.iter().filter(|r| r.model_calls > 0).count(),
            tokens: turns.iter().map(|r| u64::from(r.tokens)).sum(),
            errors: turns.iter().filter(|r| r.error.is_some()).count(),
            unsupported: turns.iter().map(|r| r.unsupported.len()).sum(),
            degraded: turns.iter().filter(|r| r.degraded).count(),
            p50_micros: pct(50),
            p95_micros: pct(95),
            first_voice_p50_micros: at(&first, 50),
            first_voice_p95_micros: at(&first, 95),
        }
    }

    /// The report the evaluation command prints under the per-turn lines.
    pub fn render(&self, planner: &str) -> String {
        let ratio = |n: usize, d: usize| {
            if d == 0 {
                "—".to_string()
            } else {
                format!("{n}/{d} ({:.1}%)", n as f64 * 100.0 / d as f64)
            }
        };
        let per_turn = |n: u64| {
            if self.turns == 0 {
                0.0
            } else {
                n as f64 / self.turns as f64
            }
        };
        format!(
            "planner            {planner}\n\
             dialogues          {}\n\
             turns passed       {}\n\
             slot accuracy      {}\n\
             tool-call accuracy {}\n\
             model calls/turn   {:.2}  ({}; asked on {} turns)\n\
             tokens/turn        {:.0}\n\
             apologies          {}\n\
             degraded to code   {}\n\
             unsupported facts  {}\n\
             latency p50 / p95  {:.2} ms / {:.2} ms\n\
             first sentence     {:.2} ms / {:.2} ms (p50 / p95)\n",
            self.dialogues,
            ratio(self.passed, self.turns),
            ratio(self.slots.1, self.slots.0),
            ratio(self.tool_turns.1, self.tool_turns.0),
            per_turn(self.model_calls),
            self.calls_by
                .named()
                .iter()
                .map(|(why, n)| format!("{why} {:.2}", per_turn(u64::from(*n))))
                .collect::<Vec<_>>()
                .join(" · "),
            self.model_turns,
            per_turn(self.tokens),
            self.errors,
            self.degraded,
            self.unsupported,
            self.p50_micros as f64 / 1000.0,
            self.p95_micros as f64 / 1000.0,
            self.first_voice_p50_micros as f64 / 1000.0,
            self.first_voice_p95_micros as f64 / 1000.0,
        )
    }
}

/// One line per turn: verdict, what was said and done, and its cost.
pub fn render_turn(r: &TurnReport) -> String {
    let verdict = if r.passed() { "PASS" } else { "FAIL" };
    if r.input.starts_with("visit ") {
        let mut line = format!("{verdict}  [{}] {}", r.dialogue, r.input);
        for f in &r.failures {
            line.push_str(&format!("\n      {f}"));
        }
        return line;
    }
    let mut line = format!(
        "{verdict}  [{}] #{} «{}» → [{}] «{}»  (model calls {}, tokens {}, {:.1} ms)",
        r.dialogue,
        r.index + 1,
        r.input,
        r.tools.join(", "),
        r.voice,
        r.model_calls,
        r.tokens,
        r.micros as f64 / 1000.0
    );
    if !r.unsupported.is_empty() {
        line.push_str(&format!(
            "\n      spoken without data: {}",
            r.unsupported.join("、")
        ));
    }
    for f in &r.failures {
        line.push_str(&format!("\n      {f}"));
    }
    line
}

/// The same suite on code alone and with a model, turn by turn: the turns
/// the model rescues (wrong or half right on code alone, right with it) and
/// those it breaks (right on code alone, wrong with it; issue 28 wants none).
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    pub turns: usize,
    pub rescued: Vec<String>,
    pub broken: Vec<String>,
}

impl Comparison {
    pub fn of(embedded: &[TurnReport], model: &[TurnReport]) -> Comparison {
        let mut out = Comparison::default();
        for (e, m) in embedded.iter().zip(model) {
            if e.input.starts_with("visit ") {
                continue;
            }
            out.turns += 1;
            let line = || {
                format!(
                    "[{}] #{} «{}» → «{}»",
                    m.dialogue,
                    m.index + 1,
                    m.input,
                    m.voice
                )
            };
            match (e.passed(), m.passed()) {
                (false, true) => out.rescued.push(line()),
                (true, false) => {
                    out.broken
                        .push(format!("{}\n      {}", line(), m.failures.join("; ")))
                }
                _ => {}
            }
        }
        out
    }

    pub fn render(&self) -> String {
        let mut text = format!(
            "turns compared     {}\nrescued by model   {}\nbroken by model    {}\n",
            self.turns,
            self.rescued.len(),
            self.broken.len()
        );
        for line in &self.broken {
            text.push_str(&format!("  BROKEN  {line}\n"));
        }
        text
    }
}
