//! `server`: serves the site, and two tools that share its code.
//!
//! - `server` — the site. `DATABASE_URL` (default `sqlite://data/advisor.db`),
//!   `DEMO_DATA=off` (an empty database gets the school/major catalog and no
//!   demo advisors or reviews), cargo-leptos's `LEPTOS_SITE_ADDR` /
//!   `LEPTOS_SITE_ROOT` (default 127.0.0.1:3000, target/site), and `LLM_*`
//!   for a language model (none set: the embedded planner; see the README).
//! - `server import <advisors.csv> [--dry-run] [--skip-bad] [--db URL]` —
//!   advisors from a CSV file into the database (`import`): added or
//!   updated, all or nothing unless `--skip-bad`; exits 1 when bad lines
//!   stopped it, 2 on a wrong command line. A running site shows them
//!   within `site::ROSTER_POLL`.
//! - `server eval <suite.jsonl> [--strict]` — replays a dialogue suite against
//!   the configured planner on a fresh copy of the demo data and prints
//!   per-turn verdicts and the scores.
//! - `server eval-coach <set.jsonl>` — scores the review coach on a
//!   labelled set: routing accuracy, precision and recall per posting rule;
//!   or, for a set of scored messages (`coach-scores*.jsonl`), exact and ±1
//!   accuracy per dimension, "not said" recall and edit accuracy by category.
//! - `server eval-rules <set.jsonl>` — scores the posting rules on a labelled
//!   set: precision and recall per rule, innocent sentences accepted.
//! - `server load [--url U] [--sessions 200] [--turns 20] [--concurrency 50]`
//!   — many conversations at once; prints turns/s and latency, exits 1 on
//!   any error or unstored turn (`make load`).
//! - `server mock-llm <script.json> [--addr 127.0.0.1:3199]` — a scripted
//!   OpenAI-compatible model (for demos and the end-to-end tests).
//! - `server seed [--db URL] [--advisors 100000] [--reviews 1000000]` — the
//!   demo grown to that size in an empty database (`demo::scale`).
//! - `server bench-scale [--db URL] [--pg URL] [--samples 200]` — the main reads timed
//!   on the demo and at scale, against issue 12's targets (`make bench-scale`).

use std::process::ExitCode;
use std::sync::Arc;

use leptos::config::get_configuration;
use tracing_subscriber::EnvFilter;

use server::agent::eval::{self, parse_suite, run_dialogue, Summary};
use server::agent::Agent;
use server::llm::scripted::{Script, ScriptedServer};
use server::site::Site;
use server::{db, startup};

/// Chat sessions idle this long are deleted (at start, then every hour).
const SESSION_DAYS: u32 = 7;
const PURGE_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

const USAGE: &str = "用法：
  server                                   启动网站
  server eval <suite.jsonl> [--strict]     用对话集评测当前配置的规划器（LLM_* 未设置时为内置规划器）
  server eval-model <suite.jsonl>…          同一对话集先用内置规划器、再用 LLM_* 配置的模型各跑一遍：模型挽救和弄坏的回合、
                                           各原因的模型调用次数、首句语音时间 p50/p95
  server eval-coach <set.jsonl> [--misses] 用标注集评测评价助手：路由准确率和发帖规则（coach.jsonl），或各维度评分的准确率（coach-scores*.jsonl）
  server analyze <句子> [已知导师名…]        打印代码的语言理解结果（槽位、意图、指代），不调用模型
  server eval-rules <set.jsonl>            用标注集评测发帖规则：各条规则的精确率、召回率，无辜句子的通过率
  server load [--url U] [--sessions 200] [--turns 20] [--concurrency 50]
                                           压力测试：多个会话同时对话，打印吞吐量与延迟（不给 --url 时在本进程内启动网站）
  server mock-llm <script.json> [--addr 127.0.0.1:3199]
                                           启动按脚本回答的 OpenAI 兼容模型服务（测试与演示用）
  server seed [--db URL] [--advisors 100000] [--reviews 1000000]
                                           在一个空数据库里写入放大到该规模的演示数据（默认 sqlite://data/scale.db）
  server bench-scale [--db URL] [--pg URL] [--samples 200]
                                           在演示数据和规模数据上测主要请求的 p50/p95（规模数据库为空时先写入）
  server import <advisors.csv> [--dry-run] [--skip-bad] [--db URL]
                                           从 CSV 文件导入导师（表头 name,title,school,major,directions,bio）：
                                           已有的按 学校+专业+姓名 更新；有坏行时不导入（--skip-bad 跳过坏行，
                                           --dry-run 只显示将会发生什么）
环境变量 DEMO_DATA=off：空数据库只写入学校和专业目录，不写入演示导师和评价";

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let default_filter = match args.first().map(String::as_str) {
        // The evaluation prints its own report; only warnings go to the log.
        Some("eval" | "eval-model" | "load" | "bench-scale" | "seed" | "import") => {
            "warn,sqlx=warn"
        }
        _ => "info,sqlx=warn",
    };
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter)),
        )
        .with_writer(std::io::stderr)
        .init();
    let result = match args.first().map(String::as_str) {
        None => serve().await,
        Some("eval") => evaluate(&args[1..]).await,
        Some("eval-model") => evaluate_model(&args[1..]).await,
        Some("eval-coach") => evaluate_coach(&args[1..]).await,
        Some("eval-rules") => evaluate_rules(&args[1..]),
        Some("analyze") => analyze(&args[1..]).await,
        Some("mock-llm") => mock_llm(&args[1..]).await,
        Some("load") => load(&args[1..]).await,
        Some("seed") => seed(&args[1..]).await,
        Some("bench-scale") => bench_scale(&args[1..]).await,
        Some("import") => import(&args[1..]).await,
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        Some(other) => Err(format!("未知的命令「{other}」\n{USAGE}").into()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            tracing::error!("{e}");
            eprintln!("启动失败：{e}");
            ExitCode::FAILURE
        }
    }
}

type Failure = Box<dyn std::error::Error>;

async fn serve() -> Result<ExitCode, Failure> {
    let url =
        std::env::var("DATABASE_URL").unwrap_or_else(|_| db::DEFAULT_DATABASE_URL.to_string());
    let started = std::time::Instant::now();
    let seeding = startup::Seeding::from_env()?;
    let (pool, seeded) = startup::open_with(&url, seeding).await?;
    if seeded {
        tracing::info!(
            elapsed_ms = started.elapsed().as_millis() as u64,
            "{} written to {}",
            match seeding {
                startup::Seeding::Demo => "demo data",
                startup::Seeding::CatalogOnly => "the school/major catalog (DEMO_DATA=off)",
            },
            db::redacted(&url)
        );
    }
    let site = Arc::new(Site::load(pool).await?);
    // Advisors imported while the site runs (`server import`, from another
    // process): the caches of the roster follow within ROSTER_POLL.
    let watched = site.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(server::site::ROSTER_POLL);
        loop {
            every.tick().await;
            match watched.refresh_if_changed().await {
                Ok(true) => tracing::info!("advisors changed in the database; caches reloaded"),
                Ok(false) => {}
                Err(e) => tracing::warn!(error = %e, "could not check the advisors for changes"),
            }
        }
    });
    let agent = Arc::new(Agent::from_env(site.clone())?);
    let proxies = server::http::client::TrustedProxies::from_env()?;
    server::http::limits::Limits::from_env()?;
    // Idle sessions go at start and then every hour, not only at restarts.
    let sessions = agent.sessions().clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(PURGE_EVERY);
        loop {
            every.tick().await;
            match sessions.purge_older_than(SESSION_DAYS).await {
                Ok(n) if n > 0 => {
                    tracing::info!("purged {n} chat sessions idle for {SESSION_DAYS} days")
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "could not purge old chat sessions"),
            }
        }
    });

    let conf = get_configuration(None)?;
    let addr = conf.leptos_options.site_addr;
    let planner = agent.planner_name();
    let app = server::app_router_with(site, agent, conf.leptos_options, proxies);

    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let database = db::redacted(&url);
    tracing::info!("listening on http://{addr} (database {database}, planner: {planner})");
    // The peer address is the client's identity (`http::client`).
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await?;
    Ok(ExitCode::SUCCESS)
}

/// A fresh copy of the demo data in a temporary file, deleted afterwards, so
/// an evaluation neither reads nor changes the site's own database. The
/// suites are written against the demo, whatever DEMO_DATA says.
struct DemoSite {
    site: Arc<Site>,
    pool: db::Pool,
    _file: TempFile,
}

/// The database file and its companions, deleted when dropped (an early
/// error included).
struct TempFile(std::path::PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm", ".setup-lock"] {
            let mut p = self.0.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}

impl DemoSite {
    /// Opens a new copy; `tag` names its file (one per command and copy).
    async fn open(tag: &str) -> Result<DemoSite, Failure> {
        let file =
            TempFile(std::env::temp_dir().join(format!("advisor-{tag}-{}.db", std::process::id())));
        let (pool, _) = startup::open_with(
            &format!("sqlite://{}", file.0.display()),
            startup::Seeding::Demo,
        )
        .await?;
        let site = Arc::new(Site::load(pool.clone()).await?);
        Ok(DemoSite {
            site,
            pool,
            _file: file,
        })
    }

    /// Closes the database; its files go with `self`.
    async fn close(self) {
        self.pool.close().await;
    }
}

/// The dialogues of the suite file at `path`.
fn read_suite(path: &str) -> Result<Vec<eval::Dialogue>, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("无法读取 {path}：{e}"))?;
    Ok(parse_suite(&text).map_err(|e| format!("{path} 格式错误：{e}"))?)
}

/// Every turn of `dialogues` on `agent`, each printed as it ends when
/// `print` is set.
async fn replay(
    agent: &Agent,
    site: &Site,
    dialogues: &[eval::Dialogue],
    print: bool,
) -> Vec<eval::TurnReport> {
    let mut reports = Vec::new();
    for d in dialogues {
        for r in run_dialogue(agent, site, d).await {
            if print {
                println!("{}", eval::render_turn(&r));
            }
            reports.push(r);
        }
    }
    reports
}

async fn evaluate(args: &[String]) -> Result<ExitCode, Failure> {
    let strict = args.iter().any(|a| a == "--strict");
    let Some(path) = args.iter().find(|a| !a.starts_with("--")) else {
        return Err(format!("缺少对话集文件\n{USAGE}").into());
    };
    let dialogues = read_suite(path)?;
    let demo = DemoSite::open("eval").await?;
    let agent = Agent::from_env(demo.site.clone())?;
    let reports = replay(&agent, &demo.site, &dialogues, true).await;
    let summary = Summary::of(dialogues.len(), &reports);
    println!("\n{}", summary.render(&agent.planner_name()));
    demo.close().await;
    Ok(if strict && summary.passed < summary.turns {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// `server eval-model`: each suite on code alone and with the configured
/// model, turn by turn (issue 28): what the model rescues and what it
/// breaks, its calls by why it was asked, and the time to the first spoken
/// sentence.
async fn evaluate_model(args: &[String]) -> Result<ExitCode, Failure> {
    if args.is_empty() {
        return Err(format!("缺少对话集文件\n{USAGE}").into());
    }
    let config = server::llm::LlmConfig::from_env()?
        .ok_or("eval-model 需要 LLM_BASE_URL（或 LLM_API_KEY / LLM_MODEL）指向一个模型")?;
    let mut broken = 0;
    for path in args {
        let dialogues = read_suite(path)?;
        let mut runs = Vec::new();
        for with_model in [false, true] {
            let demo = DemoSite::open(&format!("eval-model-{with_model}")).await?;
            let agent = if with_model {
                Agent::with_model(demo.site.clone(), config.clone())?
            } else {
                Agent::new(demo.site.clone())
            };
            let reports = replay(&agent, &demo.site, &dialogues, false).await;
            let summary = Summary::of(dialogues.len(), &reports);
            println!("== {path}\n{}", summary.render(&agent.planner_name()));
            runs.push(reports);
            demo.close().await;
        }
        let comparison = eval::Comparison::of(&runs[0], &runs[1]);
        println!("{}", comparison.render());
        for line in &comparison.rescued {
            println!("  RESCUED {line}");
        }
        broken += comparison.broken.len();
    }
    Ok(if broken == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `server analyze`: what code's NLU reads in one sentence, for whoever
/// extends a lexicon or a rule.
async fn analyze(args: &[String]) -> Result<ExitCode, Failure> {
    let Some(text) = args.first() else {
        return Err(format!("缺少句子\n{USAGE}").into());
    };
    let demo = DemoSite::open("nlu").await?;
    let agent = Agent::new(demo.site.clone());
    let analysis = server::agent::nlu::analyze(text, &agent.lexicons(), &args[1..]);
    println!("{analysis:#?}");
    demo.close().await;
    Ok(ExitCode::SUCCESS)
}

async fn evaluate_coach(args: &[String]) -> Result<ExitCode, Failure> {
    let Some(path) = args.first() else {
        return Err(format!("缺少标注集文件\n{USAGE}").into());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("无法读取 {path}：{e}"))?;
    // A set of scored messages (server/evals/coach-scores*.jsonl): the
    // reader's scores per dimension and category.
    if text.contains("\"gold\"") {
        use server::coach::eval_scores;
        let set = eval_scores::parse(&text).map_err(|e| format!("{path} 格式错误：{e}"))?;
        let report = eval_scores::run(&set);
        let misses = args.iter().any(|a| a == "--misses");
        print!("{}", eval_scores::render(path, &report, misses));
        return Ok(ExitCode::SUCCESS);
    }
    let set = server::coach::eval::parse(&text).map_err(|e| format!("{path} 格式错误：{e}"))?;
    let verdicts = server::coach::eval::run(&set);
    print!("{}", server::coach::eval::render(&verdicts));
    // With LLM_* set: the same set through the model's router and follow-up.
    if let Some(config) = server::llm::LlmConfig::from_env()? {
        let model = config.model.clone();
        let client = server::llm::LlmClient::new(config)?;
        let demo = DemoSite::open("eval-coach").await?;
        let coach = server::coach::Coach::new(
            demo.site.clone(),
            Arc::new(server::speech_act::SpeechActs::load()),
        );
        let score = server::coach::eval::run_model(&coach, &client, &set).await;
        print!("\n{}", score.render(&model));
        demo.close().await;
    }
    Ok(ExitCode::SUCCESS)
}

fn evaluate_rules(args: &[String]) -> Result<ExitCode, Failure> {
    use server::reviews::eval;
    let Some(path) = args.first() else {
        return Err(format!("缺少标注集文件\n{USAGE}").into());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("无法读取 {path}：{e}"))?;
    let set: Vec<eval::Labelled> =
        server::text::jsonl::parse(&text).map_err(|e| format!("{path} 格式错误：{e}"))?;
    print!("{}", eval::render(&eval::run(&set)));
    Ok(ExitCode::SUCCESS)
}

async fn load(args: &[String]) -> Result<ExitCode, Failure> {
    let config = server::load::LoadConfig::parse(args).map_err(|e| format!("{e}\n{USAGE}"))?;
    let report = server::load::run(&config).await?;
    print!("{}", report.render());
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `server seed`: the demo grown to a size, in an empty database.
async fn seed(args: &[String]) -> Result<ExitCode, Failure> {
    let config =
        server::bench_scale::BenchConfig::parse(args).map_err(|e| format!("{e}\n{USAGE}"))?;
    let pool = db::connect(&config.db).await?;
    db::migrate(&pool).await?;
    let started = std::time::Instant::now();
    let (advisors, reviews) =
        server::demo::seed_at_scale(&pool, config.advisors, config.reviews).await?;
    println!(
        "{}：写入 {advisors} 位导师、{reviews} 条评价，用时 {:.1} s",
        db::redacted(&config.db),
        started.elapsed().as_secs_f64()
    );
    pool.close().await;
    Ok(ExitCode::SUCCESS)
}

/// `server import`: advisors from a CSV file (`server::import`).
async fn import(args: &[String]) -> Result<ExitCode, Failure> {
    use server::import::{self, ImportArgs};
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
    let url = parsed.db.clone().unwrap_or_else(|| {
        std::env::var("DATABASE_URL").unwrap_or_else(|_| db::DEFAULT_DATABASE_URL.to_string())
    });
    let seeding = startup::Seeding::from_env()?;
    let (pool, seeded) = startup::open_with(&url, seeding).await?;
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
    let catalog = server::catalog::Catalog::load(&pool).await?;
    let plan = import::plan_bytes(&bytes, &catalog);
    let report = import::apply(&pool, &plan, parsed.options).await?;
    pool.close().await;
    print!("{}", report.render());
    Ok(ExitCode::from(report.exit_code()))
}

async fn bench_scale(args: &[String]) -> Result<ExitCode, Failure> {
    let config =
        server::bench_scale::BenchConfig::parse(args).map_err(|e| format!("{e}\n{USAGE}"))?;
    print!("{}", server::bench_scale::run(&config).await?);
    Ok(ExitCode::SUCCESS)
}

async fn mock_llm(args: &[String]) -> Result<ExitCode, Failure> {
    let mut addr = "127.0.0.1:3199".to_string();
    let mut script_path = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--addr" => addr = it.next().cloned().ok_or("--addr 需要一个地址")?,
            other => script_path = Some(other.to_string()),
        }
    }
    let path = script_path.ok_or_else(|| format!("缺少脚本文件\n{USAGE}"))?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("无法读取 {path}：{e}"))?;
    let script: Script =
        serde_json::from_str(&text).map_err(|e| format!("{path} 不是合法的脚本：{e}"))?;
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let mut server = ScriptedServer::on(listener, script);
    tracing::info!("scripted model on {} (script {path})", server.base_url());
    tokio::select! {
        _ = server.wait() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    Ok(ExitCode::SUCCESS)
}
