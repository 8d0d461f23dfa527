//! The advisor review site's server: database, read service, JSON API and the
//! server-side rendering of the `app` pages, assembled into one axum router.
//!
//! Module map:
//! - [`db`]: open SQLite, apply migrations, seed the demo data.
//! - [`demo`]: the deterministic demo dataset.
//! - [`catalog`]: school and major names, aliases and their resolution.
//! - [`ranking`]: the Bayesian average every ranking is ordered by.
//! - [`store`]: every SQL statement of the read side.
//! - [`reviews`]: writing reviews: posting rules, validation, the write path.
//! - [`text`]: folding (half-width, simplified, numerals) and one-pass word lists.
//! - [`site`]: the read service (pages, API and agent tools read through it).
//! - [`agent`]: the voice agent's turn pipeline.
//! - [`coach`]: the review coach, a router → follow-up / editor graph (seed 003).
//! - [`http`]: the JSON API and the chat endpoints.
//! - [`llm`]: the OpenAI-compatible language-model provider (and its scripted stand-in).

pub mod agent;
pub mod catalog;
pub mod coach;
pub mod db;
pub mod demo;
pub mod http;
pub mod llm;
pub mod ranking;
pub mod reviews;
pub mod site;
pub mod store;
pub mod text;

use std::sync::Arc;

use axum::routing::get;
use axum::{Json, Router};
use leptos::prelude::*;
use leptos_axum::{generate_route_list, LeptosRoutes};
use tower_http::compression::CompressionLayer;

use app::api::{SharedAgent, SharedSiteData};
use app::{shell, App};

use crate::agent::Agent;
use crate::site::Site;

/// The whole site: JSON API, agent, health check, server functions, pages
/// and static files (the WASM bundle, CSS, favicon).
pub fn app_router(site: Arc<Site>, agent: Arc<Agent>, leptos_options: LeptosOptions) -> Router {
    let data: SharedSiteData = site.clone();
    let agent_data: SharedAgent = agent.clone();
    let routes = generate_route_list(App);
    let health_site = site.clone();
    let planner = agent.planner_name();
    Router::<LeptosOptions>::new()
        .route(
            "/healthz",
            get(move || {
                let site = health_site.clone();
                let planner = planner.clone();
                async move {
                    Json(serde_json::json!({
                        "status": "ok",
                        "schools": site.catalog().schools().len(),
                        "planner": planner,
                    }))
                }
            }),
        )
        .leptos_routes_with_context(
            &leptos_options,
            routes,
            move || {
                provide_context(data.clone());
                provide_context(agent_data.clone());
            },
            {
                let options = leptos_options.clone();
                move || shell(options.clone())
            },
        )
        .fallback(leptos_axum::file_and_error_handler(shell))
        .with_state(leptos_options)
        .merge(http::moderation::pages(site.clone()))
        .nest(
            "/api/v1",
            http::api_v1::router(site.clone())
                .merge(http::chat::router(agent))
                .merge(http::moderation::api(site)),
        )
        .layer(CompressionLayer::new())
}
