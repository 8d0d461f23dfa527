//! Replaying a dialogue the way a browser would (visits, messages, option
//! clicks, each reply's tool results applied to the page) and what one turn
//! yields: its report and the line the evaluation command prints for it.

use serde_json::Value;

use app::model::SortKey;
use app::protocol::{ChatRequest, PageContext, PageKind, SelectedAdvisor};

use super::{check, Dialogue};
use crate::agent::session_store::Caller;
use crate::agent::{stream, Agent, ModelCalls, DEGRADED};
use crate::site::Site;

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
    pub calls_by: ModelCalls,
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
        let sink = stream::VoiceSink::new(tx);
        let first_voice = tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                if matches!(event, stream::StreamEvent::Voice(_)) {
                    return Some(started.elapsed().as_micros());
                }
            }
            None
        });
        let outcome = match agent.prepare(request, Caller::local()).await {
            Ok(prepared) => Ok(agent.run(prepared, Some(&sink)).await),
            Err(e) => Err(e),
        };
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
                    .any(|e| e.kind == DEGRADED && e.data.get("claims").is_none());
                page = app::reply::page_after(&page, &reply.tool_calls);
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
