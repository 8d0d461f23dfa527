//! A full disk under the real binary, for real: the SQLite database on a
//! small filesystem of its own (a `tmpfs` with a size), reviews and chat
//! turns posted from many clients while a filler file takes the last free
//! byte, then the filler removed — the filesystem has room again — while
//! the writers go on. What must hold:
//!
//! - while full: reads and `/readyz` answer; a refused write is 503, never
//!   500; a chat turn that could not be stored is not answered 200; no
//!   request takes longer than the request deadline;
//! - once there is room: writes resume within seconds, without a restart
//!   (a connection whose transaction failed is closed, not handed back to
//!   the pool still inside it);
//! - every acknowledged review (201) and every acknowledged turn (200) is
//!   in the database afterwards, and the aggregates equal a recomputation.
//!
//! A disk that stalls (`fsfreeze` on an ext4 loop mount: every write
//! blocks for 8 s) is the second test: every request still answers within
//! the deadline, nothing is refused once the disk answers, nothing
//! acknowledged is lost.
//!
//! They mount filesystems, so they need root: `make faults` runs them
//! (`--ignored`). `FAULT_SERVER` runs another build of the binary (the
//! numbers before a fix).

use crate::common::binary::{self, Server};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// No request may take longer than the site's deadline.
const DEADLINE: Duration = Duration::from_secs(30);

/// A tmpfs of `megabytes` at a fresh mount point, unmounted when dropped.
pub(crate) struct SmallDisk {
    pub at: PathBuf,
}

impl SmallDisk {
    pub fn mount(megabytes: u32) -> Option<SmallDisk> {
        // One per test, even when tests of one process run side by side.
        static N: AtomicU32 = AtomicU32::new(0);
        let at = std::env::temp_dir().join(format!(
            "advisor-small-disk-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&at).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}M"), "tmpfs"])
            .arg(&at)
            .status()
            .ok()?
            .success();
        ok.then_some(SmallDisk { at })
    }

    /// Fills every free byte with `filler`.
    pub fn fill(&self) -> PathBuf {
        let path = self.at.join("filler");
        let mut f = std::fs::File::create(&path).unwrap();
        for chunk in [1 << 20, 4096, 512, 1] {
            let bytes = vec![0u8; chunk];
            while f.write_all(&bytes).is_ok() {}
        }
        let _ = f.sync_all();
        path
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.at).status();
        let _ = std::fs::remove_dir(&self.at);
    }
}

pub(crate) fn server_binary() -> PathBuf {
    std::env::var_os("FAULT_SERVER")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_server")))
}

async fn start(db: &str, root: &Path) -> Server {
    let port = binary::free_port();
    let mut command = Command::new(server_binary());
    command
        .env("DATABASE_URL", db)
        .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
        .env("LEPTOS_SITE_ROOT", root)
        .env("LEPTOS_OUTPUT_NAME", "advisor-review")
        .env("TRUSTED_PROXIES", "127.0.0.1")
        .env("CHAT_TURNS_PER_MINUTE", "100000")
        .env("RUST_LOG", "error")
        .env_remove("ADMIN_TOKEN")
        .env_remove("LLM_BASE_URL")
        .env_remove("LLM_API_KEY")
        .env_remove("LLM_MODEL")
        .stdout(Stdio::null())
        // Every refused write is logged; thousands of lines say nothing here.
        .stderr(Stdio::null());
    binary::start(command, port).await
}

/// What the writers saw, with when.
#[derive(Default)]
pub(crate) struct Seen {
    pub reviews: Vec<i64>,
    pub turns: Vec<String>,
    /// (when, status) of every write answered otherwise than 201/200.
    pub refused: Vec<(Instant, u16)>,
    /// When each acknowledged write was answered.
    pub acked_at: Vec<Instant>,
    pub slowest: Duration,
    pub five_hundreds: Vec<String>,
    pub turns_200_with_error: u32,
}

/// Writers posting reviews and chat turns to `base` from many clients
/// until stopped (the disk-full and the PostgreSQL faults share them).
pub(crate) struct Load {
    pub seen: Arc<Mutex<Seen>>,
    stop: Arc<AtomicBool>,
    writers: Vec<tokio::task::JoinHandle<()>>,
}

impl Load {
    pub fn start(base: &str, advisors: Vec<String>) -> Load {
        let client = reqwest::Client::new();
        let base = base.to_string();
        let seen = Arc::new(Mutex::new(Seen::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let n = Arc::new(AtomicU32::new(0));
        let mut writers = Vec::new();
        for w in 0..6 {
            let (seen, stop, n, client, base, advisors) = (
                seen.clone(),
                stop.clone(),
                n.clone(),
                client.clone(),
                base.clone(),
                advisors.clone(),
            );
            writers.push(tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let i = n.fetch_add(1, Ordering::Relaxed);
                    let forwarded = format!("10.{}.{}.{}", 30 + i / 65_536, i / 256 % 256, i % 256);
                    let started = Instant::now();
                    let (status, body, is_turn) = if w % 3 == 2 {
                        let r = client
                            .post(format!("{base}/api/v1/chat"))
                            .header("x-forwarded-for", &forwarded)
                            .json(&serde_json::json!({"message": "北京大学计算机系有哪些导师"}))
                            .timeout(DEADLINE + Duration::from_secs(5))
                            .send()
                            .await;
                        let r = match r {
                            Ok(r) => r,
                            Err(e) => {
                                seen.lock().unwrap().five_hundreds.push(format!("no answer: {e}"));
                                continue;
                            }
                        };
                        let status = r.status().as_u16();
                        (status, r.json::<serde_json::Value>().await.unwrap_or_default(), true)
                    } else {
                        let advisor = &advisors[i as usize % advisors.len()];
                        let body = serde_json::json!({
                            "ratings": {"academic": 1 + i % 5, "funding": 1 + (i / 5) % 5,
                                        "relationship": 1 + (i / 25) % 5, "prospects": 3, "overall": 1 + (i / 3) % 5},
                            "tags": ["负责"],
                            "text": format!("第{i}条磁盘测试评价：导师指导认真，组会规律，经费情况说得过去，毕业要求明确。"),
                            "relation": "在读",
                        });
                        let r = client
                            .post(format!("{base}/api/v1/advisors/{advisor}/reviews"))
                            .header("x-forwarded-for", &forwarded)
                            .json(&body)
                            .timeout(DEADLINE + Duration::from_secs(5))
                            .send()
                            .await;
                        let r = match r {
                            Ok(r) => r,
                            Err(e) => {
                                seen.lock().unwrap().five_hundreds.push(format!("no answer: {e}"));
                                continue;
                            }
                        };
                        let status = r.status().as_u16();
                        (status, r.json::<serde_json::Value>().await.unwrap_or_default(), false)
                    };
                    let took = started.elapsed();
                    let now = Instant::now();
                    let mut s = seen.lock().unwrap();
                    s.slowest = s.slowest.max(took);
                    if status >= 500 && status != 503 {
                        s.five_hundreds.push(format!("{status} {body}"));
                    }
                    match (is_turn, status) {
                        (false, 201) => {
                            if let Some(id) = body["review"]["id"].as_str().and_then(|s| s.parse().ok()) {
                                s.reviews.push(id);
                            }
                            s.acked_at.push(now);
                        }
                        (true, 200) => {
                            if body["error"].is_object() {
                                s.turns_200_with_error += 1;
                                s.refused.push((now, status));
                            } else {
                                if let Some(id) = body["session_id"].as_str() {
                                    s.turns.push(id.to_string());
                                }
                                s.acked_at.push(now);
                            }
                        }
                        _ => s.refused.push((now, status)),
                    }
                }
            }));
        }

        Load {
            seen,
            stop,
            writers,
        }
    }

    pub async fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        for w in self.writers {
            w.await.unwrap();
        }
    }
}

/// The advisors of the largest ranking of the demo (北京大学 / 计算机).
pub(crate) async fn advisors(base: &str) -> Vec<String> {
    let ranking: serde_json::Value = reqwest::get(format!(
        "{base}/api/v1/advisors?school=%E5%8C%97%E4%BA%AC%E5%A4%A7%E5%AD%A6&major=%E8%AE%A1%E7%AE%97%E6%9C%BA"
    ))
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    ranking["advisors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "mounts a filesystem (root): make faults"]
async fn sqlite_on_a_full_disk_refuses_writes_then_resumes_without_a_restart() {
    let Some(disk) = SmallDisk::mount(48) else {
        panic!("mount -t tmpfs failed: run as root (make faults)");
    };
    let root = disk.at.join("site");
    std::fs::create_dir_all(&root).unwrap();
    let db = format!("sqlite://{}", disk.at.join("advisor.db").display());
    let server = start(&db, &root).await;
    let client = reqwest::Client::new();
    let base = server.base.clone();
    let advisors = advisors(&base).await;

    let filler = disk.fill();
    let load = Load::start(&base, advisors.clone());
    let seen = load.seen.clone();

    // Full: wait for refusals, and keep the disk full a few seconds more.
    let full_since = Instant::now();
    while seen.lock().unwrap().refused.is_empty() && full_since.elapsed() < Duration::from_secs(60)
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        !seen.lock().unwrap().refused.is_empty(),
        "the writes never failed: the disk did not fill"
    );
    tokio::time::sleep(Duration::from_secs(3)).await;
    let ready_while_full = client
        .get(format!("{base}/readyz"))
        .send()
        .await
        .unwrap()
        .status();
    let read_while_full = client
        .get(format!("{base}/api/v1/advisors/{}", advisors[0]))
        .send()
        .await
        .unwrap()
        .status();

    // Room again.
    std::fs::remove_file(&filler).unwrap();
    let freed = Instant::now();
    tokio::time::sleep(Duration::from_secs(8)).await;
    load.stop().await;
    let ready_after = client
        .get(format!("{base}/readyz"))
        .send()
        .await
        .unwrap()
        .status();
    let s = std::mem::take(&mut *seen.lock().unwrap());
    let refused_full = s.refused.iter().filter(|(t, _)| *t < freed).count();
    let refused_after: Vec<&(Instant, u16)> =
        s.refused.iter().filter(|(t, _)| *t >= freed).collect();
    let first_ack_after = s
        .acked_at
        .iter()
        .filter(|t| **t >= freed)
        .min()
        .map(|t| t.duration_since(freed));
    let last_refusal_after = refused_after
        .iter()
        .map(|(t, _)| t.duration_since(freed))
        .max();
    let acked_after = s.acked_at.iter().filter(|t| **t >= freed).count();
    println!(
        "disk full: {refused_full} writes refused while full (statuses {:?}); /readyz {ready_while_full}, \
         a read {read_while_full}; after room was made: {} refused, the last {:?} after, \
         first acknowledged write after {:?}, {acked_after} acknowledged in 8 s; /readyz {ready_after}; \
         {} reviews and {} turns acknowledged in all; slowest request {:?}; chat turns answered 200 with an error: {}",
        s.refused.iter().map(|(_, c)| *c).collect::<std::collections::BTreeSet<_>>(),
        refused_after.len(),
        last_refusal_after,
        first_ack_after,
        s.reviews.len(),
        s.turns.len(),
        s.slowest,
        s.turns_200_with_error,
    );
    drop(server);

    assert!(s.five_hundreds.is_empty(), "500s: {:?}", s.five_hundreds);
    assert!(s.slowest < DEADLINE, "a request took {:?}", s.slowest);
    assert_eq!(
        s.turns_200_with_error, 0,
        "a turn that was not stored was answered 200"
    );
    assert_eq!(
        ready_while_full.as_u16(),
        200,
        "reads still work on a full disk"
    );
    assert_eq!(read_while_full.as_u16(), 200);
    assert_eq!(ready_after.as_u16(), 200);
    let first = first_ack_after.expect("no write succeeded after the disk had room again");
    assert!(
        first < Duration::from_secs(5),
        "writes resumed only after {first:?}"
    );
    assert!(
        last_refusal_after.is_none_or(|t| t < Duration::from_secs(5)),
        "writes were still refused {last_refusal_after:?} after the disk had room"
    );

    // Every acknowledged write is there.
    let pool = server::db::connect(&db).await.unwrap();
    let mut conn = pool.acquire().await.unwrap();
    for id in &s.reviews {
        let found: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reviews WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(found, 1, "acknowledged review {id} is gone");
    }
    for session in &s.turns {
        let found: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM chat_sessions WHERE id = $1")
            .bind(session)
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(found, 1, "acknowledged turn of {session} is gone");
    }
    let drift = server::store::aggregate_drift(&mut conn, 3).await.unwrap();
    assert!(drift.is_empty(), "aggregates drifted: {drift:?}");
    drop(conn);
    pool.close().await;
}

/// An ext4 filesystem on a loop device (a file), which `fsfreeze` can
/// stall: every write blocks in the kernel until it is thawed, as on a
/// disk that stops answering for a while.
struct LoopDisk {
    at: PathBuf,
    image: PathBuf,
}

impl LoopDisk {
    fn mount(megabytes: u32) -> LoopDisk {
        let base = std::env::temp_dir().join(format!("advisor-slow-disk-{}", std::process::id()));
        let image = base.with_extension("img");
        let at = base;
        std::fs::create_dir_all(&at).unwrap();
        let file = std::fs::File::create(&image).unwrap();
        file.set_len(u64::from(megabytes) << 20).unwrap();
        let ok = |c: &mut Command| c.status().map(|s| s.success()).unwrap_or(false);
        assert!(
            ok(Command::new("mkfs.ext4").arg("-q").arg(&image)),
            "mkfs.ext4"
        );
        assert!(
            ok(Command::new("mount")
                .arg("-o")
                .arg("loop")
                .arg(&image)
                .arg(&at)),
            "mount -o loop (root: make faults)"
        );
        LoopDisk { at, image }
    }

    fn freeze(&self, frozen: bool) {
        let flag = if frozen { "-f" } else { "-u" };
        let done = Command::new("fsfreeze")
            .arg(flag)
            .arg(&self.at)
            .status()
            .unwrap();
        assert!(done.success(), "fsfreeze {flag}");
    }
}

impl Drop for LoopDisk {
    fn drop(&mut self) {
        // Thawed already unless the test failed mid-stall.
        let _ = Command::new("fsfreeze")
            .arg("-u")
            .arg(&self.at)
            .stderr(Stdio::null())
            .status();
        let _ = Command::new("umount").arg("-l").arg(&self.at).status();
        let _ = std::fs::remove_dir(&self.at);
        let _ = std::fs::remove_file(&self.image);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "mounts and freezes a filesystem (root): make faults"]
async fn sqlite_on_a_disk_that_stalls_answers_within_the_deadline_and_loses_nothing() {
    let disk = LoopDisk::mount(160);
    let root = disk.at.join("site");
    std::fs::create_dir_all(&root).unwrap();
    let db = format!("sqlite://{}", disk.at.join("advisor.db").display());
    let server = start(&db, &root).await;
    let base = server.base.clone();
    let advisors = advisors(&base).await;
    let load = Load::start(&base, advisors.clone());
    let seen = load.seen.clone();
    tokio::time::sleep(Duration::from_secs(2)).await;

    // Eight seconds in which no write reaches the disk.
    disk.freeze(true);
    let stalled = Instant::now();
    tokio::time::sleep(Duration::from_secs(4)).await;
    let client = reqwest::Client::new();
    let started = Instant::now();
    let ready = client
        .get(format!("{base}/readyz"))
        .timeout(DEADLINE)
        .send()
        .await
        .map(|r| r.status().as_u16())
        .unwrap_or(0);
    let ready_took = started.elapsed();
    tokio::time::sleep(Duration::from_secs(4).saturating_sub(ready_took)).await;
    disk.freeze(false);
    let thawed = Instant::now();
    tokio::time::sleep(Duration::from_secs(8)).await;
    load.stop().await;
    let s = std::mem::take(&mut *seen.lock().unwrap());
    drop(server);

    let acked_during = s
        .acked_at
        .iter()
        .filter(|t| **t >= stalled && **t < thawed)
        .count();
    let first_after = s
        .acked_at
        .iter()
        .filter(|t| **t >= thawed)
        .min()
        .map(|t| t.duration_since(thawed));
    let refused_after = s
        .refused
        .iter()
        .filter(|(t, _)| *t >= thawed + Duration::from_secs(2))
        .count();
    println!(
        "stalled disk (8 s): /readyz answered {ready} in {ready_took:?} meanwhile; {acked_during} writes \
         acknowledged and {} refused during the stall; after it the first acknowledged write {first_after:?} \
         after, {refused_after} refused from 2 s on; {} reviews and {} turns acknowledged; slowest request {:?}",
        s.refused.iter().filter(|(t, _)| *t >= stalled && *t < thawed).count(),
        s.reviews.len(),
        s.turns.len(),
        s.slowest
    );
    assert!(s.five_hundreds.is_empty(), "{:?}", s.five_hundreds);
    assert!(s.slowest < DEADLINE, "a request took {:?}", s.slowest);
    assert_eq!(s.turns_200_with_error, 0);
    assert!(
        ready_took < Duration::from_secs(6),
        "/readyz took {ready_took:?}"
    );
    assert!(
        first_after.is_some_and(|t| t < Duration::from_secs(5)),
        "{first_after:?}"
    );
    assert_eq!(
        refused_after, 0,
        "writes still refused after the disk answered again"
    );

    let pool = server::db::connect(&db).await.unwrap();
    for id in &s.reviews {
        let found: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reviews WHERE id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(found, 1, "acknowledged review {id} is gone");
    }
    let mut conn = pool.acquire().await.unwrap();
    let drift = server::store::aggregate_drift(&mut conn, 3).await.unwrap();
    assert!(drift.is_empty(), "aggregates drifted: {drift:?}");
    drop(conn);
    pool.close().await;
}
