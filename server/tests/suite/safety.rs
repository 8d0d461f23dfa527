//! The site against hostile input and many writers: one hostile corpus
//! through every path user text reaches HTML; limits answered before any
//! work; every JSON endpoint's bad input in the envelope and no path segment
//! producing a 5xx; concurrent writers never refused for contention; forged
//! page contexts; edit tokens kept out of the database; admin throttling;
//! cross-site writes refused.

use crate::common;

use std::time::Instant;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{app, get, has_chinese, Student};

/// Text a stranger could write, meant to leave the text and run as markup.
const HOSTILE: &str = "导师学术水平很高，每周组会都认真指导。</textarea><script>alert(1)</script>\
\"><img src=x onerror=alert(2)><a href=\"javascript:alert(3)\">点我</a></title></script>\u{202E}反转文字";

/// The pieces of [`HOSTILE`] that must never appear as markup.
const MARKUP: [&str; 5] = [
    "<script>alert(1)",
    "<img src=x",
    "<a href=\"javascript:",
    "</textarea><script>",
    "\u{202E}",
];

fn assert_inert(html: &str, what: &str) {
    for m in MARKUP {
        assert!(
            !html.contains(m),
            "{what}: `{m}` reached the HTML as markup"
        );
    }
}

struct Raw {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: String,
}

async fn send(app: &axum::Router, req: Request<Body>) -> Raw {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    Raw {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

fn json_req(method: &str, uri: &str, client: &str, body: &Value) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .header("x-forwarded-for", client)
        .body(Body::from(body.to_string()))
        .unwrap()
}

fn form(text: &str) -> String {
    let enc: String = text
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!(
        "academic=4&funding=3&relationship=5&prospects=4&overall=4&tags=%E6%B8%A9%E5%92%8C&relation=%E5%9C%A8%E8%AF%BB&text={enc}"
    )
}

fn form_req(uri: &str, body: String, headers: &[(&str, &str)]) -> Request<Body> {
    let mut b = Request::post(uri).header("content-type", "application/x-www-form-urlencoded");
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(Body::from(body)).unwrap()
}

#[tokio::test]
async fn hostile_text_is_inert_on_every_page_it_reaches() {
    let (app, site) = app().await;
    let id = common::zhang_id(&app).await;

    // Published through the API: the detail page lists it.
    let r = send(
        &app,
        json_req(
            "POST",
            &format!("/api/v1/advisors/{id}/reviews"),
            "10.1.0.1",
            &common::review_json(HOSTILE),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let posted: Value = serde_json::from_str(&r.body).unwrap();
    let rid = posted["review"]["id"].as_str().unwrap().to_string();
    assert!(
        !posted["review"]["text"]
            .as_str()
            .unwrap()
            .contains('\u{202E}'),
        "invisible direction controls are not published"
    );
    let page = get(&app, &format!("/advisor/{id}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_inert(&page.body, "detail page");
    assert!(
        page.body.contains("&lt;script&gt;alert(1)"),
        "shown as text"
    );

    // Refused by the form (a phone number): the draft comes back escaped.
    let r = send(
        &app,
        form_req(
            &format!("/reviews/new/{id}"),
            form(&format!("{HOSTILE}电话13812345678")),
            &[("x-forwarded-for", "10.1.0.2")],
        ),
    )
    .await;
    assert!(r.status.is_redirection(), "{} {}", r.status, r.body);
    let back = r.headers["location"].to_str().unwrap().to_string();
    assert!(back.contains("draft="), "{back}");
    let page = get(&app, &back).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_inert(&page.body, "re-shown form");
    assert!(page.body.contains("&lt;/textarea&gt;&lt;script&gt;"));

    // The edit form filled with the stored review.
    let page = get(&app, &format!("/advisor/{id}/review?edit={rid}")).await;
    assert_inert(&page.body, "edit form");

    // A hostile advisor name (as an import could bring) in titles and lists.
    sqlx::query("UPDATE advisors SET name = '<script>alert(1)</script>张' WHERE id = $1")
        .bind(id.parse::<i64>().unwrap())
        .execute(site.pool())
        .await
        .unwrap();
    for uri in [
        format!("/advisor/{id}"),
        format!("/advisor/{id}/review"),
        format!("/compare?ids={id},2"),
    ] {
        let page = get(&app, &uri).await;
        assert!(page.status.is_success(), "{uri}: {}", page.status);
        assert_inert(&page.body, &uri);
        let title = page
            .body
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .unwrap_or_default();
        assert!(title.contains("&lt;script&gt;"), "{uri}: title {title}");
    }

    // Reflected query strings.
    let page = get(
        &app,
        "/ranking?school=%3Cscript%3Ealert(1)%3C%2Fscript%3E&major=x",
    )
    .await;
    assert!(page.status.is_client_error());
    assert_inert(&page.body, "ranking with a hostile school");

    // The admin page: the review and a hostile report reason.
    let r = send(
        &app,
        json_req(
            "POST",
            &format!("/api/v1/reviews/{rid}/report"),
            "10.1.0.3",
            &json!({"reason": HOSTILE}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let admin = send(
        &app,
        Request::get("/admin")
            .header("cookie", "admin_token=test-admin")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(admin.status, StatusCode::OK);
    assert_inert(&admin.body, "admin page");
    assert!(admin.body.contains("&lt;script&gt;alert(1)"));
}

#[tokio::test]
async fn pages_carry_a_content_security_policy_their_scripts_satisfy() {
    let (app, _) = app().await;
    let page = send(&app, Request::get("/").body(Body::empty()).unwrap()).await;
    assert_eq!(page.status, StatusCode::OK);
    let csp = page.headers["content-security-policy"].to_str().unwrap();
    let nonce = csp
        .split("'nonce-")
        .nth(1)
        .and_then(|r| r.split('\'').next())
        .expect("a nonce in the page policy");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(csp.contains("'wasm-unsafe-eval'"), "{csp}");
    let scripts: Vec<&str> = page.body.split("<script").skip(1).collect();
    assert!(!scripts.is_empty(), "the page hydrates with inline scripts");
    for s in scripts {
        let tag = s.split('>').next().unwrap_or_default();
        assert!(
            tag.contains(&format!("nonce=\"{nonce}\"")),
            "an inline script without the nonce: <script{tag}>"
        );
    }
    // A second render has another nonce.
    let again = send(&app, Request::get("/").body(Body::empty()).unwrap()).await;
    assert_ne!(
        again.headers["content-security-policy"],
        page.headers["content-security-policy"]
    );
    // Every response, API included, says nosniff, no framing, same-origin referrers.
    for uri in ["/", "/api/v1/schools", "/api/v1/nope"] {
        let r = send(&app, Request::get(uri).body(Body::empty()).unwrap()).await;
        assert_eq!(r.headers["x-content-type-options"], "nosniff", "{uri}");
        assert_eq!(r.headers["x-frame-options"], "DENY", "{uri}");
        assert_eq!(r.headers["referrer-policy"], "same-origin", "{uri}");
        assert!(r.headers.contains_key("content-security-policy"), "{uri}");
    }
}

#[tokio::test]
async fn limits_answer_before_any_work() {
    let (app, site) = app().await;
    let id = common::zhang_id(&app).await;
    let before = common::review_count(&site).await;

    // The 70,000-character review of the report: a fast 413 in the envelope.
    let huge = "很好".repeat(35_000);
    let t = Instant::now();
    let r = send(
        &app,
        json_req(
            "POST",
            &format!("/api/v1/advisors/{id}/reviews"),
            "10.2.0.1",
            &common::review_json(&huge),
        ),
    )
    .await;
    println!("70,000-character review: {} in {:?}", r.status, t.elapsed());
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    let v: Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["error"]["code"], "payload_too_large");
    assert!(has_chinese(v["error"]["message"].as_str().unwrap()));

    // Just over the text limit but inside the body limit: too_long, and the
    // rules never read it.
    let long = "很好".repeat(1_100);
    let r = send(
        &app,
        json_req(
            "POST",
            &format!("/api/v1/advisors/{id}/reviews"),
            "10.2.0.1",
            &common::review_json(&long),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.body.contains("too_long"), "{}", r.body);

    // The same through the form, and a chat turn far over its limit.
    let r = send(
        &app,
        form_req(&format!("/reviews/new/{id}"), form(&huge), &[]),
    )
    .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(r.body.contains("payload_too_large"), "{}", r.body);
    let r = send(
        &app,
        json_req(
            "POST",
            "/api/v1/chat",
            "10.2.0.1",
            &json!({"message": "你好", "page_context": {"visible_advisors": [{"id": "1", "name": huge}]}}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(r.body.contains("payload_too_large"));

    let after = common::review_count(&site).await;
    assert_eq!(before, after, "nothing stored");
}

#[tokio::test]
async fn chat_turns_are_limited_per_client_with_retry_after() {
    let (app, _) = app().await;
    let turn = |client: &str| json_req("POST", "/api/v1/chat", client, &json!({"message": "你好"}));
    for _ in 0..server::http::limits::CHAT_TURNS_PER_MINUTE {
        let r = send(&app, turn("10.3.0.1")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    }
    let r = send(&app, turn("10.3.0.1")).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait));
    let v: Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["error"]["code"], "rate_limited");
    assert!(has_chinese(v["error"]["message"].as_str().unwrap()));
    // The stream endpoint counts against the same client; others are free.
    let r = send(
        &app,
        json_req(
            "POST",
            "/api/v1/chat/stream",
            "10.3.0.1",
            &json!({"message": "你好"}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(send(&app, turn("10.3.0.2")).await.status, StatusCode::OK);
}

#[tokio::test]
async fn every_json_endpoint_answers_bad_bodies_with_the_envelope() {
    let (app, _) = app().await;
    let id = common::zhang_id(&app).await;
    let routes = [
        ("POST", "/api/v1/chat".to_string()),
        ("POST", "/api/v1/chat/stream".to_string()),
        ("POST", "/api/v1/chat/switch_agent".to_string()),
        ("POST", format!("/api/v1/advisors/{id}/reviews")),
        ("PUT", "/api/v1/reviews/1".to_string()),
        ("POST", "/api/v1/reviews/1/report".to_string()),
        ("POST", "/api/v1/admin/reviews/1/hide".to_string()),
        ("POST", "/api/v1/no/such/endpoint".to_string()),
        ("DELETE", "/api/v1/schools".to_string()),
    ];
    let bodies: [(&str, &str); 6] = [
        ("application/json", "{"),
        ("application/json", "[1, 2"),
        (
            "application/json",
            "{\"message\": 5, \"ratings\": \"x\", \"reason\": []}",
        ),
        ("application/json", "\u{0}\u{1}"),
        ("text/plain", "hello"),
        ("application/x-www-form-urlencoded", "a=b"),
    ];
    for (method, uri) in &routes {
        for (ct, body) in bodies {
            let req = Request::builder()
                .method(*method)
                .uri(uri)
                .header("content-type", ct)
                .header("x-forwarded-for", "10.4.0.1")
                .body(Body::from(body))
                .unwrap();
            let r = send(&app, req).await;
            assert!(
                r.status.is_client_error(),
                "{method} {uri} with {ct} {body:?}: {} {}",
                r.status,
                r.body
            );
            let v: Value = serde_json::from_str(&r.body).unwrap_or_else(|_| {
                panic!("{method} {uri} with {ct} {body:?}: not JSON: {}", r.body)
            });
            let message = v["error"]["message"]
                .as_str()
                .or(v["message"].as_str())
                .unwrap_or_else(|| panic!("{method} {uri}: no envelope: {v}"));
            assert!(has_chinese(message), "{method} {uri}: {message}");
        }
    }
}

#[tokio::test]
async fn no_path_segment_produces_a_server_error() {
    let (app, _) = app().await;
    let segments = [
        "%0B12",
        "%00",
        "%0A1",
        "%E2%80%AE1",
        "..%2F..%2Fetc",
        "99999999999999999999999",
        "-1",
        "0",
        "1%20OR%201=1",
        "%FF",
        "%F0%9F%98%80",
        "1.5",
        "%20",
    ];
    for seg in segments {
        let cases: Vec<(&str, String)> = vec![
            ("GET", format!("/api/v1/advisors/{seg}")),
            ("GET", format!("/api/v1/advisors/{seg}/reviews")),
            ("POST", format!("/api/v1/advisors/{seg}/reviews")),
            ("POST", format!("/api/v1/reviews/{seg}/report")),
            ("PUT", format!("/api/v1/reviews/{seg}")),
            ("DELETE", format!("/api/v1/reviews/{seg}")),
            ("GET", format!("/api/v1/chat/{seg}")),
            ("POST", format!("/reviews/{seg}/report")),
            ("POST", format!("/reviews/{seg}/edit")),
            ("POST", format!("/reviews/new/{seg}")),
            ("POST", format!("/admin/reviews/{seg}/hide")),
            ("GET", format!("/advisor/{seg}")),
            ("GET", format!("/advisor/{seg}/review")),
            ("GET", format!("/compare?ids={seg},{seg}")),
        ];
        for (method, uri) in cases {
            let (ct, body) = if uri.starts_with("/api/") {
                (
                    "application/json",
                    common::review_json("导师学术水平很高，每周组会都会认真指导。").to_string(),
                )
            } else {
                (
                    "application/x-www-form-urlencoded",
                    "reason=x&advisor_id=%0B1".to_string(),
                )
            };
            let req = Request::builder()
                .method(method)
                .uri(&uri)
                .header("content-type", ct)
                .header("cookie", "admin_token=test-admin")
                .body(Body::from(body))
                .unwrap();
            let r = send(&app, req).await;
            assert!(
                r.status.as_u16() < 500,
                "{method} {uri}: {} {}",
                r.status,
                r.body
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_simultaneous_writers_are_all_stored() {
    let (app, site) = app().await;
    let id = common::zhang_id(&app).await;
    let mut tasks = Vec::new();
    for i in 0..50 {
        let app = app.clone();
        let uri = format!("/api/v1/advisors/{id}/reviews");
        tasks.push(tokio::spawn(async move {
            let text = format!(
                "第{i}位同学的评价：导师学术水平很高，组会认真，经费充足，毕业去向好。编号{i}"
            );
            let r = send(
                &app,
                json_req(
                    "POST",
                    &uri,
                    &format!("10.5.{i}.1"),
                    &common::review_json(&text),
                ),
            )
            .await;
            (r.status, r.body)
        }));
    }
    let mut created = 0;
    for t in tasks {
        let (status, body) = t.await.unwrap();
        assert_eq!(status, StatusCode::CREATED, "{body}");
        created += 1;
    }
    assert_eq!(created, 50);

    // Ten simultaneous edits of one review: each 204 or a clear 409, never 5xx.
    let r = send(
        &app,
        json_req(
            "POST",
            &format!("/api/v1/advisors/{id}/reviews"),
            "10.5.200.1",
            &common::review_json("导师非常负责，每周都会一对一讨论论文进展，经费也很充足。"),
        ),
    )
    .await;
    let posted: Value = serde_json::from_str(&r.body).unwrap();
    let rid = posted["review"]["id"].as_str().unwrap().to_string();
    let token = posted["edit_token"].as_str().unwrap().to_string();
    let mut edits = Vec::new();
    for i in 0..10 {
        let app = app.clone();
        let (rid, token) = (rid.clone(), token.clone());
        edits.push(tokio::spawn(async move {
            let req = Request::put(format!("/api/v1/reviews/{rid}"))
                .header("content-type", "application/json")
                .header("x-edit-token", token)
                .body(Body::from(
                    common::review_json(&format!(
                        "修改后的评价第{i}版：导师负责，经费充足，毕业顺利。"
                    ))
                    .to_string(),
                ))
                .unwrap();
            send(&app, req).await.status
        }));
    }
    for e in edits {
        let status = e.await.unwrap();
        assert!(
            status == StatusCode::NO_CONTENT || status == StatusCode::CONFLICT,
            "{status}"
        );
    }

    // The aggregates equal a recomputation from the reviews.
    common::assert_aggregates_match_recomputation(&site).await;
}

#[tokio::test]
async fn a_forged_page_context_is_no_advisor_not_an_upstream_failure() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    s.page = serde_json::from_value(json!({
        "current_page": "ranking",
        "visible_advisors": [{"id": "987654321", "name": "王五", "title": "教授", "rating": 4.9, "rank": 1}],
        "ranking_filters": {"school": "北京大学", "major": "计算机科学与技术"}
    }))
    .unwrap();
    let r = s.say("第一个导师怎么样").await;
    assert!(r.error.is_none(), "{:?}", r.error);
    assert!(!r.voice_response.contains("王五"), "{}", r.voice_response);
    s.page = serde_json::from_value(json!({
        "current_page": "detail",
        "selected_advisor": {"id": "987654321", "name": "王五"}
    }))
    .unwrap();
    let r = s.say("他的学生评价呢").await;
    assert!(r.error.is_none(), "{:?}", r.error);
    assert!(!r.voice_response.contains("王五"), "{}", r.voice_response);
    // A real advisor's id with a forged name speaks the real name.
    let id = common::zhang_id(&app).await;
    s.page = serde_json::from_value(json!({
        "current_page": "detail",
        "selected_advisor": {"id": id, "name": "假名字"}
    }))
    .unwrap();
    let r = s.say("他的学生评价呢").await;
    assert!(r.error.is_none(), "{:?}", r.error);
    assert!(!r.voice_response.contains("假名字"), "{}", r.voice_response);
}

/// The page the last turn left is known to be true; what a request claims
/// beyond it is still checked: a forged name on a known id speaks the real
/// name, and an id that was never on the page and does not exist is dropped.
#[tokio::test]
async fn a_page_is_checked_again_beyond_what_the_last_turn_left() {
    let (app, _) = app().await;
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    let first = s.page.visible_advisors.first().cloned().expect("a ranking");
    s.page.visible_advisors[0].name = "假名字".into();
    s.page.visible_advisors.insert(
        0,
        serde_json::from_value(json!({"id": "987654321", "name": "王五", "title": "教授"}))
            .unwrap(),
    );
    let r = s.say("第一个导师怎么样").await;
    assert!(r.error.is_none(), "{:?}", r.error);
    for forged in ["假名字", "王五"] {
        assert!(!r.voice_response.contains(forged), "{}", r.voice_response);
    }
    assert!(
        r.voice_response.contains(&first.name),
        "{}",
        r.voice_response
    );
}

#[tokio::test]
async fn a_published_reviews_token_is_never_stored_in_the_conversation() {
    let (app, site) = app().await;
    let mut s = Student::new(&app);
    s.say("我想考北京大学计算机系").await;
    s.say("第一个导师的详细信息").await;
    s.say("我想评价他").await;
    s.say("我是他组里的在读学生，学术水平很高，每周组会都认真指导论文")
        .await;
    s.say("经费充足，每个月补助三千，设备也够用").await;
    s.say("老师脾气很好，很关心学生").await;
    s.say("毕业的师兄大多去了大厂，推荐信也写得很用心").await;
    let r = s.click("general", &["确认发布"]).await;
    let posted = common::call(&r, "submit_review");
    let token = posted.result.as_ref().unwrap()["edit_token"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!token.is_empty(), "the live reply carries the token");
    let leaks: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM chat_messages WHERE COALESCE(tool_calls, '') LIKE '%' || $1 || '%' \
         OR content LIKE '%' || $2 || '%'",
    )
    .bind(&token)
    .bind(&token)
    .fetch_one(site.pool())
    .await
    .unwrap();
    assert_eq!(leaks, 0, "the edit token is in the stored conversation");
    // The restored conversation has the review but not the token.
    let history = get(&app, &format!("/api/v1/chat/{}", r.session_id)).await;
    assert!(!history.body.contains(&token));
}

#[tokio::test]
async fn wrong_admin_tokens_are_throttled() {
    let (app, _) = app().await;
    let admin = |token: &str, client: &str| {
        Request::get("/api/v1/admin/reviews")
            .header("authorization", format!("Bearer {token}"))
            .header("x-forwarded-for", client)
            .body(Body::empty())
            .unwrap()
    };
    for _ in 0..server::http::limits::ADMIN_FAILURES {
        assert_eq!(
            send(&app, admin("guess", "10.6.0.1")).await.status,
            StatusCode::FORBIDDEN
        );
    }
    let r = send(&app, admin("guess", "10.6.0.1")).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.headers.contains_key("retry-after"));
    // Even the right token waits on that client; another client is served.
    assert_eq!(
        send(&app, admin("test-admin", "10.6.0.1")).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        send(&app, admin("test-admin", "10.6.0.2")).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn cross_site_form_posts_are_refused() {
    let (app, site) = app().await;
    let id = common::zhang_id(&app).await;
    let before = common::review_count(&site).await;
    let text = "导师学术水平很高，每周组会都会认真指导，经费一般但够用。";
    for headers in [
        vec![("sec-fetch-site", "cross-site")],
        vec![
            ("origin", "https://evil.example"),
            ("host", "127.0.0.1:3000"),
        ],
    ] {
        let mut h = headers.clone();
        h.push(("x-forwarded-for", "10.7.0.1"));
        let r = send(
            &app,
            form_req(&format!("/reviews/new/{id}"), form(text), &h),
        )
        .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{headers:?}");
        assert!(r.body.contains("cross_site_request"));
    }
    let after = common::review_count(&site).await;
    assert_eq!(before, after);
    // The same form from the site itself goes through.
    let r = send(
        &app,
        form_req(
            &format!("/reviews/new/{id}"),
            form(text),
            &[
                ("sec-fetch-site", "same-origin"),
                ("x-forwarded-for", "10.7.0.2"),
            ],
        ),
    )
    .await;
    assert!(r.status.is_redirection());
    assert!(r.headers["location"].to_str().unwrap().contains("posted="));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_load_run_has_no_errors_and_stores_every_turn() {
    // `make load` at a size a test can afford: the same code path.
    let config = server::cli::load::LoadConfig {
        url: None,
        sessions: 6,
        turns: 10,
        concurrency: 3,
    };
    let report = server::cli::load::run(&config).await.unwrap();
    println!("{}", report.render());
    assert_eq!(report.turns, 60);
    assert!(report.ok(), "{}", report.render());
}
