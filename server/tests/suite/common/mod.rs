//! Test support: a demo database seeded once per test binary and copied for
//! each test, so every test owns its data and none pays for seeding twice.
//!
//! A copy is 13 MB and the suite makes hundreds: a copy whose site is gone
//! is removed before the next is made (`Copies`), and the scratch folder
//! with the process, so the suite's disk is that of the tests running at
//! once, not of every test it ran (3 GB on SQLite and 5.6 GB on PostgreSQL
//! before, which filled the disk of a CI machine mid-suite).

#![allow(dead_code)]

pub mod binary;
pub mod database;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use server::site::Site;

const SCRATCH_PREFIX: &str = "advisor-review-tests-";

/// Removes the scratch folders of test processes that have ended.
fn remove_stale_scratch() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix(SCRATCH_PREFIX) else {
            continue;
        };
        if pid != std::process::id().to_string()
            && !std::path::Path::new(&format!("/proc/{pid}")).exists()
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// This process's scratch folder, removed once the process is gone.
fn scratch_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        remove_stale_scratch();
        let dir = std::env::temp_dir().join(format!("{SCRATCH_PREFIX}{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        database::after_this_process(&format!("rm -rf '{}'", dir.display()));
        dir
    })
    .clone()
}

/// The demo copies handed out, each with the site that opened it.
struct Copies(Mutex<Vec<(Weak<Site>, String)>>);

impl Copies {
    fn get() -> &'static Copies {
        static COPIES: OnceLock<Copies> = OnceLock::new();
        COPIES.get_or_init(|| Copies(Mutex::new(Vec::new())))
    }

    fn keep(&self, site: &Arc<Site>, url: String) {
        self.0.lock().unwrap().push((Arc::downgrade(site), url));
    }

    /// Removes the copies no site holds any more: its test has ended (a
    /// test that opens a copy another way holds its site while it does).
    fn sweep(&self) {
        let gone: Vec<String> = {
            let mut copies = self.0.lock().unwrap();
            let (gone, live) = std::mem::take(&mut *copies)
                .into_iter()
                .partition(|(site, _)| site.strong_count() == 0);
            *copies = live;
            gone.into_iter().map(|(_, url)| url).collect()
        };
        for url in gone {
            match database::backend() {
                server::db::Backend::Sqlite => {
                    let path = url.trim_start_matches("sqlite://");
                    for suffix in ["", "-wal", "-shm"] {
                        let _ = std::fs::remove_file(format!("{path}{suffix}"));
                    }
                }
                server::db::Backend::Postgres => {
                    if let Some(name) = url.rsplit('/').next() {
                        database::drop_database(name);
                    }
                }
            }
        }
    }
}

/// Seeds a template database at `url` on a runtime of its own (the pool
/// must not outlive the runtime it was made on). With `vacuum_into`, the
/// seeded database is then written whole to that file by SQLite itself
/// (`VACUUM INTO`), and the copies are taken from it: a file no connection
/// ever opens, so a copy can never meet a connection still closing (whose
/// last checkpoint writes the file it came from).
fn seed_template(url: String, vacuum_into: Option<PathBuf>) {
    std::thread::spawn(move || {
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async {
            let (pool, seeded) = server::startup::open_with(&url, server::startup::Seeding::Demo)
                .await
                .expect("seed template");
            assert!(seeded);
            if let Some(path) = vacuum_into {
                sqlx::query(&format!("VACUUM INTO '{}'", path.display()))
                    .execute(&pool)
                    .await
                    .expect("write the template");
            }
            pool.close().await;
        });
    })
    .join()
    .expect("template thread");
}

/// The seeded template database of this test process: a file on SQLite,
/// the cluster's database `template_demo` on PostgreSQL.
fn template() -> &'static PathBuf {
    static TEMPLATE: OnceLock<PathBuf> = OnceLock::new();
    TEMPLATE.get_or_init(|| match database::backend() {
        server::db::Backend::Sqlite => {
            let seeded = scratch_dir().join("seeded.db");
            let path = scratch_dir().join("template.db");
            seed_template(format!("sqlite://{}", seeded.display()), Some(path.clone()));
            path
        }
        server::db::Backend::Postgres => {
            let cluster = database::cluster();
            cluster.psql("CREATE DATABASE template_demo");
            seed_template(cluster.url("template_demo"), None);
            PathBuf::from("template_demo")
        }
    })
}

/// The URL of a fresh copy of the demo database.
pub fn demo_copy_url() -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let template = template().clone();
    match database::backend() {
        server::db::Backend::Sqlite => {
            let copy = scratch_dir().join(format!("db-{}.db", N.fetch_add(1, Ordering::SeqCst)));
            std::fs::copy(&template, &copy).expect("copy template");
            format!("sqlite://{}", copy.display())
        }
        server::db::Backend::Postgres => database::copy_of_template(&template.to_string_lossy()),
    }
}

/// Errors the site logs (a failed query) go to the test's captured output,
/// shown when it fails.
fn log_errors() {
    let _ = tracing_subscriber::fmt()
        .with_test_writer()
        .with_max_level(tracing::Level::WARN)
        .try_init();
}

/// A fresh copy of the demo database, opened and ready.
pub async fn site() -> Arc<Site> {
    log_errors();
    Copies::get().sweep();
    let url = demo_copy_url();
    let (pool, seeded) = server::startup::open(&url).await.expect("open copy");
    assert!(!seeded, "a copy of the template is already seeded");
    let site = Arc::new(Site::load(pool).await.expect("load site"));
    Copies::get().keep(&site, url);
    site
}

/// The URL another process would open `site`'s database with.
pub fn url_of(site: &Site) -> String {
    site.pool().connect_options().database_url.to_string()
}

/// A new, empty database (SQLite: a file in this process's scratch folder).
pub fn empty_database(name: &str) -> String {
    database::empty_database(&scratch_dir(), name)
}

/// A fresh database as `DEMO_DATA=off` starts it: the school/major
/// catalog, no advisors, no reviews.
pub async fn catalog_only_site() -> Arc<Site> {
    let (pool, seeded) = server::startup::open_with(
        &empty_database("empty"),
        server::startup::Seeding::CatalogOnly,
    )
    .await
    .expect("open an empty database");
    assert!(seeded, "the catalog is written into an empty database");
    Arc::new(Site::load(pool).await.expect("load site"))
}

/// The router of the whole site over `site` (pages and API).
pub fn router(site: &Arc<Site>) -> Router {
    let options = leptos::config::LeptosOptions::builder()
        .output_name("advisor-review")
        .build();
    let agent = Arc::new(server::agent::Agent::new(site.clone()));
    behind_proxy(site.clone(), agent, options)
}

/// Two instances of the site (each its own pool, catalog, agent and router,
/// as two processes would have) over one fresh copy of the demo database.
pub async fn two_instances() -> ((Router, Arc<Site>), (Router, Arc<Site>)) {
    let first = site().await;
    let (pool, seeded) = server::startup::open(&url_of(&first))
        .await
        .expect("open the same database");
    assert!(!seeded);
    let second = Arc::new(Site::load(pool).await.expect("load site"));
    let router = |site: &Arc<Site>| {
        let options = leptos::config::LeptosOptions::builder()
            .output_name("advisor-review")
            .build();
        let agent = Arc::new(server::agent::Agent::new(site.clone()));
        behind_proxy(site.clone(), agent, options)
    };
    ((router(&first), first.clone()), (router(&second), second))
}

/// The whole site router (pages and API) over a fresh demo database.
pub async fn app() -> (Router, Arc<Site>) {
    let site = site().await;
    let options = leptos::config::LeptosOptions::builder()
        .output_name("advisor-review")
        .build();
    let agent = Arc::new(server::agent::Agent::new(site.clone()));
    (behind_proxy(site.clone(), agent, options), site)
}

/// The admin token of every test's site.
pub const ADMIN_TOKEN: &str = "test-admin";

/// What the tests' sites are built with: behind a local proxy (below), the
/// admin on with [`ADMIN_TOKEN`], the default chat limit, `/metrics` on.
pub fn settings() -> server::http::Settings {
    server::http::Settings {
        proxies: server::http::client::TrustedProxies::parse("127.0.0.1").unwrap(),
        admin_token: server::http::admin::AdminToken::new(Some(ADMIN_TOKEN)),
        metrics: true,
        ..Default::default()
    }
}

/// The site as it runs behind a local proxy: every request comes from
/// 127.0.0.1, which is trusted, so `X-Forwarded-For` names the client (tests
/// play several clients that way).
pub fn behind_proxy(
    site: Arc<Site>,
    agent: Arc<server::agent::Agent>,
    options: leptos::config::LeptosOptions,
) -> Router {
    server::app_router_with(site, agent, options, settings()).layer(
        axum::extract::connect_info::MockConnectInfo(std::net::SocketAddr::from((
            [127, 0, 0, 1],
            40000,
        ))),
    )
}

/// The site router with a language model behind the agent, configured from
/// `LLM_*`-style pairs (the scripted server's URL among them).
pub async fn app_with_model(vars: &[(&str, &str)]) -> (Router, Arc<Site>) {
    let site = site().await;
    let options = leptos::config::LeptosOptions::builder()
        .output_name("advisor-review")
        .build();
    let map: std::collections::HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let config = server::llm::LlmConfig::from_lookup(|k| map.get(k).cloned())
        .expect("valid model settings")
        .expect("a model is configured");
    let agent = Arc::new(server::agent::Agent::with_model(site.clone(), config).expect("agent"));
    (behind_proxy(site.clone(), agent, options), site)
}

/// A scripted OpenAI-compatible model answering by `rules` (see
/// `server::llm::scripted`).
pub async fn scripted(rules: Value) -> server::llm::scripted::ScriptedServer {
    let script: server::llm::scripted::Script =
        serde_json::from_value(serde_json::json!({ "rules": rules })).expect("a valid script");
    server::llm::scripted::ScriptedServer::start(script)
        .await
        .expect("scripted server")
}

/// The site with the scripted model behind the agent (short timeout, fast
/// retries), `extra` settings added.
pub async fn site_with(
    server: &server::llm::scripted::ScriptedServer,
    extra: &[(&str, &str)],
) -> Router {
    let base = server.base_url();
    let mut vars = vec![
        ("LLM_BASE_URL", base.as_str()),
        ("LLM_API_KEY", "sk-test"),
        ("LLM_MODEL", "scripted"),
        ("LLM_TIMEOUT_SECS", "3"),
    ];
    vars.extend_from_slice(extra);
    app_with_model(&vars).await.0
}

pub struct Reply {
    pub status: StatusCode,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// Percent-encodes the non-ASCII parts of a path + query, as a browser does.
pub fn encode_uri(uri: &str) -> String {
    let mut out = String::new();
    for c in uri.chars() {
        if c.is_ascii() && c != ' ' {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

async fn send(app: &Router, request: Request<Body>) -> Reply {
    let uri = request.uri().to_string();
    // A stuck request fails the test, saying which half it was waiting for,
    // instead of stalling the whole run.
    let bound = std::time::Duration::from_secs(30);
    let response = tokio::time::timeout(bound, app.clone().oneshot(request))
        .await
        .unwrap_or_else(|_| panic!("{uri}: no response head within {bound:?} (the handler or a page's resources never finished)"))
        .unwrap();
    let status = response.status();
    let bytes = tokio::time::timeout(bound, response.into_body().collect())
        .await
        .unwrap_or_else(|_| panic!("{uri}: {status}, but the body did not finish within {bound:?} (a streamed part never resolved)"))
        .unwrap()
        .to_bytes();
    Reply {
        status,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

pub async fn get(app: &Router, uri: &str) -> Reply {
    send(
        app,
        Request::get(encode_uri(uri)).body(Body::empty()).unwrap(),
    )
    .await
}

/// True when the text has Chinese characters (error messages must).
pub fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Sends a JSON body with POST.
pub async fn post_json(app: &Router, uri: &str, body: &str) -> Reply {
    post_json_as(app, uri, body, "127.0.0.1").await
}

/// Sends a JSON body with POST as `client` (its `X-Forwarded-For`, which
/// the test site's trusted local proxy passes on).
pub async fn post_json_as(app: &Router, uri: &str, body: &str, client: &str) -> Reply {
    let request = Request::post(encode_uri(uri))
        .header("content-type", "application/json")
        .header("x-forwarded-for", client)
        .body(Body::from(body.to_string()))
        .unwrap();
    send(app, request).await
}

/// A new client address for each simulated student, so per-client limits
/// (chat turns per minute) count each student alone, as in production.
fn next_student_address() -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    format!("10.250.{}.{}", n / 256 % 256, n % 256)
}

/// A student in a browser: keeps the session id and the page context, and
/// applies each reply's tool results to the page as the panel does.
pub struct Student {
    pub app: Router,
    pub session_id: Option<String>,
    pub page: app::protocol::PageContext,
    /// The student's own address (see [`next_student_address`]).
    pub client: String,
}

impl Student {
    pub fn new(app: &Router) -> Student {
        Student {
            app: app.clone(),
            session_id: None,
            page: Default::default(),
            client: next_student_address(),
        }
    }

    async fn send(&mut self, mut body: Value) -> app::protocol::ChatResponse {
        body["session_id"] = serde_json::json!(self.session_id);
        body["page_context"] = serde_json::to_value(&self.page).unwrap();
        let r = post_json_as(&self.app, "/api/v1/chat", &body.to_string(), &self.client).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        let reply: app::protocol::ChatResponse = serde_json::from_str(&r.body).unwrap();
        assert!(
            reply.voice_response.chars().count() <= 50,
            "voice over 50 characters: {}",
            reply.voice_response
        );
        self.session_id = Some(reply.session_id.clone());
        self.page = app::reply::page_after(&self.page, &reply.tool_calls);
        reply
    }

    pub async fn say(&mut self, text: &str) -> app::protocol::ChatResponse {
        self.send(serde_json::json!({"message": text})).await
    }

    pub async fn click(&mut self, field: &str, values: &[&str]) -> app::protocol::ChatResponse {
        self.send(serde_json::json!({"option": {"target_field": field, "values": values}}))
            .await
    }

    /// Says `text` through `POST /api/v1/chat/stream`: the `voice` events
    /// (as JSON) in order, and the final reply, applied to the page.
    pub async fn say_streamed(&mut self, text: &str) -> (Vec<Value>, app::protocol::ChatResponse) {
        let (events, reply) = self.say_stream_events(text).await;
        let voices = events
            .into_iter()
            .filter(|(name, _)| name == "voice")
            .map(|(_, data)| data)
            .collect();
        (voices, reply)
    }

    /// Says `text` through the stream: every event before the reply as
    /// (name, JSON data), in order — a `switch` only before any `voice` —
    /// and the final reply, applied to the page.
    pub async fn say_stream_events(
        &mut self,
        text: &str,
    ) -> (Vec<(String, Value)>, app::protocol::ChatResponse) {
        let body = serde_json::json!({
            "session_id": self.session_id,
            "message": text,
            "page_context": self.page,
        });
        let r = post_json_as(
            &self.app,
            "/api/v1/chat/stream",
            &body.to_string(),
            &self.client,
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        let mut voices = Vec::new();
        let mut reply = None;
        for event in app::sse::events(r.body.as_bytes()) {
            let (name, data) = (event.name.as_str(), &event.data);
            match name {
                "switch" => {
                    assert!(
                        voices.iter().all(|(n, _): &(String, Value)| n != "voice"),
                        "a switch after the new persona spoke"
                    );
                    voices.push((
                        name.to_string(),
                        serde_json::from_str::<Value>(data).unwrap(),
                    ));
                }
                "voice" => {
                    assert!(reply.is_none(), "a voice event after the reply");
                    voices.push((
                        name.to_string(),
                        serde_json::from_str::<Value>(data).unwrap(),
                    ));
                }
                "reply" => {
                    assert!(reply.is_none(), "two replies");
                    reply =
                        Some(serde_json::from_str::<app::protocol::ChatResponse>(data).unwrap());
                }
                other => panic!("unexpected event {other:?}: {data}"),
            }
        }
        let reply = reply.unwrap_or_else(|| panic!("no reply event in {}", r.body));
        self.session_id = Some(reply.session_id.clone());
        self.page = app::reply::page_after(&self.page, &reply.tool_calls);
        (voices, reply)
    }
}

/// The tools of a reply, in order.
pub fn tools(reply: &app::protocol::ChatResponse) -> Vec<&str> {
    reply.tool_calls.iter().map(|c| c.tool.as_str()).collect()
}

/// The call of one tool in a reply.
pub fn call<'a>(reply: &'a app::protocol::ChatResponse, tool: &str) -> &'a app::protocol::ToolCall {
    reply
        .tool_calls
        .iter()
        .find(|c| c.tool == tool)
        .unwrap_or_else(|| panic!("no {tool} in {:?}", tools(reply)))
}

/// One request to the router: method, path, headers and a JSON body;
/// the status and the JSON answer (`Null` when it is none).
pub async fn request(
    app: &Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    let request = request
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let reply = send(app, request).await;
    (
        reply.status,
        serde_json::from_str(&reply.body).unwrap_or(Value::Null),
    )
}

/// The incremental aggregates (advisors' sums and histograms, tag counts,
/// site sums) equal a recomputation from the reviews.
pub async fn assert_aggregates_match_recomputation(site: &Site) {
    let mut conn = site.pool().acquire().await.unwrap();
    let drift = server::store::aggregate_drift(&mut conn, 3).await.unwrap();
    assert!(drift.is_empty(), "aggregates drifted: {drift:?}");
}

/// A GET with headers (a cookie, say), as text.
pub async fn get_with(app: &Router, uri: &str, headers: &[(&str, &str)]) -> Reply {
    let mut request = Request::get(encode_uri(uri));
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    send(app, request.body(Body::empty()).unwrap()).await
}

/// A valid review of the API's shape with `text` (the other fields fixed).
pub fn review_json(text: &str) -> Value {
    serde_json::json!({
        "ratings": {"academic": 4, "funding": 3, "relationship": 5, "prospects": 4, "overall": 4},
        "tags": ["温和", "负责"],
        "text": text,
        "relation": "在读"
    })
}

/// How many reviews are stored.
pub async fn review_count(site: &Site) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM reviews")
        .fetch_one(site.pool())
        .await
        .unwrap()
}

/// The id of the first advisor of 北京大学 · 计算机科学与技术 (张三).
pub async fn zhang_id(app: &Router) -> String {
    let v = get(
        app,
        "/api/v1/advisors?school=北京大学&major=计算机科学与技术",
    )
    .await
    .json();
    v["advisors"][0]["id"].as_str().unwrap().to_string()
}
