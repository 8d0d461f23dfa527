//! Stopping the real binary: SIGTERM while a streaming turn is in flight.
//! The server stops taking connections, lets the turn stream to its end,
//! and exits 0; past `SHUTDOWN_GRACE_SECS` it exits 0 anyway, cutting off
//! what is still running.

use crate::common;
use crate::common::binary::{self, Server};

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

/// The binary on a free port over a copy of the demo, its model the
/// scripted one at `model`.
async fn start(model: &str, grace_secs: u64) -> Server {
    let port = binary::free_port();
    let root = std::env::temp_dir().join(format!("advisor-shutdown-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_server"));
    command
        .env("DATABASE_URL", common::demo_copy_url())
        .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
        .env("LEPTOS_SITE_ROOT", &root)
        .env("LEPTOS_OUTPUT_NAME", "advisor-review")
        .env("LLM_BASE_URL", model)
        .env("LLM_API_KEY", "sk-test")
        .env("LLM_MODEL", "scripted")
        .env("SHUTDOWN_GRACE_SECS", grace_secs.to_string())
        .env("RUST_LOG", "warn")
        .env_remove("METRICS_ADDR")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    binary::start(command, port).await
}

fn sigterm(server: &Server) {
    let pid = libc::pid_t::try_from(server.child.id()).expect("a pid");
    // SAFETY: kill(2) on the pid of a child this test started and has not
    // yet reaped; it cannot name another process.
    let sent = unsafe { libc::kill(pid, libc::SIGTERM) };
    assert_eq!(sent, 0, "SIGTERM sent");
}

/// The exit status, within `bound`.
async fn exit_within(server: &mut Server, bound: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + bound;
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            return status;
        }
        assert!(
            Instant::now() < deadline,
            "the server did not exit within {bound:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Starts a streamed turn the scripted model answers slowly; returns the
/// response once the first spoken piece has arrived, and what was read.
async fn turn_in_flight(base: &str) -> (reqwest::Response, String) {
    let mut response = reqwest::Client::new()
        .post(format!("{base}/api/v1/chat/stream"))
        .json(&json!({"message": "读研期间能出国交换吗", "page_context": {"current_page": "home"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let mut seen = String::new();
    while !seen.contains("event: voice") {
        let chunk = response.chunk().await.unwrap().expect("the stream goes on");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(!seen.contains("event: reply"), "the turn is still running");
    (response, seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_a_streaming_turn_finish_then_exits_0() {
    // About 2 s of streamed words: the turn is surely running at SIGTERM.
    let model = common::scripted(json!([
        {"chunk_chars": 2, "chunk_delay_ms": 120, "reply": {
            "content": "好的。读研期间一般可以申请出国交换，具体要看学校和导师的安排。"}}
    ]))
    .await;
    let mut server = start(&model.base_url(), 20).await;
    let (mut response, mut seen) = turn_in_flight(&server.base).await;
    let stopped_at = Instant::now();
    sigterm(&server);
    while let Some(chunk) = response.chunk().await.expect("the stream is not cut") {
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(
        seen.contains("event: reply"),
        "the turn ran to its end:\n{seen}"
    );
    assert!(
        stopped_at.elapsed() > Duration::from_millis(300),
        "the turn was still streaming when the signal came"
    );
    let status = exit_within(&mut server, Duration::from_secs(15)).await;
    assert_eq!(status.code(), Some(0), "{status}");
    // Nothing listens any more.
    assert!(reqwest::Client::new()
        .get(format!("{}/healthz", server.base))
        .timeout(Duration::from_secs(2))
        .send()
        .await
        .is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_grace_the_server_exits_0_anyway() {
    // A turn far longer than the one second of grace.
    let model = common::scripted(json!([
        {"chunk_chars": 1, "chunk_delay_ms": 400, "reply": {
            "content": "好的。读研期间一般可以申请出国交换，具体要看学校和导师的安排。"}}
    ]))
    .await;
    let mut server = start(&model.base_url(), 1).await;
    let (_response, _) = turn_in_flight(&server.base).await;
    let stopped_at = Instant::now();
    sigterm(&server);
    let status = exit_within(&mut server, Duration::from_secs(10)).await;
    assert_eq!(status.code(), Some(0), "{status}");
    let took = stopped_at.elapsed();
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(6),
        "exited {took:?} after SIGTERM with 1 s of grace"
    );
}
