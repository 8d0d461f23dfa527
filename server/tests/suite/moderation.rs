//! Moderation at scale: the reported reviews by keyset pages in
//! the order of reports and recency, read through their index; bulk hide /
//! restore in one transaction with an audit line per review (who, what,
//! when, why) shown on the admin page; the same text on several advisors
//! flagged for review.

use crate::common;

use axum::http::StatusCode;
use serde_json::json;

use common::{app, get, request as send};

const AUTH: (&str, &str) = ("authorization", "Bearer test-admin");

/// Posts a review of `advisor` as `client`; its id.
async fn post(app: &axum::Router, advisor: i64, text: &str, client: &str) -> String {
    let (status, body) = send(
        app,
        "POST",
        &format!("/api/v1/advisors/{advisor}/reviews"),
        &[("x-forwarded-for", client)],
        Some(&common::review_json(text)),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["review"]["id"].as_str().unwrap().to_string()
}

async fn advisors(site: &server::site::Site, n: i64) -> Vec<i64> {
    sqlx::query_scalar("SELECT id FROM advisors ORDER BY id LIMIT $1")
        .bind(n)
        .fetch_all(site.pool())
        .await
        .unwrap()
}

async fn report(app: &axum::Router, review: &str, client: &str) {
    let (status, body) = send(
        app,
        "POST",
        &format!("/api/v1/reviews/{review}/report"),
        &[("x-forwarded-for", client)],
        Some(&json!({"reason": "不实"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn reported_reviews_come_in_keyset_pages_by_reports_then_recency() {
    let (app, site) = app().await;
    let ids = advisors(&site, 7).await;
    let texts = [
        "学术很强，组会认真，经费充足，毕业去向很好，推荐。",
        "老师很少来实验室，学生基本靠自己摸索，压力不小。",
        "横向项目太多，学生像打工人，论文指导明显不足。",
        "氛围轻松，师兄师姐都很热心，推荐报考这个组。",
        "要求严格，每周汇报进度，但收获很大，值得一去。",
        "经费一般，出差要自己垫钱，报销很慢，需要耐心。",
        "实习基本不批，想去大厂要自己争取，老师不太支持。",
    ];
    let mut reviews = Vec::new();
    for (i, (advisor, text)) in ids.iter().zip(texts).enumerate() {
        reviews.push(post(&app, *advisor, text, &format!("10.1.0.{i}")).await);
    }
    // Reports: review 0 ×3, 1 ×1, 2 ×3 (later), 3 ×2, 4 ×1, 5 ×1, 6 none.
    for (r, n) in [(0, 3), (1, 1), (3, 2), (4, 1), (5, 1), (2, 3)] {
        for k in 0..n {
            report(&app, &reviews[r], &format!("10.2.{r}.{k}")).await;
        }
    }
    // Equal counts: the most recently reported first (same second here,
    // so the later id first).
    let mut seen: Vec<String> = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let uri = match &after {
            Some(c) => format!("/api/v1/admin/reviews?limit=2&after={c}"),
            None => "/api/v1/admin/reviews?limit=2".to_string(),
        };
        let (status, page) = send(&app, "GET", &uri, &[AUTH], None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let flagged = page["flagged"].as_array().unwrap();
        assert!(flagged.len() <= 2);
        seen.extend(
            flagged
                .iter()
                .map(|r| r["id"].as_str().unwrap().to_string()),
        );
        match page["next"].as_str() {
            Some(c) => after = Some(c.replace('~', "%7E").replace(':', "%3A")),
            None => break,
        }
    }
    let want: Vec<String> = [2, 0, 3, 5, 4, 1]
        .iter()
        .map(|i| reviews[*i].clone())
        .collect();
    assert_eq!(seen, want, "every reported review once, in order");

    // The list reads the partial index in its order, never a sort of all reviews.
    let plan = server::store::plan::explain(
        site.pool(),
        "SELECT id FROM reviews r WHERE r.report_count > 0 \
           AND (r.report_count, r.last_reported_at, r.id) < (3, 'z', 1) \
         ORDER BY r.report_count DESC, r.last_reported_at DESC, r.id DESC LIMIT 50",
    )
    .await
    .unwrap();
    assert!(plan.uses("reviews_reported"), "{plan:?}");
    assert!(!plan.sorts(), "{plan:?}");
}

#[tokio::test]
async fn bulk_hide_and_restore_are_one_transaction_and_every_action_is_logged() {
    let (app, site) = app().await;
    let ids = advisors(&site, 2).await;
    let a = post(
        &app,
        ids[0],
        "学术很强，组会认真，经费充足，毕业去向很好，推荐。",
        "10.3.0.1",
    )
    .await;
    let b = post(
        &app,
        ids[1],
        "老师很少来实验室，学生基本靠自己摸索，压力不小。",
        "10.3.0.2",
    )
    .await;
    let bulk = "/api/v1/admin/reviews/bulk";
    let body = json!({"ids": [a, b], "action": "hide", "reason": "批量处理<广告>", "by": "小王"});
    assert_eq!(
        send(&app, "POST", bulk, &[], Some(&body)).await.0,
        StatusCode::UNAUTHORIZED
    );
    // One unknown id refuses the whole action: nothing hidden, nothing logged.
    let (status, reply) = send(
        &app,
        "POST",
        bulk,
        &[AUTH],
        Some(&json!({"ids": [a, "99999999"], "action": "hide", "reason": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{reply}");
    let log: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM admin_audit")
        .fetch_one(site.pool())
        .await
        .unwrap();
    assert_eq!(log, 0);
    let status_of = |id: String| {
        let site = site.clone();
        async move {
            sqlx::query_scalar::<_, String>("SELECT status FROM reviews WHERE id = $1")
                .bind(id.parse::<i64>().unwrap())
                .fetch_one(site.pool())
                .await
                .unwrap()
        }
    };
    assert_eq!(status_of(a.clone()).await, "published");

    let (status, reply) = send(
        &app,
        "POST",
        bulk,
        &[AUTH, ("x-forwarded-for", "10.9.9.9")],
        Some(&body),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["changed"], 2);
    assert_eq!(status_of(a.clone()).await, "hidden");
    assert_eq!(status_of(b.clone()).await, "hidden");
    let (_, reply) = send(
        &app,
        "POST",
        bulk,
        &[AUTH],
        Some(&json!({"ids": [a], "action": "restore", "reason": "误判"})),
    )
    .await;
    assert_eq!(reply["changed"], 1);

    let (_, lists) = send(&app, "GET", "/api/v1/admin/reviews", &[AUTH], None).await;
    let audit = lists["audit"].as_array().unwrap();
    assert_eq!(audit.len(), 3);
    assert_eq!(audit[0]["action"], "restore");
    assert_eq!(audit[0]["reason"], "误判");
    // The admin by name and client key (never the address).
    assert_eq!(
        audit[2]["actor"],
        format!("小王（{}）", site.client_keys().key_of("10.9.9.9"))
    );
    assert_eq!(audit[2]["reason"], "批量处理<广告>");
    assert!(audit[2]["at"].as_str().unwrap().ends_with('Z'));

    // The aggregates still equal a recomputation.
    common::assert_aggregates_match_recomputation(&site).await;

    // The admin page shows the log, escaped.
    let page = common::get_with(&app, "/admin", &[("cookie", "admin_token=test-admin")]).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("操作记录"), "{}", page.body);
    assert!(page.body.contains("批量处理&lt;广告&gt;"));
    assert!(!page.body.contains("批量处理<广告>"));
    assert!(page.body.contains("隐藏所选"));
}

#[tokio::test]
async fn the_same_text_on_several_advisors_is_flagged_for_review() {
    let (app, site) = app().await;
    let ids = advisors(&site, 3).await;
    let smear = "这个导师人品很差，压榨学生，经费全部自己拿走，大家千万不要报他！";
    let first = post(&app, ids[0], smear, "10.4.0.1").await;
    let other = post(
        &app,
        ids[1],
        "老师人很好，经费充足，每周组会都认真指导。",
        "10.4.0.2",
    )
    .await;
    // Nearly the same, another writer, another advisor, traditional script.
    let second = post(
        &app,
        ids[2],
        "這個導師人品很差，壓榨學生，經費全部自己拿走，大家千萬不要報他。",
        "10.4.0.3",
    )
    .await;
    let (_, lists) = send(&app, "GET", "/api/v1/admin/reviews", &[AUTH], None).await;
    let flagged: Vec<String> = lists["flagged"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert!(
        flagged.contains(&first) && flagged.contains(&second),
        "{lists}"
    );
    assert!(!flagged.contains(&other));
    let reason = lists["flagged"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"].as_str() == Some(second.as_str()))
        .unwrap()["reasons"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        reason.contains("另外 1 位导师") && reason.contains(&format!("#{first}")),
        "{reason}"
    );
    // Published all the same: flagged is not refused.
    let list = get(&app, &format!("/api/v1/advisors/{}/reviews", ids[2]))
        .await
        .json();
    assert_eq!(list["reviews"][0]["id"].as_str(), Some(second.as_str()));
}

/// A GET with headers: status, headers and the body as text.
async fn fetch(app: &axum::Router, uri: &str, headers: &[(&str, &str)]) -> Fetched {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let mut request = axum::http::Request::get(uri);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let res = app
        .clone()
        .oneshot(request.body(axum::body::Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    Fetched {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

struct Fetched {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: String,
}

#[tokio::test]
async fn the_admin_page_is_rendered_by_leptos_and_its_data_needs_the_token() {
    let (app, site) = app().await;
    let ids = advisors(&site, 1).await;
    let text = "组会从来不开，经费去向不明，学生只能自己想办法毕业。";
    let rid = post(&app, ids[0], text, "10.5.0.1").await;
    report(&app, &rid, "10.5.0.2").await;
    let cookie = ("cookie", "admin_token=test-admin");

    // The page: the app's document, the lists, the forms posting without
    // JavaScript, never cached.
    let page = fetch(&app, "/admin", &[cookie]).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert_eq!(page.headers["cache-control"], "no-store");
    let body = &page.body;
    assert!(
        body.contains("<title>评价管理 · 导师评价网</title>"),
        "{body}"
    );
    assert!(body.contains("data-page=\"admin\""), "{body}");
    assert!(body.contains(text));
    assert!(body.contains(&format!(
        "data-testid=\"admin-review\" data-review-id=\"{rid}\" data-status=\"published\""
    )));
    assert!(body.contains(&format!("action=\"/admin/reviews/{rid}/hide\"")));
    assert!(body.contains("id=\"bulk-form\" method=\"post\" action=\"/admin/reviews/bulk\""));
    assert!(body.contains(&format!("name=\"ids\" value=\"{rid}\" form=\"bulk-form\"")));
    assert!(body.contains("举报 1 次（不实）"), "{body}");

    // Refused: the envelope, nothing of the page or its data.
    for (headers, status) in [
        (vec![], StatusCode::UNAUTHORIZED),
        (vec![("cookie", "admin_token=nope")], StatusCode::FORBIDDEN),
    ] {
        let page = fetch(&app, "/admin", &headers).await;
        assert_eq!(page.status, status);
        assert!(!page.body.contains(text) && !page.body.contains("评价管理"));
    }

    // The page's server function checks the token itself, whoever calls it.
    let lists = "/admin/lists";
    let refused = fetch(&app, lists, &[("x-forwarded-for", "10.5.0.3")]).await;
    assert!(!refused.body.contains(text), "{}", refused.body);
    assert!(refused.body.contains("需要管理员口令"), "{}", refused.body);
    let wrong = fetch(
        &app,
        lists,
        &[
            ("cookie", "admin_token=nope"),
            ("x-forwarded-for", "10.5.0.4"),
        ],
    )
    .await;
    assert!(!wrong.body.contains(text) && wrong.body.contains("管理员口令不正确"));
    let served = fetch(&app, lists, &[cookie]).await;
    assert_eq!(served.status, StatusCode::OK);
    assert_eq!(served.headers["cache-control"], "no-store");
    assert!(served.body.contains(text), "{}", served.body);
    // …and its wrong tokens count with the page's and the API's.
    for _ in 1..server::http::limits::ADMIN_FAILURES {
        fetch(
            &app,
            lists,
            &[
                ("cookie", "admin_token=nope"),
                ("x-forwarded-for", "10.5.0.4"),
            ],
        )
        .await;
    }
    let page = fetch(&app, "/admin", &[cookie, ("x-forwarded-for", "10.5.0.4")]).await;
    assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(page.headers.contains_key("retry-after"));
}
