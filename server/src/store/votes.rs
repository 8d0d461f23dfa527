//! 有用 on a review: one vote per client and review (`review_votes`), taken
//! back by deleting it; the review's `helpful_count` moves in the same
//! transaction, so the count shown and the order 最有用 sorts by are the
//! votes, and `store::aggregate_drift` can check them against the table.

use sqlx::SqlitePool;

/// The state of one client's vote on a review after a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VoteState {
    pub voted: bool,
    pub count: i64,
}

/// Sets (`want` = true) or takes back (false) the client's vote on a
/// published review. Idempotent: voting twice counts once. `None` when no
/// published review has that id.
pub async fn set_vote(
    pool: &SqlitePool,
    review_id: i64,
    client_key: &str,
    want: bool,
) -> Result<Option<VoteState>, sqlx::Error> {
    let mut tx = crate::db::begin_write(pool).await?;
    let exists: Option<i64> =
        sqlx::query_scalar("SELECT id FROM reviews WHERE id = ? AND status = 'published'")
            .bind(review_id)
            .fetch_optional(&mut *tx)
            .await?;
    if exists.is_none() {
        return Ok(None);
    }
    let changed = if want {
        sqlx::query(
            "INSERT INTO review_votes (review_id, client_key, created_at) \
             VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) ON CONFLICT DO NOTHING",
        )
        .bind(review_id)
        .bind(client_key)
        .execute(&mut *tx)
        .await?
        .rows_affected()
    } else {
        sqlx::query("DELETE FROM review_votes WHERE review_id = ? AND client_key = ?")
            .bind(review_id)
            .bind(client_key)
            .execute(&mut *tx)
            .await?
            .rows_affected()
    };
    let delta: i64 = if want { 1 } else { -1 };
    let count: i64 = sqlx::query_scalar(
        "UPDATE reviews SET helpful_count = helpful_count + ? WHERE id = ? RETURNING helpful_count",
    )
    .bind(if changed > 0 { delta } else { 0 })
    .bind(review_id)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some(VoteState { voted: want, count }))
}

/// Whether the client has voted on the review.
pub async fn has_voted(
    pool: &SqlitePool,
    review_id: i64,
    client_key: &str,
) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM review_votes WHERE review_id = ? AND client_key = ?",
    )
    .bind(review_id)
    .bind(client_key)
    .fetch_one(pool)
    .await?;
    Ok(n > 0)
}
