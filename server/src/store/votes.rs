//! 有用 on a review: one vote per client and review (`review_votes`), taken
//! back by deleting it; the review's `helpful_count` moves in the same
//! transaction, so the count shown and the order 最有用 sorts by are the
//! votes, and `store::aggregate_drift` can check them against the table.

use crate::db::Pool;

/// The state of one client's vote on a review after a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VoteState {
    pub voted: bool,
    pub count: i64,
}

/// What a client asks of its vote on a review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vote {
    /// 有用 (idempotent: voting twice counts once).
    Set,
    /// Taken back (idempotent too).
    Unset,
    /// The button without JavaScript: the other of what stands.
    Toggle,
}

/// Changes the client's vote on a published review as asked, in one write
/// transaction with the review's count. `None` when no published review
/// has that id.
pub async fn vote(
    pool: &Pool,
    review_id: i64,
    client_key: &str,
    vote: Vote,
) -> Result<Option<VoteState>, sqlx::Error> {
    let mut tx = crate::db::begin_write(pool).await?;
    let exists: Option<i64> =
        sqlx::query_scalar("SELECT id FROM reviews WHERE id = $1 AND status = 'published'")
            .bind(review_id)
            .fetch_optional(&mut *tx)
            .await?;
    if exists.is_none() {
        return Ok(None);
    }
    let want = match vote {
        Vote::Set => true,
        Vote::Unset => false,
        Vote::Toggle => {
            let voted: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM review_votes WHERE review_id = $1 AND client_key = $2",
            )
            .bind(review_id)
            .bind(client_key)
            .fetch_one(&mut *tx)
            .await?;
            voted == 0
        }
    };
    let changed = if want {
        sqlx::query(
            "INSERT INTO review_votes (review_id, client_key, created_at) \
             VALUES ($1, $2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) ON CONFLICT DO NOTHING",
        )
        .bind(review_id)
        .bind(client_key)
        .execute(&mut *tx)
        .await?
        .rows_affected()
    } else {
        sqlx::query("DELETE FROM review_votes WHERE review_id = $1 AND client_key = $2")
            .bind(review_id)
            .bind(client_key)
            .execute(&mut *tx)
            .await?
            .rows_affected()
    };
    let delta: i64 = match (changed > 0, want) {
        (false, _) => 0,
        (true, true) => 1,
        (true, false) => -1,
    };
    let count: i64 = sqlx::query_scalar(
        "UPDATE reviews SET helpful_count = helpful_count + $1 WHERE id = $2 RETURNING helpful_count",
    )
    .bind(delta)
    .bind(review_id)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some(VoteState { voted: want, count }))
}
