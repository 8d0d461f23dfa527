//! What students expect of a review site: finding an advisor by
//! name, pinyin or initials; 有用 on reviews (one per client, taken back);
//! reviews sorted by 最新 / 最有用 and filtered by relation and tag; the
//! optional 是否推荐报考 and its share — over the JSON API and the pages
//! without JavaScript.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{app, encode_uri, get, get_with, request as send, review_json};

/// An advisor of the demo by name: (id, name).
async fn an_advisor(site: &server::site::Site) -> (i64, String) {
    sqlx::query_as("SELECT id, name FROM advisors ORDER BY review_count DESC, id LIMIT 1")
        .fetch_one(site.pool())
        .await
        .unwrap()
}

async fn search(app: &axum::Router, q: &str) -> Value {
    let r = get(app, &encode_uri(&format!("/api/v1/search?q={q}"))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.json()
}

fn advisor_ids(v: &Value) -> Vec<String> {
    v["advisors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn an_advisor_is_found_by_name_part_pinyin_and_initials() {
    let (app, site) = app().await;
    let (id, name) = an_advisor(&site).await;
    let id = id.to_string();
    let pinyin: String = server::text::names::terms(&name)
        .into_iter()
        .find(|t| t.pos == 0 && t.text.is_ascii() && t.text.len() > name.chars().count())
        .unwrap()
        .text;
    let initials: String = server::text::names::terms(&name)
        .into_iter()
        .find(|t| t.pos == 0 && t.text.is_ascii() && t.text.len() == name.chars().count())
        .unwrap()
        .text;
    let given: String = name.chars().skip(1).collect();

    let exact = search(&app, &name).await;
    assert_eq!(advisor_ids(&exact)[0], id, "{exact}");
    assert_eq!(exact["advisors"][0]["matched"], "exact");
    for field in ["school", "major", "title"] {
        assert!(exact["advisors"][0][field]
            .as_str()
            .is_some_and(|s| !s.is_empty()));
    }
    assert!(exact["advisors"][0]["score"].as_f64().is_some());
    assert!(exact["advisors"][0]["review_count"].as_i64().unwrap() > 0);

    for q in [
        pinyin.clone(),
        pinyin.to_uppercase(),
        initials.clone(),
        given.clone(),
    ] {
        let found = search(&app, &q).await;
        assert!(advisor_ids(&found).contains(&id), "{q}: {found}");
    }
    // Spaces between syllables, as a phone keyboard leaves them.
    let spaced: String = {
        let first = server::text::names::terms(&name[..name.char_indices().nth(1).unwrap().0])
            .into_iter()
            .find(|t| t.text.is_ascii() && t.text.len() > 1)
            .unwrap()
            .text;
        format!("{} {}", first, &pinyin[first.len()..])
    };
    assert!(
        advisor_ids(&search(&app, &spaced).await).contains(&id),
        "{spaced}"
    );

    // Best match first, then by review count.
    let by_surname = search(&app, &name.chars().next().unwrap().to_string()).await;
    let counts: Vec<i64> = by_surname["advisors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["review_count"].as_i64().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    assert!(!counts.is_empty());
}

#[tokio::test]
async fn schools_and_majors_are_found_by_name_and_alias() {
    let (app, _) = app().await;
    let v = search(&app, "北大").await;
    assert_eq!(v["schools"][0]["name"], "北京大学", "{v}");
    assert_eq!(v["schools"][0]["matched"], "北大");
    assert!(v["schools"][0]["advisor_count"].as_i64().unwrap() > 0);
    let v = search(&app, "计算机科学与技术").await;
    assert_eq!(v["majors"][0]["name"], "计算机科学与技术", "{v}");
    assert!(!v["majors"][0]["schools"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn a_bad_search_is_a_chinese_4xx_and_nothing_found_is_empty() {
    let (app, _) = app().await;
    for (uri, code) in [
        ("/api/v1/search", "missing_parameter"),
        ("/api/v1/search?q=%20%20", "missing_parameter"),
        ("/api/v1/search?q=张三&limit=0", "invalid_limit"),
    ] {
        let r = get(&app, &encode_uri(uri)).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{uri}");
        assert_eq!(r.json()["error"]["code"], code, "{uri}");
        assert!(common::has_chinese(
            r.json()["error"]["message"].as_str().unwrap()
        ));
    }
    let long = "张".repeat(51);
    let r = get(&app, &encode_uri(&format!("/api/v1/search?q={long}"))).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.json()["error"]["code"], "invalid_query");
    let none = search(&app, "qqqqxxxx").await;
    assert!(none["advisors"].as_array().unwrap().is_empty(), "{none}");
    // Characters a LIKE pattern or a range would misread are plain text.
    for q in ["%", "_", "'", "\\"] {
        let r = get(
            &app,
            &format!("/api/v1/search?q={}", app::text::url_encode(q)),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{q}: {}", r.body);
    }
}

#[tokio::test]
async fn the_search_page_works_without_javascript() {
    let (app, site) = app().await;
    let (id, name) = an_advisor(&site).await;
    let r = get(&app, &encode_uri(&format!("/search?q={name}"))).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(
        r.body.contains(&format!("/advisor/{id}")),
        "{}",
        &r.body[..r.body.len().min(2000)]
    );
    assert!(r.body.contains("条评价"));
    let r = get(&app, &encode_uri("/search?q=qqqqxxxx")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("没有找到"));
    // The header's box is on every page.
    let home = get(&app, "/").await;
    assert!(
        home.body.contains("action=\"/search\""),
        "no search box in the header"
    );
}

/// Posts a review as `client` with `relation` and `tags`; its id.
async fn post_review(
    app: &axum::Router,
    advisor: i64,
    text: &str,
    client: &str,
    relation: &str,
    recommend: Option<bool>,
) -> String {
    let mut body = review_json(text);
    body["relation"] = json!(relation);
    body["recommend"] = json!(recommend);
    let (status, v) = send(
        app,
        "POST",
        &format!("/api/v1/advisors/{advisor}/reviews"),
        &[("x-forwarded-for", client)],
        Some(&body),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["review"]["recommend"], json!(recommend));
    v["review"]["id"].as_str().unwrap().to_string()
}

async fn vote(app: &axum::Router, method: &str, review: &str, client: &str) -> (StatusCode, Value) {
    send(
        app,
        method,
        &format!("/api/v1/reviews/{review}/helpful"),
        &[("x-forwarded-for", client)],
        None,
    )
    .await
}

#[tokio::test]
async fn helpful_is_one_vote_per_client_and_can_be_taken_back() {
    let (app, site) = app().await;
    let (advisor, _) = an_advisor(&site).await;
    let rid = post_review(
        &app,
        advisor,
        "组会每周一次，老师会逐条改论文，经费够用，毕业去向不错。",
        "10.9.0.1",
        "在读",
        None,
    )
    .await;
    let (s, v) = vote(&app, "POST", &rid, "10.9.0.2").await;
    assert_eq!(
        (s, v["voted"].clone(), v["helpful"].clone()),
        (StatusCode::OK, json!(true), json!(1))
    );
    // The same client again: still one.
    let (_, v) = vote(&app, "POST", &rid, "10.9.0.2").await;
    assert_eq!(v["helpful"], 1);
    let (_, v) = vote(&app, "POST", &rid, "10.9.0.3").await;
    assert_eq!(v["helpful"], 2);
    // The page says which reviews this client found helpful.
    let page = get_with(
        &app,
        &format!("/api/v1/advisors/{advisor}/reviews"),
        &[("x-forwarded-for", "10.9.0.2")],
    )
    .await
    .json();
    let mine = page["reviews"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == rid.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        (mine["helpful"].clone(), mine["voted"].clone()),
        (json!(2), json!(true))
    );
    let (_, v) = vote(&app, "DELETE", &rid, "10.9.0.2").await;
    assert_eq!(
        (v["voted"].clone(), v["helpful"].clone()),
        (json!(false), json!(1))
    );
    let (_, v) = vote(&app, "DELETE", &rid, "10.9.0.2").await;
    assert_eq!(v["helpful"], 1, "taking back twice takes back once");
    common::assert_aggregates_match_recomputation(&site).await;

    // Unknown and malformed reviews: 4xx with Chinese, nothing stored.
    let (s, v) = vote(&app, "POST", "999999999", "10.9.0.2").await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    let (s, _) = vote(&app, "POST", "abc", "10.9.0.2").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let votes: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM review_votes")
        .fetch_one(site.pool())
        .await
        .unwrap();
    assert_eq!(votes, 1);
}

#[tokio::test]
async fn the_helpful_button_toggles_without_javascript_and_comes_back() {
    let (app, site) = app().await;
    let (advisor, _) = an_advisor(&site).await;
    let rid = post_review(
        &app,
        advisor,
        "老师很负责，每周都和学生单独讨论，补助按时发放，推荐。",
        "10.9.1.1",
        "已毕业",
        Some(true),
    )
    .await;
    let form = |back: &str| {
        Request::post(format!("/reviews/{rid}/helpful"))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("x-forwarded-for", "10.9.1.2")
            .body(Body::from(format!(
                "advisor_id={advisor}&back={}",
                app::text::url_encode(back)
            )))
            .unwrap()
    };
    let r = app
        .clone()
        .oneshot(form("sort=helpful&evil=1"))
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let location = r.headers()["location"].to_str().unwrap().to_string();
    assert_eq!(
        location,
        format!("/advisor/{advisor}?sort=helpful&voted={rid}#review-{rid}")
    );
    let count = || async {
        sqlx::query_scalar::<_, i64>("SELECT helpful_count FROM reviews WHERE id = $1")
            .bind(rid.parse::<i64>().unwrap())
            .fetch_one(site.pool())
            .await
            .unwrap()
    };
    assert_eq!(count().await, 1);
    let r = app.clone().oneshot(form("")).await.unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(count().await, 0, "the second press takes the vote back");
    let _ = r.into_body().collect().await;
}

#[tokio::test]
async fn reviews_sort_by_helpful_and_filter_by_relation_and_tag() {
    let (app, site) = app().await;
    let (advisor, _) = an_advisor(&site).await;
    let a = post_review(
        &app,
        advisor,
        "第一条：组会认真，经费充足，师兄师姐很热心。",
        "10.9.2.1",
        "在读",
        Some(true),
    )
    .await;
    let b = post_review(
        &app,
        advisor,
        "第二条：要求严格，每周汇报，收获很大，推荐报考。",
        "10.9.2.2",
        "已毕业",
        Some(false),
    )
    .await;
    for client in ["10.9.2.10", "10.9.2.11"] {
        vote(&app, "POST", &a, client).await;
    }
    vote(&app, "POST", &b, "10.9.2.12").await;

    let page = |q: &str| {
        let app = app.clone();
        let q = q.to_string();
        async move {
            let r = get(
                &app,
                &encode_uri(&format!("/api/v1/advisors/{advisor}/reviews?{q}")),
            )
            .await;
            assert_eq!(r.status, StatusCode::OK, "{q}: {}", r.body);
            r.json()
        }
    };
    let helpful = page("sort=helpful").await;
    let counts: Vec<i64> = helpful["reviews"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["helpful"].as_i64().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    assert_eq!(helpful["reviews"][0]["id"], a.as_str());
    assert_eq!(helpful["query"]["sort"], "helpful");

    let newest = page("").await;
    assert_eq!(
        newest["reviews"][0]["id"],
        b.as_str(),
        "newest first by default"
    );

    let graduated = page("relation=已毕业").await;
    assert!(graduated["reviews"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["relation"] == "已毕业"));
    let all = page("").await["total"].as_u64().unwrap();
    assert!(graduated["total"].as_u64().unwrap() < all);

    let tagged = page("tag=温和").await;
    assert!(tagged["total"].as_u64().unwrap() >= 2);
    assert!(tagged["reviews"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["tags"].as_array().unwrap().contains(&json!("温和"))));

    for (q, code) in [
        ("sort=best", "invalid_sort"),
        ("relation=路人", "invalid_relation"),
        ("tag=不存在的标签", "invalid_tag"),
    ] {
        let r = get(
            &app,
            &encode_uri(&format!("/api/v1/advisors/{advisor}/reviews?{q}")),
        )
        .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{q}");
        assert_eq!(r.json()["error"]["code"], code);
    }
}

#[tokio::test]
async fn the_detail_page_links_sorting_and_filters_and_shows_the_recommend_share() {
    let (app, site) = app().await;
    let (advisor, _) = an_advisor(&site).await;
    let before: (i64, i64) =
        sqlx::query_as("SELECT recommend_yes, recommend_answered FROM advisors WHERE id = $1")
            .bind(advisor)
            .fetch_one(site.pool())
            .await
            .unwrap();
    post_review(
        &app,
        advisor,
        "推荐：组会认真，经费充足，毕业去向很好，氛围轻松。",
        "10.9.3.1",
        "在读",
        Some(true),
    )
    .await;
    post_review(
        &app,
        advisor,
        "不推荐：横向项目太多，论文指导不够，压力很大。",
        "10.9.3.2",
        "了解",
        Some(false),
    )
    .await;
    post_review(
        &app,
        advisor,
        "没回答推荐与否：老师人不错，经费一般，组会频率适中。",
        "10.9.3.3",
        "在读",
        None,
    )
    .await;
    let detail = get(&app, &format!("/api/v1/advisors/{advisor}"))
        .await
        .json();
    assert_eq!(detail["recommend"]["yes"], before.0 + 1);
    assert_eq!(detail["recommend"]["answered"], before.1 + 2);
    common::assert_aggregates_match_recomputation(&site).await;

    let html = get(&app, &format!("/advisor/{advisor}")).await;
    assert_eq!(html.status, StatusCode::OK);
    assert!(html.body.contains("推荐报考（"), "no share on the page");
    assert!(
        html.body.contains("?sort=helpful#reviews"),
        "no 最有用 link"
    );
    assert!(
        html.body.contains(&format!("/advisor/{advisor}?relation=")),
        "no relation filter"
    );
    assert!(html.body.contains("action=\"/reviews/"), "no 有用 form");
    let filtered = get(
        &app,
        &format!("/advisor/{advisor}?sort=helpful&relation=了解"),
    )
    .await;
    assert_eq!(filtered.status, StatusCode::OK);
    assert!(
        filtered.body.contains("关系：了解"),
        "the filter is not said"
    );
    // A hand-edited filter the site does not have still shows the reviews.
    let odd = get(&app, &format!("/advisor/{advisor}?tag=不存在")).await;
    assert_eq!(odd.status, StatusCode::OK);
    assert!(odd.body.contains("review-list"));
}

#[tokio::test]
async fn the_review_form_and_its_edit_carry_the_recommend_answer() {
    let (app, site) = app().await;
    let (advisor, _) = an_advisor(&site).await;
    let body =
        "academic=4&funding=4&relationship=5&prospects=4&overall=4&relation=%E5%9C%A8%E8%AF%BB\
                &recommend=no&text="
            .to_string()
            + &app::text::url_encode("组会每周一次，老师改论文很仔细，经费充足，毕业去向也好。");
    let r = app
        .clone()
        .oneshot(
            Request::post(format!("/reviews/new/{advisor}"))
                .header("content-type", "application/x-www-form-urlencoded")
                .header("x-forwarded-for", "10.9.4.1")
                .body(Body::from(body))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let stored: Option<i64> = sqlx::query_scalar(
        "SELECT recommend FROM reviews WHERE client_key = $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(site.client_keys().key_of("10.9.4.1"))
    .fetch_one(site.pool())
    .await
    .unwrap();
    assert_eq!(stored, Some(0));
    common::assert_aggregates_match_recomputation(&site).await;
}

/// An advisor whose name no other advisor has, outside the demo's first
/// pair: (id, name).
async fn a_unique_advisor(site: &server::site::Site) -> (i64, String) {
    sqlx::query_as(
        "SELECT MIN(id), name FROM advisors GROUP BY name HAVING COUNT(*) = 1 \
         ORDER BY MIN(id) DESC LIMIT 1",
    )
    .fetch_one(site.pool())
    .await
    .unwrap()
}

#[tokio::test]
async fn the_agent_finds_a_named_advisor_anywhere_through_the_search() {
    let (app, site) = app().await;
    let (id, name) = a_unique_advisor(&site).await;
    let mut student = common::Student::new(&app);
    let reply = student.say(&format!("帮我找一下叫{name}的老师")).await;
    assert!(
        reply
            .tool_calls
            .iter()
            .any(|c| c.params.to_string().contains(&format!("\"{id}\""))),
        "finding opens the page: {} {:?}",
        reply.voice_response,
        common::tools(&reply)
    );
    assert_eq!(
        student.page.selected_advisor.as_ref().map(|a| a.id.clone()),
        Some(id.to_string())
    );
    for phrasing in [
        format!("有没有一个叫{name}的导师"),
        format!("{name}老师怎么样"),
    ] {
        let mut student = common::Student::new(&app);
        let reply = student.say(&phrasing).await;
        let opened = reply
            .tool_calls
            .iter()
            .any(|c| c.params.to_string().contains(&format!("\"{id}\"")));
        assert!(
            opened
                || (reply.voice_response.contains(&name)
                    && !reply.voice_response.contains("没有找到")
                    && !reply.voice_response.contains("好几位")),
            "{phrasing}: {} {:?}",
            reply.voice_response,
            common::tools(&reply)
        );
    }
}

#[tokio::test]
async fn a_surname_is_read_from_one_index_in_result_order() {
    let (app, site) = app().await;
    let plan = server::store::search::head_plan(site.pool()).await.unwrap();
    assert!(plan.uses("advisors_head") && !plan.sorts(), "{plan:?}");
    let v = search(&app, "张").await;
    let hits = v["advisors"].as_array().unwrap();
    assert!(!hits.is_empty());
    assert!(hits
        .iter()
        .all(|a| a["name"].as_str().unwrap().starts_with('张')));
    // One Latin letter names nobody; two already do.
    assert!(search(&app, "z").await["advisors"]
        .as_array()
        .unwrap()
        .is_empty());
    assert!(!search(&app, "zs").await["advisors"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn an_overlong_search_on_the_page_is_a_400_that_says_why() {
    let (app, _) = app().await;
    let long = "张".repeat(60);
    let r = get(&app, &encode_uri(&format!("/search?q={long}"))).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.body.contains("搜索内容太长了"), "no reason given");
    assert!(!r.body.contains("没有找到"));
}
