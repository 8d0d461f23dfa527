//! A model never makes a turn worse than no model: the dialogue
//! suites replayed with a provider that is down, answers 500, answers
//! garbage, answers after the turn's latency budget or after the request's
//! deadline must equal the embedded planner's replay turn by turn — the same
//! tools, the same words — with at most a `degraded` event more. The
//! breaker (`llm::breaker`) keeps a dead provider from costing every turn
//! its retries.

use crate::common;

use server::agent::Agent;
use server::evals::dialogues::{parse_suite, run_dialogue, TurnReport};
use server::llm::LlmConfig;

const DIALOGUES: &str = include_str!("../../evals/dev/dialogues.jsonl");
const GENERALISATION: &str = include_str!("../../evals/dev/generalisation.jsonl");

fn config(base: String, extra: &[(&str, &str)]) -> LlmConfig {
    LlmConfig::from_lookup(|k| match k {
        "LLM_BASE_URL" => Some(base.clone()),
        _ => extra
            .iter()
            .find(|(key, _)| *key == k)
            .map(|(_, v)| v.to_string()),
    })
    .unwrap()
    .unwrap()
}

/// A loopback address nothing listens on.
async fn dead_url() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}/v1")
}

/// Every turn of `suite` on `agent`, over a fresh demo database.
async fn replay(
    suite: &str,
    agent: impl Fn(std::sync::Arc<server::site::Site>) -> Agent,
) -> Vec<TurnReport> {
    let site = common::site().await;
    let agent = agent(site.clone());
    let mut reports = Vec::new();
    for d in &parse_suite(suite).unwrap() {
        reports.extend(run_dialogue(&agent, &site, d).await);
    }
    reports
}

/// The turns of `faulty` that differ from `embedded`, described.
fn differences(embedded: &[TurnReport], faulty: &[TurnReport]) -> Vec<String> {
    assert_eq!(embedded.len(), faulty.len());
    embedded
        .iter()
        .zip(faulty)
        .filter(|(e, f)| e.tools != f.tools || e.voice != f.voice || e.error != f.error)
        .map(|(e, f)| {
            format!(
                "[{}] turn {} «{}»\n    no model: {:?} «{}» {:?}\n    faulty:   {:?} «{}» {:?}",
                e.dialogue,
                e.index + 1,
                e.input,
                e.tools,
                e.voice,
                e.error,
                f.tools,
                f.voice,
                f.error
            )
        })
        .collect()
}

async fn equals_the_embedded_run(base_url: String) {
    equals_the_embedded_run_with(base_url, &[]).await
}

async fn equals_the_embedded_run_with(base_url: String, extra: &[(&str, &str)]) {
    for suite in [DIALOGUES, GENERALISATION] {
        let embedded = replay(suite, Agent::new).await;
        let faulty = replay(suite, |site| {
            Agent::with_model(site, config(base_url.clone(), extra)).unwrap()
        })
        .await;
        let diff = differences(&embedded, &faulty);
        assert!(
            diff.is_empty(),
            "{} of {} turns differ from the run without a model:\n{}",
            diff.len(),
            embedded.len(),
            diff.join("\n")
        );
    }
}

#[tokio::test]
async fn a_provider_that_is_down_changes_no_turn() {
    equals_the_embedded_run(dead_url().await).await;
}

#[tokio::test]
async fn a_provider_answering_500_changes_no_turn() {
    let server =
        common::scripted(serde_json::json!([{"status": 500, "error": "internal error"}])).await;
    equals_the_embedded_run(server.base_url()).await;
}

#[tokio::test]
async fn a_provider_answering_garbage_changes_no_turn() {
    let server = common::scripted(serde_json::json!([{"raw": "data: {\"choices\": [\n\n"}])).await;
    equals_the_embedded_run(server.base_url()).await;
}

/// A model that answers, but after the turn's latency budget: code's answer
/// is spoken, the late one dropped.
#[tokio::test]
async fn a_provider_slower_than_the_turn_budget_changes_no_turn() {
    let server = common::scripted(
        serde_json::json!([{"delay_ms": 1500, "reply": {"content": "好的，我来帮你看看。"}}]),
    )
    .await;
    equals_the_embedded_run_with(server.base_url(), &[("LLM_TURN_BUDGET_SECS", "0.3")]).await;
}

/// A model that would answer after the request's own deadline (30 s): the
/// turn's budget ends it long before.
#[tokio::test]
async fn a_provider_slower_than_the_request_deadline_changes_no_turn() {
    let server = common::scripted(
        serde_json::json!([{"delay_ms": 60000, "reply": {"content": "好的，我来帮你看看。"}}]),
    )
    .await;
    equals_the_embedded_run_with(
        server.base_url(),
        &[("LLM_TURN_BUDGET_SECS", "0.3"), ("LLM_TIMEOUT_SECS", "120")],
    )
    .await;
}
