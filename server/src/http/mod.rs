//! HTTP surface besides the pages: the JSON API under `/api/v1` (reads,
//! reviews, 有用 votes and the agent), the 举报, 有用 and 申诉 form targets
//! and `/admin`; the guards every request passes ([`security`], [`client`],
//! [`limits`]); how long browsers keep the site's files ([`assets`]);
//! robots.txt and the sitemap ([`crawlers`]); what the operator gets: every
//! request's id, access line, count and panic guard ([`access`]), health,
//! readiness and metrics ([`ops`]); the API's OpenAPI description
//! ([`openapi`]); speech to text for the panel ([`transcribe`]).

pub mod access;
pub mod admin;
pub mod api_v1;
pub mod assets;
pub mod chat;
pub mod client;
pub mod corrections;
pub mod crawlers;
mod error;
pub mod limits;
pub mod openapi;
pub mod ops;
mod pages;
pub mod responses;
pub mod reviews;
pub mod security;
pub mod transcribe;
pub mod votes;

pub use error::{json_body, JsonError};

/// What the site's router is built with besides the site and the agent:
/// the configuration's part of it (read once at start, `crate::config`),
/// or a test's.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`).
    pub proxies: client::TrustedProxies,
    /// Chat turns per client and minute (`CHAT_TURNS_PER_MINUTE`).
    pub chat_turns_per_minute: u32,
    /// `/admin` and its API (`ADMIN_TOKEN`; none: off).
    pub admin_token: admin::AdminToken,
    /// `GET /metrics` on the site's router (`METRICS=on` without
    /// `METRICS_ADDR`).
    pub metrics: bool,
    /// The site's public address (`SITE_URL`): the pages' `og:url`,
    /// robots.txt's sitemap line and the sitemap; none: left out.
    pub site_url: Option<app::meta::SiteUrl>,
    /// The speech recognizer behind `POST /api/v1/transcribe` (`ASR_*`;
    /// none: the route answers 503 and the panel shows no recording
    /// microphone).
    pub asr: Option<crate::transcribe::AsrConfig>,
    /// Recordings per client and minute (`TRANSCRIPTIONS_PER_MINUTE`).
    pub transcriptions_per_minute: u32,
}

impl Default for Settings {
    /// No proxy trusted, the default chat limit, no admin, no metrics, no
    /// public address.
    fn default() -> Settings {
        Settings {
            proxies: client::TrustedProxies::default(),
            chat_turns_per_minute: limits::CHAT_TURNS_PER_MINUTE,
            admin_token: admin::AdminToken::default(),
            metrics: false,
            site_url: None,
            asr: None,
            transcriptions_per_minute: transcribe::TRANSCRIPTIONS_PER_MINUTE,
        }
    }
}
