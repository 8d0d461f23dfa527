//! PostgreSQL failing under the real binary, for real, on a cluster of the
//! test's own (so that stopping it touches nothing else):
//!
//! - crashed (`pg_ctl stop -m immediate`, what a killed server or a lost
//!   machine does) and started again a few seconds later, under writers;
//! - full: the site's database in a tablespace on a small tmpfs, filled to
//!   the last byte under writers, then given room.
//!
//! For each: no 500 and no request over the deadline while it lasts,
//! `/readyz` 503 while the database is gone and 200 once it is back,
//! writes resuming within seconds of the end of the fault without a
//! restart of the site, and every acknowledged review and turn in the
//! database afterwards. `make faults` runs them (`--ignored`): they start
//! clusters and mount a filesystem, as root. `FAULT_SERVER` runs another
//! build of the binary (the numbers before a fix). A database unreachable
//! mid-run is the crash's five seconds; unreachable at start is
//! `operator.rs`.

use crate::common::binary::{self, Server};
use crate::common::database::{as_cluster_owner, bin, is_root, run};
use crate::disk_full::{advisors, Load, Seen};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DEADLINE: Duration = Duration::from_secs(30);

/// A cluster of this test's own, stopped and removed when dropped.
struct Cluster {
    dir: PathBuf,
    port: u16,
}

impl Cluster {
    fn start(name: &str) -> Cluster {
        let dir =
            std::env::temp_dir().join(format!("advisor-pg-fault-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if is_root() {
            run(
                {
                    let mut c = Command::new("chown");
                    c.args(["-R", "postgres"]).arg(&dir);
                    c
                },
                "chown",
            );
        }
        let mut initdb = as_cluster_owner(&bin("initdb"));
        initdb.arg("-D").arg(dir.join("data")).args([
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--locale=C",
        ]);
        run(initdb, "initdb");
        let cluster = Cluster {
            dir,
            port: binary::free_port(),
        };
        cluster.up();
        cluster.psql("CREATE DATABASE advisor");
        cluster
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/advisor", self.port)
    }

    fn pg_ctl(&self, args: &[&str]) -> Command {
        let mut c = as_cluster_owner(&bin("pg_ctl"));
        c.arg("-D").arg(self.dir.join("data")).args(args);
        c
    }

    fn up(&self) {
        // Durable as in production: fsync and synchronous commit on.
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=100",
            self.port,
            self.dir.display()
        );
        let mut start = self.pg_ctl(&["-w", "-t", "60", "-o", &options, "-l"]);
        start.arg(self.dir.join("log")).arg("start");
        run(start, "pg_ctl start");
    }

    /// What a crash does: no checkpoint, no goodbye to the clients.
    fn crash(&self) {
        run(
            self.pg_ctl(&["-m", "immediate", "stop"]),
            "pg_ctl stop -m immediate",
        );
    }

    fn psql(&self, sql: &str) {
        let out = Command::new(bin("psql"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string()])
            .args([
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-v",
                "ON_ERROR_STOP=1",
                "-q",
                "-c",
                sql,
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.pg_ctl(&["-m", "immediate", "stop"]).output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

async fn serve(db: &str, root: &Path) -> Server {
    let port = binary::free_port();
    let mut command = Command::new(crate::disk_full::server_binary());
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
        .stderr(Stdio::null());
    binary::start(command, port).await
}

/// Polls `/readyz` every 200 ms until `stop`, noting each answer.
fn watch_readiness(
    base: String,
    until: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> tokio::task::JoinHandle<Vec<(Instant, u16)>> {
    tokio::spawn(async move {
        let client = reqwest::Client::new();
        let mut seen = Vec::new();
        while !until.load(std::sync::atomic::Ordering::Relaxed) {
            let status = client
                .get(format!("{base}/readyz"))
                .timeout(Duration::from_secs(5))
                .send()
                .await
                .map(|r| r.status().as_u16())
                .unwrap_or(0);
            seen.push((Instant::now(), status));
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        seen
    })
}

/// The fault's numbers, printed, and what must hold of them.
async fn judge(what: &str, s: &Seen, fault_start: Instant, fault_end: Instant, db: &str) {
    let during = s
        .refused
        .iter()
        .filter(|(t, _)| *t >= fault_start && *t < fault_end)
        .count();
    let after: Vec<Duration> = s
        .refused
        .iter()
        .filter(|(t, _)| *t >= fault_end)
        .map(|(t, _)| t.duration_since(fault_end))
        .collect();
    let first_ack = s
        .acked_at
        .iter()
        .filter(|t| **t >= fault_end)
        .min()
        .map(|t| t.duration_since(fault_end));
    let statuses: std::collections::BTreeSet<u16> = s.refused.iter().map(|(_, c)| *c).collect();
    println!(
        "{what}: {during} writes refused during the fault (statuses {statuses:?}); after it: {} refused, \
         the last {:?} after, the first acknowledged write {:?} after; {} reviews and {} turns \
         acknowledged in all; slowest request {:?}",
        after.len(),
        after.iter().max(),
        first_ack,
        s.reviews.len(),
        s.turns.len(),
        s.slowest,
    );
    assert!(s.five_hundreds.is_empty(), "{what}: {:?}", s.five_hundreds);
    assert!(
        s.slowest < DEADLINE,
        "{what}: a request took {:?}",
        s.slowest
    );
    assert_eq!(
        s.turns_200_with_error, 0,
        "{what}: an unsaved turn answered 200"
    );
    let first_ack =
        first_ack.unwrap_or_else(|| panic!("{what}: no write succeeded after the fault"));
    assert!(
        first_ack < Duration::from_secs(10),
        "{what}: writes resumed after {first_ack:?}"
    );
    assert!(
        after.iter().all(|t| *t < Duration::from_secs(10)),
        "{what}: writes still refused {:?} after the fault",
        after.iter().max()
    );
    let pool = server::db::connect(db).await.unwrap();
    for id in &s.reviews {
        let found: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reviews WHERE id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(found, 1, "{what}: acknowledged review {id} is gone");
    }
    for session in &s.turns {
        let found: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM chat_sessions WHERE id = $1")
            .bind(session)
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(found, 1, "{what}: acknowledged turn of {session} is gone");
    }
    let mut conn = pool.acquire().await.unwrap();
    let drift = server::store::aggregate_drift(&mut conn, 3).await.unwrap();
    assert!(drift.is_empty(), "{what}: aggregates drifted: {drift:?}");
    drop(conn);
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "starts and crashes a PostgreSQL cluster: make faults"]
async fn postgres_crashed_and_restarted_under_writers_is_survived_without_a_restart() {
    let cluster = Cluster::start("crash");
    let root = cluster.dir.join("site");
    std::fs::create_dir_all(&root).unwrap();
    let server = serve(&cluster.url(), &root).await;
    let base = server.base.clone();
    let load = Load::start(&base, advisors(&base).await);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let ready = watch_readiness(base.clone(), stop.clone());
    tokio::time::sleep(Duration::from_secs(3)).await;

    let seen = load.seen.clone();
    let crashed = Instant::now();
    cluster.crash();
    tokio::time::sleep(Duration::from_secs(5)).await;
    cluster.up();
    let back = Instant::now();
    tokio::time::sleep(Duration::from_secs(10)).await;
    load.stop().await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let ready = ready.await.unwrap();
    let s = std::mem::take(&mut *seen.lock().unwrap());
    drop(server);

    // /readyz: 503 while the database was gone, 200 again soon after.
    let while_down: Vec<u16> = ready
        .iter()
        .filter(|(t, _)| *t > crashed + Duration::from_secs(1) && *t < back)
        .map(|(_, c)| *c)
        .collect();
    let ready_again = ready
        .iter()
        .find(|(t, c)| *t >= back && *c == 200)
        .map(|(t, _)| t.duration_since(back));
    println!("/readyz while PostgreSQL was down: {while_down:?}; 200 again {ready_again:?} after it was back");
    assert!(
        !while_down.is_empty() && while_down.iter().all(|c| *c == 503),
        "{while_down:?}"
    );
    assert!(
        ready_again.is_some_and(|t| t < Duration::from_secs(5)),
        "{ready_again:?}"
    );
    judge(
        "PostgreSQL crashed for 5 s",
        &s,
        crashed,
        back,
        &cluster.url(),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "mounts a filesystem and starts a PostgreSQL cluster (root): make faults"]
async fn postgres_on_a_full_tablespace_refuses_writes_then_resumes_without_a_restart() {
    let cluster = Cluster::start("full");
    let disk = crate::disk_full::SmallDisk::mount(160).expect("mount -t tmpfs (root)");
    let space = disk.at.join("tablespace");
    std::fs::create_dir_all(&space).unwrap();
    run(
        {
            let mut c = Command::new("chown");
            c.args(["-R", "postgres"]).arg(&space);
            c
        },
        "chown",
    );
    cluster.psql(&format!(
        "CREATE TABLESPACE small LOCATION '{}'",
        space.display()
    ));
    cluster.psql("ALTER DATABASE advisor SET TABLESPACE small");
    let root = cluster.dir.join("site");
    std::fs::create_dir_all(&root).unwrap();
    let server = serve(&cluster.url(), &root).await;
    let base = server.base.clone();
    let advisors = advisors(&base).await;

    let filler = disk.fill();
    let full = Instant::now();
    let load = Load::start(&base, advisors.clone());
    let seen = load.seen.clone();
    while seen.lock().unwrap().refused.is_empty() && full.elapsed() < Duration::from_secs(60) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        !seen.lock().unwrap().refused.is_empty(),
        "the writes never failed"
    );
    tokio::time::sleep(Duration::from_secs(3)).await;
    let client = reqwest::Client::new();
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
    std::fs::remove_file(&filler).unwrap();
    let freed = Instant::now();
    tokio::time::sleep(Duration::from_secs(8)).await;
    load.stop().await;
    let s = std::mem::take(&mut *seen.lock().unwrap());
    drop(server);
    println!("full tablespace: /readyz {ready_while_full}, a read {read_while_full} while full");
    assert_eq!(ready_while_full.as_u16(), 200);
    assert_eq!(read_while_full.as_u16(), 200);
    judge(
        "PostgreSQL tablespace full",
        &s,
        full,
        freed,
        &cluster.url(),
    )
    .await;
    drop(cluster);
    drop(disk);
}
