//! Advisors side by side (`Site::compare`, `GET /api/v1/compare`) and the
//! statistics of a ranking (`Site::ranking_stats`, the `stats` of
//! `GET /api/v1/advisors`): order, repeats, every bad input answering 4xx in
//! Chinese, and statistics that agree with the reviews they summarise.

use crate::common;

use std::collections::HashMap;

use axum::http::StatusCode;
use common::{app, get, has_chinese};
use serde_json::Value;

use app::model::{RankingStats, SortKey};
use server::site::Site;

const PKU_CS: &str = "/api/v1/advisors?school=北京大学&major=计算机科学与技术";

/// The ids and names of the ranking of 北京大学 / 计算机科学与技术, in order.
async fn pku_cs(app: &axum::Router) -> Vec<(String, String)> {
    let r = get(app, PKU_CS).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.json()["advisors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["id"].as_str().unwrap().to_string(),
                a["name"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Four advisors of the demo data: the three of 北京大学 / 计算机科学与技术
/// and the first of another ranking.
async fn four_advisors(app: &axum::Router) -> Vec<(String, String)> {
    let mut advisors = pku_cs(app).await;
    assert!(advisors.len() >= 2, "{advisors:?}");
    let r = get(
        app,
        "/api/v1/advisors?school=清华大学&major=计算机科学与技术",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    for a in r.json()["advisors"].as_array().unwrap() {
        if advisors.len() == 4 {
            break;
        }
        advisors.push((
            a["id"].as_str().unwrap().to_string(),
            a["name"].as_str().unwrap().to_string(),
        ));
    }
    assert_eq!(advisors.len(), 4);
    advisors
}

fn ids_of(comparison: &Value) -> Vec<String> {
    comparison["advisors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap().to_string())
        .collect()
}

fn assert_error(r: &common::Reply, status: StatusCode, code: &str) -> String {
    assert_eq!(r.status, status, "{}", r.body);
    let body = r.json();
    assert_eq!(body["error"]["code"], code, "{}", r.body);
    assert_eq!(body["error"]["field"], "ids", "{}", r.body);
    let message = body["error"]["message"].as_str().unwrap().to_string();
    assert!(
        has_chinese(&message),
        "message should be Chinese: {message}"
    );
    message
}

#[tokio::test]
async fn two_advisors_compare_in_the_order_given_with_their_details() {
    let (app, _) = app().await;
    let advisors = pku_cs(&app).await;
    let (first, second) = (&advisors[0].0, &advisors[1].0);

    let r = get(&app, &format!("/api/v1/compare?ids={second},{first}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let body = r.json();
    assert_eq!(ids_of(&body), vec![second.clone(), first.clone()]);
    // Each advisor is exactly what its detail page shows.
    for (i, id) in [second, first].into_iter().enumerate() {
        let detail = get(&app, &format!("/api/v1/advisors/{id}")).await.json();
        assert_eq!(body["advisors"][i], detail, "{id}");
    }
}

#[tokio::test]
async fn four_advisors_from_different_rankings_compare_in_order() {
    let (app, site) = app().await;
    let advisors = four_advisors(&app).await;
    let ids: Vec<String> = advisors.iter().rev().map(|(id, _)| id.clone()).collect();

    let r = get(&app, &format!("/api/v1/compare?ids={}", ids.join(","))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(ids_of(&r.json()), ids);

    // The agent calls the same method the endpoint does.
    let comparison = site.compare(&ids).await.unwrap();
    let names: Vec<&str> = comparison
        .advisors
        .iter()
        .map(|d| d.name.as_str())
        .collect();
    let expected: Vec<&str> = advisors.iter().rev().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, expected);
    assert_eq!(comparison.advisors[3].school, "北京大学");
    assert_eq!(comparison.advisors[0].school, "清华大学");
}

#[tokio::test]
async fn repeated_ids_count_once_and_keep_their_first_place() {
    let (app, _) = app().await;
    let advisors = four_advisors(&app).await;
    let (a, b, c) = (&advisors[0].0, &advisors[1].0, &advisors[2].0);

    let r = get(&app, &format!("/api/v1/compare?ids={b},{a},{b},{a}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(ids_of(&r.json()), vec![b.clone(), a.clone()]);

    // Five ids naming four advisors are four advisors.
    let d = &advisors[3].0;
    let r = get(&app, &format!("/api/v1/compare?ids={a},{b},{c},{d},{a}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(ids_of(&r.json()).len(), 4);

    // Chinese commas, spaces and a trailing comma are how people type lists.
    let r = get(&app, &format!("/api/v1/compare?ids={a}，{c}, ")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(ids_of(&r.json()), vec![a.clone(), c.clone()]);

    // One advisor twice is one advisor: nothing to compare.
    let message = assert_error(
        &get(&app, &format!("/api/v1/compare?ids={a},{a}")).await,
        StatusCode::BAD_REQUEST,
        "invalid_ids",
    );
    assert_eq!(message, "请选择 2 到 4 位导师进行对比。");
}

#[tokio::test]
async fn bad_compare_requests_answer_4xx_in_chinese() {
    let (app, site) = app().await;
    let advisors = four_advisors(&app).await;
    let a = &advisors[0].0;

    // Too few or too many advisors, or none at all.
    let many: Vec<String> = sqlx::query_scalar("SELECT id FROM advisors ORDER BY id LIMIT 5")
        .fetch_all(site.pool())
        .await
        .unwrap()
        .into_iter()
        .map(|id: i64| id.to_string())
        .collect();
    assert_eq!(many.len(), 5);
    for uri in [
        format!("/api/v1/compare?ids={a}"),
        format!("/api/v1/compare?ids={}", many.join(",")),
        "/api/v1/compare?ids=".to_string(),
        "/api/v1/compare?ids=,,".to_string(),
        "/api/v1/compare".to_string(),
    ] {
        let message = assert_error(
            &get(&app, &uri).await,
            StatusCode::BAD_REQUEST,
            "invalid_ids",
        );
        assert_eq!(message, "请选择 2 到 4 位导师进行对比。", "{uri}");
    }

    // An id that is not a positive integer is named in the message.
    for bad in ["abc", "0", "-3", "1.5", "１２"] {
        let message = assert_error(
            &get(&app, &format!("/api/v1/compare?ids={a},{bad}")).await,
            StatusCode::BAD_REQUEST,
            "invalid_id",
        );
        assert!(message.contains(bad), "{message}");
    }
    let message = assert_error(
        &get(&app, "/api/v1/compare?ids=abc").await,
        StatusCode::BAD_REQUEST,
        "invalid_id",
    );
    assert!(message.contains("abc"), "{message}");
    // A garbage id is not echoed whole.
    let long = "x".repeat(500);
    let message = assert_error(
        &get(&app, &format!("/api/v1/compare?ids={a},{long}")).await,
        StatusCode::BAD_REQUEST,
        "invalid_id",
    );
    assert!(message.chars().count() < 60, "{message}");

    // An id no advisor has: 404, naming it.
    let message = assert_error(
        &get(&app, &format!("/api/v1/compare?ids={a},99999999")).await,
        StatusCode::NOT_FOUND,
        "unknown_advisor",
    );
    assert!(message.contains("99999999"), "{message}");

    // Percent-escapes that are not UTF-8, as everywhere in the API.
    let r = get(&app, "/api/v1/compare?ids=%FF%FE").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert_eq!(r.json()["error"]["code"], "invalid_query");
}

/// One advisor's published reviews, summed straight from the reviews table.
#[derive(sqlx::FromRow)]
struct Sums {
    advisor_id: i64,
    name: String,
    n: i64,
    overall: i64,
    academic: i64,
    funding: i64,
    relationship: i64,
    prospects: i64,
    h1: i64,
    h2: i64,
    h3: i64,
    h4: i64,
    h5: i64,
}

/// Every advisor's sums, read from the reviews table alone, independently of
/// the aggregate columns the site reads.
async fn review_sums(site: &Site) -> Vec<Sums> {
    sqlx::query_as(
        "SELECT r.advisor_id, a.name, COUNT(*) n, CAST(SUM(r.overall) AS BIGINT) overall, CAST(SUM(r.academic) AS BIGINT) academic, \
                CAST(SUM(r.funding) AS BIGINT) funding, CAST(SUM(r.relationship) AS BIGINT) relationship, CAST(SUM(r.prospects) AS BIGINT) prospects, \
                CAST(SUM(CASE WHEN r.overall = 1 THEN 1 ELSE 0 END) AS BIGINT) h1, CAST(SUM(CASE WHEN r.overall = 2 THEN 1 ELSE 0 END) AS BIGINT) h2, CAST(SUM(CASE WHEN r.overall = 3 THEN 1 ELSE 0 END) AS BIGINT) h3, \
                CAST(SUM(CASE WHEN r.overall = 4 THEN 1 ELSE 0 END) AS BIGINT) h4, CAST(SUM(CASE WHEN r.overall = 5 THEN 1 ELSE 0 END) AS BIGINT) h5 \
         FROM reviews r JOIN advisors a ON a.id = r.advisor_id \
         WHERE r.status = 'published' GROUP BY r.advisor_id, a.name",
    )
    .fetch_all(site.pool())
    .await
    .unwrap()
}

/// The statistics of the advisors `ids`, recomputed from their review sums.
fn recomputed(sums: &[Sums], ids: &[i64]) -> RankingStats {
    let rows: Vec<&Sums> = sums
        .iter()
        .filter(|r| ids.contains(&r.advisor_id))
        .collect();
    let reviews: i64 = rows.iter().map(|r| r.n).sum();
    let overall: i64 = rows.iter().map(|r| r.overall).sum();
    let round1 = |x: f64| (x * 10.0).round() / 10.0;
    let histogram = rows.iter().fold([0i64; 5], |h, r| {
        [
            h[0] + r.h1,
            h[1] + r.h2,
            h[2] + r.h3,
            h[3] + r.h4,
            h[4] + r.h5,
        ]
    });
    let reference = |r: &Sums, value: f64| app::model::AdvisorRef {
        id: r.advisor_id.to_string(),
        name: r.name.clone(),
        value,
    };
    let most_reviewed = rows
        .iter()
        .max_by(|a, b| {
            a.n.cmp(&b.n)
                .then_with(|| b.name.cmp(&a.name))
                .then(b.advisor_id.cmp(&a.advisor_id))
        })
        .map(|r| reference(r, r.n as f64));
    type Column = fn(&Sums) -> i64;
    let dimensions: [(SortKey, Column); 4] = [
        (SortKey::Academic, |r| r.academic),
        (SortKey::Funding, |r| r.funding),
        (SortKey::Relationship, |r| r.relationship),
        (SortKey::Prospects, |r| r.prospects),
    ];
    let best = dimensions
        .iter()
        .filter_map(|&(key, sum)| {
            let mut rated: Vec<(&Sums, f64)> = rows
                .iter()
                .filter(|r| r.n >= 3)
                .map(|r| (*r, sum(r) as f64 / r.n as f64))
                .collect();
            rated.sort_by(|(a, x), (b, y)| {
                y.partial_cmp(x)
                    .unwrap()
                    .then(b.n.cmp(&a.n))
                    .then_with(|| a.name.cmp(&b.name))
                    .then(a.advisor_id.cmp(&b.advisor_id))
            });
            rated.first().map(|&(r, avg)| app::model::DimensionBest {
                dimension: key.as_param().to_string(),
                label: key.label().to_string(),
                advisor: reference(r, round1(avg)),
            })
        })
        .collect();
    RankingStats {
        advisors: ids.len() as u64,
        reviews,
        average: (reviews > 0).then(|| round1(overall as f64 / reviews as f64)),
        histogram,
        most_reviewed,
        best,
    }
}

async fn advisor_ids(site: &Site, school_id: i64, major_id: i64) -> Vec<i64> {
    sqlx::query_scalar("SELECT id FROM advisors WHERE school_id = $1 AND major_id = $2")
        .bind(school_id)
        .bind(major_id)
        .fetch_all(site.pool())
        .await
        .unwrap()
}

#[tokio::test]
async fn ranking_stats_agree_with_the_reviews_of_pku_computer_science() {
    let (app, site) = app().await;
    let (school, major) = pku_cs_entries(&site);
    let stats = site.ranking_stats(school, major).await.unwrap();
    let ids = advisor_ids(&site, school.id, major.id).await;
    assert_eq!(stats, recomputed(&review_sums(&site).await, &ids));

    // The demo's examples: 张三 has the most reviews and the best marks.
    assert_eq!(stats.most_reviewed.as_ref().unwrap().name, "张三");
    let dimensions: Vec<(&str, &str)> = stats
        .best
        .iter()
        .map(|b| (b.dimension.as_str(), b.label.as_str()))
        .collect();
    assert_eq!(
        dimensions,
        vec![
            ("academic", "学术水平"),
            ("funding", "科研经费"),
            ("relationship", "师生关系"),
            ("prospects", "学生前途"),
        ]
    );
    assert_eq!(stats.histogram.iter().sum::<i64>(), stats.reviews);

    // The JSON ranking carries the same statistics on every page and sort,
    // and the names may be aliases.
    for uri in [
        PKU_CS.to_string(),
        "/api/v1/advisors?school=北大&major=计算机&sort=funding&page=2".to_string(),
    ] {
        let r = get(&app, &uri).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        let json: RankingStats = serde_json::from_value(r.json()["stats"].clone()).unwrap();
        assert_eq!(json, stats, "{uri}");
    }
    assert_eq!(
        site.ranking_stats_by_name("北大", "计算机").await.unwrap(),
        Some(stats)
    );
}

#[tokio::test]
async fn ranking_stats_agree_with_the_reviews_in_every_ranking() {
    let site = common::site().await;
    let groups: Vec<(i64, i64)> =
        sqlx::query_as("SELECT DISTINCT school_id, major_id FROM advisors")
            .fetch_all(site.pool())
            .await
            .unwrap();
    assert!(groups.len() > 100, "only {} rankings", groups.len());
    // One pass over the reviews, then every group checked against it.
    let everyone: Vec<i64> = sqlx::query_scalar("SELECT id FROM advisors")
        .fetch_all(site.pool())
        .await
        .unwrap();
    let sums = review_sums(&site).await;
    let all = recomputed(&sums, &everyone);
    let total: i64 = sqlx::query_scalar("SELECT review_count FROM site_stats")
        .fetch_one(site.pool())
        .await
        .unwrap();
    assert_eq!(all.reviews, total);

    let mut by_group: HashMap<(i64, i64), Vec<i64>> = HashMap::new();
    let rows: Vec<(i64, i64, i64)> = sqlx::query_as("SELECT id, school_id, major_id FROM advisors")
        .fetch_all(site.pool())
        .await
        .unwrap();
    for (id, s, m) in rows {
        by_group.entry((s, m)).or_default().push(id);
    }
    let mut without_best = 0;
    for (s, m) in groups {
        let school = site.catalog().school_by_id(s).unwrap();
        let major = site.catalog().major_by_id(m).unwrap();
        let stats = site.ranking_stats(school, major).await.unwrap();
        assert_eq!(
            stats,
            recomputed(&sums, &by_group[&(s, m)]),
            "{} / {}",
            school.name,
            major.name
        );
        if stats.best.is_empty() {
            without_best += 1;
        }
    }
    // Most rankings have someone with three reviews.
    assert!(without_best * 10 < by_group.len(), "{without_best}");
}

#[tokio::test]
async fn best_per_dimension_waits_for_three_reviews() {
    let site = common::site().await;
    let (school, major) = pku_cs_entries(&site);
    let before = site.ranking_stats(school, major).await.unwrap();
    assert!(
        before.best.iter().all(|b| b.advisor.value < 5.0),
        "{before:?}"
    );

    // A new advisor with two perfect reviews: 5.0 everywhere, yet not best.
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO advisors (name, title, school_id, major_id, bio) \
         VALUES ('满分新人', '讲师', $1, $2, '') RETURNING id",
    )
    .bind(school.id)
    .bind(major.id)
    .fetch_one(site.pool())
    .await
    .unwrap();
    let perfect_review = || async {
        sqlx::query(
            "INSERT INTO reviews (advisor_id, academic, funding, relationship, prospects, overall, \
                                  text, relation, created_at) \
             VALUES ($1, 5, 5, 5, 5, 5, '非常好', '在读', '2025-01-01')",
        )
        .bind(id)
        .execute(site.pool())
        .await
        .unwrap();
        let mut conn = site.pool().acquire().await.unwrap();
        server::store::rebuild_aggregates(&mut conn).await.unwrap();
    };
    perfect_review().await;
    perfect_review().await;
    let two = site.ranking_stats(school, major).await.unwrap();
    assert_eq!(two.advisors, before.advisors + 1);
    assert_eq!(two.reviews, before.reviews + 2);
    assert_eq!(two.histogram[4], before.histogram[4] + 2);
    assert_eq!(two.best, before.best, "two reviews must not make the best");

    // The third review makes it count: now it leads every dimension.
    perfect_review().await;
    let three = site.ranking_stats(school, major).await.unwrap();
    assert_eq!(three.best.len(), 4);
    for b in &three.best {
        assert_eq!(
            (b.advisor.id.as_str(), b.advisor.value),
            (id.to_string().as_str(), 5.0),
            "{}",
            b.dimension
        );
    }
    let ids = advisor_ids(&site, school.id, major.id).await;
    assert_eq!(three, recomputed(&review_sums(&site).await, &ids));
}

#[tokio::test]
async fn ranking_stats_by_name_resolve_as_the_ranking_does() {
    let site = common::site().await;
    for (school, major) in [
        ("霍格沃茨", "魔法"),
        ("交大", "计算机"),
        ("北大", "魔法学"),
        ("北大", ""),
        ("", "计算机"),
    ] {
        assert_eq!(
            site.ranking_stats_by_name(school, major).await.unwrap(),
            None,
            "{school} / {major}"
        );
    }
    let stats = site
        .ranking_stats_by_name("上交", "软工")
        .await
        .unwrap()
        .expect("上海交通大学 offers 软件工程");
    assert!(stats.advisors > 0);
}

/// 北京大学 · 计算机科学与技术 as catalog entries.
fn pku_cs_entries(
    site: &server::site::Site,
) -> (&server::catalog::SchoolEntry, &server::catalog::MajorEntry) {
    let school = site.catalog().resolve_school("北京大学").found().unwrap();
    let major = site
        .catalog()
        .resolve_major_at(school.id, "计算机科学与技术")
        .found()
        .unwrap();
    (school, major)
}
