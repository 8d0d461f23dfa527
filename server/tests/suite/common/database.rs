//! Where the tests' databases live. `TEST_DATABASE=postgres` runs every
//! test of the process on PostgreSQL: a throwaway cluster (Debian's
//! `initdb`/`pg_ctl` on a temporary directory and a free port) started once
//! per test process, one database per test copied from a seeded template.
//! Anything else (the default) runs them on SQLite files. If the cluster
//! cannot start, the test fails and says why: nothing is skipped.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use server::db::Backend;

/// The backend this test process runs on.
pub fn backend() -> Backend {
    match std::env::var("TEST_DATABASE").as_deref() {
        Ok("postgres") | Ok("postgresql") => Backend::Postgres,
        Ok("sqlite") | Ok("") | Err(_) => Backend::Sqlite,
        Ok(other) => panic!("TEST_DATABASE 应为 sqlite 或 postgres，收到的是 {other:?}"),
    }
}

/// A throwaway PostgreSQL cluster, alive as long as this test process.
pub struct Cluster {
    port: u16,
}

impl Cluster {
    /// The URL of database `name` in the cluster.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// Runs SQL as the superuser on the maintenance database.
    pub fn psql(&self, sql: &str) {
        let out = Command::new(bin("psql"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string()])
            .args(["-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1"])
            .args(["-q", "-c", sql])
            .output()
            .expect("psql runs");
        assert!(
            out.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// PostgreSQL's binaries: `PG_BIN`, else Debian's newest
/// `/usr/lib/postgresql/<version>/bin`.
fn bin_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        if let Ok(dir) = std::env::var("PG_BIN") {
            return PathBuf::from(dir);
        }
        let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .map(|entries| entries.flatten().map(|e| e.path().join("bin")).collect())
            .unwrap_or_default();
        versions.retain(|p| p.join("initdb").exists());
        versions.sort();
        versions.pop().unwrap_or_else(|| {
            panic!(
                "PostgreSQL 未安装：没有 /usr/lib/postgresql/*/bin/initdb（运行 .ci/setup postgres，\
                 或用 PG_BIN 指明目录）"
            )
        })
    })
}

pub(crate) fn bin(name: &str) -> PathBuf {
    bin_dir().join(name)
}

pub(crate) fn is_root() -> bool {
    // The owner of /proc/self is this process's user.
    std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false)
}

/// `initdb` and `pg_ctl` refuse to run as root: as root, they run as the
/// `postgres` user.
pub(crate) fn as_cluster_owner(program: &Path) -> Command {
    if is_root() {
        let mut cmd = Command::new("runuser");
        cmd.args(["-u", "postgres", "--"]).arg(program);
        cmd
    } else {
        Command::new(program)
    }
}

pub(crate) fn run(mut cmd: Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what} 无法运行: {e}"));
    assert!(
        out.status.success(),
        "{what} 失败: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().unwrap().port()
}

/// The cluster of this test process, started on first use.
pub fn cluster() -> &'static Cluster {
    static CLUSTER: OnceLock<Cluster> = OnceLock::new();
    CLUSTER.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("advisor-review-pg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("cluster dir");
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
        let data = dir.join("data");
        let mut initdb = as_cluster_owner(&bin("initdb"));
        initdb
            .arg("-D")
            .arg(&data)
            .args(["-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C"])
            .arg("--no-sync");
        run(initdb, "initdb");
        let port = free_port();
        let options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c max_connections=300 \
             -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
             -c shared_buffers=64MB",
            dir.display()
        );
        let mut start = as_cluster_owner(&bin("pg_ctl"));
        start
            .arg("-D")
            .arg(&data)
            .args(["-o", &options, "-l"])
            .arg(dir.join("log"))
            .args(["-w", "-t", "60", "start"]);
        run(start, "pg_ctl start");
        // The cluster ends with this process: stopped and its directory
        // removed once the test process is gone.
        after_this_process(&format!(
            "{runuser}{pg_ctl} -D {data} stop -m immediate >/dev/null 2>&1; rm -rf {dir}",
            runuser = if is_root() {
                "runuser -u postgres -- "
            } else {
                ""
            },
            pg_ctl = bin("pg_ctl").display(),
            data = data.display(),
            dir = dir.display(),
        ));
        Cluster { port }
    })
}

/// Runs the shell command `then` once this test process is gone, from a
/// watcher in a session of its own (`setsid -f`: detached, and setsid
/// itself returns at once): what the process leaves on disk or running is
/// removed when it ends, however it ends, and not only by the next run.
pub(crate) fn after_this_process(then: &str) {
    let watch = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; {then}",
        pid = std::process::id()
    );
    let watcher = Command::new("setsid")
        .args(["-f", "sh", "-c", &watch])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("the watcher starts");
    assert!(watcher.success(), "the watcher did not start");
}

/// Drops database `name` of the cluster, closing whatever is still
/// connected to it.
pub fn drop_database(name: &str) {
    cluster().psql(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
}

/// A new, empty database's URL: a file in `dir` on SQLite, a database of
/// the cluster on PostgreSQL.
pub fn empty_database(dir: &Path, name: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    match backend() {
        Backend::Sqlite => format!("sqlite://{}", dir.join(format!("{name}-{n}.db")).display()),
        Backend::Postgres => {
            let db = format!("{name}_{n}");
            let cluster = cluster();
            cluster.psql(&format!("CREATE DATABASE {db}"));
            cluster.url(&db)
        }
    }
}

/// A new database copied from the seeded template database `template`
/// (PostgreSQL: `CREATE DATABASE … TEMPLATE`, a file copy inside the cluster).
pub fn copy_of_template(template: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let db = format!("db_{}", N.fetch_add(1, Ordering::SeqCst));
    let cluster = cluster();
    cluster.psql(&format!("CREATE DATABASE {db} TEMPLATE {template}"));
    cluster.url(&db)
}
