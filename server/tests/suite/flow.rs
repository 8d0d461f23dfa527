//! The phased flow with a model, to the letter: each phase's call carries the
//! phase's temperature (`prompts/model/flow.conf`), the last phase forces the
//! final tool (one step, `tool_choice`), and chips are 2–4 options under a
//! 5–10 character question whoever proposed them.

use crate::common;

use serde_json::json;

use common::{app, scripted, site_with, tools, Student};
use server::llm::scripted::{Received, ScriptedServer};

async fn site(server: &ScriptedServer) -> axum::Router {
    site_with(server, &[("LLM_STREAM", "false")]).await
}

/// The planner's requests (not the intent classification's).
fn planner_requests(server: &ScriptedServer) -> Vec<Received> {
    server
        .received()
        .into_iter()
        .filter(|r| !r.prompt_text().contains("你是意图识别助手"))
        .collect()
}

fn temperature(r: &Received) -> f64 {
    r.body["temperature"].as_f64().expect("a temperature")
}

#[tokio::test]
async fn each_phase_has_its_temperature_and_the_last_forces_the_final_tool() {
    let server = scripted(json!([
        {"reply": {"content": "{\"voice_response\": \"好的。\", \"tool_calls\": []}"}}
    ]))
    .await;
    let app = site(&server).await;
    let mut s = Student::new(&app);

    // Asking for the school: its phase's temperature (the model is asked
    // for the words code did not read).
    s.say("我想考北京大学计算机系，那边竞争激烈吗").await;
    let first = planner_requests(&server);
    assert!(
        (temperature(&first[0]) - 0.2).abs() < 1e-6,
        "{}",
        first[0].body["temperature"]
    );

    // Every optional field offered and skipped: the last phase.
    for field in [
        "research_direction",
        "personality",
        "degree_type",
        "enrollment_year",
    ] {
        s.click(field, &[]).await;
    }
    let before = planner_requests(&server).len();
    let r = s.say("导师温和一点就行，希望能常去外地开会").await;
    let sent = &planner_requests(&server)[before..];
    assert_eq!(sent.len(), 1, "one step");
    assert_eq!(
        sent[0].body["tool_choice"],
        json!({"type": "function", "function": {"name": "recommend_advisors"}}),
        "the final tool, forced"
    );
    assert!((temperature(&sent[0]) - 0.1).abs() < 1e-6);
    // The model answered without it: code ran the final tool itself.
    assert!(tools(&r).contains(&"recommend_advisors"), "{:?}", tools(&r));
    assert_eq!(r.form.preferences.personality.as_deref(), Some("温和"));
}

#[tokio::test]
async fn chips_are_two_to_four_under_a_five_to_ten_character_question() {
    let server = scripted(json!([
        {"reply": {"content": "", "tool_calls": [{"name": "present_options", "arguments": {
            "question": "请问你想报考的是下面哪一所学校呢？",
            "options": ["北京大学", "清华大学", "复旦大学", "浙江大学", "南京大学", "武汉大学"],
            "target_field": "school"}}]}}
    ]))
    .await;
    let app = site(&server).await;
    let mut s = Student::new(&app);
    let r = s.say("帮我挑个学校吧，我也不知道").await;
    for chips in r.tool_calls.iter().filter(|c| c.tool == "present_options") {
        let n = chips.params["options"].as_array().unwrap().len();
        assert!((2..=4).contains(&n), "{n} options");
        let q = chips.params["question"].as_str().unwrap().chars().count();
        assert!((5..=10).contains(&q), "{q} characters");
    }
}

#[tokio::test]
async fn the_embedded_planners_chips_fit_the_chip_schema_on_every_phase() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let mut seen = 0;
    for step in [
        s.say("我想考研").await,
        s.say("北京大学").await,
        s.say("计算机").await,
        s.click("research_direction", &[]).await,
        s.click("personality", &[]).await,
        s.click("degree_type", &[]).await,
    ] {
        for chips in step
            .tool_calls
            .iter()
            .filter(|c| c.tool == "present_options")
        {
            seen += 1;
            let n = chips.params["options"].as_array().unwrap().len();
            assert!((2..=4).contains(&n), "{n} options: {}", chips.params);
            let q = chips.params["question"].as_str().unwrap().chars().count();
            assert!((5..=10).contains(&q), "{q} characters: {}", chips.params);
        }
    }
    assert!(seen >= 4, "chips on the way: {seen}");
}
