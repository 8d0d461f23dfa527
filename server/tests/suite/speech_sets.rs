//! Every first request of the speech sets (`server/evals/dev/asr-requests*.jsonl`),
//! and of the requests only ever typed (`requests-typed.jsonl`: English,
//! pinyin, mixed), typed: `make eval-asr` speaks them through the recognizer, which needs
//! its own setup, but what code understands of the words as written is
//! checked here on every run, so that a change for one phrasing cannot
//! quietly lose another. Understood means what the speech evaluation
//! counts: the turn fills exactly that school and major, or answers a
//! question about exactly them (「武汉大学的金融学怎么样」 is answered from
//! the data without filling the form).

use crate::common;

use serde_json::{json, Value};

use server::agent::Agent;
use server::evals::dialogues::{parse_suite, run_dialogue};

const SETS: &[(&str, &str)] = &[
    (
        "asr-requests",
        include_str!("../../evals/dev/asr-requests.jsonl"),
    ),
    (
        "asr-requests-2",
        include_str!("../../evals/dev/asr-requests-2.jsonl"),
    ),
    (
        "asr-requests-3",
        include_str!("../../evals/dev/asr-requests-3.jsonl"),
    ),
    (
        "asr-requests-4",
        include_str!("../../evals/dev/asr-requests-4.jsonl"),
    ),
    (
        "asr-requests-5",
        include_str!("../../evals/dev/asr-requests-5.jsonl"),
    ),
    (
        "asr-requests-6",
        include_str!("../../evals/dev/asr-requests-6.jsonl"),
    ),
    (
        "asr-requests-7",
        include_str!("../../evals/dev/asr-requests-7.jsonl"),
    ),
    (
        "asr-requests-8",
        include_str!("../../evals/dev/asr-requests-8.jsonl"),
    ),
    (
        "asr-requests-9",
        include_str!("../../evals/dev/asr-requests-9.jsonl"),
    ),
    (
        "asr-requests-10",
        include_str!("../../evals/dev/asr-requests-10.jsonl"),
    ),
    (
        "asr-requests-11",
        include_str!("../../evals/dev/asr-requests-11.jsonl"),
    ),
    (
        "asr-requests-12",
        include_str!("../../evals/dev/asr-requests-12.jsonl"),
    ),
    (
        "asr-requests-13",
        include_str!("../../evals/dev/asr-requests-13.jsonl"),
    ),
    (
        "asr-requests-14",
        include_str!("../../evals/dev/asr-requests-14.jsonl"),
    ),
    (
        "asr-requests-15",
        include_str!("../../evals/dev/asr-requests-15.jsonl"),
    ),
    (
        "asr-requests-16",
        include_str!("../../evals/dev/asr-requests-16.jsonl"),
    ),
    (
        "asr-requests-17",
        include_str!("../../evals/dev/asr-requests-17.jsonl"),
    ),
    (
        "asr-requests-18",
        include_str!("../../evals/dev/asr-requests-18.jsonl"),
    ),
    (
        "asr-requests-19",
        include_str!("../../evals/dev/asr-requests-19.jsonl"),
    ),
    (
        "asr-requests-20",
        include_str!("../../evals/dev/asr-requests-20.jsonl"),
    ),
    (
        "asr-requests-22",
        include_str!("../../evals/dev/asr-requests-22.jsonl"),
    ),
    (
        "asr-requests-23",
        include_str!("../../evals/dev/asr-requests-23.jsonl"),
    ),
    (
        "asr-requests-24",
        include_str!("../../evals/dev/asr-requests-24.jsonl"),
    ),
    (
        "asr-requests-25",
        include_str!("../../evals/dev/asr-requests-25.jsonl"),
    ),
    (
        "asr-requests-26",
        include_str!("../../evals/dev/asr-requests-26.jsonl"),
    ),
    (
        "asr-requests-27",
        include_str!("../../evals/dev/asr-requests-27.jsonl"),
    ),
    (
        "asr-requests-28",
        include_str!("../../evals/dev/asr-requests-28.jsonl"),
    ),
    (
        "asr-requests-29",
        include_str!("../../evals/dev/asr-requests-29.jsonl"),
    ),
    (
        "asr-requests-30",
        include_str!("../../evals/dev/asr-requests-30.jsonl"),
    ),
    (
        "asr-requests-31",
        include_str!("../../evals/dev/asr-requests-31.jsonl"),
    ),
    (
        "asr-requests-32",
        include_str!("../../evals/dev/asr-requests-32.jsonl"),
    ),
    (
        "asr-requests-33",
        include_str!("../../evals/dev/asr-requests-33.jsonl"),
    ),
    (
        "asr-requests-34",
        include_str!("../../evals/dev/asr-requests-34.jsonl"),
    ),
    (
        "asr-requests-35",
        include_str!("../../evals/dev/asr-requests-35.jsonl"),
    ),
    // Requests only ever typed (English, toneless pinyin, mixed, IME
    // slips): the same bar with no recognizer in between.
    (
        "requests-typed",
        include_str!("../../evals/dev/requests-typed.jsonl"),
    ),
    // Held out: measured once, misses not worked on. Set 21's typed
    // requests were all understood at first contact; set 36's were 58/60,
    // so it is not held here until it is read.
    (
        "asr-requests-21",
        include_str!("../../evals/blind/asr-requests-21.jsonl"),
    ),
];

/// One dialogue of a single turn: `say`, expecting `expect`.
fn one_turn(name: &str, say: &str, expect: Value) -> String {
    json!({"name": name, "turns": [{"say": say, "expect": expect}]}).to_string()
}

/// The rows of a JSON Lines file, its comments skipped.
fn rows(text: &str) -> impl Iterator<Item = Value> + '_ {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .map(|l| serde_json::from_str(l).expect("a speech set line is JSON"))
}

/// Whether `say`, as the first turn, fills exactly the row's school and
/// major or answers a question about exactly them; else what was seen.
async fn understood(
    agent: &Agent,
    site: &server::site::Site,
    name: &str,
    say: &str,
    row: &Value,
) -> Result<(), String> {
    let (school, major) = (&row["school"], &row["major"]);
    let filled = one_turn(
        name,
        say,
        json!({"form": {"school": school, "major": major}}),
    );
    let mut place = json!({"school": school});
    if !major.is_null() {
        place["major"] = major.clone();
    }
    let answered = one_turn(
        name,
        say,
        json!({"tools_include": ["get_place_facts"], "params": {"get_place_facts": place}}),
    );
    let mut seen = String::new();
    for suite in [filled, answered] {
        let dialogue = &parse_suite(&suite).expect("the turn parses")[0];
        let report = run_dialogue(agent, site, dialogue).await;
        let r = &report[0];
        if r.passed() {
            return Ok(());
        }
        seen = format!("{:?} «{}»: {}", r.tools, r.voice, r.failures.join("; "));
    }
    Err(seen)
}

#[tokio::test]
async fn every_first_request_of_the_speech_sets_is_understood_typed() {
    let site = common::site().await;
    let agent = Agent::new(site.clone());
    let (mut requests, mut failures) = (0, Vec::new());
    for (set, text) in SETS {
        // Requests said on a ranking are judged by the advisor opened,
        // which the speech evaluation resolves from the page.
        for row in rows(text).filter(|r| r.get("page").is_none()) {
            requests += 1;
            let say = row["text"].as_str().unwrap_or_default();
            let name = format!("{set} {}", row["id"]);
            if let Err(seen) = understood(&agent, &site, &name, say, &row).await {
                failures.push(format!("[{name}] «{say}» → {seen}"));
            }
        }
    }
    assert!(requests >= 500, "{requests} first requests");
    none_failed(&failures, requests, "typed first requests not understood");
}

/// Fails with every failure listed, `what` saying of how many of `n`.
fn none_failed(failures: &[String], n: usize, what: &str) {
    assert!(
        failures.is_empty(),
        "{} of {n} {what}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// What the site's recognizer wrote for the first requests of the speech
/// sets (`make eval-asr`, the neural test voice; text only): every one
/// stored was understood when it was stored, and stays so. The spoken
/// path's own regressions are caught here without the recognizer.
const HEARD: &str = include_str!("../../evals/dev/asr-heard.jsonl");

#[tokio::test]
async fn every_stored_transcript_of_a_first_request_stays_understood() {
    let site = common::site().await;
    let agent = Agent::new(site.clone());
    let requests: std::collections::HashMap<(String, String), Value> = SETS
        .iter()
        .flat_map(|(set, text)| {
            rows(text).map(move |r| ((set.to_string(), r["id"].to_string()), r))
        })
        .collect();
    let (mut heard, mut failures) = (0, Vec::new());
    for row in rows(HEARD) {
        let key = (
            row["set"].as_str().unwrap_or_default().to_string(),
            row["id"].to_string(),
        );
        let request = requests
            .get(&key)
            .unwrap_or_else(|| panic!("{key:?}: no such request"));
        let say = row["heard"].as_str().unwrap_or_default();
        let name = format!("{} {} (heard)", key.0, key.1);
        heard += 1;
        if let Err(seen) = understood(&agent, &site, &name, say, request).await {
            failures.push(format!(
                "[{name}] said «{}», heard «{say}» → {seen}",
                request["text"]
            ));
        }
    }
    assert!(heard >= 430, "{heard} transcripts");
    none_failed(&failures, heard, "stored transcripts no longer understood");
}
