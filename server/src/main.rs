//! `server`: serves the site, and two tools that share its code.
//!
//! - `server` — the site. `DATABASE_URL` (default `sqlite://data/advisor.db`),
//!   `DEMO_DATA=off` (an empty database gets the school/major catalog and no
//!   demo advisors or reviews), cargo-leptos's `LEPTOS_SITE_ADDR` /
//!   `LEPTOS_SITE_ROOT` (default 127.0.0.1:3000, target/site), `SITE_URL`
//!   (the site's public address, e.g. `https://daoshi.example`: `og:url`,
//!   robots.txt's sitemap line and `/sitemap.xml` need it), and `LLM_*`
//!   for a language model (none set: the embedded planner; see the README).
//! - `server import <advisors.csv> [--dry-run] [--skip-bad] [--db URL]` —
//!   advisors from a CSV file into the database (`cli::import`): added or
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

use server::agent::Agent;
use server::cli::{evals, tools, Failure, USAGE};
use server::site::Site;
use server::{db, startup};

/// Chat sessions idle this long are deleted (at start, then every hour);
/// `app::policy`, which the `/privacy` page prints.
use app::policy::SESSION_DAYS;
const PURGE_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

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
        Some("eval") => evals::evaluate(&args[1..]).await,
        Some("eval-model") => evals::evaluate_model(&args[1..]).await,
        Some("eval-coach") => evals::evaluate_coach(&args[1..]).await,
        Some("eval-rules") => evals::evaluate_rules(&args[1..]),
        Some("analyze") => evals::analyze(&args[1..]).await,
        Some("mock-llm") => tools::mock_llm(&args[1..]).await,
        Some("load") => tools::load(&args[1..]).await,
        Some("seed") => tools::seed(&args[1..]).await,
        Some("bench-scale") => tools::bench_scale(&args[1..]).await,
        Some("import") => tools::import(&args[1..]).await,
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
    let site_url = app::meta::SiteUrl::from_env()?;
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
    let app = server::app_router_at(site, agent, conf.leptos_options, proxies, site_url);

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
