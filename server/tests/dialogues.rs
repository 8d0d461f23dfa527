//! The dialogue suite (`server/evals/dialogues.jsonl`): every turn of every
//! conversation must meet its expectations on the embedded planner. Failures
//! are listed all at once, with what was said and done.

mod common;

use std::sync::Arc;

use server::agent::eval::{parse_suite, run_dialogue};
use server::agent::Agent;

const SUITE: &str = include_str!("../evals/dialogues.jsonl");

#[tokio::test]
async fn every_dialogue_of_the_suite_passes_on_the_embedded_planner() {
    let site = common::site().await;
    let agent = Agent::new(site.clone());
    let dialogues = parse_suite(SUITE).expect("the suite parses");
    let mut turns = 0;
    let mut failures = Vec::new();
    for d in &dialogues {
        for r in run_dialogue(&agent, &site, d).await {
            if !r.input.starts_with("visit ") {
                turns += 1;
            }
            if !r.passed() {
                failures.push(format!(
                    "[{}] turn {} «{}» → {:?} «{}»\n    {}",
                    r.dialogue,
                    r.index + 1,
                    r.input,
                    r.tools,
                    r.voice,
                    r.failures.join("\n    ")
                ));
            }
        }
    }
    let _ = Arc::clone(&site);
    assert!(
        failures.is_empty(),
        "{} of {turns} turns failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        turns >= 200,
        "the suite has {turns} turns; the issue asks for at least 200 cases"
    );
}
