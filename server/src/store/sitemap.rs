//! The SQL of the sitemap (`crate::http::crawlers`): how many advisors there
//! are, and one part's advisor ids in id order, read from the primary key's
//! index a part at a time (never every advisor at once).

use crate::db::Pool;

/// How many advisors there are.
pub async fn advisor_count(pool: &Pool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM advisors")
        .fetch_one(pool)
        .await
}

/// At most `limit` advisor ids after the first `skip`, in id order.
pub async fn advisor_ids(pool: &Pool, skip: i64, limit: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM advisors ORDER BY id LIMIT $1 OFFSET $2")
        .bind(limit)
        .bind(skip)
        .fetch_all(pool)
        .await
}
