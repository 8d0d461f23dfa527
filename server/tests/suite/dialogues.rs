//! The dialogue suite (`server/evals/dev/dialogues.jsonl`): every turn of every
//! conversation must meet its expectations on the embedded planner. Failures
//! are listed all at once, with what was said and done.

use crate::common;

use std::sync::Arc;

use server::agent::Agent;
use server::evals::dialogues::{parse_suite, run_dialogue};

const SUITE: &str = include_str!("../../evals/dev/dialogues.jsonl");
/// Phrasings of the categories the NLU used to fail.
const GENERALISATION: &str = include_str!("../../evals/dev/generalisation.jsonl");
/// The review coach's conversation, the one `make eval-model` runs on a model.
const COACH_DIALOGUE: &str = include_str!("../../evals/dev/coach-dialogue.jsonl");

/// Every turn of `suite` on the embedded planner: the turns taken, and a
/// line for each that failed.
async fn replay(suite: &str) -> (usize, Vec<String>) {
    let site = common::site().await;
    let agent = Agent::new(site.clone());
    let dialogues = parse_suite(suite).expect("the suite parses");
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
    (turns, failures)
}

#[tokio::test]
async fn every_dialogue_of_the_suite_passes_on_the_embedded_planner() {
    let (turns, failures) = replay(SUITE).await;
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

/// Background versus goal, alternatives, chips answered in words, a name
/// said earlier while another page is open, traditional characters,
/// English abbreviations, a postponed school, another school's first place.
#[tokio::test]
async fn the_generalisation_suite_passes_on_the_embedded_planner() {
    let (turns, failures) = replay(GENERALISATION).await;
    assert!(
        failures.is_empty(),
        "{} of {turns} turns failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(turns >= 30, "{turns} turns");
}

/// `server eval` end to end: the binary replays the seed suite on a fresh
/// copy of the demo data and prints per-turn verdicts and the scores.
#[test]
fn the_eval_command_scores_the_seed_suite() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/evals/dev/seed.jsonl");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["eval", suite, "--strict"])
        // The embedded planner, whatever the developer's shell has set.
        .env_remove("LLM_BASE_URL")
        .env_remove("LLM_API_KEY")
        .env_remove("LLM_MODEL")
        .output()
        .expect("the server binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let turns = parse_suite(&std::fs::read_to_string(suite).unwrap())
        .unwrap()
        .iter()
        .flat_map(|d| d.turns.iter())
        .filter(|t| t.visit.is_none())
        .count();
    assert!(
        stdout.contains("PASS  [the whole conversation] #1 «我想考北京大学计算机系»"),
        "{stdout}"
    );
    assert!(stdout.contains("planner            embedded"), "{stdout}");
    assert!(
        stdout.contains(&format!("turns passed       {turns}/{turns} (100.0%)")),
        "{stdout}"
    );
    assert!(stdout.contains("model calls/turn   0.00"), "{stdout}");
    assert!(stdout.contains("slot accuracy") && stdout.contains("tool-call accuracy"));
}

#[test]
fn a_missing_suite_is_a_clear_error() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .args(["eval", "/nonexistent/suite.jsonl"])
        .output()
        .expect("the server binary runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("无法读取"));
}

#[tokio::test]
async fn the_coach_dialogue_passes_on_the_embedded_planner() {
    let (turns, failures) = replay(COACH_DIALOGUE).await;
    assert!(
        failures.is_empty(),
        "{} of {turns} turns failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(turns >= 6);
}
