//! `POST /api/v1/chat` end to end on the embedded planner: the design's own
//! examples as test cases (asking for what is missing, the whole
//! conversation, no school or major yet, a failing dependency, a reference
//! with no list on the page), chip clicks, ambiguity, corrections, the
//! duplicate guard and bad input.

use crate::common;

use axum::http::StatusCode;
use common::{app, call, get, post_json, tools, Student};
use serde_json::Value;

#[tokio::test]
async fn only_a_school_asks_for_the_major_with_chips() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("我想考北京大学").await;
    assert_eq!(r.voice_response, "好的，北京大学。你想考哪个专业呢？");
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));
    assert_eq!(r.form_status.missing_required, vec!["major"]);
    let chips = call(&r, "present_options");
    assert_eq!(chips.params["target_field"], "major");
    let options: Vec<&str> = chips.params["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap())
        .collect();
    assert!(options.contains(&"计算机科学与技术"), "{options:?}");
    assert_eq!(
        *tools(&r).last().unwrap(),
        "present_options",
        "the turn stops at the chips"
    );
}

#[tokio::test]
async fn only_a_major_asks_for_the_school() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("计算机专业").await;
    assert!(
        r.voice_response.contains("请问是哪个学校的呢"),
        "{}",
        r.voice_response
    );
    assert_eq!(r.form.major.as_deref(), Some("计算机科学与技术"));
    assert_eq!(call(&r, "present_options").params["target_field"], "school");
}

#[tokio::test]
async fn nothing_yet_greets_and_asks_for_both() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("你好").await;
    assert_eq!(r.intent.intent, "greeting");
    assert!(r.intent.confidence > 0.9);
    assert_eq!(
        r.voice_response,
        "你好！我是导师推荐助手。请告诉我你想考哪个学校的哪个专业？"
    );
    assert!(r.tool_calls.is_empty());
}

#[tokio::test]
async fn the_whole_example_conversation() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);

    // 1. School and major → form, ranking.
    let r = s.say("我想考北京大学计算机系").await;
    assert!(
        r.voice_response.starts_with("好的，北京大学计算机系。"),
        "{}",
        r.voice_response
    );
    let form = call(&r, "update_form");
    assert_eq!(form.params["school"], "北京大学");
    assert_eq!(form.params["major"], "计算机科学与技术");
    let ranking = call(&r, "update_ranking");
    assert_eq!(ranking.params["school"], "北京大学");
    let advisors = ranking.result.as_ref().unwrap()["advisors"]
        .as_array()
        .unwrap();
    assert_eq!(advisors[0]["name"], "张三");
    assert_eq!(advisors[1]["name"], "李四");
    assert!(r.form_status.is_complete);
    assert_eq!(s.page.visible_advisors[0].name, "张三");

    // 2. Preferences → recommendation with reasons.
    let r = s.say("我想做机器学习，希望导师温和一点").await;
    assert_eq!(r.form.research_direction.as_deref(), Some("机器学习"));
    assert_eq!(r.form.preferences.personality.as_deref(), Some("温和"));
    let rec = call(&r, "recommend_advisors");
    let first = &rec.result.as_ref().unwrap()["advisors"][0];
    assert_eq!(first["name"], "张三");
    assert!(first["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x == "主要研究机器学习"));
    assert!(r.voice_response.contains("张三"), "{}", r.voice_response);
    assert!(
        r.voice_response.contains("机器学习"),
        "{}",
        r.voice_response
    );
    assert!(
        !tools(&r).contains(&"update_ranking"),
        "the ranking is already on screen"
    );

    // 3. "第一个导师怎么样？" → read from the page, no tool.
    let r = s.say("第一个导师怎么样？").await;
    assert!(r.tool_calls.is_empty(), "{:?}", tools(&r));
    assert!(
        r.voice_response.starts_with("张三教授"),
        "{}",
        r.voice_response
    );
    assert!(r.voice_response.contains("机器学习"));

    // 4. "他" is 张三 from the context → detail page.
    let r = s.say("我想看看他的详细信息").await;
    let detail = call(&r, "get_advisor_detail");
    assert_eq!(
        detail.params["advisor_id"].as_str(),
        Some(s.page.selected_advisor.as_ref().unwrap().id.as_str())
    );
    assert_eq!(detail.result.as_ref().unwrap()["name"], "张三");
    assert_eq!(r.voice_response, "好的，这是张三教授的详细信息。");
    assert_eq!(s.page.current_page, app::protocol::PageKind::Detail);

    // 5. "他" is the advisor of the detail page: "他的学生评价怎么样？".
    let r = s.say("他的学生评价怎么样？").await;
    let reviews = call(&r, "get_advisor_reviews");
    assert!(reviews.result.as_ref().unwrap()["count"].as_u64().unwrap() > 10);
    assert!(
        r.voice_response.starts_with("张三的学生评价"),
        "{}",
        r.voice_response
    );
    assert!(r.voice_response.contains("平均"));
}

#[tokio::test]
async fn wanting_to_take_the_exam_asks_without_tools() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("我想考研").await;
    assert_eq!(r.voice_response, "好的，请问你想考哪个学校的哪个专业呢？");
    assert!(r.tool_calls.is_empty());
}

#[tokio::test]
async fn a_failing_dependency_apologises_and_keeps_the_turn() {
    let (app, site) = app().await;
    let mut s = Student::new(&app);
    s.say("你好").await;
    // Break the ranking's data: the next tool call fails.
    sqlx::query("DROP TABLE advisor_tags")
        .execute(site.pool())
        .await
        .unwrap();
    let r = s.say("我想考北京大学计算机系").await;
    assert_eq!(r.voice_response, "抱歉，数据加载失败了，请稍后再试。");
    assert!(r.tool_calls.is_empty());
    assert_eq!(r.error.as_ref().unwrap().code, "upstream_unavailable");
    let history = get(
        &app,
        &format!("/api/v1/chat/{}", s.session_id.as_ref().unwrap()),
    )
    .await
    .json();
    let messages = history["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4, "both turns are stored: {messages:?}");
    // The session still works.
    let r = s.say("谢谢").await;
    assert!(r.error.is_none());
}

#[tokio::test]
async fn a_reference_with_no_list_on_the_page() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("第一个导师怎么样？").await;
    assert_eq!(
        r.voice_response,
        "目前还没有导师列表，请先告诉我你的学校和专业。"
    );
    assert!(r.tool_calls.is_empty());
}

#[tokio::test]
async fn a_reference_while_the_page_is_still_loading_means_the_page_the_reply_opened() {
    let (app, site) = app().await;
    // A ranking the reply carried, and a recommendation whose ranking the
    // page fetches itself: on a slow network the next message leaves before
    // either page shows its list; the panel has marked the ranking open.
    for first in [
        "我想考北京大学计算机系",
        "我想考北京大学计算机系，推荐几个导师",
    ] {
        let mut s = Student::new(&app);
        let r = s.say(first).await;
        let listed = s.page.clone();
        s.page.visible_advisors.clear();
        assert_eq!(s.page.current_page, app::protocol::PageKind::Ranking);
        let r2 = s.say("第三个导师的详细信息").await;
        let detail = call(&r2, "get_advisor_detail");
        let id = detail.params["advisor_id"].as_str().unwrap().to_string();
        let third = if listed.visible_advisors.len() >= 3 {
            listed.visible_advisors[2].id.clone()
        } else {
            // The ranking the panel opens: its first page, by overall score.
            let view = site
                .ranking(
                    "北京大学",
                    "计算机科学与技术",
                    app::model::SortKey::Overall,
                    1,
                )
                .await
                .unwrap();
            let app::model::RankingView::Ranking(page) = view else {
                panic!("no ranking")
            };
            page.advisors[2].id.clone()
        };
        assert_eq!(id, third, "{first}: {}", r.voice_response);
    }
    // The student who went back home, or to another ranking, means that page.
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    s.page = Default::default();
    let r = s.say("第三个导师的详细信息").await;
    assert!(
        r.tool_calls.iter().all(|c| c.tool != "get_advisor_detail"),
        "{r:?}"
    );
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    s.page = app::protocol::PageContext {
        current_page: app::protocol::PageKind::Ranking,
        ranking_filters: Some(app::protocol::RankingFilters {
            school: "清华大学".into(),
            major: "计算机科学与技术".into(),
        }),
        ..Default::default()
    };
    let r = s.say("第三个导师的详细信息").await;
    assert!(
        r.tool_calls.iter().all(|c| c.tool != "get_advisor_detail"),
        "{r:?}"
    );
}

#[tokio::test]
async fn chip_clicks_fill_the_form_without_the_planner() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("我想考研究生").await;
    assert!(r.tool_calls.is_empty() || tools(&r) == vec!["present_options"]);
    let r = s.click("school", &["北京大学"]).await;
    assert_eq!(r.intent.intent, "option");
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));
    assert_eq!(r.voice_response, "好的，北京大学。你想考哪个专业呢？");
    let r = s.click("major", &["计算机科学与技术"]).await;
    assert!(tools(&r).contains(&"update_ranking"));
    let chips = call(&r, "present_options");
    assert_eq!(chips.params["target_field"], "research_direction");
    assert_eq!(chips.params["multi_select"], true);
    assert_eq!(chips.params["allow_skip"], true);
    let r = s
        .click("research_direction", &["机器学习", "计算机视觉"])
        .await;
    assert_eq!(
        r.form.research_direction.as_deref(),
        Some("机器学习、计算机视觉")
    );
    assert!(tools(&r).contains(&"recommend_advisors"));
    assert_eq!(
        call(&r, "present_options").params["target_field"],
        "personality"
    );
    let r = s.click("personality", &[]).await; // 跳过
    assert!(r.form.preferences.personality.is_none());
    // The next gap is asked: the degree type, then the enrollment year.
    let chips = call(&r, "present_options");
    assert_eq!(chips.params["target_field"], "degree_type");
    assert_eq!(
        chips.params["options"],
        serde_json::json!(["学硕", "专硕", "直博"])
    );
    let r = s.click("degree_type", &["直博"]).await;
    assert_eq!(r.form.degree_type.as_deref(), Some("直博"));
    assert!(
        tools(&r).contains(&"recommend_advisors"),
        "直博 changes who fits"
    );
    let chips = call(&r, "present_options");
    assert_eq!(chips.params["target_field"], "enrollment_year");
    let year = chips.params["options"][0].as_str().unwrap().to_string();
    let r = s.click("enrollment_year", &[&year]).await;
    assert_eq!(r.form.enrollment_year.as_deref(), Some(year.as_str()));
    assert!(
        !tools(&r).contains(&"present_options"),
        "nothing left to ask, and a skipped question is not asked again"
    );
    assert_eq!(
        r.form_status.filled_optional,
        ["research_direction", "degree_type", "enrollment_year"]
    );
}

#[tokio::test]
async fn an_ambiguous_alias_is_asked_not_guessed() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("我想考交大").await;
    assert!(r.form.school.is_none());
    let chips = call(&r, "present_options");
    assert_eq!(chips.params["target_field"], "school");
    let options = chips.params["options"].as_array().unwrap();
    assert_eq!(options.len(), 4);
    assert!(r.voice_response.contains("交大"), "{}", r.voice_response);
    let r = s.click("school", &["西安交通大学"]).await;
    assert_eq!(r.form.school.as_deref(), Some("西安交通大学"));
}

#[tokio::test]
async fn corrections_replace_the_school_and_rerank() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    s.say("北大计算机").await;
    let r = s.say("算了，改成清华").await;
    assert_eq!(r.form.school.as_deref(), Some("清华大学"));
    assert_eq!(r.form.major.as_deref(), Some("计算机科学与技术"));
    assert_eq!(call(&r, "update_ranking").params["school"], "清华大学");
    assert_eq!(s.page.ranking_filters.as_ref().unwrap().school, "清华大学");
}

#[tokio::test]
async fn the_ranking_on_screen_is_not_requested_again() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    s.say("北大计算机").await;
    let r = s.say("北京大学计算机科学与技术").await;
    assert!(!tools(&r).contains(&"update_ranking"), "{:?}", tools(&r));
}

#[tokio::test]
async fn general_questions_are_answered_without_tools() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("什么是985？").await;
    assert!(r.tool_calls.is_empty());
    assert!(r.voice_response.contains("985"), "{}", r.voice_response);
}

#[tokio::test]
async fn a_reload_restores_the_conversation() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    s.say("我想考北京大学").await;
    let id = s.session_id.clone().unwrap();
    let h = get(&app, &format!("/api/v1/chat/{id}")).await;
    assert_eq!(h.status, StatusCode::OK);
    let h = h.json();
    assert_eq!(h["messages"][0]["role"], "user");
    assert_eq!(h["messages"][0]["content"], "我想考北京大学");
    assert_eq!(h["messages"][1]["role"], "assistant");
    assert_eq!(h["form"]["school"], "北京大学");
    assert_eq!(h["options"]["params"]["target_field"], "major");
    // The session's start time and the page it last saw.
    let start = h["start_time"].as_str().unwrap();
    assert!(
        start.len() == 20 && start.ends_with('Z') && start.contains('T'),
        "{start}"
    );
    assert_eq!(h["page_context"]["current_page"], "home", "{h}");
    assert_eq!(
        get(&app, "/api/v1/chat/0123456789abcdef0123456789abcdef")
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

async fn stored(site: &server::site::Site) -> (i64, i64) {
    sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM chat_sessions), (SELECT COUNT(*) FROM chat_messages)",
    )
    .fetch_one(site.pool())
    .await
    .unwrap()
}

#[tokio::test]
async fn bad_input_answers_4xx_in_chinese_and_stores_nothing() {
    let (app, site) = app().await;
    let mut s = Student::new(&app);
    s.say("你好").await;
    let before = stored(&site).await;
    let sid = s.session_id.clone().unwrap();
    let cases: Vec<(String, StatusCode, &str)> = vec![
        (
            "not json".into(),
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
        (
            r#"{"message": 5}"#.into(),
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
        ("{}".into(), StatusCode::BAD_REQUEST, "missing_input"),
        (
            r#"{"message": "   "}"#.into(),
            StatusCode::BAD_REQUEST,
            "empty_message",
        ),
        (
            format!(r#"{{"message": "{}"}}"#, "长".repeat(501)),
            StatusCode::BAD_REQUEST,
            "message_too_long",
        ),
        (
            r#"{"message": "hi", "option": {"target_field": "school", "values": ["北京大学"]}}"#
                .into(),
            StatusCode::BAD_REQUEST,
            "ambiguous_input",
        ),
        (
            r#"{"option": {"target_field": "password", "values": ["x"]}}"#.into(),
            StatusCode::BAD_REQUEST,
            "invalid_option",
        ),
        (
            format!(
                r#"{{"session_id": "{sid}", "option": {{"target_field": "school", "values": ["霍格沃茨"]}}}}"#
            ),
            StatusCode::BAD_REQUEST,
            "invalid_option",
        ),
        (
            r#"{"session_id": "0123456789abcdef0123456789abcdef", "message": "你好"}"#.into(),
            StatusCode::NOT_FOUND,
            "unknown_session",
        ),
        (
            r#"{"session_id": "../../etc/passwd", "message": "你好"}"#.into(),
            StatusCode::NOT_FOUND,
            "unknown_session",
        ),
        (
            r#"{"message": "hi", "page_context": {"current_page": "nowhere"}}"#.into(),
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
        (
            r#"{"message": "hi", "page_context": {"visible_advisors": "all"}}"#.into(),
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
    ];
    for (body, status, code) in cases {
        let r = post_json(&app, "/api/v1/chat", &body).await;
        assert_eq!(r.status, status, "{body} → {}", r.body);
        let v: Value = r.json();
        assert_eq!(v["error"]["code"], code, "{body}");
        assert!(common::has_chinese(v["error"]["message"].as_str().unwrap()));
    }
    assert_eq!(
        stored(&site).await,
        before,
        "a refused request stores nothing"
    );
}
