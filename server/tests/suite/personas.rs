//! Two personas on this site: the casual and the analysis persona switch on what
//! the student says or by hand, share one context (form, page, history), the
//! casual one never touches data tools; and the analysis side's comparison,
//! statistics and the extra form fields (degree type, enrollment year).

use crate::common;

use axum::http::StatusCode;
use serde_json::{json, Value};

use common::{app, call, get, has_chinese, post_json, tools, Student};

fn switched(reply: &app::protocol::ChatResponse) -> Option<(String, String, String)> {
    reply
        .events
        .iter()
        .find(|e| e.kind == "agent_switched")
        .map(|e| {
            let s = |k: &str| e.data[k].as_str().unwrap_or_default().to_string();
            (s("from"), s("to"), s("message"))
        })
}

async fn switch(app: &axum::Router, body: Value) -> (StatusCode, Value) {
    let r = post_json(app, "/api/v1/chat/switch_agent", &body.to_string()).await;
    (r.status, r.json())
}

#[tokio::test]
async fn keywords_switch_both_ways_and_the_context_is_kept() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("我想考北京大学计算机系").await;
    assert_eq!(r.agent, "analysis");
    let form = r.form.clone();

    let r = s.say("最近考研压力好大，好焦虑").await;
    assert_eq!(r.agent, "casual");
    assert_eq!(
        switched(&r),
        Some((
            "analysis".into(),
            "casual".into(),
            "[系统] 已从分析模式切换到闲聊模式".into()
        ))
    );
    assert!(tools(&r).is_empty(), "the casual persona uses no tools");
    assert_eq!(r.form, form, "a switch never clears the form");
    assert!(r.voice_response.contains("压力") || r.voice_response.contains("焦虑"));

    // Still casual: no switch event while the persona stays.
    let r = s.say("今天复习了一整天，好累").await;
    assert_eq!(r.agent, "casual");
    assert!(switched(&r).is_none());
    assert!(tools(&r).is_empty());

    // An analysis word switches back; the form is still there.
    let r = s.say("帮我推荐一个导师吧").await;
    assert_eq!(r.agent, "analysis");
    assert_eq!(switched(&r).unwrap().2, "[系统] 已从闲聊模式切换到分析模式");
    assert!(tools(&r).contains(&"recommend_advisors"), "{:?}", tools(&r));
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));

    // The switches are system lines of the stored conversation, in order.
    let id = s.session_id.clone().unwrap();
    let history = get(&app, &format!("/api/v1/chat/{id}")).await.json();
    let lines: Vec<(String, String)> = history["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["role"].as_str().unwrap().to_string(),
                m["content"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let systems: Vec<&str> = lines
        .iter()
        .filter(|(r, _)| r == "system")
        .map(|(_, c)| c.as_str())
        .collect();
    assert_eq!(
        systems,
        [
            "[系统] 已从分析模式切换到闲聊模式",
            "[系统] 已从闲聊模式切换到分析模式"
        ]
    );
    assert_eq!(history["agent"], "analysis");
}

#[tokio::test]
async fn naming_a_school_while_casual_switches_to_analysis_first() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("好纠结啊，不知道选谁").await;
    assert_eq!(r.agent, "casual");
    let r = s.say("我想考北京大学计算机系").await;
    assert_eq!(r.agent, "analysis");
    assert!(switched(&r).is_some());
    assert_eq!(tools(&r)[..2], ["update_form", "update_ranking"]);
}

#[tokio::test]
async fn the_casual_persona_never_calls_data_tools() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    s.say("切换到闲聊模式").await;
    for text in [
        "好累啊",
        "我是不是考不上了",
        "周末去看了场电影",
        "给我讲个笑话",
        "你是谁呀",
        "嗯嗯",
        "谢谢你陪我聊天",
    ] {
        let r = s.say(text).await;
        assert_eq!(r.agent, "casual", "{text}");
        assert!(r.tool_calls.is_empty(), "{text}: {:?}", tools(&r));
        assert!(
            has_chinese(&r.voice_response) && r.error.is_none(),
            "{text}"
        );
    }
}

#[tokio::test]
async fn the_manual_switch_answers_in_its_envelope_and_holds_against_keywords() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    let id = s.session_id.clone().unwrap();
    let (status, body) = switch(&app, json!({"session_id": id, "agent_type": "casual"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["code"], 200);
    assert_eq!(body["message"], "已切换到闲聊模式");
    assert_eq!(body["data"]["agent_type"], "casual");
    assert_eq!(body["data"]["session_id"], id.as_str());

    // A keyword of the other side does not override a manual choice…
    let r = s.say("看看数据").await;
    assert_eq!(r.agent, "casual");
    assert!(r.tool_calls.is_empty());
    // …a data need does.
    let r = s.say("第一个导师怎么样").await;
    assert_eq!(r.agent, "analysis");
    assert!(r.voice_response.contains("张三"), "{}", r.voice_response);
    // After a strong trigger keywords work again.
    let r = s.say("唉，压力好大").await;
    assert_eq!(r.agent, "casual");

    // Same persona again: 200, nothing stored.
    let (_, body) = switch(&app, json!({"session_id": id, "agent_type": "casual"})).await;
    assert_eq!(body["message"], "当前已经是闲聊模式");
    let history = get(&app, &format!("/api/v1/chat/{id}")).await.json();
    let manual_lines = history["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "system")
        .count();
    assert_eq!(manual_lines, 3, "manual switch + two automatic ones");
}

#[tokio::test]
async fn the_switch_endpoint_refuses_bad_input_in_its_envelope() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    s.say("你好").await;
    let id = s.session_id.clone().unwrap();
    for (body, status) in [
        (
            json!({"session_id": id, "agent_type": "robot"}).to_string(),
            400,
        ),
        (json!({"session_id": id}).to_string(), 400),
        ("{not json".to_string(), 400),
        (
            json!({"session_id": "0123456789abcdef0123456789abcdef", "agent_type": "casual"})
                .to_string(),
            404,
        ),
    ] {
        let r = post_json(&app, "/api/v1/chat/switch_agent", &body).await;
        assert_eq!(r.status.as_u16(), status, "{body}: {}", r.body);
        let v = r.json();
        assert_eq!(v["code"], status);
        assert!(v["data"].is_null());
        assert!(has_chinese(v["message"].as_str().unwrap()), "{}", r.body);
    }
    // Nothing changed.
    let history = get(&app, &format!("/api/v1/chat/{id}")).await.json();
    assert_eq!(history["agent"], "analysis");
    // No session yet: one is opened with the chosen persona.
    let (status, body) = switch(&app, json!({"agent_type": "casual"})).await;
    assert_eq!(status, StatusCode::OK);
    let new_id = body["data"]["session_id"].as_str().unwrap();
    let history = get(&app, &format!("/api/v1/chat/{new_id}")).await.json();
    assert_eq!(history["agent"], "casual");
}

#[tokio::test]
async fn advisors_are_compared_by_reference_and_by_name() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    let first_two: Vec<String> = s.page.visible_advisors[..2]
        .iter()
        .map(|a| a.id.clone())
        .collect();

    let r = s.say("对比一下第一个和第二个").await;
    let c = call(&r, "compare_advisors");
    assert_eq!(c.params["advisor_ids"], json!(first_two));
    let compared = c.result.as_ref().unwrap()["advisors"].as_array().unwrap();
    assert_eq!(compared.len(), 2);
    assert_eq!(compared[0]["name"], "张三");
    assert!(
        r.voice_response.contains("张三") && r.voice_response.contains('更'),
        "{}",
        r.voice_response
    );
    assert_eq!(s.page.current_page, app::protocol::PageKind::Compare);

    // By name, and "这两位" after talking about them.
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    let r = s.say("张三和李四哪个好").await;
    let c = call(&r, "compare_advisors");
    assert_eq!(c.params["advisor_names"], json!(["张三", "李四"]));
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    s.say("第二个导师怎么样").await;
    let r = s.say("这两位比一比").await;
    let names = &call(&r, "compare_advisors").params["advisor_names"];
    assert_eq!(names[0], "李四", "the one talked about first");
    assert_eq!(names.as_array().unwrap().len(), 2);

    // Nothing to compare yet: asked, not guessed.
    let r = Student::new(&app).say("这两个有什么区别").await;
    assert!(r.tool_calls.is_empty());
    assert!(r.voice_response.contains("对比") || r.voice_response.contains("导师"));
}

#[tokio::test]
async fn statistics_of_the_school_and_major_are_spoken_briefly() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("北大计算机系整体情况怎么样").await;
    let stats = call(&r, "get_statistics");
    assert_eq!(stats.params["school"], "北京大学");
    let result = stats.result.as_ref().unwrap();
    assert!(result["reviews"].as_i64().unwrap() > 0);
    assert!(r.voice_response.contains("平均"), "{}", r.voice_response);
    assert!(r.voice_response.chars().count() <= 50);
    // Without a school and major it asks.
    let r = Student::new(&app).say("平均分多少").await;
    assert!(r.tool_calls.is_empty());
    assert!(r.voice_response.contains("学校"));
}

#[tokio::test]
async fn degree_type_and_enrollment_year_are_understood_when_said() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("我想考北京大学计算机系，打算直博，2027年入学").await;
    assert_eq!(r.form.degree_type.as_deref(), Some("直博"));
    assert_eq!(r.form.enrollment_year.as_deref(), Some("2027"));
    let r = s.say("算了，还是读专硕吧").await;
    assert_eq!(r.form.degree_type.as_deref(), Some("专硕"));
}

/// The student hears about the switch before the new
/// persona speaks — on the stream, `event: switch` (`{agent_type, message}`)
/// comes before the first `voice` event, and the reply still carries the
/// `agent_switched` event the protocol names.
#[tokio::test]
async fn the_stream_announces_a_switch_before_the_new_persona_speaks() {
    let (app, _) = common::app().await;
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    let (events, r) = s.say_stream_events("想聊聊").await;
    assert_eq!(
        r.agent, "casual",
        "the plainest wish to chat: {}",
        r.voice_response
    );
    let (name, data) = &events[0];
    assert_eq!(name, "switch", "{events:?}");
    assert_eq!(data["agent_type"], "casual");
    assert_eq!(data["message"], "[系统] 已从分析模式切换到闲聊模式");
    let voices: Vec<&Value> = events
        .iter()
        .filter(|(n, _)| n == "voice")
        .map(|(_, d)| d)
        .collect();
    assert!(!voices.is_empty());
    assert!(voices.iter().all(|v| v["agent"] == "casual"));
    assert!(switched(&r).is_some(), "the reply keeps agent_switched");

    // No switch: no switch event.
    let (events, _) = s.say_stream_events("好累啊").await;
    assert!(events.iter().all(|(n, _)| n != "switch"), "{events:?}");

    // Back to the data side on a school.
    let (events, r) = s.say_stream_events("清华计算机怎么样，我想考").await;
    assert_eq!(r.agent, "analysis");
    assert_eq!(events[0].0, "switch");
    assert_eq!(events[0].1["agent_type"], "analysis");
}
