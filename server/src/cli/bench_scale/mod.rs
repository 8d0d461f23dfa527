//! `server bench-scale` (`make bench-scale`): the reads students make most
//! and a review written, timed on the demo data and on the demo grown to
//! each size asked for (10,000, 100,000 and, given the disk, 1,000,000
//! advisors with ten reviews each, `demo::scale`), side by side, so that a
//! read that grows with the data shows itself; against each read's target
//! at the largest size ([`cases`]).
//!
//! Each database is served by this binary in a process of its own
//! ([`child`]): its start-up time and its memory after the start and after
//! the measurement are figures of the table too. A database at scale is a
//! file beside `--db` with the size in its name (`data/scale-100000.db`)
//! written by the seed the first time and reused afterwards; the demo is a
//! fresh temporary copy. With `--pg URL` the same sizes are measured on
//! PostgreSQL too, a database per size beside URL's
//! (`scale_100000`; `make bench-scale` starts a throwaway cluster for it,
//! `scripts/bench-scale.sh`).

mod cases;
mod child;

use std::time::{Duration, Instant};

use crate::latency::ms;
use cases::{Target, Timings, CASES};

/// Where the database at scale lives when `--db` is not given (git-ignored).
pub const DEFAULT_SCALE_DB: &str = "sqlite://data/scale.db";

/// Reviews per advisor at every size.
const REVIEWS_PER_ADVISOR: usize = 10;

#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// The database at scale: `--db`, else `DATABASE_URL`, else
    /// [`DEFAULT_SCALE_DB`] (what `main` gives [`BenchConfig::with_args`]);
    /// the bench's databases are named after it, one per size.
    pub db: String,
    /// The pool size of the databases at scale (`DATABASE_MAX_CONNECTIONS`).
    pub max_connections: u32,
    /// A PostgreSQL database measured at scale beside `db`.
    pub pg: Option<String>,
    /// `server seed`'s size.
    pub advisors: usize,
    pub reviews: usize,
    /// `server bench-scale`'s sizes, in advisors.
    pub sizes: Vec<usize>,
    /// Measure `pg` alone (a disk too small for both at the largest size).
    pub pg_only: bool,
    pub samples: usize,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            db: DEFAULT_SCALE_DB.to_string(),
            max_connections: crate::db::DEFAULT_MAX_CONNECTIONS,
            pg: None,
            advisors: 100_000,
            reviews: 1_000_000,
            sizes: vec![10_000, 100_000],
            pg_only: false,
            samples: 200,
        }
    }
}

impl BenchConfig {
    /// The flags of `server seed` / `server bench-scale` over `base` (the
    /// configuration's database and pool size).
    pub fn with_args(base: BenchConfig, args: crate::cli::commands::ScaleArgs) -> BenchConfig {
        BenchConfig {
            db: args.db.unwrap_or(base.db),
            pg: args.pg.or(base.pg),
            advisors: args.advisors,
            reviews: args.reviews,
            sizes: args.sizes,
            pg_only: args.pg_only,
            samples: args.samples,
            ..base
        }
    }
}

/// `url` with `-{n}` (SQLite: before the file's extension) or `_{n}`
/// (PostgreSQL: the database's name) added.
fn sized(url: &str, n: usize) -> String {
    let (base, query) = url.split_once('?').map_or((url, ""), |(b, q)| (b, q));
    let named = if url.starts_with("sqlite:") {
        match base.rsplit_once('.') {
            Some((stem, ext)) if !ext.contains('/') => format!("{stem}-{n}.{ext}"),
            _ => format!("{base}-{n}"),
        }
    } else {
        format!("{base}_{n}")
    };
    if query.is_empty() {
        named
    } else {
        format!("{named}?{query}")
    }
}

/// One column of the table: a database measured.
struct Column {
    head: String,
    timings: Timings,
    seeded: Option<Duration>,
    disk_mb: f64,
    startup: Duration,
    memory_started: f64,
    memory_peak: f64,
}

/// Creates the PostgreSQL database of `url` when it is missing, through
/// the database `admin` names (one that exists).
async fn create_pg_database(admin: &str, url: &str) -> Result<(), String> {
    let name = url
        .split('?')
        .next()
        .and_then(|u| u.rsplit('/').next())
        .unwrap_or_default()
        .to_string();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("数据库名不合适：{name}"));
    }
    let pool = crate::db::connect_with(admin, 1)
        .await
        .map_err(|e| e.to_string())?;
    let exists: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM pg_database WHERE datname = $1")
        .bind(&name)
        .fetch_one(&pool)
        .await
        .map_err(|e| e.to_string())?;
    if exists == 0 {
        sqlx::query(&format!("CREATE DATABASE \"{name}\""))
            .execute(&pool)
            .await
            .map_err(|e| e.to_string())?;
    }
    pool.close().await;
    Ok(())
}

/// The database's size on disk in MB at rest (SQLite: the file and its
/// WAL once the WAL is folded into the file; just after a seed the WAL
/// holds a second copy of everything written, 6.8 GB at a million).
async fn disk_mb(pool: &crate::db::Pool, url: &str) -> f64 {
    if let Some(path) = url.strip_prefix("sqlite://") {
        let _ = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(pool)
            .await;
        let path = path.split('?').next().unwrap_or(path);
        let size = |p: String| std::fs::metadata(p).map_or(0, |m| m.len());
        return (size(path.to_string()) + size(format!("{path}-wal"))) as f64 / 1e6;
    }
    sqlx::query_scalar::<_, i64>("SELECT pg_database_size(current_database())")
        .fetch_one(pool)
        .await
        .map_or(0.0, |b| b as f64 / 1e6)
}

/// Seeds `url` at `advisors` if it is empty, then serves and measures it.
async fn column(
    head: String,
    url: &str,
    advisors: usize,
    config: &BenchConfig,
) -> Result<Column, String> {
    let pool = crate::db::connect_with(url, config.max_connections)
        .await
        .map_err(|e| e.to_string())?;
    crate::db::migrate(&pool).await.map_err(|e| e.to_string())?;
    let mut seeded = None;
    if crate::store::advisor_total(&pool)
        .await
        .map_err(|e| e.to_string())?
        == 0
    {
        let started = Instant::now();
        crate::demo::seed_at_scale(&pool, advisors, advisors * REVIEWS_PER_ADVISOR)
            .await
            .map_err(|e| e.to_string())?;
        seeded = Some(started.elapsed());
    }
    let inputs = cases::inputs(&pool).await?;
    let disk_mb = disk_mb(&pool, url).await;
    pool.close().await;
    let server = child::Server::start(url, config.max_connections).await?;
    let (memory_started, _) = server.memory_mb();
    let timings = cases::measure(&server.base, &inputs, config.samples).await?;
    let (_, memory_peak) = server.memory_mb();
    Ok(Column {
        head,
        timings,
        seeded,
        disk_mb,
        startup: server.startup,
        memory_started,
        memory_peak,
    })
}

/// A size as a column head: 10k, 1M.
fn short(n: usize) -> String {
    match n {
        n if n >= 1_000_000 && n % 1_000_000 == 0 => format!("{}M", n / 1_000_000),
        n if n >= 1_000 && n % 1_000 == 0 => format!("{}k", n / 1_000),
        n => n.to_string(),
    }
}

/// Seeds the databases at scale that are empty, measures them and a fresh
/// demo, and renders the table. `Err` for what stops the measurement.
pub async fn run(config: &BenchConfig) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("advisor-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let demo_url = format!("sqlite://{}/demo.db", dir.display());
    let demo = async {
        let server = child::Server::start(&demo_url, config.max_connections).await?;
        let (pool, _) = crate::startup::open_with(&demo_url, crate::startup::Seeding::Demo)
            .await
            .map_err(|e| e.to_string())?;
        let inputs = cases::inputs(&pool).await?;
        let disk_mb = disk_mb(&pool, &demo_url).await;
        pool.close().await;
        let (memory_started, _) = server.memory_mb();
        let timings = cases::measure(&server.base, &inputs, config.samples).await?;
        let (_, memory_peak) = server.memory_mb();
        Ok::<_, String>(Column {
            head: "演示".into(),
            timings,
            seeded: None,
            disk_mb,
            startup: server.startup,
            memory_started,
            memory_peak,
        })
    }
    .await;
    let _ = std::fs::remove_dir_all(&dir);
    let mut columns = vec![demo?];
    let mut sizes = config.sizes.clone();
    sizes.sort_unstable();
    sizes.dedup();
    for &n in sizes.iter().filter(|_| !config.pg_only) {
        let url = sized(&config.db, n);
        columns.push(column(format!("SQLite {}", short(n)), &url, n, config).await?);
    }
    if let Some(pg) = &config.pg {
        for &n in &sizes {
            let url = sized(pg, n);
            create_pg_database(pg, &url).await?;
            columns.push(column(format!("PostgreSQL {}", short(n)), &url, n, config).await?);
        }
    }
    Ok(render(&columns, &sizes, config.samples))
}

/// The table: a line per case, a column per database, the target and
/// whether the largest size of each database meets it; then the seed,
/// disk, start-up and memory figures.
fn render(columns: &[Column], sizes: &[usize], samples: usize) -> String {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: Vec<&str> = load.split_whitespace().take(3).collect();
    let mut out = format!(
        "每位导师 {REVIEWS_PER_ADVISOR} 条评价；每个请求 {samples} 次，p50 / p95，单位 ms；负载 {}\n\n| 请求 |",
        load.join(" ")
    );
    for c in columns {
        out.push_str(&format!(" {} |", c.head));
    }
    out.push_str(" 目标（最大规模） | 达标 |\n|---|");
    out.push_str(&"---|".repeat(columns.len() + 2));
    out.push('\n');
    // The largest size of each database is the last column of its kind.
    let judged: Vec<&Column> = ["SQLite", "PostgreSQL"]
        .iter()
        .filter_map(|kind| columns.iter().rev().find(|c| c.head.starts_with(kind)))
        .collect();
    let mut all_met = true;
    for (i, case) in CASES.iter().enumerate() {
        out.push_str(&format!("| {} |", case.label));
        for c in columns {
            out.push_str(&format!(
                " {} / {} |",
                ms(c.timings[i].0),
                ms(c.timings[i].1)
            ));
        }
        let (target, met) = match case.target {
            Target::P95(t) => (
                format!("p95 ≤ {t}"),
                judged
                    .iter()
                    .all(|c| c.timings[i].1.as_secs_f64() * 1000.0 <= t),
            ),
            Target::P50(t) => (
                format!("p50 ≤ {t}"),
                judged
                    .iter()
                    .all(|c| c.timings[i].0.as_secs_f64() * 1000.0 <= t),
            ),
        };
        all_met &= met;
        out.push_str(&format!(
            " {target} | {} |\n",
            if met { "是" } else { "否" }
        ));
    }
    let mut figure = |label: &str, value: &dyn Fn(&Column) -> String| {
        out.push_str(&format!("| {label} |"));
        for c in columns {
            out.push_str(&format!(" {} |", value(c)));
        }
        out.push_str(" | |\n");
    };
    figure("写入用时（本次写入时）", &|c| {
        c.seeded
            .map_or("已有".into(), |d| format!("{:.0} s", d.as_secs_f64()))
    });
    figure("磁盘", &|c| format!("{:.0} MB", c.disk_mb));
    figure("启动到 /readyz", &|c| {
        format!("{:.2} s", c.startup.as_secs_f64())
    });
    figure("内存：启动后", &|c| {
        format!("{:.0} MB", c.memory_started)
    });
    figure("内存：测量中的峰值", &|c| {
        format!("{:.0} MB", c.memory_peak)
    });
    if !sizes.contains(&1_000_000) {
        out.push_str(
            "\n未测 1,000,000 位导师：`--sizes 10000,100000,1000000`；SQLite 约需 7 GB 磁盘、写入约 8 分钟，\
             PostgreSQL 另需约 15 GB（docs/operations.md）。\n",
        );
    }
    out.push_str(if all_met {
        "\n全部达标。\n"
    } else {
        "\n有未达标的项目。\n"
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_size_has_a_database_of_its_own() {
        assert_eq!(
            sized("sqlite://data/scale.db", 10_000),
            "sqlite://data/scale-10000.db"
        );
        assert_eq!(
            sized("sqlite://data/scale.db?mode=rwc", 10_000),
            "sqlite://data/scale-10000.db?mode=rwc"
        );
        assert_eq!(
            sized("postgres://postgres@127.0.0.1:5432/scale", 1_000_000),
            "postgres://postgres@127.0.0.1:5432/scale_1000000"
        );
        assert_eq!(
            (short(10_000), short(1_000_000), short(1_500)),
            ("10k".into(), "1M".into(), "1500".into())
        );
    }
}
