//! The small tool commands: `load` (many conversations at once), `seed`
//! (the demo grown in an empty database), `import` (advisors from a CSV
//! file), `bench-scale` (the main reads timed), `admin-unlock` (wrong
//! admin tokens forgotten) and `mock-llm` (a scripted model for demos and
//! the end-to-end tests). Their arguments come parsed by clap
//! (`cli::commands`).
//!
//! `import` never writes what it was not asked to: `--dry-run` opens the
//! database read-only and never creates it (an empty or missing database
//! is planned against the catalog alone, in memory), and an empty database
//! gets the school/major catalog only, not the made-up demo advisors,
//! unless `DEMO_DATA=on` was set explicitly: real advisors mixed with
//! made-up ones cannot be told apart afterwards.

use std::process::ExitCode;

use super::bench_scale::BenchConfig;
use super::commands::{ImportCommand, LoadArgs, ScaleArgs};
use super::Failure;
use crate::llm::scripted::{Script, ScriptedServer};
use crate::{db, startup};

/// What the tools that open a named database are given by the
/// configuration (`DATABASE_URL`, `DATABASE_MAX_CONNECTIONS`, `DEMO_DATA`),
/// read once in `main`.
#[derive(Clone, Debug)]
pub struct Databases {
    /// The site's database (`server import` without `--db`).
    pub site: String,
    /// The database at scale (`server seed`, `server bench-scale` without
    /// `--db`): `DATABASE_URL` when set, else `sqlite://data/scale.db`.
    pub scale: String,
    pub max_connections: u32,
    pub seeding: startup::Seeding,
    /// `DEMO_DATA` was set (to `on` or `off`) rather than defaulted: only
    /// then does `server import` write the demo into an empty database.
    pub seeding_given: bool,
}

impl Databases {
    /// The defaults of `server seed` and `server bench-scale`.
    fn bench(&self) -> BenchConfig {
        BenchConfig {
            db: self.scale.clone(),
            max_connections: self.max_connections,
            ..BenchConfig::default()
        }
    }
}

pub async fn load(args: LoadArgs) -> Result<ExitCode, Failure> {
    let config = super::load::LoadConfig::from(args);
    let report = super::load::run(&config).await?;
    print!("{}", report.render());
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `server seed`: the demo grown to a size, in an empty database.
pub async fn seed(args: ScaleArgs, databases: &Databases) -> Result<ExitCode, Failure> {
    let config = BenchConfig::with_args(databases.bench(), args);
    let pool = db::connect_with(&config.db, config.max_connections).await?;
    db::migrate(&pool).await?;
    let started = std::time::Instant::now();
    let (advisors, reviews) =
        crate::demo::seed_at_scale(&pool, config.advisors, config.reviews).await?;
    println!(
        "{}：写入 {advisors} 位导师、{reviews} 条评价，用时 {:.1} s",
        db::redacted(&config.db),
        started.elapsed().as_secs_f64()
    );
    pool.close().await;
    Ok(ExitCode::SUCCESS)
}

/// `server import`: advisors from a CSV file (`crate::import`).
pub async fn import(args: ImportCommand, databases: &Databases) -> Result<ExitCode, Failure> {
    use super::import::{self, Options};
    const UNREADABLE_FILE: u8 = 2;
    let bytes = match std::fs::read(&args.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("无法读取 {}：{e}", args.file);
            return Ok(ExitCode::from(UNREADABLE_FILE));
        }
    };
    let options = Options {
        dry_run: args.dry_run,
        skip_bad: args.skip_bad,
    };
    let url = args.db.clone().unwrap_or_else(|| databases.site.clone());
    let pool = if options.dry_run {
        open_for_dry_run(&url).await?
    } else {
        // Real advisors into an empty database: the catalog, and the demo
        // only when DEMO_DATA=on was asked for.
        let seeding = if databases.seeding_given {
            databases.seeding
        } else {
            startup::Seeding::CatalogOnly
        };
        let (pool, seeded) = startup::open_sized(&url, seeding, databases.max_connections).await?;
        if seeded {
            eprintln!(
                "{} 是空数据库，已先写入{}。",
                db::redacted(&url),
                match seeding {
                    startup::Seeding::Demo => "演示数据（DEMO_DATA=on：导师和评价都是虚构的）",
                    startup::Seeding::CatalogOnly =>
                        "学校和专业目录（没有演示数据；要演示数据请设置 DEMO_DATA=on）",
                }
            );
        }
        pool
    };
    let catalog = crate::catalog::Catalog::load(&pool).await?;
    let plan = import::plan_bytes(&bytes, &catalog);
    let report = import::apply(&pool, &plan, options).await?;
    pool.close().await;
    print!("{}", report.render());
    Ok(ExitCode::from(report.exit_code()))
}

/// The database a dry run reads, opened so that nothing can be written:
/// SQLite read-only (`mode=ro`, a missing file is not created), PostgreSQL
/// without migrations. A database that is missing, not set up or empty is
/// planned against the catalog alone, in memory: what the real import
/// would find there after writing the catalog.
async fn open_for_dry_run(url: &str) -> Result<db::Pool, Failure> {
    let in_memory_catalog = async || -> Result<db::Pool, Failure> {
        eprintln!(
            "{} 不存在或是空数据库：试运行按学校和专业目录计划，没有创建或写入它。",
            db::redacted(url)
        );
        let (pool, _) = startup::open_sized(
            "sqlite://import-dry-run?mode=memory",
            startup::Seeding::CatalogOnly,
            1,
        )
        .await?;
        Ok(pool)
    };
    let pool = match db::Backend::of_url(url)? {
        db::Backend::Sqlite => {
            let path = url
                .trim_start_matches("sqlite://")
                .trim_start_matches("sqlite:")
                .split('?')
                .next()
                .unwrap_or_default();
            if path.is_empty() || !std::path::Path::new(path).exists() {
                return in_memory_catalog().await;
            }
            let read_only = if url.contains('?') {
                format!("{url}&mode=ro")
            } else {
                format!("{url}?mode=ro")
            };
            db::connect_with(&read_only, 1).await?
        }
        db::Backend::Postgres => db::connect_with(url, 1).await?,
    };
    let schools: Result<i64, sqlx::Error> = sqlx::query_scalar("SELECT COUNT(*) FROM schools")
        .fetch_one(&pool)
        .await;
    if schools.unwrap_or(0) == 0 {
        pool.close().await;
        return in_memory_catalog().await;
    }
    Ok(pool)
}

/// `server admin-unlock [--client IP] [--db URL]`: forgets the wrong admin
/// tokens counted against every client (or the one at `IP`), so the right
/// token works at once instead of after the quarter hour. The count lives
/// in the database (`rate_windows`), so this works on every instance.
pub async fn admin_unlock(
    client: Option<&str>,
    db_url: Option<&str>,
    databases: &Databases,
) -> Result<ExitCode, Failure> {
    let url = db_url.unwrap_or(&databases.site);
    let pool = db::connect_with(url, 1).await?;
    let key = match client {
        Some(address) => Some(
            crate::store::client_keys::ensure(&pool)
                .await?
                .key_of(address),
        ),
        None => None,
    };
    let cleared =
        crate::store::limits::clear_scope(&pool, ADMIN_FAILURES_SCOPE, key.as_deref()).await?;
    pool.close().await;
    println!(
        "已解除管理员口令的封锁：清除了 {cleared} 个客户端的错误计数（{}）。",
        client.unwrap_or("所有客户端")
    );
    Ok(ExitCode::SUCCESS)
}

/// The scope of wrong admin tokens in `rate_windows` (`http::limits`).
const ADMIN_FAILURES_SCOPE: &str = "admin_failures";

/// `server asr-prompt`: the words a recording is recognized with
/// (`transcribe::prompt`), on the site's database, for the page
/// `--school`, `--major`, `--advisors 张三,李四` describe (none: the home
/// page). `make eval-asr` measures the recognizer with it.
pub async fn asr_prompt(
    school: Option<String>,
    major: Option<String>,
    advisors: &str,
    databases: &Databases,
) -> Result<ExitCode, Failure> {
    let advisors: Vec<String> = advisors
        .split([',', '，'])
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .collect();
    let (pool, _) = startup::open_sized(
        &databases.site,
        databases.seeding,
        databases.max_connections,
    )
    .await?;
    let catalog = crate::catalog::Catalog::load(&pool).await?;
    pool.close().await;
    let page = app::protocol::PageContext {
        visible_advisors: advisors
            .into_iter()
            .enumerate()
            .map(|(i, name)| app::protocol::VisibleAdvisor {
                id: (i + 1).to_string(),
                name,
                title: String::new(),
                rating: 0.0,
                rank: i as u32 + 1,
            })
            .collect(),
        ranking_filters: match (school, major) {
            (Some(school), Some(major)) => Some(app::protocol::RankingFilters { school, major }),
            _ => None,
        },
        ..Default::default()
    };
    println!(
        "{}",
        crate::transcribe::prompt::build(&catalog, Some(&page), None)
    );
    Ok(ExitCode::SUCCESS)
}

pub async fn bench_scale(args: ScaleArgs, databases: &Databases) -> Result<ExitCode, Failure> {
    let config = BenchConfig::with_args(databases.bench(), args);
    print!("{}", super::bench_scale::run(&config).await?);
    Ok(ExitCode::SUCCESS)
}

/// `server mock-asr [script.json] [--addr 127.0.0.1:3198]`: the scripted
/// speech recognizer (`transcribe::scripted`); without a script it hears
/// nothing until one is `PUT /script`.
pub async fn mock_asr(script: Option<&str>, addr: &str) -> Result<ExitCode, Failure> {
    use crate::transcribe::scripted::ScriptedRecognizer;
    let script = script.map(read_script).transpose()?;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let mut server = ScriptedRecognizer::on(listener, script.unwrap_or_default());
    tracing::info!("scripted recognizer on {}", server.base_url());
    server.until_stopped().await;
    Ok(ExitCode::SUCCESS)
}

/// `server mock-llm <script.json> [--addr 127.0.0.1:3199]`: the scripted
/// model (`llm::scripted`).
pub async fn mock_llm(script: &str, addr: &str) -> Result<ExitCode, Failure> {
    let script: Script = read_script(script)?;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let mut server = ScriptedServer::on(listener, script);
    tracing::info!("scripted model on {}", server.base_url());
    server.until_stopped().await;
    Ok(ExitCode::SUCCESS)
}

/// A mock command's script, read from `path`.
fn read_script<S: serde::de::DeserializeOwned>(path: &str) -> Result<S, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("无法读取 {path}：{e}"))?;
    Ok(serde_json::from_str(&text).map_err(|e| format!("{path} 不是合法的脚本：{e}"))?)
}
