//! The SQL of requests for a correction (`crate::reviews::correction`): a
//! new request, a client's recent count (the form's rate limit), the open
//! requests the admin lists, and marking one handled. The rules (what is
//! accepted, the limits) stay in `crate::reviews::correction`.

use crate::db::Conn;

/// A request as the admin's list reads it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct OpenRequest {
    pub id: i64,
    pub subject: String,
    pub requester: String,
    pub details: String,
    pub contact: String,
    pub created_at: String,
}

/// A new open request; its id.
pub async fn insert(
    conn: &mut Conn,
    subject: &str,
    requester: &str,
    details: &str,
    contact: &str,
    client_key: &str,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO correction_requests (subject, requester, details, contact, client_key) \
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(subject)
    .bind(requester)
    .bind(details)
    .bind(contact)
    .bind(client_key)
    .fetch_one(&mut *conn)
    .await
}

/// The open requests, newest first (the partial index
/// `correction_requests_open`, in its order).
pub async fn open(conn: &mut Conn, limit: i64) -> Result<Vec<OpenRequest>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, subject, requester, details, contact, created_at FROM correction_requests \
         WHERE status = 'open' ORDER BY id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&mut *conn)
    .await
}

/// The status of request `id`, if it exists.
pub async fn status(conn: &mut Conn, id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT status FROM correction_requests WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await
}

/// Marks request `id` handled by `actor`, now.
pub async fn mark_handled(conn: &mut Conn, id: i64, actor: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE correction_requests SET status = 'handled', handled_by = $1, \
             handled_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = $2",
    )
    .bind(actor)
    .bind(id)
    .execute(&mut *conn)
    .await
    .map(|_| ())
}
