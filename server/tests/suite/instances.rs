//! Many instances: two instances of the site over one database,
//! as two processes behind a proxy would be. A student whose requests
//! alternate between them meets one site: one conversation, one review and
//! its edit, one refused form shown again, one chat limit.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use serde_json::json;
use tower::ServiceExt;

use common::{request, Student};

/// POSTs a form as `client`: status and `Location`.
async fn post_form(app: &Router, uri: &str, form: &str, client: &str) -> (StatusCode, String) {
    let request = Request::post(uri)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("x-forwarded-for", client)
        .body(Body::from(form.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let location = response
        .headers()
        .get("location")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (response.status(), location)
}

fn percent(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn a_conversation_alternating_between_two_instances_is_one_conversation() {
    let ((a, _), (b, _)) = common::two_instances().await;
    let mut student = Student::new(&a);
    let first = student.say("我想考北京大学计算机系").await;
    assert!(
        common::tools(&first).contains(&"update_ranking"),
        "{first:?}"
    );
    // The next turn lands on the other instance: the form, the ranking on
    // the page and the conversation are the same.
    student.app = b.clone();
    let second = student.say("第一个导师怎么样？").await;
    assert_eq!(second.session_id, first.session_id);
    assert!(
        second.voice_response.starts_with("张三教授"),
        "{}",
        second.voice_response
    );
    student.app = a.clone();
    let third = student.say("他的学生评价呢").await;
    assert_eq!(third.session_id, first.session_id);
    assert!(
        common::tools(&third).contains(&"get_advisor_reviews"),
        "{third:?}"
    );
    // Either instance returns the whole conversation.
    let uri = format!("/api/v1/chat/{}", first.session_id);
    let (status, from_a) = request(&a, "GET", &uri, &[], None).await;
    assert_eq!(status, StatusCode::OK);
    let (_, from_b) = request(&b, "GET", &uri, &[], None).await;
    assert_eq!(from_a, from_b);
    assert_eq!(from_a["messages"].as_array().map(Vec::len), Some(6));
}

#[tokio::test]
async fn a_review_written_on_one_instance_is_edited_on_the_other() {
    let ((a, site_a), (b, site_b)) = common::two_instances().await;
    let id = common::zhang_id(&a).await;
    let text = "导师学术水平很高，每周组会都会认真指导，经费一般但够用。";
    let (status, posted) = request(
        &a,
        "POST",
        &format!("/api/v1/advisors/{id}/reviews"),
        &[("x-forwarded-for", "10.7.0.1")],
        Some(&common::review_json(text)),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");
    let rid = posted["review"]["id"].as_str().unwrap();
    let token = posted["edit_token"].as_str().unwrap();
    // The other instance lists it, and takes its edit with the same token.
    let (_, detail) = request(
        &b,
        "GET",
        &format!("/api/v1/advisors/{id}/reviews"),
        &[],
        None,
    )
    .await;
    assert!(detail.to_string().contains(text), "{detail}");
    let mut edited =
        common::review_json("改一下：学术水平很高，组会认真，经费其实挺充足的，补助每月三千。");
    edited["ratings"]["overall"] = json!(5);
    let uri = format!("/api/v1/reviews/{rid}");
    let (status, body) = request(&b, "PUT", &uri, &[("x-edit-token", token)], Some(&edited)).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    let (_, detail) = request(
        &a,
        "GET",
        &format!("/api/v1/advisors/{id}/reviews"),
        &[],
        None,
    )
    .await;
    assert!(detail.to_string().contains("补助每月三千"), "{detail}");
    // One set of aggregates, right whichever instance wrote.
    common::assert_aggregates_match_recomputation(&site_a).await;
    common::assert_aggregates_match_recomputation(&site_b).await;
}

#[tokio::test]
async fn a_refused_form_is_shown_again_by_the_other_instance() {
    let ((a, _), (b, _)) = common::two_instances().await;
    let id = common::zhang_id(&a).await;
    let bad = "学术水平很高，有事打我电话13812345678，每周组会都认真指导。";
    let form = format!(
        "academic=4&funding=3&relationship=5&prospects=4&overall=4&text={}&relation={}",
        percent(bad),
        percent("在读")
    );
    let (status, location) = post_form(&a, &format!("/reviews/new/{id}"), &form, "10.7.1.1").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(location.contains("draft="), "{location}");
    let again = common::get(&b, &location).await;
    assert!(
        again.body.contains("data-testid=\"error-text\""),
        "{}",
        again.body
    );
    assert!(
        again.body.contains("每周组会都认真指导"),
        "what was typed is kept"
    );
}

#[tokio::test]
async fn the_chat_limit_counts_a_client_once_across_instances() {
    let ((a, _), (b, _)) = common::two_instances().await;
    let limit = server::http::limits::CHAT_TURNS_PER_MINUTE as usize;
    let body = json!({"message": "你好"});
    let mut refused = 0;
    for n in 0..limit + 4 {
        let app = if n % 2 == 0 { &a } else { &b };
        let (status, reply) = request(
            app,
            "POST",
            "/api/v1/chat",
            &[("x-forwarded-for", "10.7.2.1")],
            Some(&body),
        )
        .await;
        match status {
            StatusCode::OK => assert!(n < limit, "turn {n} let through: {reply}"),
            StatusCode::TOO_MANY_REQUESTS => {
                assert!(n >= limit, "turn {n} refused: {reply}");
                assert_eq!(reply["error"]["code"], "rate_limited");
                refused += 1;
            }
            other => panic!("turn {n}: {other} {reply}"),
        }
    }
    assert_eq!(refused, 4);
}

/// Turns of one client sent all at once to two instances: every turn passes
/// the read of its window before any is stored, so the limit is kept by the
/// count inside the turn's own write. Exactly the limit is answered and
/// stored; the rest are refused with `Retry-After` and store nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn turns_racing_past_the_limit_are_refused_by_the_write_that_counts_them() {
    let ((a, site), (b, _)) = common::two_instances().await;
    let limit = server::http::limits::CHAT_TURNS_PER_MINUTE as usize;
    let sent = limit + 12;
    let turns: Vec<_> = (0..sent)
        .map(|n| {
            let app = if n % 2 == 0 { a.clone() } else { b.clone() };
            tokio::spawn(async move {
                let request = Request::post("/api/v1/chat")
                    .header("content-type", "application/json")
                    .header("x-forwarded-for", "10.7.3.1")
                    .body(Body::from(json!({"message": "并发的一轮你好"}).to_string()))
                    .unwrap();
                let response = app.oneshot(request).await.unwrap();
                let retry_after = response.headers().get("retry-after").cloned();
                (response.status(), retry_after)
            })
        })
        .collect();
    let (mut answered, mut refused) = (0, 0);
    for turn in turns {
        match turn.await.unwrap() {
            (StatusCode::OK, _) => answered += 1,
            (StatusCode::TOO_MANY_REQUESTS, Some(_)) => refused += 1,
            other => panic!("{other:?}"),
        }
    }
    let stored: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM chat_messages WHERE role = 'user' AND content = '并发的一轮你好'",
    )
    .fetch_one(site.pool())
    .await
    .unwrap();
    assert_eq!((answered, refused), (limit, sent - limit));
    assert_eq!(stored, limit as i64, "only the answered turns are stored");
}

#[tokio::test]
async fn instances_starting_at_once_migrate_and_seed_once() {
    let dir = std::env::temp_dir().join(format!("advisor-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = common::database::empty_database(&dir, "starting_at_once");
    let starts: Vec<_> = (0..3)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move { server::startup::open(&url).await })
        })
        .collect();
    let mut seeded = 0;
    let mut keys = Vec::new();
    for start in starts {
        let (pool, did_seed) = start.await.unwrap().expect("every instance starts");
        seeded += usize::from(did_seed);
        let site = server::site::Site::load(pool.clone()).await.unwrap();
        keys.push(site.client_keys().clone());
        pool.close().await;
    }
    assert_eq!(seeded, 1, "the demo is written once");
    // One secret, so one client has one key whichever instance it meets.
    assert!(keys.windows(2).all(|w| w[0] == w[1]), "the instances agree");
    assert_eq!(keys[0].key_of("203.0.113.9"), keys[2].key_of("203.0.113.9"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A ranking page an instance keeps in memory is shown only while nothing
/// it shows has changed: a review written through the other instance, and
/// an advisor changed by any statement at all, show on the next request.
#[tokio::test]
async fn a_kept_ranking_page_never_outlives_a_write_on_another_instance() {
    let ((a, _), (b, site_b)) = common::two_instances().await;
    let uri = format!(
        "/api/v1/advisors?school={}&major={}",
        percent("北京大学"),
        percent("计算机科学与技术")
    );
    let card = |page: &serde_json::Value, id: &str| {
        page["advisors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .cloned()
            .unwrap()
    };
    let (status, first) = request(&a, "GET", &uri, &[], None).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let id = first["advisors"][0]["id"].as_str().unwrap().to_string();
    let count = card(&first, &id)["review_count"].as_i64().unwrap();
    // The same page again, kept.
    let (_, again) = request(&a, "GET", &uri, &[], None).await;
    assert_eq!(again, first);

    let (status, posted) = request(
        &b,
        "POST",
        &format!("/api/v1/advisors/{id}/reviews"),
        &[("x-forwarded-for", "10.7.0.9")],
        Some(&common::review_json(
            "导师人很好，组会认真，经费充足，毕业去向也不错，推荐报考。",
        )),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");
    let (_, after) = request(&a, "GET", &uri, &[], None).await;
    assert_eq!(
        card(&after, &id)["review_count"].as_i64().unwrap(),
        count + 1
    );

    sqlx::query("UPDATE advisors SET title = '研究员' WHERE id = $1")
        .bind(id.parse::<i64>().unwrap())
        .execute(site_b.pool())
        .await
        .unwrap();
    let (_, retitled) = request(&a, "GET", &uri, &[], None).await;
    assert_eq!(card(&retitled, &id)["title"], "研究员");
}

/// The recommender's candidates an instance keeps are reused only while
/// nothing in their pair changed: a review written through the other
/// instance is weighed by the next recommendation.
#[tokio::test]
async fn kept_recommendation_candidates_never_outlive_a_write_on_another_instance() {
    let ((_, site_a), (b, _)) = common::two_instances().await;
    let catalog = site_a.catalog();
    let school = catalog.resolve_school("北京大学").found().unwrap().id;
    let major = catalog
        .resolve_major("计算机科学与技术")
        .found()
        .unwrap()
        .id;
    // Each call a request of its own: its own read of the pair's version.
    let candidates = || async {
        let seen = server::site::PairVersions::default();
        site_a
            .candidate_facts((school, major), 150, None, &seen, |top, _| top.to_vec())
            .await
    };
    let first = candidates().await.unwrap();
    assert!(!first.rows.is_empty());
    assert!(
        std::sync::Arc::ptr_eq(&first, &candidates().await.unwrap()),
        "kept"
    );

    let advisor = &first.rows[0];
    let (status, posted) = request(
        &b,
        "POST",
        &format!("/api/v1/advisors/{}/reviews", advisor.id),
        &[("x-forwarded-for", "10.7.0.10")],
        Some(&common::review_json(
            "导师学术水平高，组会指导认真，经费也充足，很推荐。",
        )),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");
    let after = candidates().await.unwrap();
    let row = after.rows.iter().find(|r| r.id == advisor.id).unwrap();
    assert_eq!(row.review_count, advisor.review_count + 1);
}
