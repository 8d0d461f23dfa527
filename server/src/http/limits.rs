//! Per-client counters: how many chat turns a client may take, how many
//! wrong admin tokens it may try. Fixed windows in memory, bounded in size:
//! the table never holds more than [`MAX_KEYS`] clients (expired windows are
//! swept first, then the oldest), so a flood of new addresses costs a
//! bounded amount of memory.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most clients one limiter remembers.
pub const MAX_KEYS: usize = 50_000;

/// At most `limit` events per `window` for each client.
pub struct RateLimiter {
    limit: u32,
    window: Duration,
    table: Mutex<HashMap<String, (Instant, u32)>>,
}

impl RateLimiter {
    pub fn new(limit: u32, window: Duration) -> RateLimiter {
        RateLimiter {
            limit,
            window,
            table: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one event of `key`: `Ok` while under the limit, else
    /// `Err(seconds until the window ends)` (at least 1).
    pub fn hit(&self, key: &str) -> Result<(), u64> {
        self.hit_at(key, Instant::now())
    }

    fn hit_at(&self, key: &str, now: Instant) -> Result<(), u64> {
        let mut table = self.table.lock().unwrap_or_else(|p| p.into_inner());
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
    pub fn exhausted(&self, key: &str) -> Option<u64> {
        let now = Instant::now();
        let table = self.table.lock().unwrap_or_else(|p| p.into_inner());
        let (start, n) = table.get(key)?;
        let elapsed = now.duration_since(*start);
        (elapsed < self.window && *n >= self.limit)
            .then(|| self.window.saturating_sub(elapsed).as_secs().max(1))
    }

    /// Forgets `key` (a successful login clears its failures).
    pub fn clear(&self, key: &str) {
        let mut table = self.table.lock().unwrap_or_else(|p| p.into_inner());
        table.remove(key);
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
    fn with_chat_turns(per_minute: u32) -> Limits {
        Limits {
            chat: RateLimiter::new(per_minute, Duration::from_secs(60)),
            admin_failures: RateLimiter::new(ADMIN_FAILURES, Duration::from_secs(15 * 60)),
        }
    }

    /// The limits, with `CHAT_TURNS_PER_MINUTE` from the environment when
    /// set (a positive whole number; a site whose users share one address,
    /// or a browser test suite, may need more).
    pub fn from_env() -> Result<Limits, String> {
        match std::env::var("CHAT_TURNS_PER_MINUTE") {
            Err(_) => Ok(Limits::default()),
            Ok(v) => match v.trim().parse::<u32>() {
                Ok(n) if n > 0 => Ok(Limits::with_chat_turns(n)),
                _ => Err(format!(
                    "CHAT_TURNS_PER_MINUTE 应为正整数（每个客户端每分钟的对话轮数），现在是「{v}」"
                )),
            },
        }
    }
}

/// Whether a request is a chat turn: the protocol's two endpoints and the
/// server function the panel may call instead.
fn is_chat_turn(req: &axum::extract::Request) -> bool {
    use leptos::server_fn::ServerFn;
    req.method() == axum::http::Method::POST
        && matches!(
            req.uri().path(),
            "/api/v1/chat" | "/api/v1/chat/stream" | <app::api::Chat as ServerFn>::PATH
        )
}

/// Middleware: a client over [`CHAT_TURNS_PER_MINUTE`] gets 429 in Chinese
/// with `Retry-After`, before the turn touches the session or a planner.
pub async fn chat_turns(
    axum::extract::State(limits): axum::extract::State<std::sync::Arc<Limits>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if is_chat_turn(&req) {
        let client = super::client::of(req.extensions());
        if let Err(wait) = limits.chat.hit(&client.key) {
            return too_many(wait, "消息发得太快了，请稍等一会儿再说。").into_response();
        }
    }
    next.run(req).await
}

/// 429 with the envelope and `Retry-After`.
pub fn too_many(wait_secs: u64, message: &str) -> axum::response::Response {
    use axum::response::IntoResponse;
    let mut e = app::error::ApiError::bad_request("rate_limited", message);
    e.status = 429;
    let mut res = super::JsonError(e).into_response();
    if let Ok(v) = wait_secs.to_string().parse() {
        res.headers_mut().insert(axum::http::header::RETRY_AFTER, v);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_allows_its_limit_then_says_how_long_to_wait() {
        let l = RateLimiter::new(3, Duration::from_secs(60));
        let t = Instant::now();
        for _ in 0..3 {
            assert!(l.hit_at("a", t).is_ok());
        }
        assert_eq!(l.hit_at("a", t + Duration::from_secs(10)), Err(50));
        // Another client is not affected; the window ends.
        assert!(l.hit_at("b", t).is_ok());
        assert!(l.hit_at("a", t + Duration::from_secs(61)).is_ok());
    }

    #[test]
    fn the_table_stays_bounded() {
        let l = RateLimiter::new(1, Duration::from_secs(60));
        let t = Instant::now();
        for i in 0..(MAX_KEYS + 10) {
            let _ = l.hit_at(&format!("k{i}"), t);
        }
        assert!(l.table.lock().unwrap().len() <= MAX_KEYS);
    }

    #[test]
    fn exhausted_and_clear() {
        let l = RateLimiter::new(2, Duration::from_secs(60));
        assert!(l.exhausted("a").is_none());
        let _ = l.hit("a");
        let _ = l.hit("a");
        assert!(l.exhausted("a").is_some());
        l.clear("a");
        assert!(l.exhausted("a").is_none());
    }
}
