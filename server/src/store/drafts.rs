//! Refused review-form submissions, kept a few minutes for the form to show
//! again (`reviews::form::Drafts`). In the database, not in one process's
//! memory, so that the instance that shows the form again need not be the
//! one that refused it.

use crate::db::Pool;

/// Stores a draft (`review` and `errors` as JSON) created at `now` (unix
/// seconds), forgets drafts created before `expired_before`, and keeps at
/// most `max` (the oldest go first). One transaction.
pub async fn put(
    pool: &Pool,
    id: &str,
    now: i64,
    review: &str,
    errors: &str,
    expired_before: i64,
    max: usize,
) -> Result<(), sqlx::Error> {
    let mut tx = crate::db::begin_write(pool).await?;
    sqlx::query("DELETE FROM review_drafts WHERE created_at < $1")
        .bind(expired_before)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "DELETE FROM review_drafts WHERE id NOT IN ( \
             SELECT id FROM review_drafts ORDER BY created_at DESC, id DESC LIMIT $1)",
    )
    .bind(max.saturating_sub(1) as i64)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO review_drafts (id, created_at, review, errors) VALUES ($1, $2, $3, $4)",
    )
    .bind(id)
    .bind(now)
    .bind(review)
    .bind(errors)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// A draft's JSON (review, errors), if it exists and was created at or after
/// `not_before`.
pub async fn get(
    pool: &Pool,
    id: &str,
    not_before: i64,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT review, errors FROM review_drafts WHERE id = $1 AND created_at >= $2")
        .bind(id)
        .bind(not_before)
        .fetch_optional(pool)
        .await
}
