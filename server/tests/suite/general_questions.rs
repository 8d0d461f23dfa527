//! Beyond the form: reading back what the agent holds ("我刚才说的
//! 是哪个学校？"), a general question about a school or a major answered
//! from the site's data without filling the form ("中山大学怎么样"), and the
//! model's intent classification for what code understood nothing of —
//! with the embedded planner and with a scripted model.

use crate::common;

use serde_json::json;

use common::{app, scripted, site_with, tools, Student};

/// The classification prompt's own words, so a rule answers only it.
const CLASSIFY: &str = "你是意图识别助手";

#[tokio::test]
async fn the_form_is_read_back_from_data_and_never_changed() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("我刚才说的是哪个学校？").await;
    assert_eq!(r.intent.intent, "read_back");
    assert!(r.voice_response.contains("还没"), "{}", r.voice_response);
    assert!(r.tool_calls.is_empty());

    s.say("我想考北京大学计算机系，想做机器学习，导师温和一点")
        .await;
    let r = s.say("我刚才说的是哪个学校？").await;
    assert_eq!(r.intent.intent, "read_back");
    assert!(
        r.voice_response.contains("北京大学"),
        "{}",
        r.voice_response
    );
    assert!(
        !r.voice_response.contains("机器学习"),
        "only the school: {}",
        r.voice_response
    );
    assert!(r.tool_calls.is_empty(), "no tool: {:?}", tools(&r));

    let r = s.say("你记下了我哪些要求？").await;
    for held in ["北京大学", "计算机科学与技术", "机器学习", "温和"] {
        assert!(
            r.voice_response.contains(held),
            "{held}: {}",
            r.voice_response
        );
    }
    let r = s.say("我说的经费要求是什么来着").await;
    assert!(r.voice_response.contains("还没"), "{}", r.voice_response);
    assert_eq!(r.form.preferences.funding, None);
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));
}

#[tokio::test]
async fn a_school_in_general_is_answered_from_data_and_the_form_waits_for_a_yes() {
    let (app, site) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("中山大学怎么样").await;
    assert_eq!(r.intent.intent, "general_question");
    assert!(r.voice_response.contains("广州"), "{}", r.voice_response);
    assert!(r.voice_response.contains("985"), "{}", r.voice_response);
    assert_eq!(r.form.school, None, "not filled unasked");
    assert!(!tools(&r).contains(&"update_form"));
    // The figures are the site's own.
    let school = site
        .catalog()
        .resolve_school("中山大学")
        .found()
        .unwrap()
        .clone();
    let facts = site.place_facts(Some(&school), None).await.unwrap();
    assert!(
        r.voice_response.contains(&facts.advisors.to_string()),
        "{} (advisors {})",
        r.voice_response,
        facts.advisors
    );
    // The offer, as 2–4 chips with a 5–10 character question.
    let chips = common::call(&r, "present_options");
    let options = chips.params["options"].as_array().unwrap();
    assert!((2..=4).contains(&options.len()));
    let q = chips.params["question"].as_str().unwrap().chars().count();
    assert!((5..=10).contains(&q), "{q}");

    // A yes fills the form with the school offered and asks for a major.
    let r = s.say("好的").await;
    assert_eq!(
        r.form.school.as_deref(),
        Some("中山大学"),
        "{}",
        r.voice_response
    );
    assert!(r.voice_response.contains("专业"), "{}", r.voice_response);
}

#[tokio::test]
async fn a_pair_in_general_names_its_first_advisor_and_a_no_changes_nothing() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("北大计算机系怎么样？").await;
    assert_eq!(r.intent.intent, "general_question");
    assert!(
        r.voice_response.contains("张三"),
        "the first of the ranking: {}",
        r.voice_response
    );
    assert_eq!(r.form.school, None);
    let r = s.say("先不用").await;
    assert_eq!(r.form.school, None);
    assert!(r.tool_calls.is_empty());
    // The offer lived one turn: a later yes fills nothing.
    let r = s.say("好的").await;
    assert_eq!(r.form.school, None, "{}", r.voice_response);

    // The chip accepts it, and the ranking follows at once.
    let r = s.say("北大计算机系怎么样？").await;
    assert!(tools(&r).contains(&"present_options"));
    let r = s.click("general", &["看看导师排名"]).await;
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));
    assert_eq!(r.form.major.as_deref(), Some("计算机科学与技术"));
    assert!(tools(&r).contains(&"update_ranking"), "{:?}", tools(&r));
}

#[tokio::test]
async fn a_major_question_about_jobs_is_answered_with_the_prospects_average() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("计算机专业好就业吗").await;
    assert_eq!(r.intent.intent, "general_question");
    assert!(
        r.voice_response.contains("学生前途"),
        "{}",
        r.voice_response
    );
    assert_eq!(
        r.form.preferences.research_style, None,
        "not a preference here"
    );
    assert_eq!(r.form.major, None);
}

#[tokio::test]
async fn the_model_classifies_what_code_understood_nothing_of() {
    let server = scripted(json!([
        {"when_system": CLASSIFY, "when": "有人值班",
         "reply": {"content": "{\"intent\": \"greeting\", \"confidence\": 0.93, \"reasoning\": \"打招呼\"}"}},
        {"when_system": CLASSIFY, "when": "掌握了我哪些情况",
         "reply": {"content": "{\"intent\": \"read_back\", \"confidence\": 0.88, \"reasoning\": \"问已记下的信息\"}"}},
        {"when_system": CLASSIFY, "when": "随口一说",
         "reply": {"content": "{\"intent\": \"greeting\", \"confidence\": 0.3, \"reasoning\": \"不确定\"}"}},
        {"when_system": CLASSIFY,
         "reply": {"content": "{\"intent\": \"unknown\", \"confidence\": 0.9, \"reasoning\": \"其他\"}"}},
        {"reply": {"content": "{\"voice_response\": \"我可以帮你找导师。你想考哪个学校？\", \"tool_calls\": []}"}}
    ]))
    .await;
    let app = site_with(&server, &[]).await;
    let mut s = Student::new(&app);

    // Code recognised the greeting: the model is not asked.
    let r = s.say("你好").await;
    assert_eq!(r.intent.intent, "greeting");
    assert_eq!(
        server.received().len(),
        0,
        "code's intents are never overridden"
    );

    let r = s.say("喂喂，有人值班不").await;
    assert_eq!(r.intent.intent, "greeting", "{:?}", r.intent);
    assert!(r.intent.reasoning.contains("模型"), "{:?}", r.intent);
    assert!((r.intent.confidence - 0.93).abs() < 1e-9);
    assert!(
        r.voice_response.contains("导师推荐助手"),
        "code's greeting: {}",
        r.voice_response
    );

    s.say("我想考北京大学计算机系").await;
    let r = s.say("你掌握了我哪些情况").await;
    assert_eq!(r.intent.intent, "read_back", "{:?}", r.intent);
    assert!(
        r.voice_response.contains("北京大学"),
        "{}",
        r.voice_response
    );

    // Below the threshold: code's fallback, the planner answers.
    let before = server.received().len();
    let r = s.say("就是随口一说").await;
    assert_ne!(r.intent.intent, "greeting", "{:?}", r.intent);
    assert!(r.error.is_none());
    let asked: Vec<String> = server.received()[before..]
        .iter()
        .map(|r| r.prompt_text())
        .collect();
    assert!(asked.iter().any(|p| p.contains(CLASSIFY)), "classified");
    assert!(asked.iter().any(|p| !p.contains(CLASSIFY)), "then planned");

    // Something code understood is never sent to the classifier.
    let before = server.received().len();
    s.say("第一个导师怎么样").await;
    assert!(
        server.received()[before..]
            .iter()
            .all(|r| !r.prompt_text().contains(CLASSIFY)),
        "not classified"
    );
}

#[tokio::test]
async fn a_broken_classification_changes_nothing() {
    let server = scripted(json!([
        {"when_system": CLASSIFY, "reply": {"content": "{\"intent\": \"reset\", \"confidence\": 1.0}"}},
        {"reply": {"content": "{\"voice_response\": \"我可以帮你找导师。你想考哪个学校？\", \"tool_calls\": []}"}}
    ]))
    .await;
    let app = site_with(&server, &[]).await;
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    let r = s.say("嗯那个啥呢其实吧").await;
    assert_eq!(
        r.form.school.as_deref(),
        Some("北京大学"),
        "no reset from a model"
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_ne!(r.intent.intent, "reset");
}

/// A small model labels freely; code takes a label only where the message
/// bears it out (`server/lexicons/model_intents.txt`).
#[tokio::test]
async fn a_confident_label_the_message_does_not_bear_out_is_not_taken() {
    let server = scripted(json!([
        {"when_system": CLASSIFY,
         "reply": {"content": "{\"intent\": \"read_back\", \"confidence\": 0.95, \"reasoning\": \"问记下的信息\"}"}},
        {"reply": {"content": "{\"voice_response\": \"导师作息各不相同，可以看看学生评价。\", \"tool_calls\": []}"}}
    ]))
    .await;
    let app = site_with(&server, &[]).await;
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    let r = s.say("导师一般几点上班").await;
    assert_ne!(r.intent.intent, "read_back", "{:?}", r.intent);
    assert!(
        !r.voice_response.contains("我记下的是"),
        "{}",
        r.voice_response
    );
}

/// A place's figures come from the stored per-pair sums; they are the sums
/// of its advisors' aggregates, after a published review too (the triggers
/// carry every write into them).
#[tokio::test]
async fn place_figures_are_the_sums_of_their_advisors_after_a_review() {
    let (app, site) = app().await;
    let reply = common::post_json(
        &app,
        "/api/v1/advisors/1/reviews",
        &common::review_json("导师很负责，组里氛围好，毕业去向也不错，推荐。").to_string(),
    )
    .await;
    assert!(reply.status.is_success(), "{}", reply.body);
    let catalog = site.catalog();
    let school = catalog.resolve_school("北京大学").found().unwrap().clone();
    let major = catalog.resolve_major("计算机系").found().unwrap().clone();
    for (s, m, filter) in [
        (Some(&school), None, format!("school_id = {}", school.id)),
        (None, Some(&major), format!("major_id = {}", major.id)),
        (
            Some(&school),
            Some(&major),
            format!("school_id = {} AND major_id = {}", school.id, major.id),
        ),
    ] {
        let facts = site.place_facts(s, m).await.unwrap();
        let (advisors, reviews, prospects): (i64, i64, i64) = sqlx::query_as(&format!(
            "SELECT COUNT(*), CAST(SUM(review_count) AS BIGINT), CAST(SUM(sum_prospects) AS BIGINT) \
             FROM advisors WHERE {filter}"
        ))
        .fetch_one(site.pool())
        .await
        .unwrap();
        assert_eq!(
            (facts.advisors, facts.reviews),
            (advisors, reviews),
            "{filter}"
        );
        let expected = (prospects as f64 / reviews as f64 * 10.0).round() / 10.0;
        assert_eq!(facts.prospects, Some(expected), "{filter}");
    }
}
