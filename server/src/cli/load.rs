//! `server load` (`make load`): many students at once against the chat API.
//!
//! 200 conversations of 20 turns each, 50 at a time by default, every
//! conversation its own client (`X-Forwarded-For` through a trusted local
//! proxy, so per-client limits apply to each as in production). Without
//! `--url` the site is served in this process on a loopback port over a
//! fresh copy of the demo data, the real router and a real TCP socket. A
//! turn counts as an error when it is not 200 or its reply carries an error;
//! afterwards every conversation is read back and every turn must be stored.
//! Prints turns/s and latency percentiles; exits 1 on any error.

use std::sync::Arc;
use std::time::{Duration, Instant};

use app::model::ChatHistory;
use app::protocol::{ChatResponse, PageContext};

/// What a student says, turn after turn (a conversation takes the first
/// `turns` lines, wrapping around).
const SCRIPT: &[&str] = &[
    "我想考北京大学计算机系",
    "想做机器学习",
    "导师温和一点",
    "第一个导师怎么样",
    "他的学生评价呢",
    "第二个呢",
    "对比一下第一个和第二个",
    "整体情况怎么样",
    "推荐几个导师",
    "经费充足一点的",
    "算了，改成清华",
    "计算机",
    "排第一的是谁",
    "他的评价呢",
    "什么是985",
    "考研好焦虑",
    "说正事，帮我看看浙大软件工程",
    "第三个导师怎么样",
    "谢谢",
    "重新开始",
];

#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// A running site; `None` serves one in this process.
    pub url: Option<String>,
    pub sessions: usize,
    pub turns: usize,
    pub concurrency: usize,
}

impl Default for LoadConfig {
    fn default() -> Self {
        LoadConfig {
            url: None,
            sessions: 200,
            turns: 20,
            concurrency: 50,
        }
    }
}

impl From<crate::cli::commands::LoadArgs> for LoadConfig {
    fn from(args: crate::cli::commands::LoadArgs) -> Self {
        LoadConfig {
            url: args.url.map(|u| u.trim_end_matches('/').to_string()),
            sessions: args.sessions,
            turns: args.turns,
            concurrency: args.concurrency,
        }
    }
}

/// What a run measured.
#[derive(Debug, Default)]
pub struct LoadReport {
    pub turns: usize,
    pub errors: Vec<String>,
    pub missing: usize,
    pub elapsed: Duration,
    pub latencies: Vec<Duration>,
}

impl LoadReport {
    pub fn ok(&self) -> bool {
        self.errors.is_empty() && self.missing == 0
    }

    pub fn render(&self) -> String {
        let mut l = self.latencies.clone();
        let mut at = |p: f64| crate::latency::percentile(&mut l, p);
        let (p50, p95, p99, max) = (at(0.50), at(0.95), at(0.99), at(1.0));
        let mut out = format!(
            "turns {}  errors {}  turns not stored {}  elapsed {:.1?}\n\
             throughput {:.0} turns/s  latency p50 {:.1?}  p95 {:.1?}  p99 {:.1?}  max {:.1?}\n",
            self.turns,
            self.errors.len(),
            self.missing,
            self.elapsed,
            self.turns as f64 / self.elapsed.as_secs_f64().max(1e-9),
            p50,
            p95,
            p99,
            max,
        );
        for e in self.errors.iter().take(10) {
            out.push_str(&format!("  error: {e}\n"));
        }
        out
    }
}

/// One conversation: its turns' latencies, errors, and the session id.
async fn conversation(
    http: reqwest::Client,
    base: String,
    index: usize,
    turns: usize,
) -> (Vec<Duration>, Vec<String>, Option<String>) {
    let client = format!(
        "10.{}.{}.{}",
        64 + index / 65_536,
        index / 256 % 256,
        index % 256
    );
    let mut session: Option<String> = None;
    let mut page = PageContext::default();
    let (mut times, mut errors) = (Vec::new(), Vec::new());
    for t in 0..turns {
        let message = SCRIPT[t % SCRIPT.len()];
        let body =
            serde_json::json!({"session_id": session, "message": message, "page_context": page});
        let started = Instant::now();
        let sent = http
            .post(format!("{base}/api/v1/chat"))
            .header("x-forwarded-for", &client)
            .json(&body)
            .send()
            .await;
        let reply = match sent {
            Ok(r) if r.status().is_success() => {
                r.json::<ChatResponse>().await.map_err(|e| e.to_string())
            }
            Ok(r) => Err(format!(
                "{} {}",
                r.status(),
                r.text().await.unwrap_or_default()
            )),
            Err(e) => Err(e.to_string()),
        };
        times.push(started.elapsed());
        match reply {
            Ok(reply) => {
                if let Some(e) = &reply.error {
                    errors.push(format!(
                        "conversation {index} turn {t} «{message}»: {}",
                        e.code
                    ));
                }
                session = Some(reply.session_id.clone());
                page = app::reply::page_after(&page, &reply.tool_calls);
            }
            Err(e) => errors.push(format!("conversation {index} turn {t} «{message}»: {e}")),
        }
    }
    (times, errors, session)
}

/// Runs the load against `base` (a site's root URL).
pub async fn run_against(base: &str, config: &LoadConfig) -> LoadReport {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(config.concurrency)
        .timeout(Duration::from_secs(60))
        .build()
        .expect("an HTTP client");
    let gate = Arc::new(tokio::sync::Semaphore::new(config.concurrency));
    let started = Instant::now();
    let mut set = tokio::task::JoinSet::new();
    for i in 0..config.sessions {
        let (http, base, gate) = (http.clone(), base.to_string(), gate.clone());
        let turns = config.turns;
        set.spawn(async move {
            let _permit = gate.acquire_owned().await.expect("the gate stays open");
            conversation(http, base, i, turns).await
        });
    }
    let mut report = LoadReport::default();
    let mut sessions = Vec::new();
    while let Some(done) = set.join_next().await {
        let (times, errors, session) = done.unwrap_or_default();
        report.turns += times.len();
        report.latencies.extend(times);
        report.errors.extend(errors);
        sessions.extend(session);
    }
    report.elapsed = started.elapsed();
    // Every turn stored: each conversation read back has one student line per turn.
    for id in sessions {
        let stored = match http.get(format!("{base}/api/v1/chat/{id}")).send().await {
            Ok(r) => r.json::<ChatHistory>().await.ok(),
            Err(_) => None,
        };
        let lines = stored
            .map(|h| h.messages.iter().filter(|m| m.role == "user").count())
            .unwrap_or(0);
        report.missing += config.turns.saturating_sub(lines);
    }
    report
}

/// Runs the load, serving the site in this process when no URL is given.
pub async fn run(config: &LoadConfig) -> Result<LoadReport, String> {
    if let Some(url) = &config.url {
        return Ok(run_against(url, config).await);
    }
    let dir = std::env::temp_dir().join(format!("advisor-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let url = format!("sqlite://{}/load.db", dir.display());
    // Its own temporary database, always with the demo (whatever DEMO_DATA says).
    let (pool, _) = crate::startup::open_with(&url, crate::startup::Seeding::Demo)
        .await
        .map_err(|e| e.to_string())?;
    let site = Arc::new(
        crate::site::Site::load(pool.clone())
            .await
            .map_err(|e| e.to_string())?,
    );
    let (addr, server) = crate::serve_on_loopback(site).await?;
    println!(
        "site on http://{addr}: {} conversations × {} turns, {} at a time",
        config.sessions, config.turns, config.concurrency
    );
    let report = run_against(&format!("http://{addr}"), config).await;
    server.abort();
    pool.close().await;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(report)
}
