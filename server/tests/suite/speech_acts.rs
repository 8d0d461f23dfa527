//! The agent acts only on a direct yes. The cases are generated,
//! not listed: for every phrase of `server/lexicons/actions.txt`, rules make
//! variants that must never act (negated, questioned, conditional, reported,
//! embedded in a longer sentence) and variants that must always act (the
//! plain instruction, its polite-request forms and, for a question the agent
//! asked, the common yeses of `speech_acts.txt`). Every variant is said
//! through the chat endpoint, once with the embedded planner and once with a
//! scripted model that routes every message to the action (the coach's
//! router says "publish" / "cancel", the planner calls `reset_form`); each
//! test prints how many variants of each kind acted. The nine rows of the
//! issue's table follow as regression tests.

use crate::common;

use serde_json::{json, Value};

use app::protocol::{ChatResponse, SelectedAdvisor};
use common::{app, app_with_model, call, get, tools, Student};
use server::llm::scripted::{Script, ScriptedServer};

const ACTIONS: &str = include_str!("../../lexicons/actions.txt");
const SPEECH_ACTS: &str = include_str!("../../lexicons/speech_acts.txt");

/// A review that covers the four dimensions: the coach summarises it at once.
const FULL_REVIEW: &str =
    "学术很强，每周组会；经费充足，补助每月三千；对学生很耐心；毕业去向都是大厂";

/// The terms of `key` in a lexicon file (`key: a | b`, repeated keys add up).
fn terms(src: &str, key: &str) -> Vec<String> {
    src.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(':'))
        .filter(|(k, _)| k.trim() == key)
        .flat_map(|(_, rest)| rest.split('|').map(|t| t.trim().to_string()))
        .filter(|t| !t.is_empty())
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Negated,
    Questioned,
    Conditional,
    Reported,
    Embedded,
    Plain,
    Polite,
    Yes,
}

impl Kind {
    fn must_act(self) -> bool {
        matches!(self, Kind::Plain | Kind::Polite | Kind::Yes)
    }
}

/// The variants of one action phrase, by rule.
fn variants(p: &str) -> Vec<(Kind, String)> {
    // "不不写了" is not Chinese: a phrase that is itself a negation is
    // negated with 别 / 不要 only.
    let negative_phrase = p.starts_with('不') || p.starts_with("先不") || p.starts_with("算了");
    let mut out: Vec<(Kind, String)> = Vec::new();
    let mut add = |kind: Kind, templates: &[&str]| {
        for t in templates {
            out.push((kind, t.replace("{p}", p)));
        }
    };
    if !negative_phrase {
        add(Kind::Negated, &["不{p}", "先不{p}", "我不想{p}"]);
    }
    add(
        Kind::Negated,
        &[
            "不要{p}",
            "先别{p}",
            "别{p}",
            "先不要{p}",
            "暂时不要{p}",
            "先别{p}，我再想想",
            "还是不要{p}了",
            "{p}？等一下，我再想想",
            "{p}吧……算了",
            "不用{p}了",
        ],
    );
    add(
        Kind::Questioned,
        &[
            "{p}之前还能改吗？",
            "{p}了老师会知道吗？",
            "是不是该{p}？",
            "要不要{p}？",
            "{p}会怎么样？",
            "{p}以后还能恢复吗？",
            "{p}会不会有什么影响？",
            "为什么要{p}？",
        ],
    );
    add(
        Kind::Conditional,
        &[
            "如果{p}的话我就换个导师",
            "要是{p}，我就得从头再来",
            "假如{p}了，我再告诉你",
            "{p}的话，我再想办法",
            "万一{p}了怎么办",
            "如果{p}会不会更好？",
        ],
    );
    add(
        Kind::Reported,
        &[
            "我朋友说{p}",
            "我同学觉得应该{p}",
            "他说{p}吧",
            "听说有人{p}了",
            "室友让我{p}",
            "我妈妈想让我{p}",
        ],
    );
    add(
        Kind::Embedded,
        &[
            "{p}的按钮在哪里？",
            "上次{p}花了好久",
            "我已经知道怎么{p}了",
            "我还在犹豫{p}的事",
            "关于{p}我有个问题",
        ],
    );
    add(Kind::Plain, &["{p}", "{p}吧", "{p}。", "那就{p}吧"]);
    add(
        Kind::Polite,
        &[
            "请{p}",
            "帮我{p}",
            "能帮我{p}吗？",
            "可以{p}吗？",
            "能不能{p}？",
            "麻烦帮我{p}",
            "{p}，谢谢",
            "{p}好吗？",
        ],
    );
    out
}

/// Counts per kind: (variants, acted), and the variants that went wrong.
#[derive(Default)]
struct Tally {
    rows: Vec<(Kind, usize, usize)>,
    wrong: Vec<String>,
}

impl Tally {
    fn add(&mut self, kind: Kind, text: &str, acted: bool) {
        match self.rows.iter_mut().find(|(k, _, _)| *k == kind) {
            Some(row) => {
                row.1 += 1;
                row.2 += usize::from(acted);
            }
            None => self.rows.push((kind, 1, usize::from(acted))),
        }
        if acted != kind.must_act() {
            self.wrong.push(format!(
                "{kind:?} {text:?} {}",
                if acted { "acted" } else { "did not act" }
            ));
        }
    }

    /// Prints the counts and fails on any variant that went the wrong way.
    fn report(self, action: &str, planner: &str) {
        let total: usize = self.rows.iter().map(|r| r.1).sum();
        let acted: usize = self.rows.iter().map(|r| r.2).sum();
        println!("== {action} / {planner}: {total} variants, {acted} acted");
        for (kind, n, a) in &self.rows {
            println!(
                "   {kind:?}: {a} of {n} acted (should {})",
                if kind.must_act() { "all" } else { "none" }
            );
        }
        assert!(
            self.wrong.is_empty(),
            "{action} / {planner}: {} of {total} variants went the wrong way:\n{}",
            self.wrong.len(),
            self.wrong.join("\n")
        );
    }
}

/// 张三 of 北京大学 · 计算机科学与技术, as a detail page shows him.
async fn zhang(app: &axum::Router) -> SelectedAdvisor {
    let page = get(
        app,
        "/api/v1/advisors?school=北京大学&major=计算机科学与技术",
    )
    .await
    .json();
    let first = &page["advisors"][0];
    assert_eq!(first["name"], "张三");
    SelectedAdvisor {
        id: first["id"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| first["id"].to_string()),
        name: "张三".into(),
    }
}

/// A student on 张三's page.
fn on_page(app: &axum::Router, advisor: &SelectedAdvisor) -> Student {
    let mut s = Student::new(app);
    s.page.selected_advisor = Some(advisor.clone());
    s
}

/// A student on 张三's page who has just started a review of him.
async fn reviewing(app: &axum::Router, advisor: &SelectedAdvisor) -> Student {
    let mut s = on_page(app, advisor);
    let r = s.say("我想评价他").await;
    assert_eq!(r.intent.intent, "review_coach", "{}", r.voice_response);
    s
}

/// A student on 张三's page whose review the coach has just summarised
/// ("整理好了：…发布吗？").
async fn at_summary(app: &axum::Router, advisor: &SelectedAdvisor) -> Student {
    let mut s = reviewing(app, advisor).await;
    let r = s.say(FULL_REVIEW).await;
    assert!(
        r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    s
}

/// Whether the coach still holds a draft: the next message is coached.
async fn draft_kept(s: &mut Student) -> bool {
    s.say("学术水平很高").await.intent.intent == "review_coach"
}

fn publish_variants() -> Vec<(Kind, String)> {
    let mut all: Vec<(Kind, String)> = terms(ACTIONS, "publish")
        .iter()
        .flat_map(|p| variants(p))
        .collect();
    for yes in terms(SPEECH_ACTS, "yes") {
        all.push((Kind::Yes, yes.clone()));
        all.push((Kind::Yes, format!("{yes}！")));
    }
    all
}

async fn publishing(app: &axum::Router, planner: &str) {
    let advisor = zhang(app).await;
    let mut tally = Tally::default();
    for (kind, text) in publish_variants() {
        let mut s = at_summary(app, &advisor).await;
        let r = s.say(&text).await;
        tally.add(kind, &text, tools(&r).contains(&"submit_review"));
    }
    tally.report("publish", planner);
}

async fn cancelling(app: &axum::Router, planner: &str) {
    let advisor = zhang(app).await;
    let mut tally = Tally::default();
    for p in terms(ACTIONS, "cancel") {
        for (kind, text) in variants(&p) {
            let mut s = at_summary(app, &advisor).await;
            s.say(&text).await;
            tally.add(kind, &text, !draft_kept(&mut s).await);
        }
    }
    tally.report("cancel", planner);
}

async fn resetting(app: &axum::Router, planner: &str) {
    let mut tally = Tally::default();
    for p in terms(ACTIONS, "reset") {
        for (kind, text) in variants(&p) {
            let mut s = with_form(app).await;
            let r = s.say(&text).await;
            tally.add(kind, &text, r.form.school.is_none());
        }
    }
    tally.report("reset", planner);
}

/// A model that routes every message to `action`: the coach's router
/// evaluates every message as a complete review the student wants to
/// publish (or drop), and the planner fills the form and resets it on every
/// turn.
async fn model_app(action: &str) -> (axum::Router, ScriptedServer) {
    let evaluation = json!({"dimensions": ["academic", "funding", "relationship", "prospects"],
        "specific": true, "violations": [], "complete": true, "question": false,
        "reason": "学生要求执行", "next_agent": "editor", "action": action});
    let rules: Value = json!([
        {"when_system": "路由", "reply": {"content": evaluation.to_string()}},
        {"when": "北京大学", "reply": {"content": "好的，北京大学计算机系。", "tool_calls": [
            {"name": "update_form", "arguments": {"school": "北京大学", "major": "计算机科学与技术"}},
            {"name": "reset_form", "arguments": {}}]}},
        {"reply": {"content": "好的，已经为你处理。", "tool_calls": [
            {"name": "reset_form", "arguments": {}},
            {"name": "submit_review", "arguments": {}}]}}
    ]);
    let script: Script = serde_json::from_value(json!({ "rules": rules })).expect("a valid script");
    let server = ScriptedServer::start(script)
        .await
        .expect("scripted server");
    let base = server.base_url();
    let (app, _) = app_with_model(&[("LLM_BASE_URL", &base), ("LLM_TIMEOUT_SECS", "5")]).await;
    (app, server)
}

/// Says every generated variant of `action` to a fresh conversation, on
/// the embedded planner or (`model`) on a model that routes every message
/// to the action, and reports the counts.
async fn generated(action: &str, model: bool) {
    let (app, _server) = if model {
        let (app, server) = model_app(action).await;
        (app, Some(server))
    } else {
        (app().await.0, None)
    };
    let planner = if model { "scripted model" } else { "embedded" };
    match action {
        "publish" => publishing(&app, planner).await,
        "cancel" => cancelling(&app, planner).await,
        _ => resetting(&app, planner).await,
    }
}

#[tokio::test]
async fn generated_publish_variants_on_the_embedded_planner() {
    generated("publish", false).await;
}

#[tokio::test]
async fn generated_publish_variants_on_a_model_that_always_publishes() {
    generated("publish", true).await;
}

#[tokio::test]
async fn generated_cancel_variants_on_the_embedded_planner() {
    generated("cancel", false).await;
}

#[tokio::test]
async fn generated_cancel_variants_on_a_model_that_always_cancels() {
    generated("cancel", true).await;
}

#[tokio::test]
async fn generated_reset_variants_on_the_embedded_planner() {
    generated("reset", false).await;
}

#[tokio::test]
async fn generated_reset_variants_on_a_model_that_always_resets() {
    generated("reset", true).await;
}

// --- the nine rows of the issue ---------------------------------------------

async fn summary() -> (axum::Router, Student) {
    let (app, _) = app().await;
    let advisor = zhang(&app).await;
    let s = at_summary(&app, &advisor).await;
    (app, s)
}

/// A student whose form holds 北京大学 · 计算机科学与技术.
async fn with_form(app: &axum::Router) -> Student {
    let mut s = Student::new(app);
    let r = s.say("我想考北京大学计算机系").await;
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));
    s
}

fn published(r: &ChatResponse) -> bool {
    tools(r).contains(&"submit_review")
}

#[tokio::test]
async fn row_1_no_publish_declines_and_keeps_the_draft() {
    let (_app, mut s) = summary().await;
    let r = s.say("不发布").await;
    assert!(!published(&r));
    assert_eq!(r.voice_response, "好的，先不发布，草稿还在，想改哪里？");
    assert!(draft_kept(&mut s).await);
}

#[tokio::test]
async fn row_2_not_yet_publish_declines() {
    let (_app, mut s) = summary().await;
    let r = s.say("先不要发布").await;
    assert!(!published(&r));
    assert!(
        r.voice_response.contains("先不发布"),
        "{}",
        r.voice_response
    );
    assert!(draft_kept(&mut s).await);
}

#[tokio::test]
async fn row_3_a_question_is_answered_and_the_question_stays_pending() {
    let (_app, mut s) = summary().await;
    let r = s.say("发布之前还能改吗？").await;
    assert!(!published(&r));
    assert!(
        r.voice_response.contains("改") && r.voice_response.contains("发布"),
        "answers and asks again: {}",
        r.voice_response
    );
    let r = s.say("好的").await;
    assert!(
        published(&r),
        "the pending question is answered: {}",
        r.voice_response
    );
}

#[tokio::test]
async fn row_4_a_plain_yes_publishes() {
    let (_app, mut s) = summary().await;
    let r = s.say("好的").await;
    assert!(published(&r), "{}", r.voice_response);
    assert!(r.voice_response.starts_with("已发布"));
    let posted = call(&r, "submit_review");
    assert!(posted.result.as_ref().unwrap()["edit_token"].is_string());
}

#[tokio::test]
async fn row_5_asking_about_dropping_keeps_the_draft() {
    let (app, _) = app().await;
    let advisor = zhang(&app).await;
    let mut s = reviewing(&app, &advisor).await;
    s.say("学术水平很高，每周组会都认真指导论文").await;
    let r = s.say("不写了会不会浪费前面写的？").await;
    assert_eq!(r.intent.intent, "review_coach");
    assert!(r.voice_response.contains("草稿"), "{}", r.voice_response);
    assert!(draft_kept(&mut s).await, "the draft is still there");
}

#[tokio::test]
async fn row_6_not_yet_resetting_keeps_the_form() {
    let (app, _) = app().await;
    let mut s = with_form(&app).await;
    let r = s.say("先别重新开始，我再想想").await;
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));
    assert_eq!(r.form.major.as_deref(), Some("计算机科学与技术"));
    assert_ne!(r.intent.intent, "reset");
}

#[tokio::test]
async fn row_7_a_hypothetical_reset_is_discussed_not_done() {
    let (app, _) = app().await;
    let mut s = with_form(&app).await;
    let r = s.say("如果重新开始选学校会不会更好？").await;
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));
    assert!(
        r.voice_response.contains("重新开始"),
        "{}",
        r.voice_response
    );
}

#[tokio::test]
async fn row_8_the_students_own_clause_wins_over_a_friends() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s.say("我朋友想考清华大学，我想考北京大学计算机").await;
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));
    assert_eq!(r.form.major.as_deref(), Some("计算机科学与技术"));
    assert!(!r.voice_response.contains("清华"), "{}", r.voice_response);
}

#[tokio::test]
async fn row_9_a_negated_direction_is_understood_and_the_school_not_asked_again() {
    let (app, _) = app().await;
    let mut s = with_form(&app).await;
    let r = s.say("我不想做机器学习").await;
    assert!(
        r.voice_response.starts_with("好的，不做机器学习方向"),
        "{}",
        r.voice_response
    );
    assert!(!r.voice_response.contains("学校"), "{}", r.voice_response);
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));
    assert_ne!(r.form.research_direction.as_deref(), Some("机器学习"));
}

// --- beyond the table ---------------------------------------------------------

#[tokio::test]
async fn after_declining_changes_are_welcome_and_a_bare_yes_shows_the_draft_again() {
    let (_app, mut s) = summary().await;
    let r = s.click("general", &["再改改"]).await;
    assert!(!published(&r));
    assert!(
        r.voice_response.contains("先不发布"),
        "{}",
        r.voice_response
    );
    // "想改哪里？" was asked: a bare yes is no instruction to publish.
    let r = s.say("好的").await;
    assert!(!published(&r));
    assert!(
        r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    s.say("先不发布").await;
    let r = s.say("经费改成3分").await;
    assert!(r.voice_response.contains("经费3"), "{}", r.voice_response);
    // The changed draft asked "发布吗？" again: now a yes publishes.
    let r = s.say("嗯").await;
    assert!(published(&r), "{}", r.voice_response);
    assert_eq!(
        call(&r, "submit_review").result.as_ref().unwrap()["review"]["funding"],
        3
    );
}

#[tokio::test]
async fn the_confirm_chips_keep_working() {
    let (_app, mut s) = summary().await;
    let r = s.say("发布了老师会知道吗？").await;
    assert!(!published(&r));
    assert!(r.voice_response.contains("身份"), "{}", r.voice_response);
    let chips = call(&r, "present_options");
    assert_eq!(chips.params["options"][0], "确认发布");
    let r = s.click("general", &["确认发布"]).await;
    assert!(published(&r), "{}", r.voice_response);
}

#[tokio::test]
async fn a_negated_value_already_in_the_form_is_removed() {
    let (app, _) = app().await;
    let mut s = with_form(&app).await;
    let r = s.say("我想做机器学习").await;
    assert_eq!(r.form.research_direction.as_deref(), Some("机器学习"));
    let r = s.say("我不想做机器学习").await;
    assert_eq!(r.form.research_direction, None, "{}", r.voice_response);
    assert!(
        r.voice_response.starts_with("好的，不做机器学习方向"),
        "{}",
        r.voice_response
    );
    assert_eq!(r.form.school.as_deref(), Some("北京大学"));
}

#[tokio::test]
async fn a_model_cannot_put_reported_or_negated_values_in_the_form() {
    let rules = json!([
        {"when": "朋友", "reply": {"content": "好的，清华大学计算机系。", "tool_calls": [
            {"name": "update_form", "arguments": {"school": "清华大学", "major": "计算机科学与技术"}}]}},
        {"when": "不想做", "reply": {"content": "好的。", "tool_calls": [
            {"name": "update_form", "arguments": {"research_direction": "机器学习"}}]}}
    ]);
    let script: Script = serde_json::from_value(json!({ "rules": rules })).unwrap();
    let server = ScriptedServer::start(script).await.unwrap();
    let base = server.base_url();
    let (app, _) = app_with_model(&[("LLM_BASE_URL", &base), ("LLM_TIMEOUT_SECS", "5")]).await;
    let mut s = Student::new(&app);
    let r = s.say("我朋友想考清华大学，我想考计算机").await;
    assert_eq!(r.form.school, None, "清华 is the friend's");
    assert_eq!(r.form.major.as_deref(), Some("计算机科学与技术"));
    let r = s.say("我不想做机器学习").await;
    assert_eq!(r.form.research_direction, None);
}

#[tokio::test]
async fn a_place_someone_else_named_is_asked_about_when_the_student_points_back_at_it() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    let r = s
        .say("我妈老说西安医科大学，就那个，临床医学的导师排名")
        .await;
    assert_eq!(
        r.form.school.as_deref(),
        Some("西安交通大学"),
        "{}",
        r.voice_response
    );
    assert_eq!(r.form.major.as_deref(), Some("临床医学"));
    // Not pointed back at: the mother's place stays hers.
    let mut s = Student::new(&app);
    let r = s
        .say("我妈老说西安医科大学好，我想看临床医学的导师排名")
        .await;
    assert_eq!(r.form.school, None, "{}", r.voice_response);
    assert_eq!(r.form.major.as_deref(), Some("临床医学"));
    // What someone told the student to look at is what they ask about.
    let mut s = Student::new(&app);
    let r = s
        .say("我爸说的北方交大，现在叫北京交通大学，他让我看管理科学与工程")
        .await;
    assert_eq!(r.form.school.as_deref(), Some("北京交通大学"));
    assert_eq!(
        r.form.major.as_deref(),
        Some("管理科学与工程"),
        "{}",
        r.voice_response
    );
}

#[tokio::test]
async fn a_friend_wanting_to_review_starts_no_review() {
    let (app, _) = app().await;
    let advisor = zhang(&app).await;
    let mut s = on_page(&app, &advisor);
    let r = s.say("我同学想评价他").await;
    assert_ne!(r.intent.intent, "review_coach", "{}", r.voice_response);
    let r = s.say("我想评价他").await;
    assert_eq!(r.intent.intent, "review_coach");
}

#[tokio::test]
async fn review_content_that_uses_an_actions_word_is_content() {
    let (app, _) = app().await;
    let advisor = zhang(&app).await;
    let mut s = reviewing(&app, &advisor).await;
    let r = s.say("导师经常取消组会，学术指导不太够").await;
    assert_eq!(r.intent.intent, "review_coach");
    assert!(draft_kept(&mut s).await, "{}", r.voice_response);
    let r = s.say("他从来不放弃学生，毕业都很顺利").await;
    assert!(!r.voice_response.contains("草稿"), "{}", r.voice_response);
    assert!(draft_kept(&mut s).await);
}

#[tokio::test]
async fn content_said_at_the_summary_goes_into_the_draft_and_nothing_is_published() {
    let (_app, mut s) = summary().await;
    let r = s.say("导师帮我们提交论文一直很及时").await;
    assert!(!published(&r));
    assert!(
        r.voice_response.starts_with("整理好了"),
        "{}",
        r.voice_response
    );
    let r = s.say("好").await;
    let text = call(&r, "submit_review").result.as_ref().unwrap()["review"]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("提交论文"), "{text}");
}
