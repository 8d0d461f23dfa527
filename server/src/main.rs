//! `server`: serves the site, and the tools that share its code.
//!
//! The configuration (every environment variable, `server --help`) is read
//! once here (`server::config`) and handed down; the commands:
//!
//! - `server` — the site. `DATABASE_URL` (default `sqlite://data/advisor.db`),
//!   `DEMO_DATA=off` (an empty database gets the school/major catalog and no
//!   demo advisors or reviews), `LEPTOS_SITE_ADDR` / `LEPTOS_SITE_ROOT`
//!   (default 127.0.0.1:3000, target/site), `SITE_URL` (the site's public
//!   address, e.g. `https://daoshi.example`: `og:url`, robots.txt's sitemap
//!   line and `/sitemap.xml` need it), and `LLM_*` for a language model
//!   (none set: the embedded planner; see `docs/agent.md`). SIGTERM or Ctrl-C
//!   stop it: no new connections, requests in flight (streaming turns too)
//!   finish within `SHUTDOWN_GRACE_SECS`, then it exits 0.
//! - `server import <advisors.csv> [--dry-run] [--skip-bad] [--db URL]` —
//!   advisors from a CSV file into the database (`cli::import`): added or
//!   updated, all or nothing unless `--skip-bad`; exits 1 when bad lines
//!   stopped it, 2 on a wrong command line. A running site shows them
//!   within `site::ROSTER_POLL`. `--dry-run` neither creates nor writes
//!   the database; an empty database gets the catalog, and the demo only
//!   with `DEMO_DATA=on` set explicitly.
//! - `server admin-unlock [--client IP] [--db URL]` — forgets the wrong
//!   admin tokens counted (all clients', or one's), so the right token
//!   works at once.
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
//! - `server asr-prompt [--school S --major M --advisors a,b]` — the words
//!   a recording on that page is recognized with (`make eval-asr`).
//! - `server mock-asr [script.json] [--addr 127.0.0.1:3198]` — a scripted
//!   OpenAI-compatible speech recognizer (for the end-to-end tests).
//! - `server seed [--db URL] [--advisors 100000] [--reviews 1000000]` — the
//!   demo grown to that size in an empty database (`demo::scale`); the
//!   database is `--db`, else `DATABASE_URL`, else `sqlite://data/scale.db`.
//! - `server bench-scale [--db URL] [--pg URL] [--samples 200]` — the main reads timed
//!   on the demo and at scale (the database at scale as `seed` chooses it),
//!   against each read's target (`make bench-scale`).
//!
//! The evaluations, `analyze` and `load` without `--url` work on a fresh
//! temporary copy of the demo by design, never on `DATABASE_URL`.
//!
//! Every command's arguments are clap's (`cli::commands`): `server <command>
//! --help` lists them, a wrong command line exits 2, a command that ran and
//! failed exits 1.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use leptos::config::get_configuration;
use tokio::sync::watch;
use tracing_subscriber::EnvFilter;

use server::agent::Agent;
use server::cli::bench_scale::DEFAULT_SCALE_DB;
use server::cli::commands::Command;
#[cfg(feature = "evals")]
use server::cli::evals;
use server::cli::{tools, Databases, Failure};
use server::config::{Cli, Config, LogFormat};
use server::site::Site;
use server::{db, startup};

/// Chat sessions idle this long are deleted (at start, then every hour);
/// `app::policy`, which the `/privacy` page prints.
use app::policy::SESSION_DAYS;
const PURGE_EVERY: Duration = Duration::from_secs(3600);
/// How often histogram samples are folded into buckets when metrics are on.
const METRICS_UPKEEP: Duration = Duration::from_secs(10);
/// How long the pool may take to close once serving has stopped.
const CLOSE_POOL: Duration = Duration::from_secs(5);

#[tokio::main]
async fn main() -> ExitCode {
    let Cli { config, command } = Cli::load();
    let default_filter = match &command {
        // The evaluation prints its own report; only warnings go to the log.
        #[cfg(feature = "evals")]
        Some(Command::Eval { .. } | Command::EvalModel { .. }) => "warn,sqlx=warn",
        Some(
            Command::Load(_)
            | Command::BenchScale(_)
            | Command::Seed(_)
            | Command::Import(_)
            | Command::AdminUnlock { .. },
        ) => "warn,sqlx=warn",
        _ => "info,sqlx=warn",
    };
    init_logs(&config, default_filter);
    let databases = Databases {
        site: config.database_url.clone(),
        scale: config.database_url_or(DEFAULT_SCALE_DB),
        max_connections: config.database_max_connections,
        seeding: config.demo_data,
        seeding_given: config.is_given("DEMO_DATA"),
    };
    let result = match command {
        None => serve(&config).await,
        #[cfg(feature = "evals")]
        Some(Command::Eval { suite, strict }) => match config.llm() {
            Ok(llm) => evals::evaluate(&suite, strict, llm).await,
            Err(e) => Err(e.into()),
        },
        #[cfg(feature = "evals")]
        Some(Command::EvalModel { suites }) => match config.llm() {
            Ok(llm) => evals::evaluate_model(&suites, llm).await,
            Err(e) => Err(e.into()),
        },
        #[cfg(feature = "evals")]
        Some(Command::EvalCoach { set, misses }) => match config.llm() {
            Ok(llm) => evals::evaluate_coach(&set, misses, llm).await,
            Err(e) => Err(e.into()),
        },
        #[cfg(feature = "evals")]
        Some(Command::EvalRules { set }) => evals::evaluate_rules(&set),
        #[cfg(feature = "evals")]
        Some(Command::Analyze { sentence, known }) => evals::analyze(&sentence, &known).await,
        Some(Command::MockLlm { script, addr }) => tools::mock_llm(&script, &addr).await,
        Some(Command::MockAsr { script, addr }) => tools::mock_asr(script.as_deref(), &addr).await,
        Some(Command::AsrPrompt {
            school,
            major,
            advisors,
        }) => tools::asr_prompt(school, major, &advisors, &databases).await,
        Some(Command::Load(args)) => tools::load(args).await,
        Some(Command::Seed(args)) => tools::seed(args, &databases).await,
        Some(Command::BenchScale(args)) => tools::bench_scale(args, &databases).await,
        Some(Command::Import(args)) => tools::import(args, &databases).await,
        Some(Command::AdminUnlock { client, db }) => {
            tools::admin_unlock(client.as_deref(), db.as_deref(), &databases).await
        }
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

/// The log: `RUST_LOG` (else `default`), to stderr, as `LOG_FORMAT` says.
/// A JSON line carries the fields of the span it was logged in (the
/// request's id, method and path).
fn init_logs(config: &Config, default: &str) {
    let filter =
        EnvFilter::try_new(config.log_filter(default)).unwrap_or_else(|_| EnvFilter::new(default));
    // Colour only for a person at a terminal: a file or a log shipper would
    // store the escape codes as text.
    use std::io::IsTerminal;
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    match config.log_format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .init(),
    }
}

async fn serve(config: &Config) -> Result<ExitCode, Failure> {
    let url = &config.database_url;
    let started = std::time::Instant::now();
    let seeding = config.demo_data;
    let (pool, seeded) = startup::open_sized(url, seeding, config.database_max_connections).await?;
    if seeded {
        tracing::info!(
            elapsed_ms = started.elapsed().as_millis() as u64,
            "{} written to {}",
            match seeding {
                startup::Seeding::Demo => "demo data",
                startup::Seeding::CatalogOnly => "the school/major catalog (DEMO_DATA=off)",
            },
            db::redacted(url)
        );
    }
    let site = Arc::new(Site::load(pool.clone()).await?);
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
    let agent = Arc::new(Agent::configured(site.clone(), config.llm()?)?);
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

    // cargo-leptos's own settings, the operator's address and root over them.
    let mut conf = get_configuration(None)?;
    conf.leptos_options.site_addr = config.site_addr;
    conf.leptos_options.site_root = config.site_root.clone().into();
    let addr = conf.leptos_options.site_addr;
    let planner = agent.planner_name();
    let app = server::app_router_with(site, agent, conf.leptos_options, config.http_settings());

    // Set once SIGTERM or Ctrl-C arrives; every listener stops on it.
    let (stop, stopping) = watch::channel(false);
    tokio::spawn(async move {
        shutdown_signal().await;
        let _ = stop.send(true);
    });
    if config.metrics_on() {
        tokio::spawn(async {
            let mut every = tokio::time::interval(METRICS_UPKEEP);
            loop {
                every.tick().await;
                server::observe::metrics::upkeep();
            }
        });
    }
    if let Some(metrics_addr) = config.metrics_addr {
        let listener = tokio::net::TcpListener::bind(metrics_addr).await?;
        let metrics = server::http::ops::metrics(pool.clone());
        tracing::info!("metrics on http://{metrics_addr}/metrics");
        let stopping = stopping.clone();
        tokio::spawn(async move {
            let served = axum::serve(listener, metrics)
                .with_graceful_shutdown(stopped(stopping))
                .await;
            if let Err(e) = served {
                tracing::error!(error = %e, "the metrics listener failed");
            }
        });
    }

    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let database = db::redacted(url);
    tracing::info!("listening on http://{addr} (database {database}, planner: {planner})");
    // The peer address is the client's identity (`http::client`).
    let serving = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(stopped(stopping.clone()));
    let grace = config.shutdown_grace();
    let grace_over = async move {
        stopped(stopping).await;
        tracing::info!(
            grace_secs = grace.as_secs(),
            "stopping: no new connections; requests in flight may finish"
        );
        tokio::time::sleep(grace).await;
    };
    tokio::select! {
        served = std::future::IntoFuture::into_future(serving) => served?,
        _ = grace_over => tracing::warn!(
            "the shutdown grace is over; requests still in flight are cut off"
        ),
    }
    if tokio::time::timeout(CLOSE_POOL, pool.close())
        .await
        .is_err()
    {
        tracing::warn!("the database pool did not close in time");
    }
    tracing::info!("stopped");
    Ok(ExitCode::SUCCESS)
}

/// Resolves once the process is asked to stop: SIGTERM (what service
/// managers and container runtimes send) or Ctrl-C.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "SIGTERM cannot be caught; Ctrl-C only");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Resolves once `stopping` says so (or its sender is gone).
async fn stopped(mut stopping: watch::Receiver<bool>) {
    let _ = stopping.wait_for(|stop| *stop).await;
}
