//! `kill -9` during concurrent review writes: the real server binary on a
//! file database, writers posting from many clients, the process killed
//! without warning, then started again on the same file. Every review that
//! was acknowledged (201) must be there, and every aggregate must equal a
//! recomputation from the reviews — a write is all there or not at all.
//! On PostgreSQL (`TEST_DATABASE=postgres`) the same, with the server on a
//! database of the test's cluster.

use crate::common;
use crate::common::binary::{self, Server};

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

async fn start(db: &str, dir: &std::path::Path) -> Server {
    let port = binary::free_port();
    let mut command = Command::new(env!("CARGO_BIN_EXE_server"));
    command
        .env("DATABASE_URL", db)
        .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
        .env("LEPTOS_SITE_ROOT", dir)
        .env("LEPTOS_OUTPUT_NAME", "advisor-review")
        .env("TRUSTED_PROXIES", "127.0.0.1")
        .env("RUST_LOG", "warn")
        .env_remove("ADMIN_TOKEN")
        .env_remove("LLM_BASE_URL")
        .env_remove("LLM_API_KEY")
        .env_remove("LLM_MODEL")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    binary::start(command, port).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_acknowledged_review_survives_kill_9() {
    let dir = std::env::temp_dir().join(format!("advisor-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = common::database::empty_database(&dir, "crash");

    let mut server = start(&db, &dir).await;
    let client = reqwest::Client::new();
    let ranking: serde_json::Value = client
        .get(format!(
            "{}/api/v1/advisors?school=%E5%8C%97%E4%BA%AC%E5%A4%A7%E5%AD%A6&major=%E8%AE%A1%E7%AE%97%E6%9C%BA",
            server.base
        ))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let advisors: Vec<String> = ranking["advisors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap().to_string())
        .collect();
    assert!(!advisors.is_empty());

    // Writers post until the process dies under them.
    let acked = Arc::new(Mutex::new(Vec::<i64>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let n = Arc::new(AtomicU32::new(0));
    let mut writers = Vec::new();
    for _ in 0..8 {
        let (acked, stop, n) = (acked.clone(), stop.clone(), n.clone());
        let (base, advisors, client) = (server.base.clone(), advisors.clone(), client.clone());
        writers.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let i = n.fetch_add(1, Ordering::Relaxed);
                let advisor = &advisors[i as usize % advisors.len()];
                let body = serde_json::json!({
                    "ratings": {"academic": 1 + i % 5, "funding": 1 + (i / 5) % 5,
                                "relationship": 1 + (i / 25) % 5, "prospects": 3, "overall": 1 + (i / 3) % 5},
                    "tags": ["负责"],
                    "text": format!("第{i}条压力测试评价：导师指导认真，组会规律，经费情况说得过去。"),
                    "relation": "在读",
                });
                let sent = client
                    .post(format!("{base}/api/v1/advisors/{advisor}/reviews"))
                    .header("x-forwarded-for", format!("10.{}.{}.{}", 20 + i / 65_536, i / 256 % 256, i % 256))
                    .json(&body)
                    .timeout(Duration::from_secs(10))
                    .send()
                    .await;
                match sent {
                    Ok(r) if r.status().as_u16() == 201 => {
                        if let Ok(v) = r.json::<serde_json::Value>().await {
                            if let Some(id) = v["review"]["id"].as_str().and_then(|s| s.parse().ok()) {
                                acked.lock().unwrap().push(id);
                            }
                        }
                    }
                    Ok(r) => {
                        let status = r.status();
                        assert!(status.as_u16() < 500, "a writer got {status}");
                    }
                    // The process is gone.
                    Err(_) => break,
                }
            }
        }));
    }
    // Let them write for a while, then pull the plug mid-flight.
    let deadline = Instant::now() + Duration::from_secs(30);
    while acked.lock().unwrap().len() < 60 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.child.kill().expect("kill -9"); // SIGKILL on Unix
    let _ = server.child.wait();
    stop.store(true, Ordering::Relaxed);
    for w in writers {
        w.await.unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.len() >= 10,
        "only {} writes before the kill",
        acked.len()
    );
    println!("{} reviews acknowledged before kill -9", acked.len());

    // Started again on the same file: it opens, and answers.
    let again = start(&db, &dir).await;
    drop(again);

    let pool = server::db::connect(&db).await.unwrap();
    let mut conn = pool.acquire().await.unwrap();
    for id in &acked {
        let found: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reviews WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(found, 1, "acknowledged review {id} is gone");
    }
    let drift = server::store::aggregate_drift(&mut conn, 3).await.unwrap();
    assert!(drift.is_empty(), "aggregates drifted: {drift:?}");
    drop(conn);
    pool.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
