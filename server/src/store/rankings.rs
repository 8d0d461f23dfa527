//! The reads of a ranking, each bounded by what it returns rather than by
//! the size of the pair: a page is one range of the index of its sort
//! (`advisors_rank_*`, migration 0019), an advisor's rank is a count over
//! the part of that index above it, and a pair's statistics are its stored
//! sums (`pair_stats`) and one index seek per advisor they name.

use sqlx::SqlitePool;

use app::model::{RankingStats, SortKey};

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

/// How many advisors a pair has (`pair_stats`).
pub async fn size(pool: &SqlitePool, school_id: i64, major_id: i64) -> Result<i64, sqlx::Error> {
    Ok(sums(pool, school_id, major_id).await?.advisors)
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

/// The stored sums of a pair (`pair_stats`, kept by triggers on the
/// advisors' aggregate columns); zeros for a pair without advisors.
pub async fn sums(
    pool: &SqlitePool,
    school_id: i64,
    major_id: i64,
) -> Result<PairSums, sqlx::Error> {
    sqlx::query_as(
        "SELECT advisors, reviews, sum_overall, hist_1, hist_2, hist_3, hist_4, hist_5 \
         FROM pair_stats WHERE school_id = ? AND major_id = ?",
    )
    .bind(school_id)
    .bind(major_id)
    .fetch_optional(pool)
    .await
    .map(Option::unwrap_or_default)
}

/// The advisor of a pair with the most reviews (at least one); equal counts
/// go to the name first by code point, then the lower id.
pub async fn most_reviewed(
    pool: &SqlitePool,
    school_id: i64,
    major_id: i64,
) -> Result<Option<AdvisorRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors INDEXED BY advisors_most_reviewed {MOST_REVIEWED_ORDER}"
    ))
    .bind(school_id)
    .bind(major_id)
    .fetch_optional(pool)
    .await
}

/// The advisor of a pair with the highest exact average on the dimension
/// whose sum column is `sum_column`, among those with at least
/// [`RankingStats::MIN_REVIEWS`] reviews; then more reviews, the name, the
/// lower id. One seek in that dimension's `advisors_best_*` index (the
/// minimum is written into the SQL, not bound, so that SQLite sees the
/// partial index's condition). Two different fractions with denominators
/// below a million are never the same double, so dividing compares them
/// exactly.
pub async fn best_on(
    pool: &SqlitePool,
    school_id: i64,
    major_id: i64,
    sum_column: SumColumn,
) -> Result<Option<AdvisorRow>, sqlx::Error> {
    sqlx::query_as(&best_sql(sum_column, ADVISOR_COLUMNS))
        .bind(school_id)
        .bind(major_id)
        .fetch_optional(pool)
        .await
}

/// The four dimensions' sum columns, the only ones [`best_on`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SumColumn {
    Academic,
    Funding,
    Relationship,
    Prospects,
}

impl SumColumn {
    pub const ALL: [SumColumn; 4] = [
        SumColumn::Academic,
        SumColumn::Funding,
        SumColumn::Relationship,
        SumColumn::Prospects,
    ];

    fn name(self) -> &'static str {
        match self {
            SumColumn::Academic => "sum_academic",
            SumColumn::Funding => "sum_funding",
            SumColumn::Relationship => "sum_relationship",
            SumColumn::Prospects => "sum_prospects",
        }
    }

    /// Its `advisors_best_*` index (migration 0019).
    fn index(self) -> &'static str {
        match self {
            SumColumn::Academic => "advisors_best_academic",
            SumColumn::Funding => "advisors_best_funding",
            SumColumn::Relationship => "advisors_best_relationship",
            SumColumn::Prospects => "advisors_best_prospects",
        }
    }
}

/// Named with `INDEXED BY`: without statistics SQLite's planner prefers a
/// range of `review_count` and sorts the pair, 5 ms instead of 0.05 at 5,000
/// advisors; naming the index makes the seek certain (and a missing index an
/// error, not a slow page).
fn best_sql(sum: SumColumn, columns: &str) -> String {
    let (column, min, index) = (sum.name(), RankingStats::MIN_REVIEWS, sum.index());
    format!(
        "SELECT {columns} FROM advisors INDEXED BY {index} \
         WHERE school_id = ? AND major_id = ? AND review_count >= {min} \
         ORDER BY {column} * 1.0 / review_count DESC, review_count DESC, name, id LIMIT 1"
    )
}

const MOST_REVIEWED_ORDER: &str =
    "WHERE school_id = ? AND major_id = ? AND review_count > 0 ORDER BY review_count DESC, name, id LIMIT 1";

/// How SQLite reads the overview's advisors (`EXPLAIN QUERY PLAN`): one
/// index seek each, held so by the tests.
pub async fn overview_plans(pool: &SqlitePool) -> Result<Vec<Vec<String>>, sqlx::Error> {
    let mut sqls: Vec<String> = SumColumn::ALL.iter().map(|c| best_sql(*c, "id")).collect();
    sqls.push(format!(
        "SELECT id FROM advisors INDEXED BY advisors_most_reviewed {MOST_REVIEWED_ORDER}"
    ));
    let mut out = Vec::new();
    for sql in sqls {
        let rows: Vec<(i64, i64, i64, String)> =
            sqlx::query_as(&format!("EXPLAIN QUERY PLAN {sql}"))
                .bind(1i64)
                .bind(1i64)
                .fetch_all(pool)
                .await?;
        out.push(rows.into_iter().map(|r| r.3).collect());
    }
    Ok(out)
}
