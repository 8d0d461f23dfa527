//! The name search's index of heads (`store::search`): each head read from
//! one index range without sorting, an advisor written in a transaction
//! found as soon as it commits, and a review count moved by a write moving
//! the search's order in the same transaction.

use crate::common;

use serde_json::Value;

use common::{app, encode_uri, get};

async fn search(app: &axum::Router, q: &str) -> Vec<(String, String, i64)> {
    let r = get(app, &encode_uri(&format!("/api/v1/search?q={q}"))).await;
    assert_eq!(r.status, axum::http::StatusCode::OK, "{}", r.body);
    let v: Value = r.json();
    v["advisors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["id"].as_str().unwrap().to_string(),
                a["matched"].as_str().unwrap().to_string(),
                a["review_count"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_head_is_read_from_one_index_in_result_order() {
    let (_, site) = app().await;
    let plan = server::store::search::heads_plan(site.pool())
        .await
        .unwrap();
    assert!(
        (plan.uses("PRIMARY KEY") || plan.uses("advisor_name_heads_order")) && !plan.sorts(),
        "{plan:?}"
    );
}

#[tokio::test]
async fn a_new_advisor_is_found_at_once_and_a_review_count_moves_the_order() {
    let (app, site) = app().await;
    let (school, major): (i64, i64) =
        sqlx::query_as("SELECT school_id, major_id FROM advisors ORDER BY id LIMIT 1")
            .fetch_one(site.pool())
            .await
            .unwrap();
    let mut tx = server::db::begin_write(site.pool()).await.unwrap();
    let id = server::store::roster::insert(
        &mut tx,
        &server::store::roster::Entry {
            name: "司马懿",
            title: "教授",
            school_id: school,
            major_id: major,
            directions: &[],
            bio: "",
        },
    )
    .await
    .unwrap();
    server::store::search::index_missing(&mut tx).await.unwrap();
    tx.commit().await.unwrap();
    for q in [
        "司马懿",
        "sima",
        "simayi",
        "si ma yi",
        "smy",
        "马懿",
        "mayi",
        "司ma",
    ] {
        let found = search(&app, q).await;
        assert!(
            found.iter().any(|(a, _, _)| *a == id.to_string()),
            "{q}: {found:?}"
        );
    }
    assert_eq!(search(&app, "simayi").await[0].1, "exact");

    // The last advisor listed for a surname in pinyin, given more reviews
    // than the first, is listed first.
    let listed = search(&app, "zhang").await;
    assert!(listed.len() > 2, "{listed:?}");
    assert!(
        listed
            .windows(2)
            .all(|w| w[0].1 != w[1].1 || w[0].2 >= w[1].2),
        "{listed:?}"
    );
    let (last, _, _) = listed
        .iter()
        .rev()
        .find(|(_, matched, _)| *matched == listed[0].1)
        .unwrap()
        .clone();
    let mut tx = server::db::begin_write(site.pool()).await.unwrap();
    sqlx::query("UPDATE advisors SET review_count = review_count + $1 WHERE id = $2")
        .bind(listed[0].2 + 1)
        .bind(last.parse::<i64>().unwrap())
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(search(&app, "zhang").await[0].0, last);
}
