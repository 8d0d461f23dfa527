//! `server`: serves the site. Configuration comes from the environment:
//! `DATABASE_URL` (default `sqlite://data/advisor.db`), and cargo-leptos's
//! `LEPTOS_SITE_ADDR` / `LEPTOS_SITE_ROOT` (default 127.0.0.1:3000, target/site).

use std::process::ExitCode;
use std::sync::Arc;

use leptos::config::get_configuration;
use tracing_subscriber::EnvFilter;

use server::agent::Agent;
use server::db;

/// Chat sessions idle this long are deleted at start.
const SESSION_DAYS: u32 = 7;
use server::site::Site;

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn")),
        )
        .init();
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e}");
            eprintln!("启动失败：{e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let url =
        std::env::var("DATABASE_URL").unwrap_or_else(|_| db::DEFAULT_DATABASE_URL.to_string());
    let started = std::time::Instant::now();
    let (pool, seeded) = db::open(&url).await?;
    if seeded {
        tracing::info!(
            elapsed_ms = started.elapsed().as_millis() as u64,
            "demo data written to {url}"
        );
    }
    let site = Arc::new(Site::load(pool).await?);
    let agent = Arc::new(Agent::new(site.clone()));
    match agent.sessions().purge_older_than(SESSION_DAYS).await {
        Ok(n) if n > 0 => tracing::info!("purged {n} chat sessions idle for {SESSION_DAYS} days"),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "could not purge old chat sessions"),
    }

    let conf = get_configuration(None)?;
    let addr = conf.leptos_options.site_addr;
    let planner = agent.planner_name();
    let app = server::app_router(site, agent, conf.leptos_options);

    let listener = tokio::net::TcpListener::bind(&addr).await?;
    tracing::info!("listening on http://{addr} (database {url}, planner: {planner})");
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
