//! The SQL of the admin's side (`crate::reviews::admin`): the reported
//! reviews one keyset page at a time (the partial index
//! `reviews_reported`, in its order), the most recent reviews, and the
//! audit log every hide and restore writes.

use serde::{Deserialize, Serialize};

use crate::db::{Conn, Pool};

/// A review as the admin sees it.
#[derive(Clone, Debug, Serialize, sqlx::FromRow)]
pub struct AdminReview {
    pub id: i64,
    pub advisor_id: i64,
    pub advisor_name: String,
    pub text: String,
    pub overall: i64,
    pub status: String,
    pub created_at: String,
    pub reports: i64,
    pub reasons: Option<String>,
    pub last_reported_at: Option<String>,
}

/// One line of the audit log.
#[derive(Clone, Debug, Serialize, Deserialize, sqlx::FromRow)]
pub struct AuditEntry {
    pub id: i64,
    pub at: String,
    pub actor: String,
    pub action: String,
    pub review_id: i64,
    /// Whether the action changed the review (a hide of a hidden one did not).
    pub changed: super::sql::Flag,
    pub reason: String,
}

const SELECT: &str =
    "SELECT r.id, r.advisor_id, a.name AS advisor_name, r.text, r.overall, r.status, \
        r.created_at, r.report_count AS reports, r.last_reported_at, \
        (SELECT group_concat(x, '；') FROM (SELECT NULLIF(p.reason, '') AS x FROM review_reports p \
            WHERE p.review_id = r.id ORDER BY p.id DESC LIMIT 5) AS recent) AS reasons \
     FROM reviews r JOIN advisors a ON a.id = r.advisor_id ";

/// Up to `limit` reported reviews, most reports first, then the most
/// recently reported, then the higher id; after the key `after`
/// (reports, last reported at, id) when given.
pub async fn reported(
    pool: &Pool,
    after: Option<(i64, &str, i64)>,
    limit: i64,
) -> Result<Vec<AdminReview>, sqlx::Error> {
    match after {
        None => {
            sqlx::query_as(&format!(
                "{SELECT} WHERE r.report_count > 0 \
                 ORDER BY r.report_count DESC, r.last_reported_at DESC, r.id DESC LIMIT $1"
            ))
            .bind(limit)
            .fetch_all(pool)
            .await
        }
        Some((reports, last_reported_at, id)) => {
            sqlx::query_as(&format!(
                "{SELECT} WHERE r.report_count > 0 \
                   AND (r.report_count, r.last_reported_at, r.id) < ($1, $2, $3) \
                 ORDER BY r.report_count DESC, r.last_reported_at DESC, r.id DESC LIMIT $4"
            ))
            .bind(reports)
            .bind(last_reported_at)
            .bind(id)
            .bind(limit)
            .fetch_all(pool)
            .await
        }
    }
}

/// The `limit` most recent reviews written on the site.
pub async fn recent(pool: &Pool, limit: i64) -> Result<Vec<AdminReview>, sqlx::Error> {
    sqlx::query_as(&format!(
        "{SELECT} WHERE r.client_key IS NOT NULL ORDER BY r.id DESC LIMIT $1"
    ))
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// The latest `limit` admin actions, newest first.
pub async fn audit_log(pool: &Pool, limit: i64) -> Result<Vec<AuditEntry>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, at, actor, action, review_id, changed, reason FROM admin_audit \
         ORDER BY id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A line of the audit log, in the action's transaction.
pub async fn audit(
    conn: &mut Conn,
    actor: &str,
    action: &str,
    review_id: i64,
    changed: bool,
    reason: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO admin_audit (actor, action, review_id, changed, reason) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(actor)
    .bind(action)
    .bind(review_id)
    .bind(i64::from(changed))
    .bind(reason)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
