//! `POST /api/v1/transcribe` against a scripted recognizer (a real HTTP
//! server on loopback): what reaches the recognizer (the recording as sent,
//! the prompt with the page's names), what the student gets back, and
//! every refusal before any work — no recognizer, over the quota, too
//! large, not audio, too long — and the recognizer down, slow or failing,
//! each a Chinese message that leaves the text box working.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use server::transcribe::audio::silent_wav;
use server::transcribe::scripted::{Script, ScriptedRecognizer};
use server::transcribe::AsrConfig;

use crate::common;

async fn recognizer(rules: Value) -> ScriptedRecognizer {
    let script: Script = serde_json::from_value(json!({ "rules": rules })).unwrap();
    ScriptedRecognizer::start(script).await.unwrap()
}

/// The site with `asr` behind its transcription route, `per_minute`
/// recordings per client.
async fn site(asr: Option<AsrConfig>, per_minute: u32) -> (Router, Arc<server::site::Site>) {
    let site = common::site().await;
    let options = leptos::config::LeptosOptions::builder()
        .output_name("advisor-review")
        .build();
    let agent = Arc::new(server::agent::Agent::new(site.clone()));
    let settings = server::http::Settings {
        asr,
        transcriptions_per_minute: per_minute,
        ..common::settings()
    };
    let router = server::app_router_with(site.clone(), agent, options, settings).layer(
        axum::extract::connect_info::MockConnectInfo(std::net::SocketAddr::from((
            [127, 0, 0, 1],
            40000,
        ))),
    );
    (router, site)
}

fn config(base_url: &str, timeout_ms: u64) -> AsrConfig {
    let mut c = AsrConfig::new(base_url).unwrap();
    c.timeout = std::time::Duration::from_millis(timeout_ms);
    c
}

const BOUNDARY: &str = "----transcribe-test";

/// A multipart body of `(name, file name, bytes)` parts.
fn multipart(parts: &[(&str, Option<&str>, &[u8])]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, file, bytes) in parts {
        body.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
        match file {
            Some(f) => body.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: audio/webm\r\n\r\n").as_bytes(),
            ),
            None => body.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
            ),
        }
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

async fn post(
    app: &Router,
    body: Vec<u8>,
    headers: &[(&str, &str)],
) -> (StatusCode, Value, Option<String>) {
    let mut request = Request::post("/api/v1/transcribe").header(
        "content-type",
        format!("multipart/form-data; boundary={BOUNDARY}"),
    );
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::from(body)).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        retry,
    )
}

fn recording(ms: u32) -> Vec<u8> {
    silent_wav(ms)
}

#[tokio::test]
async fn a_recording_is_transcribed_with_the_pages_names_and_comes_back_as_typed() {
    let asr = recognizer(json!([
        {"when_prompt": "贾宏伟老师", "text": "我想考北京大學計算機系 第一個導師怎麼樣"}
    ]))
    .await;
    let (app, _) = site(Some(config(&asr.base_url(), 5000)), 12).await;
    let audio = recording(2500);
    let page = json!({
        "current_page": "ranking",
        "visible_advisors": [{"id": "1", "name": "贾宏伟"}, {"id": "2", "name": "欧阳明"}],
        "ranking_filters": {"school": "北京大学", "major": "计算机科学与技术"}
    });
    let (status, body, _) = post(
        &app,
        multipart(&[
            ("audio", Some("speech.webm"), &audio),
            ("page_context", None, page.to_string().as_bytes()),
        ]),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["text"], "我想考北京大学计算机系第一个导师怎么样");
    assert_eq!(body["duration_ms"], 2500);
    let got = asr.received();
    assert_eq!(got.len(), 1);
    // The bytes as recorded; the container read from them, not from the
    // browser's word (it said webm).
    assert_eq!(got[0].bytes, audio.len());
    assert_eq!(got[0].container, "wav");
    assert_eq!(got[0].content_type, "audio/wav");
    assert_eq!(got[0].language, "zh");
    assert_eq!(got[0].response_format, "json");
    let prompt = &got[0].prompt;
    assert!(prompt.ends_with("贾宏伟老师、欧阳明老师。"), "{prompt}");
    assert!(
        prompt.contains("北京大学") && prompt.contains("温和"),
        "{prompt}"
    );
    assert!(
        prompt.chars().count() <= server::transcribe::prompt::MAX_CHARS,
        "{prompt}"
    );
}

#[tokio::test]
async fn another_reading_of_the_recognizer_that_names_more_is_the_text() {
    // 川大计科 heard as 春大计科, 四川大学 among the other readings; a
    // reading naming another school is never taken; on a ranking, a reading
    // naming an advisor of the page.
    let asr = recognizer(json!([
        {"times": 1, "text": "春大计科。", "alternatives": ["春大计科", "纯大计科", "川大计科。"]},
        {"times": 1, "text": "我想考北京大学", "alternatives": ["我想考南京大学计算机"]},
        {"times": 1, "text": "打开送立天老师的主页", "alternatives": ["打开宋莉婷老师的主页"]}
    ]))
    .await;
    let (app, _) = site(Some(config(&asr.base_url(), 5000)), 12).await;
    let page = json!({
        "current_page": "ranking",
        "visible_advisors": [{"id": "1", "name": "宋莉婷"}, {"id": "2", "name": "欧阳明"}],
        "ranking_filters": {"school": "北京大学", "major": "计算机科学与技术"}
    });
    let mut heard = Vec::new();
    for page in [None, None, Some(page.to_string())] {
        let audio = recording(1500);
        let mut parts: Vec<(&str, Option<&str>, &[u8])> = vec![("audio", Some("a.wav"), &audio)];
        if let Some(page) = &page {
            parts.push(("page_context", None, page.as_bytes()));
        }
        let (status, body, _) = post(&app, multipart(&parts), &[]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        heard.push(body["text"].as_str().unwrap().to_string());
    }
    assert_eq!(
        heard,
        ["川大计科。", "我想考北京大学", "打开宋莉婷老师的主页"]
    );
}

#[tokio::test]
async fn a_request_missing_a_name_is_heard_again_for_the_names_it_came_near() {
    // The first prompt (every recording's) carries the form's words (温和);
    // the second, only the names to listen for. 临床 heard as 林城 the
    // first time; then: right, another school (never taken), a failure
    // (the first reading stands).
    let first = json!({"when_prompt": "温和", "times": 1, "text": "我想去中山大学读林城"});
    let asr = recognizer(json!([
        first, {"times": 1, "text": "我想去中山大学读临床"},
        first, {"times": 1, "text": "我想去南京大学读临床"},
        first, {"times": 1, "status": 500}
    ]))
    .await;
    let (app, _) = site(Some(config(&asr.base_url(), 5000)), 12).await;
    let mut heard = Vec::new();
    for _ in 0..3 {
        let audio = recording(1500);
        let (status, body, _) =
            post(&app, multipart(&[("audio", Some("a.wav"), &audio)]), &[]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        heard.push(body["text"].as_str().unwrap().to_string());
    }
    assert_eq!(
        heard,
        [
            "我想去中山大学读临床",
            "我想去中山大学读林城",
            "我想去中山大学读林城"
        ]
    );
    let got = asr.received();
    assert_eq!(got.len(), 6);
    let again = &got[1].prompt;
    assert!(
        again.contains("临床") && again.contains("中山大学"),
        "{again}"
    );
    assert!(!again.contains("温和"), "{again}");

    // A request read whole is heard once.
    let asr = recognizer(json!([{"text": "我想考中山大学的临床医学"}])).await;
    let (app, _) = site(Some(config(&asr.base_url(), 5000)), 12).await;
    let (status, _, _) = post(
        &app,
        multipart(&[("audio", Some("a.wav"), &recording(1500))]),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(asr.received().len(), 1);
}

#[tokio::test]
async fn english_the_chinese_listening_reads_nothing_of_is_heard_in_english() {
    // Told to hear Chinese, the recognizer echoes its prompt or hears
    // nothing in "number two那个老师呢"; heard again in English, no prompt.
    let asr = recognizer(json!([
        {"when_language": "zh", "times": 1, "text": "计算机科学与技术、软件工程。"},
        {"when_language": "en", "times": 1, "text": "Number 2."},
        {"when_language": "zh", "times": 1, "text": "我想考中山大学的临床医学"},
        {"when_language": "en", "times": 1, "text": " You"}
    ]))
    .await;
    let (app, _) = site(Some(config(&asr.base_url(), 5000)), 12).await;
    let audio = recording(1500);
    let (status, body, _) = post(&app, multipart(&[("audio", Some("a.wav"), &audio)]), &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["text"], "Number 2.");
    let got = asr.received();
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(
        (got[0].language.as_str(), got[1].language.as_str()),
        ("zh", "en")
    );
    assert_eq!(got[1].prompt, "");
    // A Chinese reading is never heard again in English.
    let (status, body, _) = post(&app, multipart(&[("audio", Some("a.wav"), &audio)]), &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["text"], "我想考中山大学的临床医学");
    assert_eq!(asr.received().len(), 3);
    // Silence heard in English is what Whisper writes for it ("You"):
    // nothing was said.
    let (status, body, _) = post(&app, multipart(&[("audio", Some("a.wav"), &audio)]), &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["text"], "");
    assert_eq!(asr.received().len(), 5);
}

#[tokio::test]
async fn silence_and_subtitles_heard_in_it_come_back_empty() {
    let asr = recognizer(json!([
        {"times": 1, "text": "字幕由Amara.org社区提供"},
        {"times": 1, "text": "  "}
    ]))
    .await;
    let (app, _) = site(Some(config(&asr.base_url(), 5000)), 12).await;
    for _ in 0..2 {
        let (status, body, _) = post(
            &app,
            multipart(&[("audio", Some("a.wav"), &recording(1500))]),
            &[],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["text"], "");
    }
}

#[tokio::test]
async fn without_a_recognizer_the_route_says_so_in_chinese() {
    let (app, _) = site(None, 12).await;
    let (status, body, _) = post(
        &app,
        multipart(&[("audio", Some("a.wav"), &recording(1500))]),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["error"]["code"], "transcription_off");
    assert!(common::has_chinese(
        body["error"]["message"].as_str().unwrap()
    ));
    // And the pages carry no sign of it, so the panel offers no recording.
    let page = common::get(&app, "/").await;
    assert!(!page.body.contains(r#"name="voice-input""#));
}

#[tokio::test]
async fn the_pages_say_the_server_transcribes() {
    let asr = recognizer(json!([])).await;
    let (app, _) = site(Some(config(&asr.base_url(), 5000)), 12).await;
    let page = common::get(&app, "/").await;
    assert!(
        page.body
            .contains(r#"<meta name="voice-input" content="server""#),
        "no voice-input meta in the head"
    );
}

#[tokio::test]
async fn bad_uploads_are_refused_before_the_recognizer_hears_anything() {
    let asr = recognizer(json!([{"text": "不该到这里"}])).await;
    let (app, _) = site(Some(config(&asr.base_url(), 5000)), 100).await;
    // The hostile MP4 that once panicked the route (a 500): its `mvhd`
    // declares 2^64−1 seconds (fuzz/regressions/recording/).
    let centuries = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fuzz/regressions/recording/mvhd-v1-max-seconds.mp4"),
    )
    .unwrap();
    let cases: Vec<(Vec<u8>, StatusCode, &str)> = vec![
        (
            multipart(&[("audio", Some("a.webm"), b"<html>not audio</html>")]),
            StatusCode::BAD_REQUEST,
            "unsupported_audio",
        ),
        (
            multipart(&[("audio", Some("a.m4a"), &centuries)]),
            StatusCode::BAD_REQUEST,
            "damaged_audio",
        ),
        (
            multipart(&[("page_context", None, b"{}")]),
            StatusCode::BAD_REQUEST,
            "empty_audio",
        ),
        (
            multipart(&[("audio", Some("a.wav"), &recording(31_000))]),
            StatusCode::PAYLOAD_TOO_LARGE,
            "audio_too_long",
        ),
        (
            multipart(&[("audio", Some("a.wav"), &recording(100))]),
            StatusCode::BAD_REQUEST,
            "audio_too_short",
        ),
        (
            multipart(&[("audio", Some("a.wav"), &vec![0u8; 2 * 1024 * 1024])]),
            StatusCode::PAYLOAD_TOO_LARGE,
            "audio_too_large",
        ),
        (
            b"not multipart at all".to_vec(),
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
    ];
    for (body, want, code) in cases {
        let (status, answer, _) = post(&app, body, &[]).await;
        assert_eq!(status, want, "{code}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{answer}");
        assert!(common::has_chinese(
            answer["error"]["message"].as_str().unwrap()
        ));
    }
    // A page context that is not JSON only costs the prompt its names.
    let (status, _, _) = post(
        &app,
        multipart(&[
            ("audio", Some("a.wav"), &recording(1000)),
            ("page_context", None, b"{not json"),
        ]),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        asr.received().len(),
        1,
        "only the valid recording reached it"
    );
    // Another site's page cannot make a visitor's browser post recordings.
    let (status, answer, _) = post(
        &app,
        multipart(&[("audio", Some("a.wav"), &recording(1000))]),
        &[("sec-fetch-site", "cross-site")],
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    assert_eq!(asr.received().len(), 1);
}

#[tokio::test]
async fn a_client_over_its_quota_waits_and_others_do_not() {
    let asr = recognizer(json!([{"text": "你好"}])).await;
    let (app, _) = site(Some(config(&asr.base_url(), 5000)), 2).await;
    let send = |client: &'static str| {
        let app = app.clone();
        async move {
            post(
                &app,
                multipart(&[("audio", Some("a.wav"), &recording(1000))]),
                &[("x-forwarded-for", client)],
            )
            .await
        }
    };
    assert_eq!(send("203.0.113.1").await.0, StatusCode::OK);
    assert_eq!(send("203.0.113.1").await.0, StatusCode::OK);
    let (status, body, retry) = send("203.0.113.1").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(retry.is_some_and(|s| s.parse::<u64>().unwrap() >= 1));
    assert_eq!(send("203.0.113.2").await.0, StatusCode::OK);
    assert_eq!(asr.received().len(), 3);
}

#[tokio::test]
async fn a_recognizer_down_slow_or_failing_is_named_in_chinese() {
    // Down: nothing listens on the port.
    let port = common::binary::free_port();
    let (app, _) = site(
        Some(config(&format!("http://127.0.0.1:{port}/v1"), 2000)),
        100,
    )
    .await;
    let upload = || multipart(&[("audio", Some("a.wav"), &recording(1000))]);
    let (status, body, _) = post(&app, upload(), &[]).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["error"]["code"], "transcriber_unavailable");

    let asr = recognizer(json!([
        {"times": 1, "delay_ms": 3000, "text": "太晚了"},
        {"times": 1, "status": 500},
        {"times": 1, "status": 400},
        {"text": "好了"}
    ]))
    .await;
    let (app, _) = site(Some(config(&asr.base_url(), 800)), 100).await;
    let started = std::time::Instant::now();
    let (status, body, _) = post(&app, upload(), &[]).await;
    assert_eq!(status, StatusCode::GATEWAY_TIMEOUT, "{body}");
    assert_eq!(body["error"]["code"], "transcriber_timeout");
    assert!(started.elapsed() < std::time::Duration::from_millis(2500));
    let (status, body, _) = post(&app, upload(), &[]).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY, "{body}");
    assert_eq!(body["error"]["code"], "transcriber_failed");
    let (status, body, _) = post(&app, upload(), &[]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["error"]["code"], "unreadable_audio");
    // Recovered: the next recording is heard.
    let (status, body, _) = post(&app, upload(), &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["text"], "好了");
}

/// On the demo's catalog: with nothing chosen the prompt names the most
/// popular schools by name and short name, nearest the recording; with a
/// ranking on screen, its school, major and advisors; always within the
/// length a recognizer keeps.
#[tokio::test]
async fn the_prompt_names_what_the_student_is_likely_to_say() {
    use server::transcribe::prompt::{build, MAX_CHARS};
    let site = common::site().await;
    let home = build(site.catalog(), None, None);
    println!("home: {home}");
    for name in [
        "北京大学、北大",
        "清华大学",
        "计算机科学与技术",
        "机器学习",
        "温和",
    ] {
        assert!(home.contains(name), "{name} missing: {home}");
    }
    assert!(home.chars().count() <= MAX_CHARS, "{home}");
    let page: app::protocol::PageContext = serde_json::from_value(json!({
        "current_page": "ranking",
        "visible_advisors": [{"id": "1", "name": "张三"}, {"id": "2", "name": "李四"}],
        "ranking_filters": {"school": "北京大学", "major": "计算机科学与技术"}
    }))
    .unwrap();
    let ranking = build(site.catalog(), Some(&page), None);
    println!("ranking: {ranking}");
    assert!(
        ranking.ends_with("北京大学、北大、计算机科学与技术、张三老师、李四老师。"),
        "{ranking}"
    );
    assert!(ranking.contains("机器学习"), "{ranking}");
    assert!(ranking.chars().count() <= MAX_CHARS, "{ranking}");
}
