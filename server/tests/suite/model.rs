//! The real-model path against a scripted OpenAI-compatible server on
//! loopback (real HTTP, streamed and whole replies): what the agent sends
//! (tools, tool_choice, form and page in the prompt), that the model's
//! proposals go through the same validation and steering as the embedded
//! planner's, that turns code answers alone cost no model call, and that
//! every fault ends in what code says alone (flagged `degraded`) with the
//! turn stored and the session still usable. No test needs a real model or the internet.

use crate::common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{app_with_model, call, get, tools, Student};
use server::agent::Agent;
use server::evals::dialogues::{parse_suite, run_dialogue, Summary};
use server::llm::scripted::{Script, ScriptedServer};
use server::llm::LlmConfig;

use common::{scripted, site_with};

/// The model settings of the scripted server, all else default.
fn config_for(server: &ScriptedServer) -> LlmConfig {
    let base = server.base_url();
    LlmConfig::from_lookup(|k| match k {
        "LLM_BASE_URL" => Some(base.clone()),
        _ => None,
    })
    .unwrap()
    .unwrap()
}

fn tool_names(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .map(|t| {
                    t["function"]["name"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The whole example conversation, the model's side: what a good model would
/// answer.
fn whole_conversation_rules() -> Value {
    json!([
        {"when": "我想考北京大学计算机系", "chunk_chars": 2, "reply": {
            "content": "好的，北京大学计算机系。正在为你筛选导师…",
            "tool_calls": [
                {"name": "update_form", "arguments": {"school": "北大", "major": "计算机"}},
                {"name": "update_ranking", "arguments": {"school": "北京大学", "major": "计算机科学与技术"}}
            ]}},
        {"when": "机器学习", "reply": {
            "content": "根据你的需求，我推荐张三教授，他主要研究机器学习。",
            "tool_calls": [
                {"name": "update_form", "arguments": {"research_direction": "机器学习", "preferences": {"personality": "温和"}}},
                {"name": "recommend_advisors", "arguments": {"school": "北京大学", "major": "计算机科学与技术"}}
            ]}},
        {"when": "第一个导师怎么样", "reply": {"content": "张三教授是机器学习方向的，学生评价很高，很受欢迎。"}},
        {"when": "几点来实验室", "reply": {"content": "这个可以直接问问张三教授组里的同学。"}},
        {"when": "详细信息", "reply": {
            "content": "好的，这是张三教授的详细信息。",
            "tool_calls": [{"name": "get_advisor_detail", "arguments": {"advisor_name": "张三"}}]}}
    ])
}

#[tokio::test]
async fn the_whole_conversation_streams_through_the_model_and_code_still_steers() {
    let server = scripted(whole_conversation_rules()).await;
    let app = site_with(&server, &[]).await;

    // The seed's own conversation: code reads every word of it, so the
    // model is never asked and code's words are said.
    let mut s = Student::new(&app);
    let (voices, r) = s.say_streamed("我想考北京大学计算机系").await;
    assert!(
        voices[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("好的，北京大学计算机系。"),
        "{voices:?}"
    );
    assert_eq!(voices[0]["restart"], false);
    let spoken: String = voices.iter().map(|v| v["text"].as_str().unwrap()).collect();
    assert_eq!(spoken, r.voice_response);
    s.say_streamed("我想做机器学习，希望导师温和一点").await;
    s.say_streamed("第一个导师怎么样？").await;
    s.say_streamed("我想看看他的详细信息").await;
    assert_eq!(server.received().len(), 0, "code understood every turn");

    // The same conversation, each turn with words code does not read: the
    // model is asked, and code still steers.
    let mut s = Student::new(&app);
    let (voices, r) = s
        .say_streamed("我想考北京大学计算机系，顺便问下宿舍条件怎么样")
        .await;
    assert!(
        voices[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("好的，北京大学计算机系。"),
        "{voices:?}"
    );
    let spoken: String = voices.iter().map(|v| v["text"].as_str().unwrap()).collect();
    assert_eq!(spoken, r.voice_response);
    assert_eq!(r.agent, "analysis");
    assert_eq!(
        r.form.school.as_deref(),
        Some("北京大学"),
        "the alias 北大 is made canonical"
    );
    assert_eq!(r.form.major.as_deref(), Some("计算机科学与技术"));
    assert_eq!(
        tools(&r),
        ["update_form", "update_ranking", "present_options"],
        "code adds the phase chips after the model's calls"
    );
    assert!(r.error.is_none());
    assert_eq!(s.page.visible_advisors[0].name, "张三");

    let (_, r) = s
        .say_streamed("我想做机器学习，希望导师温和一点，组里别天天加班")
        .await;
    assert_eq!(r.form.research_direction.as_deref(), Some("机器学习"));
    assert_eq!(r.form.preferences.personality.as_deref(), Some("温和"));
    let rec = call(&r, "recommend_advisors");
    assert_eq!(
        rec.params["preferences"]["personality"], "温和",
        "code fills the recommendation from the form, whatever the model passed"
    );
    assert_eq!(rec.result.as_ref().unwrap()["advisors"][0]["name"], "张三");

    let (_, r) = s.say_streamed("第一个导师怎么样？他实验室大概多少人").await;
    assert!(r.error.is_none());
    assert!(tools(&r).is_empty(), "{r:?}");

    let (_, r) = s
        .say_streamed("我想看看他的详细信息，顺便看看他发过的论文")
        .await;
    let detail = call(&r, "get_advisor_detail");
    assert_eq!(detail.result.as_ref().unwrap()["name"], "张三");
    assert_eq!(s.page.selected_advisor.as_ref().unwrap().name, "张三");

    // What the model was sent.
    let sent = server.received();
    assert_eq!(
        sent.len(),
        4,
        "one model call per turn with words code did not read"
    );
    let registry: Vec<String> = server::agent::tools::ToolRegistry::load()
        .planner_specs()
        .map(|s| s.name.clone())
        .collect();
    for request in &sent {
        assert_eq!(
            tool_names(&request.body),
            registry,
            "the one registry's tools"
        );
        assert_eq!(request.body["model"], "scripted");
        assert_eq!(request.body["stream"], true);
        assert_eq!(request.authorization.as_deref(), Some("Bearer sk-test"));
        assert_eq!(request.body["messages"][0]["role"], "system");
    }
    assert_eq!(sent[0].body["tool_choice"], "auto");
    assert!(
        sent[0].prompt_text().contains("还不知道学生想考哪个学校"),
        "phase task of an empty form"
    );
    assert_eq!(
        sent[1].body["tool_choice"]["function"]["name"], "update_form",
        "preferences named with a complete form: code forces the form update"
    );
    assert!(
        sent[1].prompt_text().contains("\"school\":\"北京大学\""),
        "the form is in the prompt"
    );
    assert_eq!(sent[2].body["tool_choice"], "auto");
    assert!(
        sent[2]
            .prompt_text()
            .contains("\"visible_advisors\":[{\"id\""),
        "the page context is in the prompt"
    );
    assert_eq!(
        sent[3].body["tool_choice"]["function"]["name"], "get_advisor_detail",
        "an explicit request for a known advisor's details forces the tool"
    );
    assert_eq!(
        sent[3].last_user_message(),
        "我想看看他的详细信息，顺便看看他发过的论文"
    );
    assert!(
        sent[3].prompt_text().contains("代码已经从这句话里理解了"),
        "the model is told what code understood"
    );
    let history: Vec<&str> = sent[3].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["content"].as_str())
        .collect();
    assert!(
        history.contains(&"第一个导师怎么样？他实验室大概多少人"),
        "history is sent: {history:?}"
    );
}

#[tokio::test]
async fn speech_starts_while_the_model_is_still_talking() {
    let server = scripted(json!([
        {"chunk_chars": 2, "chunk_delay_ms": 150, "reply": {
            "content": "好的。我来帮你看看北京大学计算机系的导师，请稍等一下。"}}
    ]))
    .await;
    let app = site_with(&server, &[]).await;
    // A message code has no answer of its own for: the model's words stream.
    let body = json!({"message": "读研期间能出国交换吗", "page_context": {"current_page": "home"}});
    let response = app
        .oneshot(
            Request::post("/api/v1/chat/stream")
                .header("content-type", "application/json")
                .body(Body::from(body.to_string()))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut body = response.into_body();
    let mut seen = String::new();
    let mut finished_at_first_voice = None;
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame.unwrap().into_data() {
            seen.push_str(&String::from_utf8_lossy(&data));
            if finished_at_first_voice.is_none() && seen.contains("event: voice") {
                finished_at_first_voice = Some(server.streams_finished());
            }
        }
    }
    assert_eq!(
        finished_at_first_voice,
        Some(0),
        "the first sentence went out before the model's stream ended:\n{seen}"
    );
    assert!(seen.contains("\"text\":\"好的。\""), "{seen}");
    assert!(seen.trim_end().ends_with('}') && seen.contains("event: reply"));
}

#[tokio::test]
async fn whole_replies_work_the_same_without_streaming() {
    let server = scripted(whole_conversation_rules()).await;
    let app = site_with(&server, &[("LLM_STREAM", "false")]).await;
    let mut s = Student::new(&app);
    let r = s.say("我想考北京大学计算机系").await;
    assert!(
        r.voice_response.starts_with("好的，北京大学计算机系。"),
        "{}",
        r.voice_response
    );
    assert_eq!(
        tools(&r),
        ["update_form", "update_ranking", "present_options"]
    );
    // The stream endpoint sends a whole reply as one voice event.
    let (voices, r) = s.say_streamed("第一个导师怎么样？他平时几点来实验室").await;
    assert_eq!(voices.len(), 1);
    assert_eq!(voices[0]["text"], r.voice_response.as_str());
    let sent = server.received();
    assert_eq!(sent[0].body["stream"], false);
    assert!(sent[0].body.get("stream_options").is_none());
}

#[tokio::test]
async fn json_output_mode_reads_voice_response_objects_and_speaks_only_the_voice() {
    let object = json!({
        "voice_response": "好的，北京大学计算机系。正在为你筛选导师…",
        "tool_calls": [{"tool": "update_form", "params": {"school": "北京大学", "major": "计算机科学与技术"}}]
    });
    let server = scripted(json!([
        {"chunk_chars": 3, "reply": {"content": format!("```json\n{object}\n```\n希望对你有帮助！")}}
    ]))
    .await;
    let app = site_with(&server, &[("LLM_TOOL_MODE", "json")]).await;
    let mut s = Student::new(&app);
    let (voices, r) = s
        .say_streamed("我想考北京大学计算机系，那边竞争激烈吗")
        .await;
    let spoken: String = voices.iter().map(|v| v["text"].as_str().unwrap()).collect();
    assert_eq!(spoken, r.voice_response);
    assert!(spoken.starts_with("好的，北京大学计算机系。"), "{spoken}");
    assert!(!spoken.contains("希望对你有帮助"), "{spoken}");
    assert_eq!(
        tools(&r),
        ["update_form", "update_ranking", "present_options"]
    );
    let sent = &server.received()[0];
    assert!(
        sent.body.get("tools").is_none(),
        "no function calling in JSON mode"
    );
    assert!(sent.body.get("tool_choice").is_none());
    assert!(
        sent.prompt_text().contains("\"voice_response\""),
        "the prompt asks for the object"
    );
    assert!(
        sent.prompt_text().contains("update_ranking"),
        "and lists the tools"
    );
}

#[tokio::test]
async fn an_endpoint_without_function_calling_switches_to_json_output() {
    let server = scripted(json!([
        {"when_tools": true, "status": 400, "error": "registry.ollama.ai/library/gemma does not support tools"},
        {"when_tools": false, "reply": {"content": "{\"voice_response\": \"你好，我是择导助手。\", \"tool_calls\": []}"}}
    ]))
    .await;
    let app = site_with(&server, &[]).await;
    let mut s = Student::new(&app);
    let r = s.say("你能做什么呀，介绍一下").await;
    assert_eq!(r.voice_response, "你好，我是择导助手。");
    assert!(r.error.is_none());
    let r = s.say("那你平时都怎么帮学生").await;
    assert!(r.error.is_none());
    // The planner's requests (code understood nothing of the second
    // message, so the intent classification asked first; it never
    // sends tools).
    let sent: Vec<_> = server
        .received()
        .into_iter()
        .filter(|r| !r.prompt_text().contains("你是意图识别助手"))
        .collect();
    assert_eq!(sent.len(), 3, "one retry in JSON mode, then JSON mode only");
    assert!(sent[0].body.get("tools").is_some());
    assert!(sent[1].body.get("tools").is_none());
    assert!(sent[2].body.get("tools").is_none());
}

/// A fault ends in what code says alone (a model never makes a turn worse
/// than no model): no error, no apology, and the `degraded` event
/// with the failure's code as its reason.
fn assert_degraded(r: &app::protocol::ChatResponse, reason: &str) {
    assert!(r.error.is_none(), "{r:?}");
    assert!(
        !r.voice_response.starts_with("抱歉"),
        "{}",
        r.voice_response
    );
    let event = r
        .events
        .iter()
        .find(|e| e.kind == "degraded")
        .unwrap_or_else(|| panic!("no degraded event: {r:?}"));
    assert_eq!(event.data["reason"], reason);
}

/// A fault, then recovery: the apology (or code's answer), the turn stored,
/// the next turn answered.
async fn fault_then_recovery(rule: Value, extra: &[(&str, &str)], reason: &str) -> Vec<Value> {
    let server = scripted(json!([
        {"when": "读研期间能出国交换吗", "times": 1, "status": rule.get("status").cloned().unwrap_or(Value::Null),
         "delay_ms": rule.get("delay_ms").cloned().unwrap_or(json!(0)),
         "raw": rule.get("raw").cloned().unwrap_or(Value::Null),
         "reply": rule.get("reply").cloned().unwrap_or(Value::Null),
         "chunk_chars": 2},
        {"when": "你觉得呢", "reply": {"content": "好的，我在。"}}
    ]))
    .await;
    let app = site_with(&server, extra).await;
    let mut s = Student::new(&app);
    let started = Instant::now();
    // Code has no answer of its own for it: the model's words stream.
    let (voices, r) = s.say_streamed("读研期间能出国交换吗").await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "no hang past the timeout"
    );
    assert_degraded(&r, reason);
    let last = voices.last().expect("the reply is spoken");
    assert_eq!(last["text"], r.voice_response.as_str());
    // Stored, and the session goes on.
    let id = s.session_id.clone().unwrap();
    let history = get(&app, &format!("/api/v1/chat/{id}")).await.json();
    let messages = history["messages"].as_array().unwrap();
    assert_eq!(messages[0]["content"], "读研期间能出国交换吗");
    assert_eq!(messages[1]["content"], r.voice_response.as_str());
    let (_, r) = s.say_streamed("你觉得呢").await;
    assert!(r.error.is_none(), "{r:?}");
    assert_eq!(r.voice_response, "好的，我在。");
    voices
}

#[tokio::test]
async fn a_timeout_is_answered_by_code_within_the_budget() {
    fault_then_recovery(
        json!({"delay_ms": 2500}),
        &[("LLM_TIMEOUT_SECS", "0.5")],
        "upstream_timeout",
    )
    .await;
}

#[tokio::test]
async fn a_model_slower_than_the_turn_budget_is_dropped_for_code() {
    fault_then_recovery(
        json!({"delay_ms": 2500}),
        &[("LLM_TURN_BUDGET_SECS", "0.5")],
        "upstream_over_budget",
    )
    .await;
}

#[tokio::test]
async fn a_model_slower_than_the_request_deadline_never_reaches_it() {
    // 40 s is past the server's 30 s request deadline (which would answer
    // 408 with nothing said): the turn's budget ends the wait long before.
    fault_then_recovery(
        json!({"delay_ms": 40000}),
        &[("LLM_TURN_BUDGET_SECS", "0.5"), ("LLM_TIMEOUT_SECS", "120")],
        "upstream_over_budget",
    )
    .await;
}

#[tokio::test]
async fn a_refused_connection_is_answered_by_code() {
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let base = format!("http://127.0.0.1:{closed}/v1");
    let (app, _) = app_with_model(&[("LLM_BASE_URL", &base), ("LLM_TIMEOUT_SECS", "2")]).await;
    let mut s = Student::new(&app);
    let started = Instant::now();
    let r = s.say("读研期间能出国交换吗").await;
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_degraded(&r, "upstream_unavailable");
    // Code-handled turns still work without the model.
    let r = s.say("你好").await;
    assert!(r.error.is_none());
    let r = s.click("school", &["北京大学"]).await;
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));
}

#[tokio::test]
async fn rate_limits_and_server_errors_are_retried_with_backoff() {
    let server = scripted(json!([
        {"times": 1, "status": 429},
        {"times": 1, "status": 502},
        {"reply": {"content": "好的，我在。"}}
    ]))
    .await;
    let app = site_with(&server, &[]).await;
    let r = Student::new(&app).say("读研期间能出国交换吗").await;
    assert!(r.error.is_none(), "{r:?}");
    assert_eq!(r.voice_response, "好的，我在。");
    assert_eq!(server.received().len(), 3);
}

#[tokio::test]
async fn a_server_that_keeps_failing_gets_bounded_retries() {
    let server = scripted(
        json!([{"when": "第一句", "status": 503}, {"reply": {"content": "好的，我在。"}}]),
    )
    .await;
    let app = site_with(&server, &[("LLM_MAX_RETRIES", "2")]).await;
    let r = Student::new(&app).say("第一句").await;
    assert_degraded(&r, "upstream_unavailable");
    assert_eq!(server.received().len(), 3, "one attempt and two retries");
}

#[tokio::test]
async fn a_bad_key_is_not_retried() {
    let server = scripted(json!([{"status": 401, "error": "invalid api key"}])).await;
    let app = site_with(&server, &[]).await;
    let r = Student::new(&app).say("读研期间能出国交换吗").await;
    assert_degraded(&r, "upstream_rejected");
    // The operator's hint is in the event, not in what is spoken.
    let event = r.events.iter().find(|e| e.kind == "degraded").unwrap();
    assert!(event.data["detail"].as_str().unwrap().contains("LLM_"));
    assert_eq!(server.received().len(), 1);
}

#[tokio::test]
async fn malformed_tool_arguments_degrade_to_code_which_replaces_streamed_words() {
    let voices = fault_then_recovery(
        json!({"reply": {"content": "好的，马上。", "tool_calls": [{"name": "update_form", "arguments": "{\"school\": \"北京"}]}}),
        &[],
        "upstream_invalid_output",
    )
    .await;
    assert_eq!(
        voices[0]["text"], "好的，马上。",
        "the model's words were streamed"
    );
    assert_eq!(
        voices.last().unwrap()["restart"],
        true,
        "then replaced by code's answer"
    );
}

#[tokio::test]
async fn an_empty_reply_degrades_to_code() {
    fault_then_recovery(
        json!({"reply": {"content": ""}}),
        &[],
        "upstream_empty_reply",
    )
    .await;
}

#[tokio::test]
async fn a_stream_cut_short_degrades_to_code() {
    let raw = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"好的\"}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"update_form\",\"arguments\":\"{\\\"sch\"}}]}}]}\n\n";
    fault_then_recovery(json!({"raw": raw}), &[], "upstream_invalid_output").await;
}

#[tokio::test]
async fn a_malformed_stream_chunk_degrades_to_code() {
    let raw = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"好\n\ndata: [DONE]\n\n";
    fault_then_recovery(json!({"raw": raw}), &[], "upstream_invalid_output").await;
}

#[tokio::test]
async fn a_tool_call_split_into_one_character_chunks_is_assembled() {
    let server = scripted(json!([
        {"chunk_chars": 1, "reply": {"content": "", "tool_calls": [
            {"name": "update_form", "arguments": {"school": "清华大学", "major": "计算机科学与技术"}}]}}
    ]))
    .await;
    let app = site_with(&server, &[]).await;
    let mut s = Student::new(&app);
    let (voices, r) = s.say_streamed("我想考清华的计算机").await;
    assert!(r.error.is_none(), "{r:?}");
    assert_eq!(r.form.school.as_deref(), Some("清华大学"));
    assert_eq!(tools(&r)[..2], ["update_form", "update_ranking"]);
    // The model said nothing: code narrated, as one voice event.
    assert_eq!(voices.len(), 1);
    assert!(!r.voice_response.is_empty());
}

#[tokio::test]
async fn the_models_proposals_are_checked_like_any_planners() {
    let long = "张三老师是一位非常优秀的导师，他在机器学习领域有很深的造诣，发表了很多高水平论文，学生们都很喜欢他，推荐你考虑。";
    let server = scripted(json!([
        {"when": "北京大学", "reply": {"content": "好的。", "tool_calls": [
            {"name": "update_form", "arguments": {"school": "北京大学", "major": "计算机科学与技术"}}]}},
        {"when": "详细", "reply": {"content": long, "tool_calls": [
            {"name": "delete_database", "arguments": {}},
            {"name": "get_advisor_detail", "arguments": {"advisor_id": "99999999"}}]}}
    ]))
    .await;
    let app = site_with(&server, &[]).await;
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    let r = s.say("给我看看详细资料").await;
    assert!(
        !tools(&r).contains(&"delete_database"),
        "unknown tools are dropped"
    );
    assert!(
        !tools(&r).contains(&"get_advisor_detail"),
        "a made-up advisor id is rejected"
    );
    assert!(
        r.voice_response.chars().count() <= 50,
        "{}",
        r.voice_response
    );
    assert!(r.voice_response.starts_with("张三老师是一位非常优秀的导师"));
}

#[tokio::test]
async fn turns_code_answers_alone_cost_no_model_call() {
    let server = scripted(json!([
        {"when": "北京大学", "reply": {"content": "好的，北京大学计算机系。", "tool_calls": [
            {"name": "update_form", "arguments": {"school": "北京大学", "major": "计算机科学与技术"}}]}}
    ]))
    .await;
    let app = site_with(&server, &[]).await;
    let mut s = Student::new(&app);
    let r = s.say("你好").await;
    assert_eq!(r.intent.intent, "greeting");
    assert_eq!(server.received().len(), 0, "a greeting is code's");
    s.say("我想考北京大学计算机系").await;
    assert_eq!(server.received().len(), 0, "code read every word of it");
    let r = s.click("research_direction", &["机器学习"]).await;
    assert!(tools(&r).contains(&"recommend_advisors"));
    assert_eq!(server.received().len(), 0, "a chip click is code's");
    let r = s.say("北京大学计算机科学与技术").await;
    assert!(
        !tools(&r).contains(&"update_ranking"),
        "the page shows it already"
    );
    assert_eq!(server.received().len(), 0, "the duplicate guard is code's");
    for said in ["第一个导师怎么样", "985是什么意思", "谢谢", "好的"] {
        s.say(said).await;
        assert_eq!(server.received().len(), 0, "«{said}» is code's");
    }
    // Words code does not read are the model's to add to.
    s.say("第一个导师平时几点来实验室").await;
    assert_eq!(server.received().len(), 1);
}

#[tokio::test]
async fn general_questions_forbid_tools_and_the_casual_persona_has_none() {
    let server = scripted(json!([{"reply": {"content": "985高校共39所，都是顶尖大学。"}}])).await;
    let app = site_with(&server, &[]).await;
    let mut s = Student::new(&app);
    // A general question beside the FAQ's words: code answers the FAQ and
    // the model may say more, with no tool.
    s.say("985是什么意思，和双一流哪个含金量高").await;
    let planner: Vec<_> = server
        .received()
        .into_iter()
        .filter(|r| !r.prompt_text().contains("你是意图识别助手"))
        .collect();
    assert_eq!(planner[0].body["tool_choice"], "none");
    assert!(planner[0].prompt_text().contains("不要调用任何工具"));
    // 谢谢 switches to the casual persona: its own prompt, no tools at all
    // (asked because the student says more than its replies answer).
    let r = s.say("谢谢你，今天陪我聊了这么久，心里舒服多了").await;
    assert_eq!(r.agent, "casual");
    let casual = server.received().into_iter().last().unwrap();
    assert!(casual.body.get("tools").is_none());
    assert!(casual.prompt_text().contains("小暖"));
    assert!(
        casual.prompt_text().contains("985是什么意思"),
        "the shared history"
    );
}

#[tokio::test]
async fn the_eval_runner_scores_both_planners_on_the_same_suite() {
    let dialogue = json!({"name": "the whole conversation", "turns": [
        {"say": "我想考北京大学计算机系", "expect": {"form": {"school": "北京大学", "major": "计算机科学与技术"}, "tools_include": ["update_form", "update_ranking"]}},
        {"say": "我想做机器学习，希望导师温和一点", "expect": {"form": {"research_direction": "机器学习", "personality": "温和"}, "tools_include": ["recommend_advisors"], "first_result": {"recommend_advisors": "张三"}}},
        {"say": "第一个导师怎么样？", "expect": {"voice_contains": ["张三"]}},
        {"say": "我想看看他的详细信息", "expect": {"tools_include": ["get_advisor_detail"]}},
        {"say": "他平时几点来实验室"}
    ]});
    let suite = parse_suite(&dialogue.to_string()).unwrap();
    let server = scripted(whole_conversation_rules()).await;
    let site = common::site().await;
    let config = config_for(&server);
    for (agent, model_calls) in [
        (Agent::new(site.clone()), 0),
        // Code reads the seed's four turns whole; only the last has words
        // it does not read.
        (Agent::with_model(site.clone(), config).unwrap(), 1),
    ] {
        let reports = run_dialogue(&agent, &site, &suite[0]).await;
        let summary = Summary::of(1, &reports);
        let failures: Vec<_> = reports.iter().flat_map(|r| r.failures.clone()).collect();
        assert_eq!(summary.passed, 5, "{}: {failures:?}", agent.planner_name());
        assert_eq!(summary.slots, (4, 4));
        assert_eq!(summary.tool_turns, (3, 3));
        assert_eq!(summary.model_calls, model_calls);
        assert_eq!(
            summary.tokens > 0,
            model_calls > 0,
            "tokens are counted from usage"
        );
        let text = summary.render(&agent.planner_name());
        assert!(text.contains("turns passed       5/5 (100.0%)"), "{text}");
    }
}

/// The failure shapes of a small local model, recorded as a
/// script: an empty reply, a tool call as fenced JSON beside prose, text only
/// with invented facts about a person who does not exist, the top advisor of
/// the wrong school, a history annotation echoed, JSON cut off. Every turn is
/// answered from code's understanding and the data: no apology, nothing
/// internal spoken, no name or figure the data does not hold.
#[tokio::test]
async fn a_small_models_failure_shapes_are_answered_from_code_and_data() {
    let script: Script =
        serde_json::from_str(include_str!("fixtures/model-failures.json")).expect("the script");
    let server = ScriptedServer::start(script)
        .await
        .expect("scripted server");
    let suite = parse_suite(include_str!("../../evals/dev/model-failures.jsonl")).unwrap();
    let site = common::site().await;
    let config = config_for(&server);
    for agent in [
        Agent::new(site.clone()),
        Agent::with_model(site.clone(), config).unwrap(),
    ] {
        let mut reports = Vec::new();
        for dialogue in &suite {
            reports.extend(run_dialogue(&agent, &site, dialogue).await);
        }
        let summary = Summary::of(suite.len(), &reports);
        let name = agent.planner_name();
        let failures: Vec<String> = reports
            .iter()
            .filter(|r| !r.passed())
            .map(server::evals::dialogues::render_turn)
            .collect();
        assert_eq!(summary.passed, summary.turns, "{name}: {failures:#?}");
        assert_eq!(summary.errors, 0, "{name}: no apology");
        assert_eq!(summary.unsupported, 0, "{name}: facts only from data");
        for r in &reports {
            for internal in [
                "已执行",
                "presentoptions",
                "present_options",
                "{",
                "```",
                "李四",
                "王五老师毕业",
            ] {
                assert!(
                    !r.voice.contains(internal),
                    "{name}: «{}» says {internal}",
                    r.voice
                );
            }
        }
        if name.starts_with("model:") {
            // The cut-off JSON is flagged; the empty answer to a turn code
            // understood is the model adding nothing, not a fault.
            assert!(summary.degraded >= 1, "{name}: cut-off answers are flagged");
            assert!(summary.model_calls > 0);
        }
    }
}
