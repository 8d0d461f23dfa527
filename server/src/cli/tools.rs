//! The small tool commands: `load` (many conversations at once), `seed`
//! (the demo grown in an empty database), `import` (advisors from a CSV
//! file), `bench-scale` (the main reads timed) and `mock-llm` (a scripted
//! model for demos and the end-to-end tests).

use std::process::ExitCode;

use super::bench_scale::BenchConfig;
use super::{Failure, USAGE};
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

pub async fn load(args: &[String]) -> Result<ExitCode, Failure> {
    let config = super::load::LoadConfig::parse(args).map_err(|e| format!("{e}\n{USAGE}"))?;
    let report = super::load::run(&config).await?;
    print!("{}", report.render());
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `server seed`: the demo grown to a size, in an empty database.
pub async fn seed(args: &[String], databases: &Databases) -> Result<ExitCode, Failure> {
    let config =
        BenchConfig::parse_with(databases.bench(), args).map_err(|e| format!("{e}\n{USAGE}"))?;
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
pub async fn import(args: &[String], databases: &Databases) -> Result<ExitCode, Failure> {
    use super::import::{self, ImportArgs};
    const USAGE_ERROR: u8 = 2;
    let parsed = match ImportArgs::parse(args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return Ok(ExitCode::from(USAGE_ERROR));
        }
    };
    let bytes = match std::fs::read(&parsed.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("无法读取 {}：{e}", parsed.file);
            return Ok(ExitCode::from(USAGE_ERROR));
        }
    };
    let url = parsed.db.clone().unwrap_or_else(|| databases.site.clone());
    let seeding = databases.seeding;
    let (pool, seeded) = startup::open_sized(&url, seeding, databases.max_connections).await?;
    if seeded {
        eprintln!(
            "{} 是空数据库，已先写入{}。",
            db::redacted(&url),
            match seeding {
                startup::Seeding::Demo =>
                    "演示数据（导师和评价都是虚构的；只要学校和专业目录的空网站，\
                                       请删除这个数据库后用 DEMO_DATA=off 重新运行）",
                startup::Seeding::CatalogOnly => "学校和专业目录",
            }
        );
    }
    let catalog = crate::catalog::Catalog::load(&pool).await?;
    let plan = import::plan_bytes(&bytes, &catalog);
    let report = import::apply(&pool, &plan, parsed.options).await?;
    pool.close().await;
    print!("{}", report.render());
    Ok(ExitCode::from(report.exit_code()))
}

/// `server asr-prompt`: the words a recording is recognized with
/// (`transcribe::prompt`), on the site's database, for the page
/// `--school`, `--major`, `--advisors 张三,李四` describe (none: the home
/// page). `make eval-asr` measures the recognizer with it.
pub async fn asr_prompt(args: &[String], databases: &Databases) -> Result<ExitCode, Failure> {
    let (mut school, mut major, mut advisors) = (None, None, Vec::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} 需要一个值\n{USAGE}"))
        };
        match a.as_str() {
            "--school" => school = Some(value()?),
            "--major" => major = Some(value()?),
            "--advisors" => {
                advisors = value()?
                    .split([',', '，'])
                    .map(|n| n.trim().to_string())
                    .filter(|n| !n.is_empty())
                    .collect()
            }
            other => return Err(format!("不认识的参数 {other}\n{USAGE}").into()),
        }
    }
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

pub async fn bench_scale(args: &[String], databases: &Databases) -> Result<ExitCode, Failure> {
    let config =
        BenchConfig::parse_with(databases.bench(), args).map_err(|e| format!("{e}\n{USAGE}"))?;
    print!("{}", super::bench_scale::run(&config).await?);
    Ok(ExitCode::SUCCESS)
}

/// `server mock-asr [script.json] [--addr 127.0.0.1:3198]`: the scripted
/// speech recognizer (`transcribe::scripted`); without a script it hears
/// nothing until one is `PUT /script`.
pub async fn mock_asr(args: &[String]) -> Result<ExitCode, Failure> {
    use crate::transcribe::scripted::ScriptedRecognizer;
    let (listener, script) = mock_args(args, "127.0.0.1:3198").await?;
    let mut server = ScriptedRecognizer::on(listener, script.unwrap_or_default());
    tracing::info!("scripted recognizer on {}", server.base_url());
    server.until_stopped().await;
    Ok(ExitCode::SUCCESS)
}

/// `server mock-llm <script.json> [--addr 127.0.0.1:3199]`: the scripted
/// model (`llm::scripted`).
pub async fn mock_llm(args: &[String]) -> Result<ExitCode, Failure> {
    let (listener, script) = mock_args::<Script>(args, "127.0.0.1:3199").await?;
    let script = script.ok_or_else(|| format!("缺少脚本文件\n{USAGE}"))?;
    let mut server = ScriptedServer::on(listener, script);
    tracing::info!("scripted model on {}", server.base_url());
    server.until_stopped().await;
    Ok(ExitCode::SUCCESS)
}

/// A mock command's `[script.json] [--addr A]`: the listener bound at `A`
/// (else `default_addr`) and the script read, if one was named.
async fn mock_args<S: serde::de::DeserializeOwned>(
    args: &[String],
    default_addr: &str,
) -> Result<(tokio::net::TcpListener, Option<S>), Failure> {
    let mut addr = default_addr.to_string();
    let mut script = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--addr" => addr = it.next().cloned().ok_or("--addr 需要一个地址")?,
            path => {
                let text =
                    std::fs::read_to_string(path).map_err(|e| format!("无法读取 {path}：{e}"))?;
                script = Some(
                    serde_json::from_str(&text)
                        .map_err(|e| format!("{path} 不是合法的脚本：{e}"))?,
                );
            }
        }
    }
    Ok((tokio::net::TcpListener::bind(&addr).await?, script))
}
