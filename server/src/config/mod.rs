//! The configuration: every environment variable the server reads, declared
//! once, typed and documented. The doc comment of each field is what
//! `server --help` shows, and the table under "Running" in docs/operations.md is
//! generated from the same declarations (`tests/suite/configuration.rs`
//! fails with the up-to-date table when they drift apart).
//!
//! Read once in `main` ([`Cli::load`]) and handed down as plain values: the
//! database URL and pool size, the router's [`http::Settings`], the model's
//! [`LlmConfig`], the log filter and format, the shutdown grace. No other
//! module reads the environment. Every variable may also be given as the
//! flag of the same name (`DATABASE_URL` → `--database-url`).
//!
//! Not here: cargo-leptos's own variables (`LEPTOS_OUTPUT_NAME`,
//! `LEPTOS_SITE_PKG_DIR`, `LEPTOS_HASH_FILES`…), which it sets for the
//! build it made and `leptos_config` reads into the site's options. The two
//! an operator sets, `LEPTOS_SITE_ADDR` and `LEPTOS_SITE_ROOT`, are here and
//! override those options.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::time::Duration;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser};

use crate::demo::Seeding;
use crate::http::admin::AdminToken;
use crate::http::client::TrustedProxies;
use crate::http::limits::{Limits, CHAT_TURNS_PER_MINUTE};
use crate::llm::config as llm;
use crate::llm::LlmConfig;

/// The command line: the configuration, then the command and its
/// arguments (`server seed --advisors 1000`), all parsed by clap
/// (`cli::commands`).
#[derive(Clone, Parser)]
#[command(
    name = "server",
    version,
    about = "The advisor review site, and the tools that share its code.",
    after_help = crate::cli::USAGE
)]
pub struct Cli {
    #[command(flatten)]
    pub config: Config,
    /// The command (`server <command> --help` for its flags); none serves
    /// the site.
    #[command(subcommand)]
    pub command: Option<crate::cli::commands::Command>,
}

/// Everything the environment says, typed.
#[derive(Clone, Args)]
pub struct Config {
    /// The database: `sqlite://file` (created if missing) or
    /// `postgres://user:password@host:port/database` (the database must
    /// exist); migrated and filled with demo data on first start. The tools
    /// open it too (`server import`; `server seed` and `server bench-scale`,
    /// whose default is `sqlite://data/scale.db` when this is unset).
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = crate::db::DEFAULT_DATABASE_URL,
        hide_env_values = true,
        help_heading = "Database"
    )]
    pub database_url: String,

    /// Connections each instance keeps in its pool (1–1000).
    #[arg(
        long,
        env = "DATABASE_MAX_CONNECTIONS",
        default_value_t = crate::db::DEFAULT_MAX_CONNECTIONS,
        value_parser = crate::db::parse_max_connections,
        help_heading = "Database"
    )]
    pub database_max_connections: u32,

    /// `off`: an empty database gets the school/major catalog only, no demo
    /// advisors or reviews; `on`: the demo. Any other value is refused at
    /// start.
    #[arg(
        long,
        env = "DEMO_DATA",
        default_value = "on",
        value_parser = parse_seeding,
        help_heading = "Database"
    )]
    pub demo_data: Seeding,

    /// Where the site listens.
    #[arg(
        long = "leptos-site-addr",
        env = "LEPTOS_SITE_ADDR",
        default_value = "127.0.0.1:3000",
        value_parser = parse_addr,
        help_heading = "Serving"
    )]
    pub site_addr: SocketAddr,

    /// Where the built CSS/JS/WASM are.
    #[arg(
        long = "leptos-site-root",
        env = "LEPTOS_SITE_ROOT",
        default_value = "target/site",
        help_heading = "Serving"
    )]
    pub site_root: String,

    /// Addresses or CIDR blocks (`127.0.0.1,10.0.0.0/8`) whose
    /// `X-Forwarded-For` / `X-Forwarded-Proto` are believed.
    #[arg(
        long,
        env = "TRUSTED_PROXIES",
        value_parser = TrustedProxies::parse,
        help_heading = "Serving"
    )]
    pub trusted_proxies: Option<TrustedProxies>,

    /// The site's public address (`https://daoshi.example`): the pages'
    /// `og:url`, robots.txt's `Sitemap:` line and `/sitemap.xml` are built
    /// from it; unset, they are left out (the request's Host header is
    /// whatever the client wrote).
    #[arg(
        long,
        env = "SITE_URL",
        value_parser = parse_site_url,
        help_heading = "Serving"
    )]
    pub site_url: Option<app::meta::SiteUrl>,

    /// Chat turns one client may take per minute.
    #[arg(
        long,
        env = "CHAT_TURNS_PER_MINUTE",
        default_value_t = CHAT_TURNS_PER_MINUTE,
        value_parser = Limits::parse_chat_turns,
        help_heading = "Serving"
    )]
    pub chat_turns_per_minute: u32,

    /// Enables `/admin` and `/api/v1/admin/…` with this token.
    #[arg(
        long,
        env = "ADMIN_TOKEN",
        hide_env_values = true,
        help_heading = "Serving"
    )]
    pub admin_token: Option<String>,

    /// Seconds a stopping server (SIGTERM, Ctrl-C) lets requests in flight
    /// and streaming turns finish, having stopped taking new connections;
    /// then it exits 0 regardless.
    #[arg(
        long,
        env = "SHUTDOWN_GRACE_SECS",
        default_value_t = 20,
        value_parser = parse_grace,
        help_heading = "Serving"
    )]
    pub shutdown_grace_secs: u64,

    /// The log filter (tracing's `EnvFilter` syntax); the tools default to
    /// `warn,sqlx=warn`.
    #[arg(
        long,
        env = "RUST_LOG",
        default_value = "info,sqlx=warn",
        help_heading = "Operations"
    )]
    pub rust_log: String,

    /// `text` (for people) or `json` (one object per line, for log
    /// shippers). Every line logged while serving a request carries its
    /// `x-request-id`.
    #[arg(
        long,
        env = "LOG_FORMAT",
        default_value = "text",
        value_parser = parse_log_format,
        help_heading = "Operations"
    )]
    pub log_format: LogFormat,

    /// `on`: `GET /metrics` (Prometheus text) on the site's own address.
    #[arg(
        long,
        env = "METRICS",
        default_value = "off",
        value_name = "on|off",
        action = clap::ArgAction::Set,
        value_parser = parse_on_off,
        help_heading = "Operations"
    )]
    pub metrics: bool,

    /// `host:port`: `GET /metrics` on a listener of its own there (and not
    /// on the site's address, whatever `METRICS` says).
    #[arg(
        long,
        env = "METRICS_ADDR",
        value_parser = parse_addr,
        help_heading = "Operations"
    )]
    pub metrics_addr: Option<SocketAddr>,

    #[command(flatten)]
    pub llm: LlmVars,

    #[command(flatten)]
    pub asr: AsrVars,

    /// The variables given (in the environment or as flags) rather than
    /// defaulted, by name.
    #[arg(skip)]
    given: BTreeSet<String>,
}

/// The `LLM_*` variables as written; [`Config::llm`] checks them together.
#[derive(Clone, Args)]
#[command(next_help_heading = "Language model (none of the first three set: the embedded planner)")]
pub struct LlmVars {
    /// Any OpenAI-compatible Chat Completions endpoint, up to `/v1`.
    /// Setting this, `LLM_API_KEY` or `LLM_MODEL` turns the model planner
    /// on.
    #[arg(long, env = "LLM_BASE_URL", default_value = llm::DEFAULT_BASE_URL)]
    pub llm_base_url: String,

    /// Bearer token (local servers need none).
    #[arg(long, env = "LLM_API_KEY", hide_env_values = true)]
    pub llm_api_key: Option<String>,

    /// Model name.
    #[arg(long, env = "LLM_MODEL", default_value = llm::DEFAULT_MODEL)]
    pub llm_model: String,

    /// One model call's limit in seconds, retries included.
    #[arg(long, env = "LLM_TIMEOUT_SECS", default_value = "20")]
    pub llm_timeout_secs: String,

    /// The turn's latency budget in seconds: every model call of a turn
    /// (intent, planner, casual persona, coach) ends by it; past it the
    /// late answer is dropped and logged and code's answer is spoken
    /// (`degraded` event `upstream_over_budget`).
    #[arg(long, env = "LLM_TURN_BUDGET_SECS", default_value = "6")]
    pub llm_turn_budget_secs: String,

    /// Retries after no connection, 429 or 5xx (backoff 200 ms·2ⁿ + jitter,
    /// `Retry-After` honoured).
    #[arg(long, env = "LLM_MAX_RETRIES", default_value = "2")]
    pub llm_max_retries: String,

    /// `json` for models without function calling (the tool call
    /// as a JSON object in the reply).
    #[arg(long, env = "LLM_TOOL_MODE", default_value = "functions")]
    pub llm_tool_mode: String,

    /// Stream the reply (speech starts at the first sentence).
    #[arg(long, env = "LLM_STREAM", default_value = "true")]
    pub llm_stream: String,

    /// Sampling temperature of calls without a phase (the review coach).
    #[arg(long, env = "LLM_TEMPERATURE", default_value = "0.3")]
    pub llm_temperature: String,

    /// The longest reply, in tokens.
    #[arg(long, env = "LLM_MAX_TOKENS", default_value = "400")]
    pub llm_max_tokens: String,

    /// Tokens of conversation history sent at most (older lines first
    /// dropped).
    #[arg(long, env = "LLM_HISTORY_TOKENS", default_value = "1200")]
    pub llm_history_tokens: String,
}

/// The `ASR_*` variables: the speech recognizer behind
/// `POST /api/v1/transcribe` ([`Config::asr`]).
#[derive(Clone, Args)]
#[command(
    next_help_heading = "Speech recognition (ASR_BASE_URL unset: the browser's own recognizer only)"
)]
pub struct AsrVars {
    /// Any OpenAI-compatible `/v1/audio/transcriptions` server, up to
    /// `/v1` (`.ci/asr serve`: faster-whisper on loopback). Set, the
    /// panel records speech and this server transcribes it; the audio
    /// goes nowhere else and is never stored.
    #[arg(long, env = "ASR_BASE_URL", value_parser = parse_asr_url)]
    pub asr_base_url: Option<String>,

    /// Bearer token (local servers need none).
    #[arg(long, env = "ASR_API_KEY", hide_env_values = true)]
    pub asr_api_key: Option<String>,

    /// Model name, as the server knows it.
    #[arg(long, env = "ASR_MODEL", default_value = crate::transcribe::DEFAULT_MODEL)]
    pub asr_model: String,

    /// The language spoken (ISO 639-1).
    #[arg(long, env = "ASR_LANGUAGE", default_value = crate::transcribe::DEFAULT_LANGUAGE)]
    pub asr_language: String,

    /// One recording's limit in seconds (1–60); past it the panel says so
    /// and the text box still works.
    #[arg(
        long,
        env = "ASR_TIMEOUT_SECS",
        default_value_t = crate::transcribe::DEFAULT_TIMEOUT_SECS,
        value_parser = parse_asr_timeout
    )]
    pub asr_timeout_secs: u64,

    /// Recordings one client may send per minute.
    #[arg(
        long,
        env = "TRANSCRIPTIONS_PER_MINUTE",
        default_value_t = crate::http::transcribe::TRANSCRIPTIONS_PER_MINUTE,
        value_parser = parse_transcriptions
    )]
    pub transcriptions_per_minute: u32,
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

impl Cli {
    /// The command line and the environment of this process, read once.
    /// Exits on `--help` and `--version` (0), on a wrong option (2) and on
    /// a malformed variable (1, its Chinese message after 启动失败, as any
    /// failed start).
    pub fn load() -> Cli {
        match Cli::try_load_from(std::env::args_os()) {
            Ok(cli) => cli,
            Err(e) if e.kind() == clap::error::ErrorKind::ValueValidation => {
                let why = std::error::Error::source(&e)
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| e.to_string());
                eprintln!("启动失败：{why}");
                std::process::exit(1)
            }
            Err(e) => e.exit(),
        }
    }

    /// [`Cli::load`] over `args` (the program's name first), without
    /// exiting.
    pub fn try_load_from<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = Cli::command().try_get_matches_from(args)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        cli.config.given = given(&matches);
        Ok(cli)
    }
}

/// The names of the variables `matches` took from the environment or a flag.
fn given(matches: &ArgMatches) -> BTreeSet<String> {
    Cli::command()
        .get_arguments()
        .filter_map(|arg| {
            let env = arg.get_env()?.to_str()?.to_string();
            match matches.value_source(arg.get_id().as_str()) {
                Some(ValueSource::EnvVariable | ValueSource::CommandLine) => Some(env),
                _ => None,
            }
        })
        .collect()
}

impl Config {
    /// Whether the variable `name` was given rather than defaulted.
    pub fn is_given(&self, name: &str) -> bool {
        self.given.contains(name)
    }

    /// `DATABASE_URL` when it was given, else `fallback` (the database at
    /// scale of `server seed` and `server bench-scale`).
    pub fn database_url_or(&self, fallback: &str) -> String {
        if self.is_given("DATABASE_URL") {
            self.database_url.clone()
        } else {
            fallback.to_string()
        }
    }

    /// The log filter: `RUST_LOG` when given, else `default`.
    pub fn log_filter<'a>(&'a self, default: &'a str) -> &'a str {
        if self.is_given("RUST_LOG") {
            &self.rust_log
        } else {
            default
        }
    }

    /// What the site's router is built with.
    pub fn http_settings(&self) -> crate::http::Settings {
        crate::http::Settings {
            proxies: self.trusted_proxies.clone().unwrap_or_default(),
            chat_turns_per_minute: self.chat_turns_per_minute,
            admin_token: AdminToken::new(self.admin_token.as_deref()),
            metrics: self.metrics && self.metrics_addr.is_none(),
            site_url: self.site_url.clone(),
            asr: self.asr(),
            transcriptions_per_minute: self.asr.transcriptions_per_minute,
        }
    }

    /// The speech recognizer, when `ASR_BASE_URL` names one.
    pub fn asr(&self) -> Option<crate::transcribe::AsrConfig> {
        let v = &self.asr;
        let mut c = crate::transcribe::AsrConfig::new(v.asr_base_url.as_deref()?).ok()?;
        c.api_key = v.asr_api_key.clone().filter(|k| !k.trim().is_empty());
        c.model = v.asr_model.trim().to_string();
        c.language = v.asr_language.trim().to_string();
        c.timeout = Duration::from_secs(v.asr_timeout_secs);
        Some(c)
    }

    /// Whether metrics are recorded at all (on the site's address or on
    /// `METRICS_ADDR`).
    pub fn metrics_on(&self) -> bool {
        self.metrics || self.metrics_addr.is_some()
    }

    /// How long a stopping server waits for requests in flight.
    pub fn shutdown_grace(&self) -> Duration {
        Duration::from_secs(self.shutdown_grace_secs)
    }

    /// The model, when `LLM_*` configure one; `Err` names a malformed value
    /// in Chinese. Only the variables given count: the defaults shown
    /// above are the model client's own (`llm::config`).
    pub fn llm(&self) -> Result<Option<LlmConfig>, String> {
        let v = &self.llm;
        let values = [
            ("LLM_BASE_URL", Some(&v.llm_base_url)),
            ("LLM_API_KEY", v.llm_api_key.as_ref()),
            ("LLM_MODEL", Some(&v.llm_model)),
            ("LLM_TIMEOUT_SECS", Some(&v.llm_timeout_secs)),
            ("LLM_TURN_BUDGET_SECS", Some(&v.llm_turn_budget_secs)),
            ("LLM_MAX_RETRIES", Some(&v.llm_max_retries)),
            ("LLM_TOOL_MODE", Some(&v.llm_tool_mode)),
            ("LLM_STREAM", Some(&v.llm_stream)),
            ("LLM_TEMPERATURE", Some(&v.llm_temperature)),
            ("LLM_MAX_TOKENS", Some(&v.llm_max_tokens)),
            ("LLM_HISTORY_TOKENS", Some(&v.llm_history_tokens)),
        ];
        LlmConfig::from_lookup(|k| {
            values
                .iter()
                .find(|(name, _)| *name == k && self.is_given(name))
                .and_then(|(_, value)| value.cloned())
        })
    }
}

/// `ASR_BASE_URL`: an `http://` or `https://` address.
fn parse_asr_url(v: &str) -> Result<String, String> {
    crate::transcribe::AsrConfig::new(v).map(|c| c.base_url)
}

fn parse_asr_timeout(v: &str) -> Result<u64, String> {
    v.trim()
        .parse::<u64>()
        .ok()
        .filter(|s| (1..=60).contains(s))
        .ok_or_else(|| format!("ASR_TIMEOUT_SECS 应为 1 到 60 之间的整数（秒），现在是「{v}」"))
}

fn parse_transcriptions(v: &str) -> Result<u32, String> {
    match v.trim().parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "TRANSCRIPTIONS_PER_MINUTE 应为正整数（每个客户端每分钟的录音条数），现在是「{v}」"
        )),
    }
}

fn parse_seeding(v: &str) -> Result<Seeding, String> {
    Seeding::parse(Some(v))
}

/// `SITE_URL`: an `http://` or `https://` address (`app::meta::SiteUrl`).
fn parse_site_url(s: &str) -> Result<app::meta::SiteUrl, String> {
    app::meta::SiteUrl::parse(s)
}

fn parse_addr(v: &str) -> Result<SocketAddr, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("「{v}」不是监听地址（应为 主机:端口，例如 127.0.0.1:3000）"))
}

fn parse_grace(v: &str) -> Result<u64, String> {
    v.trim()
        .parse::<u64>()
        .ok()
        .filter(|s| *s <= 3600)
        .ok_or_else(|| {
            format!("SHUTDOWN_GRACE_SECS 应为 0 到 3600 之间的整数（秒），现在是「{v}」")
        })
}

fn parse_log_format(v: &str) -> Result<LogFormat, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "text" | "" => Ok(LogFormat::Text),
        "json" => Ok(LogFormat::Json),
        _ => Err(format!("LOG_FORMAT 应为 text 或 json，现在是「{v}」")),
    }
}

fn parse_on_off(v: &str) -> Result<bool, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" | "" => Ok(false),
        _ => Err(format!("METRICS 应为 on 或 off，现在是「{v}」")),
    }
}

#[cfg(test)]
mod tests;
