//! Per-client counters: how many chat turns a client may take, how many
//! wrong admin tokens it may try. Fixed windows. The site keeps them in the
//! database (`store::limits`), so that several instances behind one proxy
//! count one client once; in memory (tests, a limiter without a database)
//! the table never holds more than [`MAX_KEYS`] clients (expired windows
//! are swept first, then the oldest), so a flood of new addresses costs a
//! bounded amount of memory.
//!
//! Chat turns in the database are not counted here: [`chat_turns`] hands
//! the turn its [`Caller`] with the quota, the turn reads the window with
//! its session (one read) and refuses a full one before any work, and
//! counts itself in the same transaction that stores it (one write per
//! turn, exact across instances; a turn that races past the limit there is
//! rolled back and refused).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::agent::session_store::Caller;
use crate::db::Pool;
use crate::store::limits::{now_ms, Quota};

/// The most clients one in-memory limiter remembers.
pub const MAX_KEYS: usize = 50_000;
/// A shared limiter forgets expired windows once every this many hits.
const SWEEP_EVERY: u64 = 1024;

/// At most `limit` events per `window` for each client.
pub struct RateLimiter {
    limit: u32,
    window: Duration,
    counters: Counters,
}

enum Counters {
    Memory(Mutex<HashMap<String, (Instant, u32)>>),
    /// Rows of `rate_windows` under the quota's scope.
    Shared {
        pool: Pool,
        quota: Quota,
        hits: AtomicU64,
    },
}

impl RateLimiter {
    /// A limiter in this process's memory.
    pub fn new(limit: u32, window: Duration) -> RateLimiter {
        RateLimiter {
            limit,
            window,
            counters: Counters::Memory(Mutex::new(HashMap::new())),
        }
    }

    /// A limiter whose counters are the database's, under `scope`.
    pub fn shared(limit: u32, window: Duration, pool: Pool, scope: &'static str) -> RateLimiter {
        RateLimiter {
            limit,
            window,
            counters: Counters::Shared {
                pool,
                quota: Quota {
                    scope,
                    limit,
                    window_ms: window.as_millis() as i64,
                },
                hits: AtomicU64::new(0),
            },
        }
    }

    /// The quota of a limiter kept in the database (`None` in memory).
    pub fn shared_quota(&self) -> Option<Quota> {
        match &self.counters {
            Counters::Memory(_) => None,
            Counters::Shared { quota, .. } => Some(*quota),
        }
    }

    /// Forgets the expired windows once every [`SWEEP_EVERY`] calls.
    async fn sweep_now_and_then(&self) {
        if let Counters::Shared { pool, quota, hits } = &self.counters {
            if hits.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
                let before = now_ms() - quota.window_ms;
                if let Err(e) = crate::store::limits::sweep(pool, quota.scope, before).await {
                    tracing::warn!(error = %e, scope = quota.scope, "could not sweep rate windows");
                }
            }
        }
    }

    /// Counts one event of `key`: `Ok` while under the limit, else
    /// `Err(seconds until the window ends)` (at least 1). A database that
    /// cannot be reached lets the event through (and says so in the log):
    /// a limit must not take the site down with it.
    pub async fn hit(&self, key: &str) -> Result<(), u64> {
        match &self.counters {
            Counters::Memory(table) => self.hit_at(table, key, Instant::now()),
            Counters::Shared { pool, quota, .. } => {
                self.sweep_now_and_then().await;
                let now = now_ms();
                match crate::store::limits::hit(pool, quota, key, now).await {
                    Ok(counted) => quota.over(counted, now).map_or(Ok(()), Err),
                    Err(e) => {
                        tracing::warn!(error = %e, scope = quota.scope, "rate window not counted");
                        Ok(())
                    }
                }
            }
        }
    }

    fn hit_at(
        &self,
        table: &Mutex<HashMap<String, (Instant, u32)>>,
        key: &str,
        now: Instant,
    ) -> Result<(), u64> {
        let mut table = table.lock().unwrap_or_else(|p| p.into_inner());
        if table.len() >= MAX_KEYS && !table.contains_key(key) {
            let window = self.window;
            table.retain(|_, (start, _)| now.duration_since(*start) < window);
            if table.len() >= MAX_KEYS {
                if let Some(oldest) = table
                    .iter()
                    .min_by_key(|(_, v)| v.0)
                    .map(|(k, _)| k.clone())
                {
                    table.remove(&oldest);
                }
            }
        }
        let entry = table.entry(key.to_string()).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1 >= self.limit {
            let left = self.window.saturating_sub(now.duration_since(entry.0));
            return Err(left.as_secs().max(1));
        }
        entry.1 += 1;
        Ok(())
    }

    /// Whether `key` has used up its window (without counting anything).
    pub async fn exhausted(&self, key: &str) -> Option<u64> {
        match &self.counters {
            Counters::Memory(table) => {
                let now = Instant::now();
                let table = table.lock().unwrap_or_else(|p| p.into_inner());
                let (start, n) = table.get(key)?;
                let elapsed = now.duration_since(*start);
                (elapsed < self.window && *n >= self.limit)
                    .then(|| self.window.saturating_sub(elapsed).as_secs().max(1))
            }
            Counters::Shared { pool, quota, .. } => {
                let window = crate::store::limits::window(pool, quota.scope, key)
                    .await
                    .ok()?;
                quota.full(window, now_ms())
            }
        }
    }

    /// Forgets `key` (a successful login clears its failures).
    pub async fn clear(&self, key: &str) {
        match &self.counters {
            Counters::Memory(table) => {
                table.lock().unwrap_or_else(|p| p.into_inner()).remove(key);
            }
            Counters::Shared { pool, quota, .. } => {
                if let Err(e) = crate::store::limits::clear(pool, quota.scope, key).await {
                    tracing::warn!(error = %e, scope = quota.scope, "could not clear a rate window");
                }
            }
        }
    }
}

/// The limits of one site: chat turns, admin login failures.
pub struct Limits {
    pub chat: RateLimiter,
    pub admin_failures: RateLimiter,
}

/// Chat turns a client may take per minute: a student types or speaks one
/// message every few seconds at most; scripts hammering the planner do not.
pub const CHAT_TURNS_PER_MINUTE: u32 = 30;
/// Wrong admin tokens a client may send per quarter hour.
pub const ADMIN_FAILURES: u32 = 5;

impl Default for Limits {
    fn default() -> Limits {
        Limits::with_chat_turns(CHAT_TURNS_PER_MINUTE)
    }
}

impl Limits {
    /// The same limits with their counters in the database, shared by every
    /// instance on it (what the site runs with).
    pub fn in_database(self, pool: Pool) -> Limits {
        Limits {
            chat: RateLimiter::shared(self.chat.limit, self.chat.window, pool.clone(), "chat"),
            admin_failures: RateLimiter::shared(
                self.admin_failures.limit,
                self.admin_failures.window,
                pool,
                "admin_failures",
            ),
        }
    }

    /// The limits with `per_minute` chat turns per client
    /// (`CHAT_TURNS_PER_MINUTE`, from the configuration).
    pub fn with_chat_turns(per_minute: u32) -> Limits {
        Limits {
            chat: RateLimiter::new(per_minute, Duration::from_secs(60)),
            admin_failures: RateLimiter::new(ADMIN_FAILURES, Duration::from_secs(15 * 60)),
        }
    }

    /// A value of `CHAT_TURNS_PER_MINUTE`: a positive whole number (a site
    /// whose users share one address, or a browser test suite, may need
    /// more), or the Chinese sentence that says what is wrong with it.
    pub fn parse_chat_turns(v: &str) -> Result<u32, String> {
        match v.trim().parse::<u32>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!(
                "CHAT_TURNS_PER_MINUTE 应为正整数（每个客户端每分钟的对话轮数），现在是「{v}」"
            )),
        }
    }
}

/// Whether a request is a chat turn: the protocol's two endpoints, the
/// only doors to a turn.
fn is_chat_turn(req: &axum::extract::Request) -> bool {
    req.method() == axum::http::Method::POST
        && matches!(req.uri().path(), "/api/v1/chat" | "/api/v1/chat/stream")
}

/// Middleware: a chat turn carries its [`Caller`] (the client, and the
/// quota the turn counts against in the database). A client over
/// [`CHAT_TURNS_PER_MINUTE`] gets 429 in Chinese with `Retry-After` before
/// the turn touches a planner: here when the counters are in memory, in the
/// turn's read of its session when they are in the database.
pub async fn chat_turns(
    axum::extract::State(limits): axum::extract::State<std::sync::Arc<Limits>>,
    mut req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if is_chat_turn(&req) {
        let client = super::client::of(req.extensions());
        let quota = limits.chat.shared_quota();
        if quota.is_none() {
            if let Err(wait) = limits.chat.hit(&client.key).await {
                return too_many(wait, app::error::TOO_MANY_TURNS_MESSAGE);
            }
        } else {
            limits.chat.sweep_now_and_then().await;
        }
        req.extensions_mut().insert(Caller {
            key: client.key,
            quota,
        });
    }
    next.run(req).await
}

/// The caller of a chat turn as [`chat_turns`] named it (or, outside that
/// middleware, the client alone, counted nowhere).
impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Caller {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Caller, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<Caller>()
            .cloned()
            .unwrap_or_else(|| Caller {
                key: super::client::of(&parts.extensions).key,
                quota: None,
            }))
    }
}

/// 429 with the envelope and `Retry-After`.
pub fn too_many(wait_secs: u64, message: &str) -> axum::response::Response {
    use axum::response::IntoResponse;
    super::JsonError(app::error::ApiError::too_many(wait_secs, message)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(l: &RateLimiter) -> &Mutex<HashMap<String, (Instant, u32)>> {
        match &l.counters {
            Counters::Memory(t) => t,
            Counters::Shared { .. } => unreachable!("a memory limiter"),
        }
    }

    #[test]
    fn a_window_allows_its_limit_then_says_how_long_to_wait() {
        let l = RateLimiter::new(3, Duration::from_secs(60));
        let t = Instant::now();
        for _ in 0..3 {
            assert!(l.hit_at(table(&l), "a", t).is_ok());
        }
        assert_eq!(
            l.hit_at(table(&l), "a", t + Duration::from_secs(10)),
            Err(50)
        );
        // Another client is not affected; the window ends.
        assert!(l.hit_at(table(&l), "b", t).is_ok());
        assert!(l
            .hit_at(table(&l), "a", t + Duration::from_secs(61))
            .is_ok());
    }

    #[test]
    fn the_table_stays_bounded() {
        let l = RateLimiter::new(1, Duration::from_secs(60));
        let t = Instant::now();
        for i in 0..(MAX_KEYS + 10) {
            let _ = l.hit_at(table(&l), &format!("k{i}"), t);
        }
        assert!(table(&l).lock().unwrap().len() <= MAX_KEYS);
    }

    #[tokio::test]
    async fn exhausted_and_clear() {
        let l = RateLimiter::new(2, Duration::from_secs(60));
        assert!(l.exhausted("a").await.is_none());
        let _ = l.hit("a").await;
        let _ = l.hit("a").await;
        assert!(l.exhausted("a").await.is_some());
        l.clear("a").await;
        assert!(l.exhausted("a").await.is_none());
    }
}
