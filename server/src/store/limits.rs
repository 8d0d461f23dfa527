//! Fixed-window counters per client (`http::limits`), in the database so
//! that every instance counts the same turns: a client cannot get N times
//! the limit by being spread over N instances.

use crate::db::Pool;

/// Counts one event of `client` in `scope` at `now_ms`, starting a new
/// window when the last began `window_ms` or more ago. One statement, so
/// concurrent hits from several instances never lose a count. Returns the
/// window's start and its count including this event.
pub async fn hit(
    pool: &Pool,
    scope: &str,
    client: &str,
    now_ms: i64,
    window_ms: i64,
) -> Result<(i64, i64), sqlx::Error> {
    sqlx::query_as(
        "INSERT INTO rate_windows (scope, client, started_ms, count) VALUES ($1, $2, $3, 1) \
         ON CONFLICT (scope, client) DO UPDATE SET \
             count = CASE WHEN $3 - rate_windows.started_ms >= $4 THEN 1 \
                          ELSE rate_windows.count + 1 END, \
             started_ms = CASE WHEN $3 - rate_windows.started_ms >= $4 THEN $3 \
                               ELSE rate_windows.started_ms END \
         RETURNING started_ms, count",
    )
    .bind(scope)
    .bind(client)
    .bind(now_ms)
    .bind(window_ms)
    .fetch_one(pool)
    .await
}

/// The window of `client` in `scope` (start, count), if there is one.
pub async fn window(
    pool: &Pool,
    scope: &str,
    client: &str,
) -> Result<Option<(i64, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT started_ms, count FROM rate_windows WHERE scope = $1 AND client = $2")
        .bind(scope)
        .bind(client)
        .fetch_optional(pool)
        .await
}

pub async fn clear(pool: &Pool, scope: &str, client: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM rate_windows WHERE scope = $1 AND client = $2")
        .bind(scope)
        .bind(client)
        .execute(pool)
        .await
        .map(|_| ())
}

/// Forgets the windows of `scope` that began before `before_ms`.
pub async fn sweep(pool: &Pool, scope: &str, before_ms: i64) -> Result<u64, sqlx::Error> {
    sqlx::query("DELETE FROM rate_windows WHERE scope = $1 AND started_ms < $2")
        .bind(scope)
        .bind(before_ms)
        .execute(pool)
        .await
        .map(|r| r.rows_affected())
}
