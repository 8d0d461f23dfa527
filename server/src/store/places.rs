//! The figures of a school or a major as a whole, for a student's general
//! question about it ("中山大学怎么样", "计算机专业好就业吗"): sums of the
//! stored per-pair sums (`pair_stats`, kept by triggers in the writes' own
//! transactions). A school reads its pairs through the primary key, a major
//! alone through `pair_stats_major` (migration 0024): a few hundred rows at
//! most, whatever the number of advisors or reviews.

use crate::db::Pool;

/// Sums over the advisors of a school, a major, or one pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct PlaceSums {
    pub advisors: i64,
    pub reviews: i64,
    pub sum_overall: i64,
    pub sum_prospects: i64,
}

/// The sums of the advisors of `school_id`, of `major_id`, or of both
/// (at least one is given; neither gives zeros).
pub async fn sums(
    pool: &Pool,
    school_id: Option<i64>,
    major_id: Option<i64>,
) -> Result<PlaceSums, sqlx::Error> {
    let filter = match (school_id, major_id) {
        (Some(_), Some(_)) => "school_id = $1 AND major_id = $2",
        (Some(_), None) => "school_id = $1",
        (None, Some(_)) => "major_id = $1",
        (None, None) => return Ok(PlaceSums::default()),
    };
    let sql = format!(
        "SELECT CAST(COALESCE(SUM(advisors), 0) AS BIGINT) AS advisors, \
         CAST(COALESCE(SUM(reviews), 0) AS BIGINT) AS reviews, \
         CAST(COALESCE(SUM(sum_overall), 0) AS BIGINT) AS sum_overall, \
         CAST(COALESCE(SUM(sum_prospects), 0) AS BIGINT) AS sum_prospects \
         FROM pair_stats WHERE {filter}"
    );
    let mut query = sqlx::query_as(&sql);
    for id in [school_id, major_id].into_iter().flatten() {
        query = query.bind(id);
    }
    query.fetch_one(pool).await
}
