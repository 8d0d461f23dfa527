//! The read API over the demo data: shapes, ranking order, aliases, paging,
//! and every kind of bad parameter answering 4xx with a Chinese message.

use crate::common;

use axum::http::StatusCode;
use common::{app, get, has_chinese};
use serde_json::Value;

async fn zhang_san_id(app: &axum::Router) -> String {
    let r = get(
        app,
        "/api/v1/advisors?school=北京大学&major=计算机科学与技术",
    )
    .await;
    let body = r.json();
    body["advisors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "张三")
        .map(|a| a["id"].as_str().unwrap().to_string())
        .expect("张三 is in 北京大学 / 计算机科学与技术")
}

fn assert_error(r: &common::Reply, status: StatusCode, code: &str) {
    assert_eq!(r.status, status, "{}", r.body);
    let body = r.json();
    assert_eq!(body["error"]["code"], code, "{}", r.body);
    let message = body["error"]["message"].as_str().unwrap();
    assert!(has_chinese(message), "message should be Chinese: {message}");
}

#[tokio::test]
async fn schools_come_with_their_aliases() {
    let (app, _) = app().await;
    let r = get(&app, "/api/v1/schools").await;
    assert_eq!(r.status, StatusCode::OK);
    let schools = r.json()["schools"].as_array().unwrap().clone();
    assert!(schools.len() >= 30, "{} schools", schools.len());
    let pku = schools.iter().find(|s| s["name"] == "北京大学").unwrap();
    assert!(pku["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "北大"));
    assert!(pku["advisor_count"].as_i64().unwrap() > 0);
}

#[tokio::test]
async fn majors_by_school_alias_and_site_wide() {
    let (app, _) = app().await;
    let r = get(&app, "/api/v1/majors?school=北大").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let body = r.json();
    assert_eq!(body["school"], "北京大学");
    let names: Vec<&str> = body["majors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"计算机科学与技术"));

    let all = get(&app, "/api/v1/majors").await.json();
    assert!(all["majors"].as_array().unwrap().len() >= 20);
    assert_eq!(all["school"], Value::Null);

    assert_error(
        &get(&app, "/api/v1/majors?school=交大").await,
        StatusCode::BAD_REQUEST,
        "ambiguous_school",
    );
    assert_error(
        &get(&app, "/api/v1/majors?school=霍格沃茨").await,
        StatusCode::NOT_FOUND,
        "unknown_school",
    );
}

#[tokio::test]
async fn the_seed_example_ranking_resolves_aliases_and_contains_its_advisors() {
    let (app, _) = app().await;
    let r = get(&app, "/api/v1/advisors?school=北大&major=计算机").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let page = r.json();
    assert_eq!(page["school"], "北京大学");
    assert_eq!(page["major"], "计算机科学与技术");
    let advisors = page["advisors"].as_array().unwrap();
    let zhang = advisors.iter().find(|a| a["name"] == "张三").unwrap();
    assert_eq!(zhang["title"], "教授");
    let rating = zhang["rating"].as_f64().unwrap();
    assert!((4.4..=4.6).contains(&rating), "张三 rated {rating}");
    let li = advisors.iter().find(|a| a["name"] == "李四").unwrap();
    assert_eq!(li["title"], "副教授");
    let rating = li["rating"].as_f64().unwrap();
    assert!((4.2..=4.4).contains(&rating), "李四 rated {rating}");

    // Ranks are 1..n and scores never increase down the list.
    for (i, a) in advisors.iter().enumerate() {
        assert_eq!(a["rank"].as_u64().unwrap(), i as u64 + 1);
    }
    let scores: Vec<f64> = advisors
        .iter()
        .map(|a| a["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(page["total"].as_u64().unwrap() as usize >= advisors.len());
}

#[tokio::test]
async fn sorting_by_a_dimension_and_by_review_count() {
    let (app, _) = app().await;
    let by_reviews = get(
        &app,
        "/api/v1/advisors?school=北京大学&major=计算机科学与技术&sort=reviews",
    )
    .await
    .json();
    let counts: Vec<i64> = by_reviews["advisors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["review_count"].as_i64().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    assert_eq!(by_reviews["sort"], "reviews");

    let by_funding = get(
        &app,
        "/api/v1/advisors?school=北京大学&major=计算机科学与技术&sort=funding",
    )
    .await;
    assert_eq!(by_funding.status, StatusCode::OK);
    assert_eq!(by_funding.json()["sort"], "funding");
}

#[tokio::test]
async fn bad_ranking_parameters_answer_4xx_in_chinese() {
    let (app, _) = app().await;
    let base = "/api/v1/advisors?school=北京大学&major=计算机科学与技术";
    assert_error(
        &get(&app, &format!("{base}&sort=bogus")).await,
        StatusCode::BAD_REQUEST,
        "invalid_sort",
    );
    for page in ["0", "abc", "-1", "99999999", "1.5"] {
        assert_error(
            &get(&app, &format!("{base}&page={page}")).await,
            StatusCode::BAD_REQUEST,
            "invalid_page",
        );
    }
    assert_error(
        &get(&app, "/api/v1/advisors?major=计算机").await,
        StatusCode::BAD_REQUEST,
        "missing_parameter",
    );
    assert_error(
        &get(&app, "/api/v1/advisors?school=北大").await,
        StatusCode::BAD_REQUEST,
        "missing_parameter",
    );
    assert_error(
        &get(&app, "/api/v1/advisors?school=交大&major=计算机").await,
        StatusCode::BAD_REQUEST,
        "ambiguous_school",
    );
    assert_error(
        &get(&app, "/api/v1/advisors?school=北大&major=魔法学").await,
        StatusCode::NOT_FOUND,
        "unknown_major",
    );
    assert_error(
        &get(&app, "/api/v1/advisors?school=霍格沃茨&major=魔法").await,
        StatusCode::NOT_FOUND,
        "unknown_school",
    );
    assert_error(
        &get(&app, "/api/v1/advisors?school=%FF%FE&major=x").await,
        StatusCode::BAD_REQUEST,
        "invalid_query",
    );
    assert_error(
        &get(&app, "/api/v1/no-such-thing").await,
        StatusCode::NOT_FOUND,
        "unknown_endpoint",
    );
}

#[tokio::test]
async fn a_page_past_the_end_is_empty_not_an_error() {
    let (app, _) = app().await;
    let r = get(
        &app,
        "/api/v1/advisors?school=北京大学&major=计算机科学与技术&page=50",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.json()["advisors"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn advisor_detail_has_consistent_aggregates() {
    let (app, _) = app().await;
    let id = zhang_san_id(&app).await;
    let r = get(&app, &format!("/api/v1/advisors/{id}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let d = r.json();
    assert_eq!(d["name"], "张三");
    assert_eq!(d["school"], "北京大学");
    assert!(d["directions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x == "机器学习"));
    let histogram: i64 = d["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .sum();
    assert_eq!(histogram, d["review_count"].as_i64().unwrap());
    assert!(d["rank"].as_u64().unwrap() >= 1);
    assert!(d["rank"].as_u64().unwrap() <= d["rank_total"].as_u64().unwrap());
    let overall = d["averages"]["overall"].as_f64().unwrap();
    assert!((4.4..=4.6).contains(&overall));
    assert!(d["tags"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["tag"] == "温和"));

    assert_error(
        &get(&app, "/api/v1/advisors/abc").await,
        StatusCode::BAD_REQUEST,
        "invalid_id",
    );
    assert_error(
        &get(&app, "/api/v1/advisors/0").await,
        StatusCode::BAD_REQUEST,
        "invalid_id",
    );
    assert_error(
        &get(&app, "/api/v1/advisors/99999999").await,
        StatusCode::NOT_FOUND,
        "unknown_advisor",
    );
}

#[tokio::test]
async fn reviews_are_paged_newest_first() {
    let (app, _) = app().await;
    let id = zhang_san_id(&app).await;
    let first = get(&app, &format!("/api/v1/advisors/{id}/reviews"))
        .await
        .json();
    let total = first["total"].as_u64().unwrap();
    let detail = get(&app, &format!("/api/v1/advisors/{id}")).await.json();
    assert_eq!(total as i64, detail["review_count"].as_i64().unwrap());
    let reviews = first["reviews"].as_array().unwrap();
    assert_eq!(reviews.len(), 10);
    let dates: Vec<&str> = reviews
        .iter()
        .map(|r| r["created_at"].as_str().unwrap())
        .collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]), "{dates:?}");
    for r in reviews {
        assert!(!r["text"].as_str().unwrap().is_empty());
        assert!(r["tags"].as_array().unwrap().len() <= 3);
    }
    let second = get(&app, &format!("/api/v1/advisors/{id}/reviews?page=2"))
        .await
        .json();
    assert_ne!(second["reviews"][0]["id"], first["reviews"][0]["id"]);
    let past = get(&app, &format!("/api/v1/advisors/{id}/reviews?page=999"))
        .await
        .json();
    assert!(past["reviews"].as_array().unwrap().is_empty());

    assert_error(
        &get(&app, &format!("/api/v1/advisors/{id}/reviews?page=x")).await,
        StatusCode::BAD_REQUEST,
        "invalid_page",
    );
    assert_error(
        &get(&app, "/api/v1/advisors/99999999/reviews").await,
        StatusCode::NOT_FOUND,
        "unknown_advisor",
    );
}
