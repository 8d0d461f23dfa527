//! Fixed-window counters per client (`http::limits`), in the database so
//! that every instance counts the same events: a client cannot get N times
//! the limit by being spread over N instances. A chat turn is counted inside
//! the turn's own write (`store::sessions::save_turn`), so a turn writes
//! once; other events (wrong admin tokens) are counted on their own.

use crate::db::{Conn, Pool};

/// What a client writes under a quota counted from its own rows (the
/// review form's and the correction form's limits, `app::policy::Quota`).
#[derive(Clone, Copy, Debug)]
pub enum Written {
    Reviews,
    CorrectionRequests,
}

/// How many rows of `what` `client_key` wrote since `modifier` ago
/// (SQLite's modifier syntax: "-10 minutes"), inside the writer's
/// transaction so the count and the write agree.
pub async fn written_since(
    conn: &mut Conn,
    what: Written,
    client_key: &str,
    modifier: &str,
) -> Result<i64, sqlx::Error> {
    let sql = match what {
        Written::Reviews => {
            "SELECT COUNT(*) FROM reviews WHERE client_key = $1 \
             AND created_at >= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', $2)"
        }
        Written::CorrectionRequests => {
            "SELECT COUNT(*) FROM correction_requests WHERE client_key = $1 \
             AND created_at >= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', $2)"
        }
    };
    sqlx::query_scalar(sql)
        .bind(client_key)
        .bind(modifier)
        .fetch_one(&mut *conn)
        .await
}

/// At most `limit` events per `window_ms` for each client of `scope` (the
/// rows of `rate_windows` under that scope).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quota {
    pub scope: &'static str,
    pub limit: u32,
    pub window_ms: i64,
}

/// A client's window as stored: when it began, and its events so far.
pub type Window = (i64, i64);

impl Quota {
    /// Seconds until a window that began at `started_ms` ends (at least 1).
    pub fn wait(&self, started_ms: i64, now_ms: i64) -> u64 {
        let left = (started_ms + self.window_ms - now_ms).max(0) as u64;
        left.div_ceil(1000).max(1)
    }

    /// `Some(seconds to wait)` when `window` has no room for another event
    /// at `now_ms`; `None` when there is room (or no window yet).
    pub fn full(&self, window: Option<Window>, now_ms: i64) -> Option<u64> {
        let (started, count) = window?;
        (now_ms - started < self.window_ms && count >= i64::from(self.limit))
            .then(|| self.wait(started, now_ms))
    }

    /// `Some(seconds to wait)` when a window counted with this event (what
    /// [`hit`] returns) went over the limit.
    pub fn over(&self, counted: Window, now_ms: i64) -> Option<u64> {
        (counted.1 > i64::from(self.limit)).then(|| self.wait(counted.0, now_ms))
    }
}

/// Milliseconds since the Unix epoch: the clock the windows are kept in
/// (instances share it, so it is the wall clock).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The statement that counts one event, starting a new window when the
/// last began `window_ms` or more ago. One statement, so concurrent hits
/// from several instances never lose a count.
pub(crate) const COUNT: &str =
    "INSERT INTO rate_windows (scope, client, started_ms, count) VALUES ($1, $2, $3, 1) \
     ON CONFLICT (scope, client) DO UPDATE SET \
         count = CASE WHEN $3 - rate_windows.started_ms >= $4 THEN 1 \
                      ELSE rate_windows.count + 1 END, \
         started_ms = CASE WHEN $3 - rate_windows.started_ms >= $4 THEN $3 \
                           ELSE rate_windows.started_ms END \
     RETURNING started_ms, count";

/// Counts one event of `client` at `now_ms` on `conn` (the pool, or the
/// transaction the event is part of). Returns the window including it.
pub async fn hit<'c, E>(
    conn: E,
    quota: &Quota,
    client: &str,
    now_ms: i64,
) -> Result<Window, sqlx::Error>
where
    E: sqlx::Executor<'c, Database = crate::db::Db>,
{
    sqlx::query_as(COUNT)
        .bind(quota.scope)
        .bind(client)
        .bind(now_ms)
        .bind(quota.window_ms)
        .fetch_one(conn)
        .await
}

/// The window of `client` in `scope`, if there is one.
pub async fn window(pool: &Pool, scope: &str, client: &str) -> Result<Option<Window>, sqlx::Error> {
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

/// Forgets the windows of `scope`: every client's, or `client`'s only.
/// Returns how many there were.
pub async fn clear_scope(
    pool: &Pool,
    scope: &str,
    client: Option<&str>,
) -> Result<u64, sqlx::Error> {
    let query = match client {
        Some(client) => sqlx::query("DELETE FROM rate_windows WHERE scope = $1 AND client = $2")
            .bind(scope)
            .bind(client.to_string()),
        None => sqlx::query("DELETE FROM rate_windows WHERE scope = $1").bind(scope),
    };
    query.execute(pool).await.map(|r| r.rows_affected())
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

#[cfg(test)]
mod tests {
    use super::*;

    const Q: Quota = Quota {
        scope: "t",
        limit: 3,
        window_ms: 60_000,
    };

    #[test]
    fn the_wait_is_rounded_up_to_whole_seconds() {
        assert_eq!(Q.wait(0, 10_500), 50);
        assert_eq!(Q.wait(0, 59_999), 1);
        assert_eq!(Q.wait(0, 70_000), 1);
    }

    #[test]
    fn a_window_is_full_at_its_limit_until_it_ends() {
        assert_eq!(Q.full(None, 0), None);
        assert_eq!(Q.full(Some((0, 2)), 1_000), None);
        assert_eq!(Q.full(Some((0, 3)), 10_000), Some(50));
        // An ended window has room again.
        assert_eq!(Q.full(Some((0, 3)), 60_000), None);
        // Counted with this event: over only past the limit.
        assert_eq!(Q.over((0, 3), 1_000), None);
        assert_eq!(Q.over((0, 4), 1_000), Some(59));
    }
}
