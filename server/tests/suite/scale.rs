//! Reads that do not grow with the data: rankings, ranks and a
//! pair's statistics read stored scores through one index per sort, and
//! stay exactly what scoring every advisor would give.

use crate::common;

use app::model::{RankingView, SortKey};
use server::ranking;
use server::site::{stats_of, Site};
use server::store::{self, scores};

const SORTS: [SortKey; 6] = SortKey::ALL;

/// Every (school, major) with advisors, by name.
async fn pairs(site: &Site) -> Vec<(i64, i64, String, String)> {
    sqlx::query_as(
        "SELECT DISTINCT a.school_id, a.major_id, s.name, m.name FROM advisors a \
         JOIN schools s ON s.id = a.school_id JOIN majors m ON m.id = a.major_id \
         ORDER BY a.school_id, a.major_id",
    )
    .fetch_all(site.pool())
    .await
    .unwrap()
}

/// The ids of a pair in ranking order as scoring every advisor in Rust
/// gives it, under the priors the stored scores use.
async fn reference_order(site: &Site, school: i64, major: i64, sort: SortKey) -> Vec<String> {
    let priors = site.priors().await.unwrap();
    let mut rows = store::advisors_in(site.pool(), school, major)
        .await
        .unwrap();
    rows.sort_by(|a, b| {
        ranking::compare(
            (a.sort_value(&priors, sort), a.review_count, a.id),
            (b.sort_value(&priors, sort), b.review_count, b.id),
        )
    });
    rows.iter().map(|r| r.id.to_string()).collect()
}

async fn ranked_ids(site: &Site, school: &str, major: &str, sort: SortKey) -> Vec<String> {
    let mut ids = Vec::new();
    for page in 1.. {
        let RankingView::Ranking(p) = site.ranking(school, major, sort, page).await.unwrap() else {
            panic!("{school}/{major} should rank");
        };
        if p.advisors.is_empty() {
            break;
        }
        for (i, a) in p.advisors.iter().enumerate() {
            assert_eq!(
                a.rank as usize,
                ids.len() + 1,
                "{school}/{major} page {page} row {i}"
            );
            ids.push(a.id.clone());
        }
        if ids.len() as u64 >= p.total {
            break;
        }
    }
    ids
}

/// Pushes the site-wide prior past the drift bound with one-sided reviews
/// written through the one aggregate write path, the way every review,
/// edit, deletion and moderation writes.
async fn write_reviews(site: &Site, advisor_ids: &[i64], n: usize, score: u8) {
    for k in 0..n {
        let advisor = advisor_ids[k % advisor_ids.len()];
        let review = app::model::NewReview {
            ratings: app::model::Ratings {
                academic: score,
                funding: score,
                relationship: score,
                prospects: score,
                overall: score,
            },
            tags: vec!["严格".into()],
            text: format!("第{k}条测试评价：组会要求很多，每周都要汇报进展。"),
            relation: "在读".into(),
            recommend: None,
        };
        let mut tx = server::db::begin_write(site.pool()).await.unwrap();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO reviews (advisor_id, academic, funding, relationship, prospects, overall, \
             text, relation, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, '在读', '2026-11-01') RETURNING id",
        )
        .bind(advisor)
        .bind(score as i64)
        .bind(score as i64)
        .bind(score as i64)
        .bind(score as i64)
        .bind(score as i64)
        .bind(&review.text)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        server::reviews::submit::write_tags(&mut tx, id, &review.tags)
            .await
            .unwrap();
        server::reviews::submit::add_to_aggregates(&mut tx, advisor, &review, 1)
            .await
            .unwrap();
        tx.commit().await.unwrap();
    }
}

#[tokio::test]
async fn every_ranking_page_is_the_order_scoring_everyone_gives() {
    let site = common::site().await;
    let mut checked = 0;
    for (s, m, school, major) in pairs(&site).await {
        for sort in SORTS {
            let expected = reference_order(&site, s, m, sort).await;
            assert_eq!(
                ranked_ids(&site, &school, &major, sort).await,
                expected,
                "{school}/{major} by {sort:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 600, "only {checked} rankings");
}

#[tokio::test]
async fn an_advisors_rank_is_its_place_in_the_ranking() {
    let site = common::site().await;
    for (s, m, _, _) in pairs(&site).await.into_iter().step_by(7) {
        let order = reference_order(&site, s, m, SortKey::Overall).await;
        for (i, id) in order.iter().enumerate() {
            let d = site.advisor_detail(id).await.unwrap().unwrap();
            assert_eq!(
                (d.rank as usize, d.rank_total as usize),
                (i + 1, order.len()),
                "{id}"
            );
        }
    }
}

#[tokio::test]
async fn a_pairs_statistics_from_sums_equal_the_reference() {
    let site = common::site().await;
    for (s, m, school, major) in pairs(&site).await {
        let rows = store::advisors_in(site.pool(), s, m).await.unwrap();
        let stats = site
            .ranking_stats_by_name(&school, &major)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(stats, stats_of(&rows), "{school}/{major}");
    }
}

#[tokio::test]
async fn stored_scores_follow_every_write_and_the_prior_stays_within_the_bound() {
    let site = common::site().await;
    let mut conn = site.pool().acquire().await.unwrap();
    let before = scores::stored_prior(&mut *conn).await.unwrap();
    drop(conn);
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM advisors ORDER BY id LIMIT 40")
        .fetch_all(site.pool())
        .await
        .unwrap();
    // A few reviews move the prior less than the bound: only the advisors
    // written to are refreshed, the prior is kept.
    write_reviews(&site, &ids, 3, 1).await;
    let mut conn = site.pool().acquire().await.unwrap();
    assert_eq!(scores::stored_prior(&mut *conn).await.unwrap(), before);
    assert!(scores::score_drift(&mut conn, 5).await.unwrap().is_empty());
    drop(conn);
    // Hundreds of one-star reviews move it past the bound: every score is
    // recomputed under the new prior, in the writer's transaction.
    write_reviews(&site, &ids, 400, 1).await;
    let mut conn = site.pool().acquire().await.unwrap();
    let after = scores::stored_prior(&mut *conn).await.unwrap();
    assert!(after.mean_overall < before.mean_overall - scores::PRIOR_DRIFT);
    let live = scores::StoredPrior::live(&store::site_stats(&mut *conn).await.unwrap());
    assert!(
        after.distance(&live) <= scores::PRIOR_DRIFT,
        "{after:?} / {live:?}"
    );
    assert!(scores::score_drift(&mut conn, 5).await.unwrap().is_empty());
    drop(conn);
    // And the rankings are still the order scoring everyone gives.
    let (s, m, school, major) = pairs(&site).await.into_iter().next().unwrap();
    for sort in SORTS {
        assert_eq!(
            ranked_ids(&site, &school, &major, sort).await,
            reference_order(&site, s, m, sort).await
        );
    }
    common::assert_aggregates_match_recomputation(&site).await;
}

#[tokio::test]
async fn a_wrong_stored_score_is_reported_by_the_drift_check() {
    let site = common::site().await;
    sqlx::query("UPDATE advisors SET score_funding = score_funding + 0.5 WHERE id = 3")
        .execute(site.pool())
        .await
        .unwrap();
    let mut conn = site.pool().acquire().await.unwrap();
    let drift = store::aggregate_drift(&mut conn, 5).await.unwrap();
    assert!(
        drift.iter().any(|l| l.starts_with("advisor 3 ")),
        "{drift:?}"
    );
    // The check repairs as it recomputes.
    assert!(store::aggregate_drift(&mut conn, 5)
        .await
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn every_sort_reads_one_index_without_sorting() {
    let site = common::site().await;
    for sort in SORTS {
        let plan = store::rankings::page_plan(site.pool(), sort).await.unwrap();
        assert!(
            plan.uses("advisors_rank_") && !plan.sorts(),
            "{sort:?}: {plan:?}"
        );
    }
}

#[tokio::test]
async fn a_cards_top_tags_are_one_index_seek_per_advisor() {
    let site = common::site().await;
    let plan = store::top_tags_plan(site.pool()).await.unwrap();
    assert!(plan.uses("advisor_tags_top") && !plan.sorts(), "{plan:?}");
    // The same tags as counting them all: most frequent first, then by tag.
    let ids: Vec<i64> = (1..=30).collect();
    let top = store::top_tags_of(site.pool(), &ids, 3).await.unwrap();
    for id in ids {
        let mut all: Vec<(String, i64)> =
            sqlx::query_as("SELECT tag, count FROM advisor_tags WHERE advisor_id = $1")
                .bind(id)
                .fetch_all(site.pool())
                .await
                .unwrap();
        all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        all.truncate(3);
        let got: Vec<(String, i64)> = top
            .get(&id)
            .map(|t| t.iter().map(|t| (t.tag.clone(), t.count)).collect())
            .unwrap_or_default();
        assert_eq!(got, all, "advisor {id}");
    }
}

#[tokio::test]
async fn the_overview_names_its_advisors_by_one_index_seek_each() {
    let site = common::site().await;
    for plan in store::rankings::overview_plans(site.pool()).await.unwrap() {
        assert!(
            (plan.uses("advisors_best_") || plan.uses("advisors_most_reviewed")) && !plan.sorts(),
            "{plan:?}"
        );
    }
}

#[tokio::test]
async fn pair_sums_follow_advisors_added_moved_and_removed() {
    let site = common::site().await;
    sqlx::query(
        "INSERT INTO advisors (id, name, title, school_id, major_id, bio, review_count, sum_overall, sum_prospects, hist_4) \
         VALUES (900001, '新导师', '教授', 1, 1, '', 2, 8, 7, 2)",
    )
    .execute(site.pool())
    .await
    .unwrap();
    sqlx::query("UPDATE advisors SET major_id = 2 WHERE id = 1")
        .execute(site.pool())
        .await
        .unwrap();
    sqlx::query("DELETE FROM advisors WHERE id = 2")
        .execute(site.pool())
        .await
        .unwrap();
    let mut conn = site.pool().acquire().await.unwrap();
    let kept = store::aggregate_snapshot(&mut conn).await.unwrap();
    let pairs_kept: Vec<&String> = kept.iter().filter(|l| l.starts_with("pair ")).collect();
    // The inserted advisor's sums disagree with its (absent) reviews, so
    // compare the pair lines against a recomputation of pair_stats alone.
    let recomputed: Vec<(i64, i64, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT school_id, major_id, COUNT(*), CAST(SUM(review_count) AS BIGINT), CAST(SUM(sum_overall) AS BIGINT), \
                CAST(SUM(sum_prospects) AS BIGINT) \
         FROM advisors GROUP BY school_id, major_id ORDER BY school_id, major_id",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    assert_eq!(pairs_kept.len(), recomputed.len());
    for (line, (s, m, n, r, o, p)) in pairs_kept.iter().zip(&recomputed) {
        assert!(
            line.starts_with(&format!("pair ({s}, {m}, {n}, {r}, {o}, {p},")),
            "{line}"
        );
    }
}

#[tokio::test]
async fn the_demo_grown_to_scale_is_consistent() {
    let url = common::empty_database("scale");
    let pool = server::db::connect(&url).await.unwrap();
    server::db::migrate(&pool).await.unwrap();
    let schema = store::dataset::load_schema(&pool).await.unwrap();
    assert!(schema.len() > 10, "{schema:?}");
    let (advisors, reviews) = server::demo::seed_at_scale(&pool, 9_000, 40_000)
        .await
        .unwrap();
    assert_eq!((advisors, reviews), (9_000, 40_000));
    // The load set the tables' indexes and triggers aside while it wrote,
    // and put every one back.
    assert_eq!(store::dataset::load_schema(&pool).await.unwrap(), schema);
    // A database with data is refused, and left as it was.
    assert!(matches!(
        server::demo::seed_at_scale(&pool, 8_000, 50_000).await,
        Err(server::demo::SeedError::NotEmpty)
    ));
    assert_eq!(store::advisor_total(&pool).await.unwrap(), 9_000);
    let site = Site::load(pool.clone()).await.unwrap();
    let (school, major) = server::demo::scale::BIG_PAIR;
    let RankingView::Ranking(page) = site
        .ranking(school, major, SortKey::Overall, 3)
        .await
        .unwrap()
    else {
        panic!("the big pair ranks");
    };
    assert!(
        page.total as usize >= server::demo::scale::BIG_PAIR_ADVISORS,
        "{}",
        page.total
    );
    assert_eq!(page.advisors[0].rank, 41);
    let mut conn = pool.acquire().await.unwrap();
    let drift = store::aggregate_drift(&mut conn, 3).await.unwrap();
    assert!(drift.is_empty(), "{drift:?}");
    drop(conn);
    pool.close().await;
}
