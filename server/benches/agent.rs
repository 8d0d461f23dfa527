//! Agent benchmark: prints latency percentiles of (1) the code's analysis of
//! a message, (2) one embedded-planner turn inside the server (request check,
//! session, planner, validation, steering, tools, storage), and (3) a full
//! `POST /api/v1/chat` round trip over loopback HTTP, beside (4) the same
//! server's cheapest route, HTTP alone. Run: `make bench`.
//! Numbers are printed, never asserted. `AGENT_BENCH_ONLY=turn,http` runs
//! only the parts named (`analysis`, `turn`, `http`), and
//! `AGENT_BENCH_REPEAT=10` runs the turns ten times as many conversations:
//! to profile one part (`perf record`) without the others in the samples.

use std::sync::Arc;
use std::time::{Duration, Instant};

use app::protocol::{ChatRequest, PageContext};
use server::agent::session_store::Caller;
use server::agent::Agent;
use server::site::Site;

const MESSAGES: &[&str] = &[
    "我想考北京大学计算机系",
    "我想做机器学习，希望导师温和一点",
    "第一个导师怎么样？",
    "他的学生评价呢",
    "什么是985",
    "你好",
    "我想考浙大软工，做计算机视觉，经费充足",
    "算了，改成清华",
];

/// Messages whose names the exact pass misses: homophones a recognizer
/// writes, a short name in other characters, pinyin and initials typed.
const HEARD: &[&str] = &[
    "我想考北京大雪计算机系",
    "文娜哥我想考习教的电器，就是电器工程",
    "请问上才有什么导师",
    "就是，我想暴动南大学电器工程及其自动化",
    "beida jisuanji",
    "bjdx 软件工程",
    "送立田老师怎么样",
    "浙将大学人工只能，导师温和一点",
];

fn percentiles(label: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let at = |p: f64| samples[((samples.len() as f64 - 1.0) * p).round() as usize];
    let mean = samples.iter().sum::<Duration>() / samples.len() as u32;
    println!(
        "{label:<34} n={:<5} p50={:>9.3?} p95={:>9.3?} p99={:>9.3?} mean={:>9.3?}",
        samples.len(),
        at(0.50),
        at(0.95),
        at(0.99),
        mean
    );
}

/// How many times the turns' conversations run (`AGENT_BENCH_REPEAT`, 1
/// when unset): more samples for a profile.
fn repeat() -> usize {
    std::env::var("AGENT_BENCH_REPEAT")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// Whether the part `name` runs (`AGENT_BENCH_ONLY`, all when unset).
fn runs(name: &str) -> bool {
    std::env::var("AGENT_BENCH_ONLY").map_or(true, |only| only.split(',').any(|p| p.trim() == name))
}

fn main() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dir = std::env::temp_dir().join(format!("advisor-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}/bench.db", dir.display());
        let started = Instant::now();
        let (pool, _) = server::startup::open(&url).await.unwrap();
        println!("seeding the demo database: {:?}", started.elapsed());
        let site = Arc::new(Site::load(pool).await.unwrap());
        let agent = Arc::new(Agent::new(site.clone()));

        // 1. Analysis alone.
        let lexicons = agent.lexicons();
        if runs("analysis") {
        let mut samples = Vec::new();
        for i in 0..4000 {
            let m = MESSAGES[i % MESSAGES.len()];
            let t = Instant::now();
            std::hint::black_box(server::agent::nlu::analyze(m, &lexicons, &[]));
            samples.push(t.elapsed());
        }
        percentiles("analysis of one message", samples);

        // 1b. Analysis of what a recognizer wrote or a student typed without
        // an input method: names found by sound and as pinyin, with a page's
        // twenty advisors to match against (the index never holds the
        // advisor table, so this does not grow with it).
        let page: Vec<String> = (0..20)
            .map(|i| format!("{}{}", ["张", "李", "王", "欧阳", "宋"][i % 5], ["明", "莉婷", "建国", "涛", "伟"][i / 5 % 5]))
            .collect();
        let mut samples = Vec::new();
        for i in 0..4000 {
            let m = HEARD[i % HEARD.len()];
            let t = Instant::now();
            std::hint::black_box(server::agent::nlu::analyze(m, &lexicons, &page));
            samples.push(t.elapsed());
        }
        percentiles("analysis, names heard by sound", samples);
        }

        // 2. Whole turns in the server, a conversation at a time.
        if runs("turn") {
        let mut samples = Vec::new();
        for _ in 0..60 * repeat() {
            let mut session_id = None;
            let mut page = PageContext::default();
            for m in MESSAGES {
                let req = ChatRequest {
                    session_id: session_id.clone(),
                    message: Some(m.to_string()),
                    option: None,
                    page_context: page.clone(),
                };
                let t = Instant::now();
                let prepared = agent.prepare(req, Caller::local()).await.unwrap();
                let reply = agent.answer(prepared).await.unwrap();
                samples.push(t.elapsed());
                session_id = Some(reply.session_id.clone());
                page = app::reply::page_after(&page, &reply.tool_calls);
            }
        }
        percentiles("embedded planner turn (server)", samples);
        }

        // 3. Round trips over loopback HTTP.
        let options = leptos::config::LeptosOptions::builder().output_name("advisor-review").build();
        // As behind a local proxy: each conversation is its own client, so
        // the per-client turn limit measures nothing here.
        let settings = server::http::Settings {
            proxies: server::http::client::TrustedProxies::parse("127.0.0.1").unwrap(),
            ..Default::default()
        };
        let app = server::app_router_with(site.clone(), agent.clone(), options, settings);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            axum::serve(listener, app.into_make_service_with_connect_info::<std::net::SocketAddr>())
                .await
                .unwrap()
        });
        let client = reqwest::Client::new();
        let endpoint = format!("http://{addr}/api/v1/chat");
        if runs("http") {
        let mut samples = Vec::new();
        for conversation in 0..40 * repeat() {
            let mut session_id: Option<String> = None;
            let mut page = PageContext::default();
            let forwarded = format!("10.{}.{}.1", conversation / 250, conversation % 250);
            for m in MESSAGES {
                let body = serde_json::json!({"session_id": session_id, "message": m, "page_context": page});
                let t = Instant::now();
                let reply: app::protocol::ChatResponse = client
                    .post(&endpoint)
                    .header("x-forwarded-for", &forwarded)
                    .json(&body)
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                samples.push(t.elapsed());
                session_id = Some(reply.session_id.clone());
                page = app::reply::page_after(&page, &reply.tool_calls);
            }
        }
        percentiles("POST /api/v1/chat round trip", samples);
        }
        // 4. The same server answering its cheapest route: what of a chat
        // round trip is HTTP itself (connection, middleware, the client).
        let health = format!("http://{addr}/healthz");
        let mut samples = Vec::new();
        for _ in 0..400 {
            let t = Instant::now();
            client.get(&health).send().await.unwrap().bytes().await.unwrap();
            samples.push(t.elapsed());
        }
        percentiles("GET /healthz round trip", samples);
        let _ = std::fs::remove_dir_all(&dir);
    });
}
