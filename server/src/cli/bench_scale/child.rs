//! The server under measurement, as its own process: this binary started
//! with the database of one size, timed from its start to its first
//! `/readyz` answer, and its memory read from `/proc` after the start and
//! after the measurement. In another process so that what the bench itself
//! holds (the seeding, the other sizes) is not counted in the server's
//! memory.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server started on a free loopback port, stopped when dropped.
pub struct Server {
    child: Child,
    pub base: String,
    pub startup: Duration,
}

/// The longest start-up waited for (a million advisors' first start writes
/// their name heads).
const START_LIMIT: Duration = Duration::from_secs(1800);

impl Server {
    /// Starts this binary over `url` with `max_connections` and waits
    /// until it answers `/readyz`.
    pub async fn start(url: &str, max_connections: u32) -> Result<Server, String> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let started = Instant::now();
        let child = Command::new(exe)
            .env("DATABASE_URL", url)
            .env("DATABASE_MAX_CONNECTIONS", max_connections.to_string())
            .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
            .env("TRUSTED_PROXIES", "127.0.0.1")
            .env("RUST_LOG", "warn,sqlx=warn")
            // What cargo-leptos sets for `make run`; without it Leptos
            // prints a warning at every start.
            .env("LEPTOS_OUTPUT_NAME", "advisor-review")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        let mut server = Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
            startup: Duration::ZERO,
        };
        let http = reqwest::Client::new();
        loop {
            if let Ok(r) = http.get(format!("{}/readyz", server.base)).send().await {
                if r.status().is_success() {
                    break;
                }
            }
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!("服务器启动失败：{status}"));
            }
            if started.elapsed() > START_LIMIT {
                return Err("服务器启动超时".into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        server.startup = started.elapsed();
        Ok(server)
    }

    /// Resident memory now and at its peak, in MB (`/proc`, Linux).
    pub fn memory_mb(&self) -> (f64, f64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
                .map_or(0.0, |kb| kb / 1024.0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
