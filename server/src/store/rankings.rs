//! The reads of a ranking, each bounded by what it returns rather than by
//! the size of the pair: a page is one range of the index of its sort
//! (`advisors_rank_*`, migration 0019), an advisor's rank is a count over
//! the part of that index above it, and a pair's statistics are its stored
//! sums (`pair_stats`) and one index seek per advisor they name.

use crate::db::{Backend, Pool};

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
    pool: &Pool,
    school_id: i64,
    major_id: i64,
    sort: SortKey,
    limit: u32,
    offset: u64,
) -> Result<Vec<AdvisorRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors WHERE school_id = $1 AND major_id = $2 \
         ORDER BY {} LIMIT $3 OFFSET $4",
        order_by(sort)
    ))
    .bind(school_id)
    .bind(major_id)
    .bind(i64::from(limit))
    .bind(offset as i64)
    .fetch_all(pool)
    .await
}

/// How the database reads a page under `sort` ([`super::plan`]): the
/// tests hold every sort to one index range and no sorting step.
pub async fn page_plan(pool: &Pool, sort: SortKey) -> Result<super::plan::QueryPlan, sqlx::Error> {
    let sql = format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors \
         WHERE school_id = 1 AND major_id = 1 ORDER BY {} LIMIT 20 OFFSET 0",
        order_by(sort)
    );
    super::plan::explain(pool, &sql).await
}

/// Every advisor of a pair in the overall ranking's order (the recommender
/// weighs them all).
pub async fn all(
    pool: &Pool,
    school_id: i64,
    major_id: i64,
) -> Result<Vec<AdvisorRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors WHERE school_id = $1 AND major_id = $2 ORDER BY {}",
        order_by(SortKey::Overall)
    ))
    .bind(school_id)
    .bind(major_id)
    .fetch_all(pool)
    .await
}

/// How many advisors a pair has (`pair_stats`).
pub async fn size(pool: &Pool, school_id: i64, major_id: i64) -> Result<i64, sqlx::Error> {
    Ok(sums(pool, school_id, major_id).await?.advisors)
}

/// How many advisors a pair has, and the version of its pages
/// (`pair_versions`, migration 0026: moved by every write that changes
/// what a page of the pair shows), in one statement.
pub async fn size_and_version(
    pool: &Pool,
    school_id: i64,
    major_id: i64,
) -> Result<(i64, i64), sqlx::Error> {
    sqlx::query_as(
        "SELECT COALESCE((SELECT advisors FROM pair_stats WHERE school_id = $1 AND major_id = $2), 0), \
                COALESCE((SELECT version FROM pair_versions WHERE school_id = $1 AND major_id = $2), 0)",
    )
    .bind(school_id)
    .bind(major_id)
    .fetch_one(pool)
    .await
}

/// The (school, major) whose number of advisors is closest to `n` (the
/// benchmark's "ordinary pair").
pub async fn pair_near_size(pool: &Pool, n: i64) -> Result<Option<(i64, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT school_id, major_id FROM advisors GROUP BY school_id, major_id \
         ORDER BY abs(COUNT(*) - $1), school_id, major_id LIMIT 1",
    )
    .bind(n)
    .fetch_optional(pool)
    .await
}

/// An advisor's place in the overall ranking of its pair (1 = first): the
/// advisors before it in the index, counted in three ranges of it (a higher
/// score; the same score and more reviews; the same of both and a lower id).
pub async fn rank_of(pool: &Pool, a: &AdvisorRow) -> Result<i64, sqlx::Error> {
    let before: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM advisors \
                 WHERE school_id = $1 AND major_id = $2 AND score_overall > $3) \
              + (SELECT COUNT(*) FROM advisors \
                 WHERE school_id = $1 AND major_id = $2 AND score_overall = $3 AND review_count > $4) \
              + (SELECT COUNT(*) FROM advisors \
                 WHERE school_id = $1 AND major_id = $2 AND score_overall = $3 AND review_count = $4 \
                   AND id < $5)",
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
pub async fn sums(pool: &Pool, school_id: i64, major_id: i64) -> Result<PairSums, sqlx::Error> {
    sqlx::query_as(
        "SELECT advisors, reviews, sum_overall, hist_1, hist_2, hist_3, hist_4, hist_5 \
         FROM pair_stats WHERE school_id = $1 AND major_id = $2",
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
    pool: &Pool,
    school_id: i64,
    major_id: i64,
) -> Result<Option<AdvisorRow>, sqlx::Error> {
    let index = indexed_by(pool, "advisors_most_reviewed");
    sqlx::query_as(&format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors {index} {MOST_REVIEWED_ORDER}"
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
    pool: &Pool,
    school_id: i64,
    major_id: i64,
    sum_column: SumColumn,
) -> Result<Option<AdvisorRow>, sqlx::Error> {
    sqlx::query_as(&best_sql(Backend::of(pool), sum_column, ADVISOR_COLUMNS))
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

/// Named with `INDEXED BY` on SQLite: without statistics its planner
/// prefers a range of `review_count` and sorts the pair, 5 ms instead of
/// 0.05 at 5,000 advisors; naming the index makes the seek certain (and a
/// missing index an error, not a slow page). PostgreSQL has no such clause
/// and keeps statistics of its own (autovacuum's `ANALYZE`).
fn best_sql(backend: Backend, sum: SumColumn, columns: &str) -> String {
    let (column, min) = (sum.name(), RankingStats::MIN_REVIEWS);
    let index = index_hint(backend, sum.index());
    format!(
        "SELECT {columns} FROM advisors {index} \
         WHERE school_id = $1 AND major_id = $2 AND review_count >= {min} \
         ORDER BY {column} * 1.0 / review_count DESC, review_count DESC, name, id LIMIT 1"
    )
}

/// `INDEXED BY index` on SQLite, nothing on PostgreSQL.
fn index_hint(backend: Backend, index: &str) -> String {
    match backend {
        Backend::Sqlite => format!("INDEXED BY {index}"),
        Backend::Postgres => String::new(),
    }
}

fn indexed_by(pool: &Pool, index: &str) -> String {
    index_hint(Backend::of(pool), index)
}

const MOST_REVIEWED_ORDER: &str = "WHERE school_id = $1 AND major_id = $2 AND review_count > 0 \
     ORDER BY review_count DESC, name, id LIMIT 1";

/// How the database reads the overview's advisors ([`super::plan`]): one
/// index seek each, held so by the tests.
pub async fn overview_plans(pool: &Pool) -> Result<Vec<super::plan::QueryPlan>, sqlx::Error> {
    let backend = Backend::of(pool);
    let mut sqls: Vec<String> = SumColumn::ALL
        .iter()
        .map(|c| best_sql(backend, *c, "id"))
        .collect();
    let index = index_hint(backend, "advisors_most_reviewed");
    sqls.push(format!(
        "SELECT id FROM advisors {index} {MOST_REVIEWED_ORDER}"
    ));
    let mut out = Vec::new();
    for sql in sqls {
        let sql = sql.replace("$1", "1").replace("$2", "1");
        out.push(super::plan::explain(pool, &sql).await?);
    }
    Ok(out)
}
