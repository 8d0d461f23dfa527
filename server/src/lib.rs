//! The advisor review site's server: database, read service, JSON API and the
//! server-side rendering of the `app` pages, assembled into one axum router.
//!
//! Module map:
//! - [`config`]: every environment variable, typed and documented, read
//!   once by `main` and handed down (`server --help`).
//! - [`loopback`]: a router served in the background until dropped (the
//!   scripted model and recognizer of the tests and the mock commands).
//! - [`outbound`]: answers from the services the server calls (the model,
//!   the recognizer) read with a bound on their bytes.
//! - [`observe`]: the metrics every part counts with one line, and how a
//!   log line may name a client (never by its address).
//! - [`graph`]: the one runner of the agent's and the coach's graphs.
//! - [`db`]: open SQLite or PostgreSQL (`DATABASE_URL`), apply that
//!   backend's migrations; the writers' lock and the setup lock of each
//!   backend.
//! - [`startup`]: the database opened, migrated, seeded with the demo data
//!   (or, with `DEMO_DATA=off`, the catalog only) and indexed; the secret
//!   of the stored client keys made, and client addresses older versions
//!   stored replaced by their keys.
//! - [`demo`]: the deterministic demo dataset, and the same grown to 100,000
//!   advisors (`demo::scale`, `server seed`).
//! - [`catalog`]: school and major names, aliases and their resolution.
//! - [`ranking`]: the Bayesian average every ranking is ordered by.
//! - [`store`]: every SQL statement of the site, written once for both
//!   backends; rankings read stored scores through one index per sort
//!   (`store::rankings`, `store::scores`), the review write paths move the
//!   aggregates (`store::reviews`); a client is stored as a keyed hash of
//!   its address, never the address (`store::client_keys`), so the
//!   database holds no IP address for anyone to read or leak.
//! - [`reviews`]: writing reviews: posting rules, validation, the write path.
//! - [`text`]: folding (half-width, simplified, numerals) and one-pass word lists.
//! - [`site`]: the read service (pages, API and agent tools read through it).
//! - [`places`]: the figures of a school or a major as a whole (the agent's
//!   answer to "中山大学怎么样").
//! - [`search`]: the name search — advisors by name, pinyin or initials,
//!   schools and majors by name or alias (`/search`, the agent's lookup).
//! - [`agent`]: the voice agent's turn pipeline.
//! - [`coach`]: the review coach, a router → follow-up / editor graph.
//! - [`speech_act`]: whose words each clause is and what it does to an action;
//!   both the agent and the coach act only on its verdict.
//! - [`http`]: the JSON API and the chat endpoints; who is asking
//!   (`http::client`: the address, from the socket or a trusted proxy,
//!   turned into the client's stored key at once); every request's id,
//!   access line, count and panic guard (`http::access`); `/healthz`,
//!   `/readyz`, `/metrics` (`http::ops`).
//! - [`llm`]: the OpenAI-compatible language-model provider (and its scripted stand-in).
//! - [`transcribe`]: speech to text on the site's own server: the
//!   recording checked, the words to listen for, an OpenAI-compatible
//!   recognizer (and its scripted stand-in).
//! - [`cli`]: the command-line tools, apart from the site: the evaluations,
//!   `server load` (many students at once, `make load`), `server seed`,
//!   `server bench-scale` (the reads at 100,000 advisors), `server import`
//!   (advisors from a CSV file, checked against the catalog apart from the
//!   writing, `store::roster`) and `server mock-llm`.
//! - [`latency`]: percentiles, for the site's timings and the tools'.
// The page views are deep types; resolving them for server rendering needs
// more than the default 128 levels.
#![recursion_limit = "256"]

pub mod agent;
pub mod catalog;
pub mod cli;
pub mod coach;
pub mod config;
pub mod db;
pub mod demo;
#[cfg(feature = "evals")]
pub mod evals;
pub mod graph;
pub mod http;
pub mod latency;
pub mod llm;
pub mod loopback;
pub mod observe;
pub mod outbound;
pub mod places;
pub mod ranking;
pub mod reviews;
pub mod search;
pub mod site;
pub mod speech_act;
pub mod startup;
pub mod store;
pub mod text;
pub mod transcribe;
pub mod voice;

use std::sync::Arc;

use axum::middleware;
use axum::routing::get;
use axum::{Extension, Router};
use leptos::prelude::*;
use leptos_axum::{generate_route_list_with_exclusions, AxumRouteListing, LeptosRoutes};
use tower_http::compression::CompressionLayer;

use app::api::{SharedAgent, SharedSiteData};
use app::{shell, App};

use crate::agent::Agent;
use crate::http::client::{Identifier, TrustedProxies};
use crate::http::limits::Limits;
use crate::site::Site;

/// The whole site with the embedded agent on a free loopback port, as the
/// tool subcommands measure it (`server load`, `server bench-scale`):
/// its address and the serving task (abort it when done). Requests come
/// from 127.0.0.1, which is trusted, so `X-Forwarded-For` names a client.
pub async fn serve_on_loopback(
    site: Arc<Site>,
) -> Result<
    (
        std::net::SocketAddr,
        tokio::task::JoinHandle<std::io::Result<()>>,
    ),
    String,
> {
    let agent = Arc::new(Agent::new(site.clone()));
    let options = LeptosOptions::builder()
        .output_name("advisor-review")
        .build();
    let settings = http::Settings {
        proxies: TrustedProxies::parse("127.0.0.1")?,
        ..http::Settings::default()
    };
    let app = app_router_with(site, agent, options, settings);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let server = tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .await
    });
    Ok((addr, server))
}

/// The pages' routes, listed once per process.
///
/// Listing them renders the app with resources suppressed, and Leptos keeps
/// that switch in one process-wide flag (`leptos_server`'s
/// `IS_SUPPRESSING_RESOURCE_LOAD`): a page whose resource starts while
/// another router is being built waits on `pending()` for ever. That was the
/// 30 s hang of the test suites (many routers, one process) and would be one
/// in any process that builds a second router while serving (two instances
/// in one process, `server load`). Listed once, before the first router
/// exists, no page can be rendering while the flag is up.
///
/// `/admin` is left out: it is served by [`http::admin::page`], which
/// checks the admin token before it renders the route.
fn page_routes() -> Vec<AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<AxumRouteListing>> = std::sync::OnceLock::new();
    ROUTES
        .get_or_init(|| generate_route_list_with_exclusions(App, Some(vec![ADMIN_PAGE.into()])))
        .clone()
}

/// The path of the admin page.
const ADMIN_PAGE: &str = "/admin";

/// The whole site: JSON API, agent, health and readiness, server
/// functions, pages and static files (the WASM bundle, CSS, favicon), and
/// `/metrics` when `settings` say so, behind the site's guards
/// (`http::security`, `http::client`): client identity, security headers,
/// body limits, a deadline, cross-site writes refused, chat turns limited
/// per client; and outermost what every request leaves behind
/// (`http::access`: its id, access line, count, and a 500 for a panic).
/// `settings` come from the configuration, read once (`config`); the
/// secret client keys are made with comes from the database, read once
/// with the site (`Site::client_keys`), so every router over one database
/// names a client alike.
pub fn app_router_with(
    site: Arc<Site>,
    agent: Arc<Agent>,
    leptos_options: LeptosOptions,
    settings: http::Settings,
) -> Router {
    let leptos_options = http::assets::hashed_names(leptos_options);
    let hashed_names = leptos_options.hash_files;
    let data: SharedSiteData = site.clone();
    let agent_data: SharedAgent = agent.clone();
    let routes = page_routes();
    let planner = agent.planner_name();
    let limits = Arc::new(
        Limits::with_chat_turns(settings.chat_turns_per_minute).in_database(site.pool().clone()),
    );
    let transcription = Arc::new(http::transcribe::Transcription::new(
        settings.asr.clone().map(transcribe::Recognizer::new),
        site.clone(),
        agent.lexicons(),
        settings.transcriptions_per_minute,
        site.pool().clone(),
    ));
    let voice_input = app::voice_input::VoiceInput {
        server: settings.asr.is_some(),
    };
    // What every page's render is given: the data, the agent, the CSP, the
    // site's address (for the meta tags), whether the server recognizes
    // speech (for the panel's microphone).
    let site_url = settings.site_url.clone();
    let page_url = site_url.clone();
    let page_context = move || {
        provide_context(data.clone());
        provide_context(agent_data.clone());
        if let Some(url) = &page_url {
            provide_context(url.clone());
        }
        provide_context(voice_input);
        http::security::provide_page_csp();
    };
    // `/admin`: the token checked, then the route rendered as Leptos renders
    // the others (the same context, the router's state and method).
    let admin_page = {
        let options = leptos_options.clone();
        let context = page_context.clone();
        let render = leptos_axum::render_app_async_with_context(
            move || {
                provide_context(options.clone());
                provide_context(leptos_router::Method::Get);
                context();
            },
            {
                let options = leptos_options.clone();
                move || shell(options.clone())
            },
        );
        move |req: axum::extract::Request| http::admin::page(req, render.clone())
    };
    let mut router = Router::<LeptosOptions>::new()
        .leptos_routes_with_context(&leptos_options, routes, page_context.clone(), {
            let options = leptos_options.clone();
            move || shell(options.clone())
        })
        .route(ADMIN_PAGE, get(admin_page))
        .nest_service(
            &format!("/{}", leptos_options.site_pkg_dir),
            http::assets::files(&leptos_options),
        )
        // What is left: `public/` (the icon), and the 404 page.
        .fallback(leptos_axum::file_and_error_handler(shell))
        .with_state(leptos_options)
        .merge(http::ops::health(site.clone(), planner))
        .merge(http::reviews::pages(site.clone()))
        .merge(http::admin::pages(site.clone()))
        .merge(http::votes::pages(site.clone()))
        .merge(http::corrections::pages(site.clone()))
        .merge(http::crawlers::router(
            site.clone(),
            site_url,
            http::crawlers::MAX_URLS,
        ))
        .nest(
            "/api/v1",
            http::api_v1::router(site.clone())
                .merge(http::votes::api(site.clone()))
                .merge(http::chat::router(agent))
                .merge(http::reviews::api(site.clone()))
                .merge(http::admin::api(site.clone()))
                .merge(http::openapi::router()),
        );
    if settings.metrics {
        router = router.merge(http::ops::metrics(site.pool().clone()));
    }
    let router = router
        .layer(middleware::from_fn_with_state(
            limits.clone(),
            http::limits::chat_turns,
        ))
        .layer(Extension(limits))
        .layer(Extension(settings.admin_token))
        .layer(middleware::from_fn(http::security::same_origin_writes))
        .layer(http::security::limit(http::security::DEFAULT_BODY))
        .layer(http::security::hard_limit())
        // Outside the hard limit, with limits of its own (a recording is
        // larger than any other body); inside everything else.
        .merge(http::transcribe::router(transcription))
        .layer(http::security::timeout())
        .layer(middleware::from_fn(http::security::json_errors))
        .layer(middleware::from_fn(http::security::headers))
        .layer(middleware::from_fn_with_state(
            hashed_names,
            http::assets::caching,
        ))
        .layer(middleware::from_fn_with_state(
            Arc::new(Identifier::new(
                settings.proxies,
                site.client_keys().clone(),
            )),
            http::client::identify,
        ))
        .layer(CompressionLayer::new());
    http::access::layer(router)
}
