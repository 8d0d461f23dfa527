//! The reads of a ranking, each bounded by what it returns rather than by
//! the size of the pair: a page is one range of the index of its sort
//! (`advisors_rank_*`, migration 0019), an advisor's rank is a count over
//! the part of that index above it, and a pair's statistics are sums over
//! the aggregate columns, never over reviews.

use sqlx::SqlitePool;

use app::model::SortKey;

use super::{AdvisorRow, ADVISOR_COLUMNS};

/// The ORDER BY of a sort: `ranking::compare`'s order (score, more reviews,
/// lower id), column for column the index of that sort.
fn order_by(sort: SortKey) -> &'static str {
    match sort {
        SortKey::Overall => "score_overall DESC, review_count DESC, id",
        SortKey::Academic => "score_academic DESC, review_count DESC, id",
        SortKey::Funding => "score_funding DESC, review_count DESC, id",
        SortKey::Relationship => "score_relationship DESC, review_count DESC, id",
        SortKey::Prospects => "score_prospects DESC, review_count DESC, id",
        SortKey::Reviews => "review_count DESC, id",
    }
}

/// One page of a pair's ranking under `sort`.
pub async fn page(
    pool: &SqlitePool,
    school_id: i64,
    major_id: i64,
    sort: SortKey,
    limit: u32,
    offset: u64,
) -> Result<Vec<AdvisorRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors WHERE school_id = ? AND major_id = ? \
         ORDER BY {} LIMIT ? OFFSET ?",
        order_by(sort)
    ))
    .bind(school_id)
    .bind(major_id)
    .bind(i64::from(limit))
    .bind(offset as i64)
    .fetch_all(pool)
    .await
}

/// How SQLite reads a page under `sort` (`EXPLAIN QUERY PLAN`): the tests
/// hold every sort to one index range and no sorting step.
pub async fn page_plan(pool: &SqlitePool, sort: SortKey) -> Result<Vec<String>, sqlx::Error> {
    let rows: Vec<(i64, i64, i64, String)> = sqlx::query_as(&format!(
        "EXPLAIN QUERY PLAN SELECT {ADVISOR_COLUMNS} FROM advisors \
         WHERE school_id = 1 AND major_id = 1 ORDER BY {} LIMIT 20 OFFSET 0",
        order_by(sort)
    ))
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|r| r.3).collect())
}

/// Every advisor of a pair in the overall ranking's order (the recommender
/// weighs them all).
pub async fn all(
    pool: &SqlitePool,
    school_id: i64,
    major_id: i64,
) -> Result<Vec<AdvisorRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors WHERE school_id = ? AND major_id = ? ORDER BY {}",
        order_by(SortKey::Overall)
    ))
    .bind(school_id)
    .bind(major_id)
    .fetch_all(pool)
    .await
}

/// How many advisors a pair has.
pub async fn size(pool: &SqlitePool, school_id: i64, major_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM advisors WHERE school_id = ? AND major_id = ?")
        .bind(school_id)
        .bind(major_id)
        .fetch_one(pool)
        .await
}

/// The (school, major) whose number of advisors is closest to `n` (the
/// benchmark's "ordinary pair").
pub async fn pair_near_size(pool: &SqlitePool, n: i64) -> Result<Option<(i64, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT school_id, major_id FROM advisors GROUP BY school_id, major_id \
         ORDER BY abs(COUNT(*) - ?), school_id, major_id LIMIT 1",
    )
    .bind(n)
    .fetch_optional(pool)
    .await
}

/// An advisor's place in the overall ranking of its pair (1 = first): the
/// advisors before it in the index, counted in three ranges of it (a higher
/// score; the same score and more reviews; the same of both and a lower id).
pub async fn rank_of(pool: &SqlitePool, a: &AdvisorRow) -> Result<i64, sqlx::Error> {
    let before: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM advisors \
                 WHERE school_id = ?1 AND major_id = ?2 AND score_overall > ?3) \
              + (SELECT COUNT(*) FROM advisors \
                 WHERE school_id = ?1 AND major_id = ?2 AND score_overall = ?3 AND review_count > ?4) \
              + (SELECT COUNT(*) FROM advisors \
                 WHERE school_id = ?1 AND major_id = ?2 AND score_overall = ?3 AND review_count = ?4 \
                   AND id < ?5)",
    )
    .bind(a.school_id)
    .bind(a.major_id)
    .bind(a.score_overall)
    .bind(a.review_count)
    .bind(a.id)
    .fetch_one(pool)
    .await?;
    Ok(before + 1)
}

/// The sums of a pair's aggregate columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct PairSums {
    pub advisors: i64,
    pub reviews: i64,
    pub sum_overall: i64,
    pub hist_1: i64,
    pub hist_2: i64,
    pub hist_3: i64,
    pub hist_4: i64,
    pub hist_5: i64,
}

pub async fn sums(
    pool: &SqlitePool,
    school_id: i64,
    major_id: i64,
) -> Result<PairSums, sqlx::Error> {
    sqlx::query_as(
        "SELECT COUNT(*) AS advisors, COALESCE(SUM(review_count), 0) AS reviews, \
                COALESCE(SUM(sum_overall), 0) AS sum_overall, \
                COALESCE(SUM(hist_1), 0) AS hist_1, COALESCE(SUM(hist_2), 0) AS hist_2, \
                COALESCE(SUM(hist_3), 0) AS hist_3, COALESCE(SUM(hist_4), 0) AS hist_4, \
                COALESCE(SUM(hist_5), 0) AS hist_5 \
         FROM advisors WHERE school_id = ? AND major_id = ?",
    )
    .bind(school_id)
    .bind(major_id)
    .fetch_one(pool)
    .await
}

/// The advisor of a pair with the most reviews (at least one); equal counts
/// go to the name first by code point, then the lower id.
pub async fn most_reviewed(
    pool: &SqlitePool,
    school_id: i64,
    major_id: i64,
) -> Result<Option<AdvisorRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors \
         WHERE school_id = ? AND major_id = ? AND review_count > 0 \
         ORDER BY review_count DESC, name, id LIMIT 1"
    ))
    .bind(school_id)
    .bind(major_id)
    .fetch_optional(pool)
    .await
}

/// The advisor of a pair with the highest exact average on the dimension
/// whose sum column is `sum_column`, among those with at least
/// `min_reviews` reviews; then more reviews, the name, the lower id. (Two
/// different fractions with denominators below a million are never the
/// same double, so dividing compares them exactly.)
pub async fn best_on(
    pool: &SqlitePool,
    school_id: i64,
    major_id: i64,
    sum_column: &str,
    min_reviews: i64,
) -> Result<Option<AdvisorRow>, sqlx::Error> {
    debug_assert!(
        sum_column.starts_with("sum_")
            && sum_column
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_')
    );
    sqlx::query_as(&format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors \
         WHERE school_id = ? AND major_id = ? AND review_count >= ? \
         ORDER BY {sum_column} * 1.0 / review_count DESC, review_count DESC, name, id LIMIT 1"
    ))
    .bind(school_id)
    .bind(major_id)
    .bind(min_reviews.max(1))
    .fetch_optional(pool)
    .await
}
