//! The review coach: a coached conversation through the
//! chat endpoint from "我想评价他" to a published review, the posting rules
//! on the way, the checkpointed draft, cancelling, the model's structured
//! evaluation, and the labelled set's scores.

use crate::common;

use serde_json::json;

use common::{app, app_with_model, call, get, tools, Student};
use server::evals::coach as eval;
use server::llm::scripted::{Script, ScriptedServer};

/// A student on 张三's detail page (北京大学 · 计算机科学与技术).
async fn on_zhang_page(app: &axum::Router) -> Student {
    let mut s = Student::new(app);
    s.say("我想考北京大学计算机系").await;
    s.say("第一个导师的详细信息").await;
    assert_eq!(s.page.selected_advisor.as_ref().unwrap().name, "张三");
    s
}

#[tokio::test]
async fn a_coached_conversation_ends_in_a_published_review() {
    let (app, _) = app().await;
    let mut s = on_zhang_page(&app).await;
    let advisor = s.page.selected_advisor.clone().unwrap();

    let r = s.say("我想评价他").await;
    assert_eq!(r.intent.intent, "review_coach");
    assert!(r.voice_response.contains("张三"), "{}", r.voice_response);

    let r = s
        .say("我是他组里的在读学生，学术水平很高，每周组会都认真指导论文")
        .await;
    assert!(
        r.voice_response.contains("经费"),
        "asks about a gap: {}",
        r.voice_response
    );
    assert!(r.tool_calls.is_empty());

    // A broken rule: said which and where, and kept out of the draft.
    let r = s.say("有事可以打我电话13812345678").await;
    assert!(
        r.voice_response.contains("电话") || r.voice_response.contains("手机"),
        "{}",
        r.voice_response
    );

    let r = s.say("经费充足，每个月补助三千，设备也够用").await;
    assert!(
        r.voice_response.contains("关系") || r.voice_response.contains("对学生"),
        "{}",
        r.voice_response
    );
    let r = s.say("老师脾气很好，很关心学生").await;
    assert!(
        r.voice_response.contains("毕业") || r.voice_response.contains("去向"),
        "{}",
        r.voice_response
    );
    let r = s.say("毕业的师兄大多去了大厂，推荐信也写得很用心").await;
    assert!(
        r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    let chips = call(&r, "present_options");
    assert_eq!(chips.params["options"][0], "确认发布");

    let r = s.say("经费改成3分").await;
    assert!(r.voice_response.contains("经费3"), "{}", r.voice_response);

    let r = s.click("general", &["确认发布"]).await;
    let posted = call(&r, "submit_review");
    let result = posted.result.as_ref().expect("the stored review");
    assert!(!result["edit_token"].as_str().unwrap().is_empty());
    assert_eq!(result["review"]["funding"], 3);
    let text = result["review"]["text"].as_str().unwrap().to_string();
    assert!(text.contains("每周组会"), "{text}");
    assert!(
        !text.contains("13812345678"),
        "the phone number never reaches the review"
    );

    // Published: the newest review of the advisor, and the coach is done.
    let list = get(&app, &format!("/api/v1/advisors/{}/reviews", advisor.id))
        .await
        .json();
    assert_eq!(list["reviews"][0]["text"], text.as_str());
    let r = s.say("第一个导师怎么样").await;
    assert_ne!(r.intent.intent, "review_coach");
}

#[tokio::test]
async fn the_draft_is_checkpointed_and_survives_a_reload() {
    let (app, _) = app().await;
    let mut s = on_zhang_page(&app).await;
    s.say("我想给他写个评价").await;
    s.say("学术很强，论文指导手把手，每周组会").await;
    // A reload: a new page, the same session id from sessionStorage.
    let session = s.session_id.clone();
    let mut again = Student::new(&app);
    again.session_id = session;
    let r = again.say("经费也很充足，补助每月两千五").await;
    assert_eq!(r.intent.intent, "review_coach", "the draft resumes");
    // Two dimensions never said: each is a choice, never invented.
    let r = again.say("就这些").await;
    assert!(
        r.voice_response.contains("师生关系"),
        "{}",
        r.voice_response
    );
    let chips = &r.tool_calls[0];
    assert_eq!(chips.tool, "present_options");
    assert_eq!(chips.params["question"], "师生关系打几分？");
    let r = again.say("4分").await;
    assert!(
        r.voice_response.contains("学生前途"),
        "{}",
        r.voice_response
    );
    let r = again.say("3分").await;
    assert!(
        r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    assert!(
        r.voice_response.contains("关系4") && r.voice_response.contains("前途3"),
        "the chosen scores: {}",
        r.voice_response
    );
}

#[tokio::test]
async fn cancelling_drops_the_draft_and_unknown_targets_are_asked() {
    let (app, _) = app().await;
    let r = Student::new(&app).say("我想写个评价").await;
    assert!(
        r.voice_response.contains("哪位导师"),
        "{}",
        r.voice_response
    );

    let mut s = on_zhang_page(&app).await;
    s.say("我要评价张三老师").await;
    let r = s.say("算了，不写了").await;
    assert!(r.voice_response.contains("不写了"), "{}", r.voice_response);
    let r = s.say("第二个导师怎么样").await;
    assert_ne!(r.intent.intent, "review_coach");
    assert!(tools(&r).is_empty() || r.voice_response.contains("李四"));
}

#[tokio::test]
async fn with_a_model_the_router_uses_its_structured_evaluation() {
    let evaluation = json!({"dimensions": ["academic"], "specific": true, "violations": [],
        "complete": false, "question": false, "reason": "谈了学术，还缺其他维度", "next_agent": "follow_up"});
    let script: Script = serde_json::from_value(json!({"rules": [
        {"when_system": "路由", "reply": {"content": evaluation.to_string()}},
        {"when_system": "追问", "reply": {"content": "那经费方面呢？补助和设备够用吗？"}},
        {"reply": {"content": "好的。", "tool_calls": [
            {"name": "update_form", "arguments": {"school": "北京大学", "major": "计算机科学与技术"}}]}}
    ]}))
    .unwrap();
    let server = ScriptedServer::start(script).await.unwrap();
    let base = server.base_url();
    let (app, _) = app_with_model(&[("LLM_BASE_URL", &base), ("LLM_TIMEOUT_SECS", "3")]).await;
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    s.say("我想评价一下张三老师").await;
    // Words the coach's rules do not read: the router's model is asked.
    let r = s
        .say("he is a legend in his field, we meet every week")
        .await;
    assert_eq!(r.intent.reasoning, "谈了学术，还缺其他维度");
    assert!(r.voice_response.contains("经费"), "{}", r.voice_response);
    let routed = server
        .received()
        .into_iter()
        .filter(|q| q.prompt_text().contains("路由"))
        .count();
    assert_eq!(routed, 1, "one structured evaluation per coached message");
    // Words the rules read: code's evaluation, no model call.
    s.say("经费充足，每个月补助三千").await;
    let routed = server
        .received()
        .into_iter()
        .filter(|q| q.prompt_text().contains("路由"))
        .count();
    assert_eq!(routed, 1, "the rules read it: no model call");
}

#[test]
fn the_labelled_set_is_routed_and_checked_well() {
    let set = eval::parse(include_str!("../../evals/dev/coach.jsonl")).expect("the set parses");
    assert!(set.len() >= 100, "{} labelled messages", set.len());
    let verdicts = eval::run(&set);
    let (accuracy, rules) = eval::score(&verdicts);
    let report = eval::render(&verdicts);
    assert!(accuracy >= 0.9, "routing accuracy {accuracy:.2}\n{report}");
    for r in &rules {
        assert!(
            r.precision() >= 0.8 && r.recall() >= 0.8,
            "{}: precision {:.2} recall {:.2}\n{report}",
            r.code,
            r.precision(),
            r.recall()
        );
    }
    assert!(rules.len() >= 6, "every rule is in the set: {rules:?}");
}

#[tokio::test]
async fn the_coach_hears_whether_the_student_recommends_applying() {
    let (app, site) = app().await;
    let mut s = on_zhang_page(&app).await;
    s.say("我想评价他").await;
    s.say("我是他组里的在读学生，学术水平很高，每周组会都认真指导论文，经费充足，补助每月三千")
        .await;
    let r = s
        .say("老师脾气很好，很关心学生，毕业的师兄大多去了大厂，强烈推荐报考")
        .await;
    let r = if r.voice_response.starts_with("整理好了") {
        r
    } else {
        s.say("就这些").await
    };
    assert!(
        r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    assert!(
        r.voice_response.contains("推荐报考"),
        "{}",
        r.voice_response
    );
    assert!(!r.voice_response.contains("不推荐"), "{}", r.voice_response);

    // Changed before publishing: "不推荐" is read before the 推荐 it holds.
    let r = s.say("还是改成不推荐报考吧，压力太大").await;
    assert!(
        r.voice_response.contains("不推荐报考"),
        "{}",
        r.voice_response
    );
    let r = s.click("general", &["确认发布"]).await;
    let posted = call(&r, "submit_review");
    let review = &posted.result.as_ref().expect("the stored review")["review"];
    assert_eq!(review["recommend"], json!(false), "{review}");
    common::assert_aggregates_match_recomputation(&site).await;
}

#[tokio::test]
async fn somebody_elses_advice_is_not_the_students_recommendation() {
    let (app, _) = app().await;
    let mut s = on_zhang_page(&app).await;
    s.say("我想评价他").await;
    s.say("我是他组里的在读学生，学术水平很高，每周组会都认真指导论文，经费充足，补助每月三千")
        .await;
    let r = s
        .say("老师脾气很好，很关心学生，毕业的师兄大多去了大厂，师兄说不推荐报考")
        .await;
    let r = if r.voice_response.starts_with("整理好了") {
        r
    } else {
        s.say("就这些").await
    };
    assert!(
        r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    assert!(
        !r.voice_response.contains("推荐报考"),
        "{}",
        r.voice_response
    );
}

/// The coach's router evaluation, as a scripted model gives it.
fn routed(dimensions: &[&str], question: bool, complete: bool) -> String {
    json!({"dimensions": dimensions, "specific": true, "violations": [], "complete": complete,
        "question": question, "reason": "模型评估", "next_agent": if question || complete { "editor" } else { "follow_up" },
        "action": null})
    .to_string()
}

/// The coach with a model, end to end: the follow-up asks in the model's words
/// about a missing dimension, the editor answers a question through the
/// lookup tool and the tool node, 就这些 and 确认发布 post a valid review.
#[tokio::test]
async fn with_a_model_the_specialists_speak_and_the_editor_looks_things_up() {
    let script: Script = serde_json::from_value(json!({"rules": [
        {"when_system": "路由", "when": "修改吗", "reply": {"content": routed(&[], true, false)}},
        {"when_system": "路由", "when": "legend", "reply": {"content": routed(&["academic"], false, false)}},
        {"when_system": "路由", "when": "就这些", "reply": {"content": routed(&[], false, true)}},
        {"when_system": "路由", "reply": {"content": routed(&["funding", "relationship", "prospects"], false, false)}},
        {"when_system": "追问", "reply": {"content": "那科研经费怎么样？补助和设备够用吗？"}},
        {"when_system": "本站资料：", "reply": {"content": "可以的，发布后24小时内凭修改链接能改或删除。"}},
        {"when_system": "老师助手", "reply": {"content": "", "tool_calls": [
            {"name": "lookup_knowledge", "arguments": {"query": "评价发布后还能修改吗"}}]}},
        {"reply": {"content": "好的。"}}
    ]}))
    .unwrap();
    let server = ScriptedServer::start(script).await.unwrap();
    let base = server.base_url();
    let (app, site) = app_with_model(&[("LLM_BASE_URL", &base), ("LLM_TIMEOUT_SECS", "3")]).await;
    let mut s = on_zhang_page(&app).await;
    let advisor = s.page.selected_advisor.clone().unwrap();
    s.say("我想评价他").await;

    // Words the coach's rules do not read: the model evaluates and words
    // the follow-up.
    let r = s
        .say(
            "I am in his group; he is a legend in the field and goes through our drafts every week",
        )
        .await;
    assert_eq!(
        r.voice_response, "那科研经费怎么样？补助和设备够用吗？",
        "the model's follow-up"
    );
    let follow_up = server
        .received()
        .into_iter()
        .find(|q| q.prompt_text().contains("追问"))
        .expect("a follow-up call");
    let prompt = follow_up.prompt_text();
    // The model's evaluation is what the follow-up is told; the draft's
    // coverage stays what code read from the student's words (none here).
    assert!(prompt.contains("这句话谈到的维度：学术水平"), "{prompt}");
    assert!(prompt.contains("还缺的维度："), "{prompt}");
    assert!(
        prompt.contains("goes through our drafts"),
        "the draft: {prompt}"
    );

    let r = s.say("评价发布后还能修改吗").await;
    assert_eq!(
        r.voice_response,
        "可以的，发布后24小时内凭修改链接能改或删除。"
    );
    let answered = server
        .received()
        .into_iter()
        .find(|q| q.prompt_text().contains("本站资料："))
        .expect("the editor answered from the lookup");
    assert!(
        answered.prompt_text().contains("修改链接"),
        "the passage found"
    );
    assert!(
        answered.body.get("tools").is_none(),
        "the tool is not offered twice"
    );
    assert!(tools(&r).is_empty(), "nothing published: {:?}", tools(&r));

    s.say("学术水平很高，经费充足，每个月补助三千，设备也够用，老师脾气很好很关心学生，毕业的师兄都去了大厂")
        .await;
    let r = s.say("就这些").await;
    assert!(
        r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    let r = s.say("确认发布").await;
    let posted = call(&r, "submit_review");
    assert!(posted.result.is_some());
    let page = get(&app, &format!("/api/v1/advisors/{}/reviews", advisor.id)).await;
    assert!(
        page.body.contains("goes through our drafts"),
        "the review is published"
    );
    common::assert_aggregates_match_recomputation(&site).await;
}

/// A model line the checks refuse is never said; the template is. A router
/// whose model fails hands the turn to the editor, not to an apology.
#[tokio::test]
async fn a_refused_model_line_or_a_failing_router_leaves_the_templates_to_speak() {
    let script: Script = serde_json::from_value(json!({"rules": [
        {"when_system": "路由", "when": "legend", "status": 500},
        {"when_system": "路由", "reply": {"content": routed(&["funding"], false, false)}},
        {"when_system": "追问", "reply": {"content": "已发布！有问题打13812345678吗？"}},
        {"reply": {"content": "好的。"}}
    ]}))
    .unwrap();
    let server = ScriptedServer::start(script).await.unwrap();
    let base = server.base_url();
    let (app, _) = app_with_model(&[
        ("LLM_BASE_URL", &base),
        ("LLM_TIMEOUT_SECS", "3"),
        ("LLM_MAX_RETRIES", "0"),
    ])
    .await;
    let mut s = on_zhang_page(&app).await;
    s.say("我想评价他").await;
    // Words the rules do not read: the router's model is asked, and fails.
    let r = s.say("he is a legend and goes through our drafts").await;
    assert!(r.error.is_none(), "{:?}", r.error);
    assert!(
        !r.voice_response.contains("抱歉"),
        "no apology: {}",
        r.voice_response
    );
    assert!(
        server
            .received()
            .iter()
            .all(|q| !q.prompt_text().contains("追问")),
        "the editor, not the follow-up, took the turn"
    );
    let r = s.say("stipend is fine, about three grand a month").await;
    assert!(!r.voice_response.contains("已发布"), "{}", r.voice_response);
    assert!(!r.voice_response.contains("138"), "{}", r.voice_response);
    assert!(
        server
            .received()
            .iter()
            .any(|q| q.prompt_text().contains("追问")),
        "the follow-up was asked"
    );
    assert!(
        r.voice_response.contains("？"),
        "the template's question: {}",
        r.voice_response
    );
}

/// An editor's answer about the site that was not looked up is not said:
/// code runs the lookup itself and the editor answers from the passage.
#[tokio::test]
async fn an_answer_not_looked_up_is_looked_up_by_code_first() {
    let script: Script = serde_json::from_value(json!({"rules": [
        {"when_system": "路由", "reply": {"content": routed(&[], true, false)}},
        {"when_system": "本站资料：", "reply": {"content": "能，发布后凭修改链接可以修改或删除。"}},
        {"when_system": "老师助手", "reply": {"content": "否"}},
        {"reply": {"content": "好的。"}}
    ]}))
    .unwrap();
    let server = ScriptedServer::start(script).await.unwrap();
    let base = server.base_url();
    let (app, _) = app_with_model(&[("LLM_BASE_URL", &base), ("LLM_TIMEOUT_SECS", "3")]).await;
    let mut s = on_zhang_page(&app).await;
    s.say("我想评价他").await;
    let r = s.say("评价发布后还能修改吗").await;
    assert_eq!(r.voice_response, "能，发布后凭修改链接可以修改或删除。");
    assert!(
        server
            .received()
            .iter()
            .any(|q| q.prompt_text().contains("修改链接")),
        "the passage code looked up"
    );
}

/// The scores of a summary line ("整理好了：学术4、经费2、关系4、前途3，…").
fn summary_scores(voice: &str) -> [u8; 4] {
    ["学术", "经费", "关系", "前途"].map(|k| {
        let at = voice.find(k).unwrap_or_else(|| panic!("{k} in {voice}")) + k.len();
        voice[at..]
            .chars()
            .next()
            .and_then(|c| c.to_digit(10))
            .unwrap() as u8
    })
}

/// A review as a student writes it: each row is what the summary
/// must say after the student's own words.
#[tokio::test]
async fn the_summary_scores_what_the_student_wrote() {
    let (app, _) = app().await;
    let mut s = on_zhang_page(&app).await;
    s.say("我想评价他").await;
    s.say("学术水平很高，组会指导很认真，但是经费不够，补助很少，设备也老旧")
        .await;
    s.say("老师人挺好的，毕业的师兄去向一般").await;
    let r = s.say("就这些").await;
    assert!(
        r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    assert_eq!(
        summary_scores(&r.voice_response),
        [4, 2, 4, 3],
        "academic high, funding low: {}",
        r.voice_response
    );

    // Several dimensions in one edit, each with its own number.
    let r = s.say("经费改成2分，学术给5分").await;
    assert_eq!(
        summary_scores(&r.voice_response),
        [5, 2, 4, 3],
        "{}",
        r.voice_response
    );

    // A later statement replaces an earlier one.
    let r = s.say("其实经费还行，补助每个月三千").await;
    assert!(
        r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    assert_eq!(
        summary_scores(&r.voice_response),
        [5, 3, 4, 3],
        "{}",
        r.voice_response
    );

    // A move that names no dimension moves the one edited last again.
    let r = s.say("前途高一点").await;
    assert_eq!(
        summary_scores(&r.voice_response),
        [5, 3, 4, 4],
        "{}",
        r.voice_response
    );
    let r = s.say("嗯，再高一点").await;
    assert_eq!(
        summary_scores(&r.voice_response),
        [5, 3, 4, 5],
        "{}",
        r.voice_response
    );

    // An edit the coach cannot read gets a question, not the same summary.
    let r = s.say("那个分数帮我改一下").await;
    assert!(
        !r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    assert!(
        r.voice_response.contains("改成几分"),
        "{}",
        r.voice_response
    );
}

/// A message that is not about the review goes to the agent with the draft
/// kept, and never into the review's text; "继续写" returns to it.
#[tokio::test]
async fn a_digression_is_answered_and_the_draft_waits() {
    let (app, _) = app().await;
    let mut s = on_zhang_page(&app).await;
    s.say("我想评价他").await;
    s.say("学术水平很高，组会指导很认真").await;
    let r = s.say("帮我看看北京大学计算机的排名").await;
    assert_ne!(r.intent.intent, "review_coach", "{}", r.voice_response);
    assert!(
        tools(&r)
            .iter()
            .any(|t| ["update_form", "navigate_to", "recommend_advisors"].contains(t)),
        "the ranking: {:?} {}",
        tools(&r),
        r.voice_response
    );
    let r = s.say("继续写").await;
    assert_eq!(r.intent.intent, "review_coach");
    assert!(r.voice_response.contains("张三"), "{}", r.voice_response);
    assert!(
        r.voice_response.contains("经费"),
        "the next gap: {}",
        r.voice_response
    );
    s.say("经费充足，补助每月三千，老师脾气很好，毕业的师兄都去了大厂")
        .await;
    let r = s.say("就这些").await;
    assert!(
        r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    let r = s.say("确认发布").await;
    let posted = r
        .tool_calls
        .iter()
        .find(|c| c.tool == "submit_review")
        .expect("published");
    let text = posted.result.as_ref().unwrap()["review"]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        !text.contains("排名"),
        "the digression is not in the review: {text}"
    );
    assert!(!text.contains("继续写"), "{text}");
}

/// A model line that says the opposite of the site's knowledge is refused
/// and the passage's own answer is spoken (measured: the local 0.5B model
/// said 「是的，评价发布后别人可以看到你的名字。」).
#[tokio::test]
async fn a_model_line_that_contradicts_the_site_is_refused() {
    let script: Script = serde_json::from_value(json!({"rules": [
        {"when_system": "路由", "reply": {"content": routed(&[], true, false)}},
        {"when_system": "本站资料：", "reply": {"content": "是的，评价发布后别人可以看到你的名字。"}},
        {"when_system": "老师助手", "reply": {"content": "是的，别人可以看到你的名字。"}},
        {"reply": {"content": "好的。"}}
    ]}))
    .unwrap();
    let server = ScriptedServer::start(script).await.unwrap();
    let base = server.base_url();
    let (app, _) = app_with_model(&[("LLM_BASE_URL", &base), ("LLM_TIMEOUT_SECS", "3")]).await;
    let mut s = on_zhang_page(&app).await;
    s.say("我想评价他").await;
    let r = s.say("评价发布以后别人能看到我的名字吗？").await;
    assert!(
        !r.voice_response.contains("可以看到你的名字"),
        "{}",
        r.voice_response
    );
    assert!(
        r.voice_response.contains("匿名") || r.voice_response.contains("不显示你的身份"),
        "the passage's answer: {}",
        r.voice_response
    );
}

/// The coach's model calls keep the turn's latency budget: a
/// model slower than it costs the student no more than the budget, and the
/// coach's own templates speak.
#[tokio::test]
async fn a_slow_model_leaves_the_coach_to_its_templates_within_the_budget() {
    let server =
        common::scripted(json!([{"delay_ms": 3000, "reply": {"content": "好的。"}}])).await;
    let app = common::site_with(
        &server,
        &[("LLM_TURN_BUDGET_SECS", "0.4"), ("LLM_MAX_RETRIES", "0")],
    )
    .await;
    let mut s = on_zhang_page(&app).await;
    s.say("我想评价他").await;
    let started = std::time::Instant::now();
    let r = s.say("学术水平很高，每周组会都认真指导论文").await;
    assert!(
        started.elapsed() < std::time::Duration::from_millis(2500),
        "the turn waited {:?}",
        started.elapsed()
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    assert!(!r.voice_response.contains("抱歉"), "{}", r.voice_response);
    assert!(r.voice_response.contains('？'), "{}", r.voice_response);
    // The draft goes on.
    let r = s.say("经费充足，每个月补助三千").await;
    assert!(r.error.is_none(), "{:?}", r.error);
}

/// The targets on a set written after the code by a writer who read only
/// the labelling guide, measured once before anyone read it
/// (`dev/coach-scores-15.jsonl`: 96.7 % exact, 98.7 % within
/// ±1, edits 100 %): at least 90 % exact on every dimension, 98 % within ±1
/// and every edit that names a number. Printed with `--nocapture`. Once its
/// misses are read it is development data like the others, and the next
/// set written after the code takes its place here.
#[test]
fn the_coach_meets_its_targets_on_text_written_after_it() {
    use server::evals::coach_scores as eval_scores;
    let file = "dev/coach-scores-15.jsonl";
    let set = eval_scores::parse(include_str!("../../evals/dev/coach-scores-15.jsonl"))
        .expect("the set parses");
    let report = eval_scores::run(&set);
    let t = &report.total;
    println!("{}", eval_scores::render(file, &report, false));
    for (i, name) in ["academic", "funding", "relationship", "prospects"]
        .iter()
        .enumerate()
    {
        assert!(
            t.exact_of(i) >= 90.0,
            "{file}: {name} exact {:.1} %",
            t.exact_of(i)
        );
    }
    assert!(
        t.within_one() >= 98.0,
        "{file}: within ±1 {:.1} %",
        t.within_one()
    );
    assert_eq!(t.edit_accuracy(), 100.0, "{file}: edits");
}

/// The newest blind sets (written after the reader was committed, by
/// writers who read only the labelling guide, each in a voice of its own:
/// venting, hearsay beside the student's own impression, forum posts),
/// held to what they measured at first contact. They do not meet the
/// targets yet (`the_coach_meets_its_targets_on_text_written_after_it`
/// holds them on `dev/coach-scores-15.jsonl`); nothing was tuned on them,
/// and once their misses are read they are development data like the
/// others (each round before moved to dev/ so, the manifest says when).
/// Printed with `--nocapture`.
#[test]
fn the_newest_blind_sets_read_no_worse_than_at_first_contact() {
    use server::evals::coach_scores as eval_scores;
    for (file, text, exact, within_one, edits) in [
        // The fourth and fifth rounds were read since and are in dev/
        // (the fifth measured 50.9, 56.4 and 81.9 % exact at first contact).
        // The -7 sets (2026-11-29), written the same way after the -5
        // sets' misses were read, measured once at 607fd50: a
        // chemistry PhD student venting in a group chat, an applicant
        // mixing hearsay with an email, a visit or an interview, graduates'
        // structured posts. 44.4, 65.5 and 81.2 % exact at first contact.
        // All three were read on 2026-11-29 (now in dev/).
        // The -8 sets (2026-11-29), measured once at c23849c at 72.4, 90.8
        // and 87.6 % exact, were read on 2026-11-29 (now in dev/).
        // The -9 sets (2026-11-29), measured once at 3d4b772 at 71.4, 89.5
        // and 85.4 % exact, were read on 2026-11-29 (now in dev/).
        // The -10 sets (2026-11-29), measured once at f14454c at 85.7,
        // 87.5, 81.3 and 98.2 % exact, were read on 2026-11-30 (now in dev/).
        // The -11 sets (2026-11-30), measured once at cba52ae at 83.6, 76.4,
        // 82.0 and 100 % exact, were read on 2026-11-30 (now in dev/).
        // The -12 sets (2026-11-30), measured once at e589636 at 72.5,
        // 91.2, 89.5 and 92.4 % exact, were read on 2026-11-30 (now in dev/).
        // The -13 sets (2026-11-30), written after the -12 round was
        // measured, measured once at 6c5e13d at 68.2, 91.7, 81.0 and 89.0 %
        // exact; venting, forum and hearsay were read on 2026-11-30 (now in
        // dev/). Drafting-13 (students drafting at a laptop: relative
        // edits, undoing, synonyms) stays here; its misses were seen on
        // 2026-11-30 (no longer held out).
        (
            "blind/coach-scores-drafting-13.jsonl",
            include_str!("../../evals/blind/coach-scores-drafting-13.jsonl"),
            91.5,
            97.0,
            77.5,
        ),
        // The -14 sets (2026-11-30), measured once at 4eebca9 at 84.1, 86.6,
        // 87.7 and 87.9 % exact, were read on 2026-11-30 (now in dev/).
        // The -15 sets (2026-11-30), measured once at 311efc9 at 97.3, 97.0,
        // 87.8 and 92.6 % exact, were read on 2026-11-30 (now in dev/).
        // The -16 sets (2026-11-30), written the same way after the -15
        // round was measured, asked for messages as students really send
        // them (long, messy, several incidents, irony): medicine, biology,
        // pharmacy, agriculture, physics and humanities students venting at
        // night; engineering, law, journalism, languages, art and sports
        // graduates' long posts on 知乎, 小红书, 贴吧 and 考研 forums;
        // applicants not yet in the group mixing what they saw with rumour;
        // students drafting by voice while walking the dog or queueing.
        // Measured once at eaaf0b5: 82.0, 89.9, 82.1 and 94.8 % exact
        // (drafting's edits 84 %). Venting, forum and hearsay were read on
        // 2026-11-30 after the -17 round was written (now in dev/);
        // drafting-16 was read on 2026-12-01 (now in dev/).
        // The -17 sets (2026-11-30), written the same way after the -16
        // round was measured: engineering, chemistry, economics and law
        // students venting in voice messages and 树洞 posts (irony,
        // complaints about others than the advisor); 知乎, 豆瓣, 小木虫 and
        // QQ-group posts with headings, stars and two advisors compared;
        // alumni, visiting and co-advised students and relatives, first-
        // and second-hand mixed; drafting by voice while cooking or on the
        // subway. Measured once at 7e593e0: 71.2, 88.9, 83.1 and 97.8 %
        // exact (drafting's edits 89 %). Venting, forum and hearsay were
        // read on 2026-12-01 after the -18 round was measured (now in
        // dev/); drafting-17 was read on 2026-12-01 (now in dev/).
        // The -18 sets (2026-11-30), written the same way after the -17
        // round was measured: medicine (规培), humanities, art, teacher-
        // training and agriculture students venting at night in 树洞 and
        // friends' groups (now and then praising); 小红书, 贴吧, 微博 and
        // 匿名墙 posts by chemistry, biology, education and management
        // students; people relaying others (seniors in the group chat, those
        // who left or changed advisors, former postdocs, parents, rumours
        // from interviews); drafting by voice before lights-out, on a bike
        // or in a queue. Measured once at 678955a: 61.0, 86.2, 85.1 and
        // 100 % exact (edits 100 %). Venting, forum and hearsay were read
        // on 2026-12-01 after the -19 round was measured (now in dev/);
        // drafting-18 has no misses.
        (
            "blind/coach-scores-drafting-18.jsonl",
            include_str!("../../evals/blind/coach-scores-drafting-18.jsonl"),
            99.5,
            99.5,
            99.5,
        ),
        // The -19 sets (2026-12-01), written the same way after the -18
        // round was measured: in-service, direct-PhD, Hong Kong, Macau,
        // Taiwan and returned students venting by voice-to-text (few stops,
        // homophones), in QQ groups and 微博 side accounts, with dialect and
        // English; 知乎 answers, 考研帮 and BBS replies with the question
        // quoted, points and headings; applicants relaying campus visits,
        // summer camps, group-chat screenshots and staff; drafting by voice
        // just after the defence or an offer, in the canteen, gym or train,
        // bargaining over the proposed scores. Measured once at a8c9a44:
        // 78.5, 86.0, 80.3 and 92.5 % exact (edits 90 %). Read on
        // 2026-12-01 after the -20 round was measured (now in dev/).
        // The -20 sets (2026-12-01), written the same way after the -19
        // round was measured: humanities, medicine, agriculture and
        // teacher-training students venting on 小红书, 豆瓣, 朋友圈 and in
        // 树洞 with irony, memes and self-mockery; 小红书 避雷 notes, B站
        // comments, 贴吧 replies and evaluation-form posts (stars, pros and
        // cons, floors rebutting each other, a clickbait title turned
        // round); parents, class teachers, tutors, seniors and roommates
        // relaying what they heard, rumour beside their own judgement;
        // first- and second-year students typing a draft on the subway or
        // at their desk (IME slips, going back over the scores, asking the
        // coach). Measured once at 49bcb06: 80.8, 87.5, 87.0 and 96.2 %
        // exact (edits 67, -, 100, 100 %). Read on
        // 2026-12-01 after the -21 round was measured (now in dev/).
        // The -21 sets (2026-12-01), written the same way after the -20
        // round was measured: engineering students venting in WeChat
        // groups, several messages in a row, with dialect words and daily
        // life; 知乎 answers, 小木虫 posts and mini-program reviews with
        // headings, points and 更新： paragraphs that revise; applicants
        // weighing what current students, a cold email's reply and the
        // interview told them; drafting over several turns after a group
        // meeting or the defence (15 edits). Measured once at 1134e39:
        // 82.5, 89.3, 84.3 and 91.7 % exact (edits 100, 100, 100, 80 %).
        // Read on 2026-12-02 (now in dev/): 83.5, 92.9, 85.5 and 96.3 %
        // exact (edits 100 % each).
        // The -22 sets (2026-12-02), written the same way after the -21
        // round was read: science students venting on 微博, 豆瓣, QQ空间,
        // 即刻 and short-video comments and by voice-to-text; BBS, 寄托,
        // 保研论坛, 牛客 and 脉脉 long posts with Q&A, floors, tables, stars
        // and 更新 paragraphs; first-years weighing what they heard against
        // what they now see; drafting on a phone by voice, graduates and
        // in-service students (15 edits). Measured once at 483bc23: 92.7,
        // 83.7, 91.4 and 93.5 % exact (edits 100, 100, 100, 80 %). Misses
        // not read.
        (
            "blind/coach-scores-venting-22.jsonl",
            include_str!("../../evals/blind/coach-scores-venting-22.jsonl"),
            92.5,
            96.0,
            100.0,
        ),
        (
            "blind/coach-scores-forum-22.jsonl",
            include_str!("../../evals/blind/coach-scores-forum-22.jsonl"),
            83.5,
            95.5,
            100.0,
        ),
        (
            "blind/coach-scores-hearsay-22.jsonl",
            include_str!("../../evals/blind/coach-scores-hearsay-22.jsonl"),
            91.0,
            97.0,
            100.0,
        ),
        (
            "blind/coach-scores-drafting-22.jsonl",
            include_str!("../../evals/blind/coach-scores-drafting-22.jsonl"),
            93.0,
            98.0,
            80.0,
        ),
    ] {
        let set = eval_scores::parse(text).expect("the set parses");
        let report = eval_scores::run(&set);
        let t = &report.total;
        println!("{}", eval_scores::render(file, &report, false));
        assert!(
            t.exact() >= exact && t.within_one() >= within_one && t.edit_accuracy() >= edits,
            "{file}: exact {:.3}, within one {:.3}, edits {:.1}",
            t.exact(),
            t.within_one(),
            t.edit_accuracy()
        );
    }
}

/// The coach's reading of scores cannot fall back: the development sets,
/// held to how well they are read now. The targets (≥ 90 %
/// exact per dimension, ≥ 98 % within ±1) are for a set written after the
/// code and measured once; `server eval-coach` prints them.
#[test]
fn the_coach_reads_scores_no_worse_than_measured() {
    use server::evals::coach_scores as eval_scores;
    for (file, text, exact, within_one) in [
        (
            "dev/coach-scores-01.jsonl",
            include_str!("../../evals/dev/coach-scores-01.jsonl"),
            99.5,
            99.5,
        ),
        // Held-out sets measured once untuned, tuned on since (see
        // coach-scores.md): they now guard against regressions.
        (
            "dev/coach-scores-02.jsonl",
            include_str!("../../evals/dev/coach-scores-02.jsonl"),
            99.5,
            99.5,
        ),
        (
            "dev/coach-scores-03.jsonl",
            include_str!("../../evals/dev/coach-scores-03.jsonl"),
            99.0,
            99.5,
        ),
        (
            "dev/coach-scores-04.jsonl",
            include_str!("../../evals/dev/coach-scores-04.jsonl"),
            99.5,
            99.5,
        ),
        (
            "dev/coach-scores-05.jsonl",
            include_str!("../../evals/dev/coach-scores-05.jsonl"),
            99.5,
            99.5,
        ),
        (
            "dev/coach-scores-06.jsonl",
            include_str!("../../evals/dev/coach-scores-06.jsonl"),
            99.0,
            99.5,
        ),
        (
            "dev/coach-scores-07.jsonl",
            include_str!("../../evals/dev/coach-scores-07.jsonl"),
            99.5,
            99.5,
        ),
        (
            "dev/coach-scores-08.jsonl",
            include_str!("../../evals/dev/coach-scores-08.jsonl"),
            99.5,
            99.5,
        ),
        (
            "dev/coach-scores-09.jsonl",
            include_str!("../../evals/dev/coach-scores-09.jsonl"),
            99.5,
            99.5,
        ),
        (
            "dev/coach-scores-10.jsonl",
            include_str!("../../evals/dev/coach-scores-10.jsonl"),
            99.5,
            99.5,
        ),
        (
            "dev/coach-scores-11.jsonl",
            include_str!("../../evals/dev/coach-scores-11.jsonl"),
            99.5,
            99.5,
        ),
        // Written for development (weighted to facts, colloquial and long
        // messages): 82.4 % / 92.2 % untuned, read since.
        (
            "dev/coach-scores-13.jsonl",
            include_str!("../../evals/dev/coach-scores-13.jsonl"),
            99.0,
            99.5,
        ),
        // First contact 89.0 % / 95.5 % (server/evals/README.md), read since.
        (
            "dev/coach-scores-12.jsonl",
            include_str!("../../evals/dev/coach-scores-12.jsonl"),
            99.5,
            99.5,
        ),
        // First contact 87.8 % / 95.6 % (edits 88 %), read since.
        (
            "dev/coach-scores-14.jsonl",
            include_str!("../../evals/dev/coach-scores-14.jsonl"),
            98.0,
            99.5,
        ),
        // The -16 round's venting, forum and hearsay, blind at first
        // contact (82.0, 89.9 and 82.1 % exact at eaaf0b5), read since.
        (
            "dev/coach-scores-venting-16.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-16.jsonl"),
            83.5,
            94.5,
        ),
        (
            "dev/coach-scores-forum-16.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-16.jsonl"),
            91.5,
            97.0,
        ),
        (
            "dev/coach-scores-hearsay-16.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-16.jsonl"),
            81.5,
            98.5,
        ),
        // The -17 round's venting, forum and hearsay, blind at first
        // contact (71.2, 88.9 and 83.1 % exact at 7e593e0), read since.
        (
            "dev/coach-scores-venting-17.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-17.jsonl"),
            76.5,
            87.5,
        ),
        (
            "dev/coach-scores-forum-17.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-17.jsonl"),
            89.5,
            96.5,
        ),
        (
            "dev/coach-scores-hearsay-17.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-17.jsonl"),
            84.5,
            94.5,
        ),
        // The -18 round's venting, forum and hearsay, blind at first
        // contact (61.0, 86.2 and 85.1 % exact at 678955a), read since.
        (
            "dev/coach-scores-venting-18.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-18.jsonl"),
            77.5,
            88.5,
        ),
        (
            "dev/coach-scores-forum-18.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-18.jsonl"),
            88.0,
            96.0,
        ),
        (
            "dev/coach-scores-hearsay-18.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-18.jsonl"),
            87.5,
            95.0,
        ),
        // The -19 round, blind at first contact (78.5, 86.0, 80.3 and
        // 92.5 % exact at a8c9a44), read since.
        (
            "dev/coach-scores-venting-19.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-19.jsonl"),
            82.0,
            91.0,
        ),
        (
            "dev/coach-scores-forum-19.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-19.jsonl"),
            89.0,
            97.0,
        ),
        (
            "dev/coach-scores-hearsay-19.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-19.jsonl"),
            83.5,
            95.0,
        ),
        (
            "dev/coach-scores-drafting-19.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-19.jsonl"),
            95.5,
            98.5,
        ),
        // The -20 round, blind at first contact (80.8, 87.5, 87.0 and
        // 96.2 % exact at 49bcb06), read since.
        (
            "dev/coach-scores-venting-20.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-20.jsonl"),
            86.0,
            95.5,
        ),
        (
            "dev/coach-scores-forum-20.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-20.jsonl"),
            88.5,
            97.0,
        ),
        (
            "dev/coach-scores-hearsay-20.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-20.jsonl"),
            89.5,
            98.5,
        ),
        (
            "dev/coach-scores-drafting-20.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-20.jsonl"),
            96.0,
            97.0,
        ),
        (
            "dev/coach-scores-venting-21.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-21.jsonl"),
            86.0,
            95.0,
        ),
        (
            "dev/coach-scores-forum-21.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-21.jsonl"),
            92.5,
            96.0,
        ),
        (
            "dev/coach-scores-hearsay-21.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-21.jsonl"),
            85.5,
            95.0,
        ),
        (
            "dev/coach-scores-drafting-21.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-21.jsonl"),
            96.0,
            98.0,
        ),
        // Written by the developer for the families (demands,
        // before/now, double negation, rejected hearsay, 有的…有的…,
        // amounts) and review-like messages: first contact 53.5–80.0 %
        // per batch, read since.
        (
            "dev/coach-scores-families.jsonl",
            include_str!("../../evals/dev/coach-scores-families.jsonl"),
            97.5,
            98.0,
        ),
        // Written by other writers in the voices the coach misread (group
        // chat venting, long forum posts, hearsay beside the applicant's own
        // impression, drafting with the coach); first contact 76.5 %,
        // 62.7 %, 78.2 %, 96.9 % exact, read since.
        (
            "dev/coach-scores-venting-1.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-1.jsonl"),
            // 94.3 until turned praise became a 2 (2026-11-29): this
            // writer gave "太关心" in quotes a 1, the later sets' writers
            // give irony a 2 (venting-9 71.4 → 76.8 %).
            93.5,
            95.0,
        ),
        (
            "dev/coach-scores-forum-1.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-1.jsonl"),
            78.5,
            92.0,
        ),
        (
            "dev/coach-scores-hearsay-1.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-1.jsonl"),
            94.5,
            98.0,
        ),
        (
            "dev/coach-scores-drafting-1.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-1.jsonl"),
            99.0,
            99.5,
        ),
        // Written blind after the reader was committed, in the same voices;
        // first contact 66.5 %, 78.2 %, 75.0 %, 93.9 % exact. Their misses
        // were read on 2026-11-28, when they moved to dev/; held to what
        // they read after that (83.8 %, 82.3 %, 76.1 %, 96.9 %).
        (
            "dev/coach-scores-venting-2.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-2.jsonl"),
            83.5,
            90.0,
        ),
        (
            "dev/coach-scores-forum-2.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-2.jsonl"),
            82.0,
            95.0,
        ),
        (
            "dev/coach-scores-hearsay-2.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-2.jsonl"),
            75.5,
            91.5,
        ),
        (
            "dev/coach-scores-drafting-2.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-2.jsonl"),
            96.5,
            98.0,
        ),
        // The second blind round, in other writers' voices (a sardonic
        // engineering PhD venting, an economics graduate's "objective"
        // posts, a careful biology student's hearsay, an indecisive
        // undergraduate drafting, the guide's other categories): first
        // contact 51.3, 72.0, 70.7, 91.3 and 96.7 % exact. Their misses
        // were read on 2026-11-28, when they moved to dev/.
        (
            "dev/coach-scores-venting-3.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-3.jsonl"),
            64.0,
            72.0,
        ),
        (
            "dev/coach-scores-forum-3.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-3.jsonl"),
            71.5,
            93.0,
        ),
        (
            "dev/coach-scores-hearsay-3.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-3.jsonl"),
            77.0,
            89.5,
        ),
        (
            "dev/coach-scores-drafting-3.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-3.jsonl"),
            95.5,
            99.0,
        ),
        (
            "dev/coach-scores-mixed-1.jsonl",
            include_str!("../../evals/dev/coach-scores-mixed-1.jsonl"),
            98.0,
            98.0,
        ),
        // The third blind round (a clinical master's student venting at
        // night, an applicant crossing from 机械 to 计算机, a CS PhD's 知乎
        // answers, drafting over several messages, the other categories):
        // 70.1, 62.5, 73.9, 94.1 and 88.4 % exact at first contact; read on
        // 2026-11-29, when it moved here.
        (
            "dev/coach-scores-venting-4.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-4.jsonl"),
            75.5,
            82.0,
        ),
        (
            "dev/coach-scores-hearsay-4.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-4.jsonl"),
            72.0,
            // 83.8 until 一堆人说 became hearsay: "底下一堆人说是假的，我也觉得
            // 不太可能" now reads the student rejecting the crowd, not
            // agreeing with it (也), which hearsay-2, -7 and -8 gained more than.
            82.5,
        ),
        (
            "dev/coach-scores-forum-4.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-4.jsonl"),
            74.0,
            88.0,
        ),
        // The fifth round's hearsay set: 56.4 % / 80.0 % at first contact
        // (blind), read on 2026-11-29.
        (
            "dev/coach-scores-hearsay-6.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-6.jsonl"),
            65.0,
            87.0,
        ),
        // The -7 round's hearsay set: 65.5 % / 86.2 % at first contact
        // (blind), read on 2026-11-29.
        (
            "dev/coach-scores-hearsay-7.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-7.jsonl"),
            68.5,
            86.0,
        ),
        // The -7 round's forum set: 81.2 % / 94.6 % at first contact
        // (blind), read on 2026-11-29.
        (
            "dev/coach-scores-forum-7.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-7.jsonl"),
            81.5,
            95.0,
        ),
        // The -7 round's venting set: 44.4 % / 63.0 % at first contact
        // (blind), read on 2026-11-29.
        (
            "dev/coach-scores-venting-7.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-7.jsonl"),
            62.5,
            83.0,
        ),
        // The -8 round: 72.4, 90.8 and 87.6 % exact at first contact
        // (blind), read on 2026-11-29.
        (
            "dev/coach-scores-venting-8.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-8.jsonl"),
            81.0,
            94.0,
        ),
        (
            "dev/coach-scores-hearsay-8.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-8.jsonl"),
            93.5,
            99.5,
        ),
        (
            "dev/coach-scores-forum-8.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-8.jsonl"),
            91.0,
            97.5,
        ),
        // The -9 round: 71.4, 89.5 and 85.4 % exact at first contact
        // (blind), read on 2026-11-29.
        (
            "dev/coach-scores-venting-9.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-9.jsonl"),
            78.5,
            89.0,
        ),
        (
            "dev/coach-scores-hearsay-9.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-9.jsonl"),
            91.0,
            92.5,
        ),
        (
            "dev/coach-scores-forum-9.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-9.jsonl"),
            86.5,
            95.0,
        ),
        // The -10 round: 85.7, 87.5, 81.3 and 98.2 % exact at first
        // contact (blind), read on 2026-11-30.
        (
            "dev/coach-scores-venting-10.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-10.jsonl"),
            87.0,
            87.0,
        ),
        (
            "dev/coach-scores-hearsay-10.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-10.jsonl"),
            87.0,
            93.5,
        ),
        (
            "dev/coach-scores-forum-10.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-10.jsonl"),
            81.5,
            95.5,
        ),
        (
            "dev/coach-scores-drafting-10.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-10.jsonl"),
            99.5,
            99.5,
        ),
        // The -11 round: 83.6, 76.4, 82.0 and 100 % exact at first
        // contact (blind), read on 2026-11-30.
        (
            "dev/coach-scores-venting-11.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-11.jsonl"),
            87.0,
            98.0,
        ),
        (
            "dev/coach-scores-hearsay-11.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-11.jsonl"),
            88.0,
            95.0,
        ),
        (
            "dev/coach-scores-forum-11.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-11.jsonl"),
            79.0,
            94.0,
        ),
        (
            "dev/coach-scores-drafting-11.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-11.jsonl"),
            99.5,
            99.5,
        ),
        // The -12 round: 72.5, 91.2, 89.5 and 92.4 % exact at first
        // contact (blind), read on 2026-11-30.
        (
            "dev/coach-scores-venting-12.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-12.jsonl"),
            78.5,
            94.5,
        ),
        (
            "dev/coach-scores-forum-12.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-12.jsonl"),
            92.5,
            99.0,
        ),
        (
            "dev/coach-scores-hearsay-12.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-12.jsonl"),
            92.5,
            94.5,
        ),
        (
            "dev/coach-scores-drafting-12.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-12.jsonl"),
            94.5,
            99.5,
        ),
        // The -13 round's venting, forum and hearsay sets: 68.2, 91.7 and
        // 81.0 % exact at first contact (blind), read on 2026-11-30.
        (
            "dev/coach-scores-venting-13.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-13.jsonl"),
            75.5,
            92.0,
        ),
        (
            "dev/coach-scores-forum-13.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-13.jsonl"),
            91.5,
            99.0,
        ),
        (
            "dev/coach-scores-hearsay-13.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-13.jsonl"),
            86.0,
            96.5,
        ),
        // The -14 round: 84.1, 86.6, 87.7 and 87.9 % exact at first contact
        // (blind), read on 2026-11-30.
        (
            "dev/coach-scores-venting-14.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-14.jsonl"),
            89.5,
            98.5,
        ),
        (
            "dev/coach-scores-forum-14.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-14.jsonl"),
            87.0,
            96.0,
        ),
        (
            "dev/coach-scores-hearsay-14.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-14.jsonl"),
            88.5,
            98.5,
        ),
        (
            "dev/coach-scores-drafting-14.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-14.jsonl"),
            99.5,
            99.5,
        ),
        // Drafting-16 and -17: 94.8 and 97.8 % exact at first contact
        // (blind; edits 84 and 89 %), read on 2026-12-01.
        (
            "dev/coach-scores-drafting-16.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-16.jsonl"),
            98.0,
            99.5,
        ),
        (
            "dev/coach-scores-drafting-17.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-17.jsonl"),
            98.5,
            99.5,
        ),
        // The -15 round: 97.3, 97.0, 87.8 and 92.6 % exact at first contact
        // (blind), read on 2026-11-30.
        (
            "dev/coach-scores-drafting-15.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-15.jsonl"),
            99.0,
            99.0,
        ),
        (
            "dev/coach-scores-venting-15.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-15.jsonl"),
            97.0,
            99.5,
        ),
        (
            "dev/coach-scores-forum-15.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-15.jsonl"),
            96.5,
            98.5,
        ),
        (
            "dev/coach-scores-hearsay-15.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-15.jsonl"),
            93.0,
            98.5,
        ),
        // The fifth round's forum set: 81.9 % / 96.3 % at first contact
        // (blind), read on 2026-11-29.
        (
            "dev/coach-scores-forum-6.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-6.jsonl"),
            83.5,
            96.5,
        ),
        // The fourth blind round, read on 2026-11-29 after three
        // measurements at 71.4, 64.7 and 75.4 % exact.
        (
            "dev/coach-scores-venting-5.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-5.jsonl"),
            72.0,
            83.5,
        ),
        (
            "dev/coach-scores-hearsay-5.jsonl",
            include_str!("../../evals/dev/coach-scores-hearsay-5.jsonl"),
            64.5,
            80.5,
        ),
        (
            "dev/coach-scores-forum-5.jsonl",
            include_str!("../../evals/dev/coach-scores-forum-5.jsonl"),
            77.0,
            92.5,
        ),
        // Read on 2026-11-29 after two measurements at 50.9 % exact.
        (
            "dev/coach-scores-venting-6.jsonl",
            include_str!("../../evals/dev/coach-scores-venting-6.jsonl"),
            57.5,
            78.5,
        ),
        (
            "dev/coach-scores-drafting-4.jsonl",
            include_str!("../../evals/dev/coach-scores-drafting-4.jsonl"),
            98.5,
            99.5,
        ),
        (
            "dev/coach-scores-mixed-2.jsonl",
            include_str!("../../evals/dev/coach-scores-mixed-2.jsonl"),
            92.5,
            97.0,
        ),
    ] {
        let set = eval_scores::parse(text).expect("the set parses");
        let report = eval_scores::run(&set);
        let t = &report.total;
        assert!(
            t.exact() >= exact && t.within_one() >= within_one,
            "{file}: exact {:.3}, within one {:.3}\n{}",
            t.exact(),
            t.within_one(),
            eval_scores::render(file, &report, true)
        );
        // Percentages, as printed.
        assert_eq!(
            t.edit_accuracy(),
            100.0,
            "{file}: every edit that names a number"
        );
    }
}
