//! The pages about the site and what crawlers read: `/rules` lists exactly
//! the rules the checks run, `/privacy` and `/about` print the numbers the
//! code uses (and what they say is what the code does), the correction
//! form's POST joins the admin's queue or refuses in Chinese storing
//! nothing, robots.txt and the sitemap, and every page's meta tags.

use std::collections::BTreeSet;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use tower::ServiceExt;

use app::meta::SiteUrl;
use app::policy::{ContentRule, PRIOR_REVIEWS, REVIEW_BURST, REVIEW_DAILY, SESSION_DAYS};
use server::evals::rules::{run, Labelled};
use server::site::Site;

use crate::common::{self, get, has_chinese};

const SITE: &str = "https://daoshi.example";

/// The whole site as `common::router` builds it, with `SITE_URL` set.
fn router_at(site: &Arc<Site>) -> Router {
    let options = leptos::config::LeptosOptions::builder()
        .output_name("advisor-review")
        .build();
    let agent = Arc::new(server::agent::Agent::new(site.clone()));
    let settings = server::http::Settings {
        site_url: Some(SiteUrl::parse(SITE).unwrap()),
        ..common::settings()
    };
    server::app_router_with(site.clone(), agent, options, settings).layer(
        axum::extract::connect_info::MockConnectInfo(std::net::SocketAddr::from((
            [127, 0, 0, 1],
            40000,
        ))),
    )
}

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    }
}

async fn call(app: &Router, request: Request<Body>) -> Answer {
    let res = app.clone().oneshot(request).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

async fn fetch(app: &Router, uri: &str, headers: &[(&str, &str)]) -> Answer {
    let mut request = Request::get(common::encode_uri(uri));
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    call(app, request.body(Body::empty()).unwrap()).await
}

/// Posts the correction form as `client` (its `X-Forwarded-For`).
async fn post_correction(app: &Router, body: &str, client: &str) -> Answer {
    let request = Request::post("/correction")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("x-forwarded-for", client)
        .body(Body::from(body.to_string()))
        .unwrap();
    call(app, request).await
}

fn form(fields: &[(&str, &str)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(fields)
        .finish()
}

fn good_request(subject: &str) -> String {
    form(&[
        ("subject", subject),
        ("requester", "本人"),
        (
            "details",
            "我的研究方向写错了，我不做量子计算，请更正为机器学习。",
        ),
        ("contact", "zhangsan@example.com"),
    ])
}

async fn corrections_stored(site: &Site) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM correction_requests")
        .fetch_one(site.pool())
        .await
        .unwrap()
}

/// The `data-rule` codes of the rules page, in order.
fn listed_rules(body: &str) -> Vec<String> {
    body.split("data-rule=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn the_rules_page_lists_exactly_the_rules_the_checks_run() {
    let (app, _) = common::app().await;
    let r = get(&app, "/rules").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("<title>发帖规则 · 导师评价网</title>"));
    let listed = listed_rules(&r.body);
    let all: Vec<String> = ContentRule::ALL
        .iter()
        .map(|r| r.code().to_string())
        .collect();
    assert_eq!(listed, all, "the page lists every rule once, in order");
    for rule in ContentRule::ALL {
        assert!(r.body.contains(rule.name()), "{}", rule.name());
    }
    // What the checks report on the labelled set (every rule's refusals and
    // the innocent look-alikes) is a rule the page lists, and every rule the
    // page lists is one the checks report.
    let set: Vec<Labelled> =
        server::text::jsonl::parse(include_str!("../../evals/dev/rules.jsonl"))
            .expect("the set parses");
    let reported: BTreeSet<String> = run(&set).into_iter().flat_map(|v| v.got).collect();
    let listed: BTreeSet<String> = listed.into_iter().collect();
    assert_eq!(reported, listed, "rules run vs rules listed");
    // The limits are the ones the write path counts with.
    assert!(r.body.contains(&format!(
        "同一网络地址 {} 内最多发布 {} 条评价，{} 内最多 {} 条。",
        REVIEW_BURST.window_zh(),
        REVIEW_BURST.count,
        REVIEW_DAILY.window_zh(),
        REVIEW_DAILY.count
    )));
    assert_eq!(server::reviews::submit::BURST, REVIEW_BURST);
    assert_eq!(server::reviews::submit::DAILY, REVIEW_DAILY);
}

#[tokio::test]
async fn the_short_window_the_rules_page_names_is_the_one_enforced() {
    let (app, site) = common::app().await;
    let id: i64 = sqlx::query_scalar("SELECT id FROM advisors ORDER BY id LIMIT 1")
        .fetch_one(site.pool())
        .await
        .unwrap();
    let texts = [
        "组会每周一次，老师会逐条看实验记录，要求严格但讲道理。",
        "经费充足，出差报销及时，设备也够用，整体很满意。",
        "横向项目不多，主要精力放在论文上，毕业要求清楚。",
        "师兄师姐都很热心，新生入门有人带，氛围轻松。",
    ];
    for (i, text) in texts.iter().enumerate() {
        let (status, body) = common::request(
            &app,
            "POST",
            &format!("/api/v1/advisors/{id}/reviews"),
            &[("x-forwarded-for", "10.77.0.1")],
            Some(&common::review_json(text)),
        )
        .await;
        if (i as i64) < REVIEW_BURST.count {
            assert_eq!(status, StatusCode::CREATED, "{body}");
        } else {
            assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        }
    }
}

/// Every text a client sent from, as the tests' proxy passes it on, and the
/// proxy's own address: none may be stored anywhere.
const ADDRESSES: &[&str] = &[
    "127.0.0.1",
    "203.0.113.44",
    "203.0.113.45",
    "203.0.113.46",
    "203.0.113.47",
    "203.0.113.48",
    "203.0.113.49",
];

/// Every (table, column) of the database, by the backend's catalog.
async fn every_column(site: &Site) -> Vec<(String, String)> {
    let sql = match server::db::Backend::of(site.pool()) {
        server::db::Backend::Sqlite => {
            "SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c \
             WHERE m.type = 'table' ORDER BY m.name, c.cid"
        }
        server::db::Backend::Postgres => {
            "SELECT CAST(table_name AS TEXT), CAST(column_name AS TEXT) \
             FROM information_schema.columns WHERE table_schema = 'public' \
             ORDER BY table_name, ordinal_position"
        }
    };
    sqlx::query_as(sql).fetch_all(site.pool()).await.unwrap()
}

/// Where in the database a value (as text) is `LIKE` one of `patterns`:
/// `table.column` of each column that holds one.
async fn stored_anywhere(
    site: &Site,
    columns: &[(String, String)],
    patterns: &[String],
) -> Vec<String> {
    let mut found = Vec::new();
    for (table, column) in columns {
        let like = (1..=patterns.len())
            .map(|i| format!(r#"CAST("{column}" AS TEXT) LIKE ${i}"#))
            .collect::<Vec<_>>()
            .join(" OR ");
        let sql = format!(r#"SELECT COUNT(*) FROM "{table}" WHERE {like}"#);
        let mut query = sqlx::query_scalar::<_, i64>(&sql);
        for p in patterns {
            query = query.bind(p.clone());
        }
        let n = query
            .fetch_one(site.pool())
            .await
            .unwrap_or_else(|e| panic!("{table}.{column}: {e}"));
        if n > 0 {
            found.push(format!("{table}.{column}"));
        }
    }
    found
}

#[tokio::test]
async fn the_privacy_page_says_what_the_code_stores_and_for_how_long() {
    let (app, site) = common::app().await;
    let r = get(&app, "/privacy").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r
        .body
        .contains(&format!("会话 {SESSION_DAYS} 天没有新消息即被删除")));
    // The address is turned into a keyed code before anything is stored:
    // the page says so, and no longer that it is kept as it is.
    assert!(r.body.contains("本站不保存你的网络地址（IP 地址）"));
    assert!(r
        .body
        .contains("换算成一个编码（HMAC-SHA256），然后只保存这个编码"));
    assert!(!r.body.contains("按原样保存"));
    let id: i64 = sqlx::query_scalar("SELECT id FROM advisors ORDER BY id LIMIT 1")
        .fetch_one(site.pool())
        .await
        .unwrap();
    // A review, a 有用, a report, a chat turn and a correction request, each
    // from its own client.
    let (status, body) = common::request(
        &app,
        "POST",
        &format!("/api/v1/advisors/{id}/reviews"),
        &[("x-forwarded-for", "203.0.113.44")],
        Some(&common::review_json(
            "老师很负责，每周都会单独聊进度，推荐报考。",
        )),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let review: i64 = body["review"]["id"].as_str().unwrap().parse().unwrap();
    let (status, body) = common::request(
        &app,
        "POST",
        &format!("/api/v1/reviews/{review}/helpful"),
        &[("x-forwarded-for", "203.0.113.45")],
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["voted"], true);
    let (status, body) = common::request(
        &app,
        "POST",
        &format!("/api/v1/reviews/{review}/report"),
        &[("x-forwarded-for", "203.0.113.46")],
        Some(&serde_json::json!({"reason": "不实"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let mut student = common::Student::new(&app);
    student.client = "203.0.113.47".into();
    student.say("北京大学计算机的导师怎么样").await;
    let r = post_correction(&app, &good_request("北京大学 张三"), "203.0.113.48").await;
    assert_eq!(r.header("location"), "/correction?sent=1");
    // And an admin handles the request (the audit log names the admin).
    let correction_id: i64 = sqlx::query_scalar("SELECT id FROM correction_requests")
        .fetch_one(site.pool())
        .await
        .unwrap();
    let r = call(
        &app,
        Request::post(format!("/admin/corrections/{correction_id}/resolve"))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("authorization", format!("Bearer {}", common::ADMIN_TOKEN))
            .header("x-forwarded-for", "203.0.113.49")
            .body(Body::from(form(&[("by", "小王"), ("reason", "已更正")])))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);

    // Each is stored under the client's keyed code…
    let keys = site.client_keys();
    for (sql, client) in [
        (
            "SELECT client_key FROM reviews WHERE id = $1",
            "203.0.113.44",
        ),
        (
            "SELECT client_key FROM review_votes WHERE review_id = $1",
            "203.0.113.45",
        ),
        (
            "SELECT client_key FROM review_reports WHERE review_id = $1",
            "203.0.113.46",
        ),
    ] {
        let key: String = sqlx::query_scalar(sql)
            .bind(review)
            .fetch_one(site.pool())
            .await
            .unwrap();
        assert_eq!(key, keys.key_of(client), "{sql}");
    }
    let chat: Vec<String> =
        sqlx::query_scalar("SELECT client FROM rate_windows WHERE scope = 'chat'")
            .fetch_all(site.pool())
            .await
            .unwrap();
    assert_eq!(chat, vec![keys.key_of("203.0.113.47")]);
    let correction: String = sqlx::query_scalar("SELECT client_key FROM correction_requests")
        .fetch_one(site.pool())
        .await
        .unwrap();
    assert_eq!(correction, keys.key_of("203.0.113.48"));
    let actor: String = sqlx::query_scalar("SELECT actor FROM admin_audit")
        .fetch_one(site.pool())
        .await
        .unwrap();
    assert_eq!(actor, format!("小王（{}）", keys.key_of("203.0.113.49")));
    // …and no address, nor an older version's key, is in any column of any table.
    let columns = every_column(&site).await;
    assert!(columns.len() > 50, "{columns:?}");
    let patterns: Vec<String> = ADDRESSES
        .iter()
        .map(|a| format!("%{a}%"))
        .chain(["ip:%".to_string(), "%（ip:%".to_string()])
        .collect();
    let found = stored_anywhere(&site, &columns, &patterns).await;
    assert!(found.is_empty(), "an address is stored in {found:?}");
    // The sessions hold no address, and the purge keeps SESSION_DAYS.
    let columns: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM pragma_table_info('chat_sessions') \
         UNION ALL SELECT name FROM pragma_table_info('chat_messages')",
    )
    .fetch_all(site.pool())
    .await
    .unwrap_or_default();
    if !columns.is_empty() {
        assert!(
            !columns
                .iter()
                .any(|c| c.contains("client") || c.contains("ip")),
            "{columns:?}"
        );
    }
    for (id, days_ago) in [("old", SESSION_DAYS + 1), ("recent", SESSION_DAYS - 1)] {
        sqlx::query(
            "INSERT INTO chat_sessions (id, form, page_context, memory, updated_at) \
             VALUES ($1, '{}', '{}', '{}', strftime('%Y-%m-%dT%H:%M:%SZ', 'now', $2))",
        )
        .bind(id)
        .bind(format!("-{days_ago} days"))
        .execute(site.pool())
        .await
        .unwrap();
    }
    let purged = server::store::sessions::purge_older_than(site.pool(), SESSION_DAYS)
        .await
        .unwrap();
    assert_eq!(purged, 1);
    let left: Vec<String> = sqlx::query_scalar("SELECT id FROM chat_sessions ORDER BY id")
        .fetch_all(site.pool())
        .await
        .unwrap();
    assert!(left.contains(&"recent".to_string()) && !left.contains(&"old".to_string()));
}

/// Every stored client key, table by table (`store::client_keys`'s list).
async fn client_keys_stored(site: &Site) -> Vec<(&'static str, Vec<String>)> {
    let mut out = Vec::new();
    for (table, column) in server::store::client_keys::CLIENT_COLUMNS {
        let keys: Vec<String> = sqlx::query_scalar(&format!(
            "SELECT {column} FROM {table} WHERE {column} IS NOT NULL ORDER BY 1"
        ))
        .fetch_all(site.pool())
        .await
        .unwrap();
        out.push((*table, keys));
    }
    out
}

async fn one<T>(site: &Site, sql: &str, id: i64) -> T
where
    T: for<'r> sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any> + Send + Unpin,
{
    sqlx::query_scalar(sql)
        .bind(id)
        .fetch_one(site.pool())
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// Rows an older version wrote with the client's address (`ip:…`) get the
/// address's keyed code when a server starts on the database, in every
/// table that holds a client key. A vote, report or counter an upgraded
/// instance already wrote under the new key (both versions running during
/// an upgrade) is kept once, the counts following. Starting again changes
/// nothing.
#[tokio::test]
async fn addresses_an_older_version_stored_are_rewritten_at_start() {
    use server::store::limits::{hit, now_ms, Quota};
    use server::store::votes::{vote, Vote};

    let site = common::site().await;
    let pool = site.pool();
    let keys = site.client_keys().clone();
    let reviews: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM reviews WHERE status = 'published' ORDER BY id LIMIT 2")
            .fetch_all(pool)
            .await
            .unwrap();
    let (r1, r2) = (reviews[0], reviews[1]);
    let old = |a: &str| format!("ip:{a}");
    let (a7, a8, a9) = ("198.51.100.7", "198.51.100.8", "198.51.100.9");
    for (key, review) in [(old(a7), r1), (old(a8), r2)] {
        sqlx::query("UPDATE reviews SET client_key = $1 WHERE id = $2")
            .bind(key)
            .bind(review)
            .execute(pool)
            .await
            .unwrap();
    }
    sqlx::query(
        "INSERT INTO correction_requests (subject, requester, details, contact, client_key) \
         VALUES ('张三', '本人', '研究方向写错了，请更正。', 'a@example.com', $1)",
    )
    .bind(old(a7))
    .execute(pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO admin_audit (actor, action, review_id, changed, reason) \
         VALUES ($1, 'hide', $2, 1, '广告')",
    )
    .bind(format!("小王（{}）", old(a8)))
    .bind(r1)
    .execute(pool)
    .await
    .unwrap();
    let helpful = "SELECT helpful_count FROM reviews WHERE id = $1";
    let reports = "SELECT report_count FROM reviews WHERE id = $1";
    let helpful_before: i64 = one(&site, helpful, r2).await;
    let reports_before: i64 = one(&site, reports, r2).await;
    let chat = Quota {
        scope: "chat",
        limit: 30,
        window_ms: 60_000,
    };
    for (review, key) in [(r1, old(a7)), (r2, old(a9)), (r2, keys.key_of(a9))] {
        vote(pool, review, &key, Vote::Set).await.unwrap().unwrap();
        sqlx::query(
            "INSERT INTO review_reports (review_id, client_key, reason) VALUES ($1, $2, '不实')",
        )
        .bind(review)
        .bind(&key)
        .execute(pool)
        .await
        .unwrap();
        hit(pool, &chat, &key, now_ms()).await.unwrap();
    }
    assert_eq!(one::<i64>(&site, helpful, r2).await, helpful_before + 2);
    assert_eq!(one::<i64>(&site, reports, r2).await, reports_before + 2);

    // The old keys are in every column that holds a client key, and only there.
    let columns = every_column(&site).await;
    let old_keys = ["ip:%".to_string(), "%（ip:%".to_string()];
    let holders: Vec<String> = server::store::client_keys::CLIENT_COLUMNS
        .iter()
        .map(|(table, column)| format!("{table}.{column}"))
        .chain(["admin_audit.actor".to_string()])
        .collect();
    let mut found = stored_anywhere(&site, &columns, &old_keys).await;
    found.sort();
    let mut want = holders;
    want.sort();
    assert_eq!(found, want);

    // A server of this version starts on the database.
    let (_pool, seeded) = server::startup::open(&common::url_of(&site)).await.unwrap();
    assert!(!seeded);
    assert_eq!(
        stored_anywhere(&site, &columns, &old_keys).await,
        Vec::<String>::new()
    );
    let after = client_keys_stored(&site).await;
    assert_eq!(
        one::<String>(&site, "SELECT client_key FROM reviews WHERE id = $1", r1).await,
        keys.key_of(a7)
    );
    assert_eq!(
        one::<String>(&site, "SELECT client_key FROM reviews WHERE id = $1", r2).await,
        keys.key_of(a8)
    );
    let correction: String = sqlx::query_scalar("SELECT client_key FROM correction_requests")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(correction, keys.key_of(a7));
    let actor: String = sqlx::query_scalar("SELECT actor FROM admin_audit")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(actor, format!("小王（{}）", keys.key_of(a8)));
    for (sql, review, address) in [
        (
            "SELECT COUNT(*) FROM review_votes WHERE review_id = $1 AND client_key = $2",
            r1,
            a7,
        ),
        (
            "SELECT COUNT(*) FROM review_votes WHERE review_id = $1 AND client_key = $2",
            r2,
            a9,
        ),
        (
            "SELECT COUNT(*) FROM review_reports WHERE review_id = $1 AND client_key = $2",
            r1,
            a7,
        ),
        (
            "SELECT COUNT(*) FROM review_reports WHERE review_id = $1 AND client_key = $2",
            r2,
            a9,
        ),
        (
            "SELECT COUNT(*) FROM rate_windows WHERE scope = 'chat' AND $1 > 0 AND client = $2",
            1,
            a7,
        ),
        (
            "SELECT COUNT(*) FROM rate_windows WHERE scope = 'chat' AND $1 > 0 AND client = $2",
            1,
            a9,
        ),
    ] {
        let n: i64 = sqlx::query_scalar(sql)
            .bind(review)
            .bind(keys.key_of(address))
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(n, 1, "{sql}: {address}");
    }
    // The vote and the report counted twice now count once.
    assert_eq!(one::<i64>(&site, helpful, r2).await, helpful_before + 1);
    assert_eq!(one::<i64>(&site, reports, r2).await, reports_before + 1);
    common::assert_aggregates_match_recomputation(&site).await;

    // The site names 198.51.100.7 by the rewritten key: its vote stands.
    let app = common::router(&site);
    let (status, body) = common::request(
        &app,
        "POST",
        &format!("/api/v1/reviews/{r1}/helpful"),
        &[("x-forwarded-for", a7)],
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["voted"], true);
    let n: i64 = one(
        &site,
        "SELECT COUNT(*) FROM review_votes WHERE review_id = $1",
        r1,
    )
    .await;
    let votes_r1: i64 = one(&site, "SELECT helpful_count FROM reviews WHERE id = $1", r1).await;
    assert_eq!(n, votes_r1, "no second vote");

    // Starting again finds nothing to rewrite.
    let (_pool, _) = server::startup::open(&common::url_of(&site)).await.unwrap();
    assert_eq!(client_keys_stored(&site).await, after);
}

#[tokio::test]
async fn the_about_page_shows_the_prior_the_ranking_uses() {
    let (app, _) = common::app().await;
    let r = get(&app, "/about").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r
        .body
        .contains(&format!("先加上 {PRIOR_REVIEWS} 条“全站平均分”的虚拟评价")));
    assert_eq!(server::ranking::PRIOR_WEIGHT, f64::from(PRIOR_REVIEWS));
    assert!(r.body.contains("是虚构的"));
    assert!(r.body.contains("SpeechSynthesis"));
    assert!(r.body.contains(r#"href="/correction""#));
}

#[tokio::test]
async fn every_page_links_the_pages_about_the_site_in_its_footer() {
    let (app, _) = common::app().await;
    for uri in ["/", "/rules", "/advisor/1", "/no/such/page"] {
        let r = get(&app, uri).await;
        let footer = r.body.split("site-footer").nth(1).unwrap_or_default();
        for (href, label) in [
            ("/about", "关于"),
            ("/rules", "发帖规则"),
            ("/privacy", "隐私说明"),
            ("/correction", "申诉/更正"),
        ] {
            assert!(
                footer.contains(&format!(r#"href="{href}""#)) && footer.contains(label),
                "{uri}: {href}"
            );
        }
    }
    for (uri, title) in [
        ("/rules", "发帖规则"),
        ("/privacy", "隐私说明"),
        ("/about", "关于"),
        ("/correction", "申诉/更正"),
    ] {
        let r = get(&app, uri).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}");
        assert!(
            r.body
                .contains(&format!("<title>{title} · 导师评价网</title>")),
            "{uri}"
        );
        assert_eq!(
            r.body.matches(r#"<meta name="description""#).count(),
            1,
            "{uri}"
        );
    }
}

#[tokio::test]
async fn a_correction_request_joins_the_admin_queue_and_is_resolved_with_a_log_line() {
    std::env::set_var("ADMIN_TOKEN", "test-admin");
    let (app, site) = common::app().await;
    let detail = get(&app, "/advisor/1").await;
    assert!(detail
        .body
        .contains(r#"href="/correction?about=%2Fadvisor%2F1""#));
    let page = get(&app, "/correction?about=%2Fadvisor%2F1").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains(r#"action="/correction""#),
        "a plain form"
    );
    assert!(
        page.body.contains(r#"value="/advisor/1""#),
        "?about= fills it in"
    );

    let r = post_correction(&app, &good_request("北京大学 张三 /advisor/1"), "10.61.0.1").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(r.header("location"), "/correction?sent=1");
    assert_eq!(corrections_stored(&site).await, 1);
    let sent = get(&app, "/correction?sent=1").await;
    assert!(sent.body.contains("已收到你的申诉"));

    let auth = ("authorization", "Bearer test-admin");
    let lists = fetch(&app, "/api/v1/admin/reviews", &[auth]).await;
    let lists: serde_json::Value = serde_json::from_str(&lists.body).unwrap();
    let c = &lists["corrections"][0];
    assert_eq!(c["subject"], "北京大学 张三 /advisor/1");
    assert_eq!(c["requester"], "本人");
    assert_eq!(c["contact"], "zhangsan@example.com");
    let id = c["id"].as_str().unwrap().to_string();

    let admin = fetch(&app, "/admin", &[("cookie", "admin_token=test-admin")]).await;
    assert_eq!(admin.status, StatusCode::OK);
    assert!(admin
        .body
        .contains(&format!(r#"data-correction-id="{id}""#)));
    assert!(admin.body.contains("我的研究方向写错了"));

    let resolve = Request::post(format!("/admin/corrections/{id}/resolve"))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("authorization", "Bearer test-admin")
        .body(Body::from(form(&[
            ("by", "小王"),
            ("reason", "已更正研究方向"),
        ])))
        .unwrap();
    let r = call(&app, resolve).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let lists = fetch(&app, "/api/v1/admin/reviews", &[auth]).await;
    let lists: serde_json::Value = serde_json::from_str(&lists.body).unwrap();
    assert_eq!(lists["corrections"].as_array().unwrap().len(), 0);
    let line = &lists["audit"][0];
    assert_eq!(line["action"], "resolve_correction");
    assert_eq!(line["review_id"], id);
    assert!(line["actor"].as_str().unwrap().starts_with("小王"));

    // Without the token nothing is resolved.
    let r = call(
        &app,
        Request::post(format!("/admin/corrections/{id}/resolve"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_bad_correction_request_is_refused_in_chinese_and_stores_nothing() {
    let (app, site) = common::app().await;
    let bad = form(&[
        ("subject", "  "),
        ("requester", "路人"),
        ("details", "不对"),
        ("contact", ""),
    ]);
    let r = post_correction(&app, &bad, "10.62.0.1").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let back = r.header("location").to_string();
    assert!(back.starts_with("/correction?draft="), "{back}");
    assert_eq!(corrections_stored(&site).await, 0);
    let page = get(&app, &back).await;
    assert_eq!(page.status, StatusCode::OK);
    for field in ["subject", "requester", "details", "contact"] {
        let marker = format!(r#"data-testid="error-{field}""#);
        let after: String = page
            .body
            .split(&marker)
            .nth(1)
            .unwrap_or_default()
            .chars()
            .take(100)
            .collect();
        assert!(has_chinese(&after), "{field}");
    }
    assert!(page.body.contains("请填写导师姓名或页面链接"));
    assert!(
        page.body.contains(">不对</textarea>"),
        "what was typed is shown again"
    );

    // A body over the limit, or not a form at all: the form again with the
    // reason, never a 5xx, nothing stored.
    let huge = form(&[
        ("subject", "张三"),
        ("requester", "本人"),
        ("details", &"很".repeat(20_000)),
        ("contact", "zhangsan@example.com"),
    ]);
    let r = post_correction(&app, &huge, "10.62.0.2").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let page = get(&app, r.header("location")).await;
    assert!(
        page.body.contains("提交的内容太长了"),
        "{}",
        page.body.len()
    );
    let r = call(
        &app,
        Request::post("/correction")
            .header("content-type", "application/json")
            .body(Body::from("{}"))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(corrections_stored(&site).await, 0);
}

#[tokio::test]
async fn correction_requests_are_rate_limited_per_client() {
    let (app, site) = common::app().await;
    let limit = server::reviews::correction::BURST.count;
    for n in 0..limit {
        let r = post_correction(&app, &good_request(&format!("导师 {n}")), "10.63.0.1").await;
        assert_eq!(r.header("location"), "/correction?sent=1");
    }
    let r = post_correction(&app, &good_request("再来一次"), "10.63.0.1").await;
    let back = r.header("location").to_string();
    assert!(back.starts_with("/correction?draft="), "{back}");
    let page = get(&app, &back).await;
    assert!(page.body.contains("提交太频繁了"));
    assert_eq!(corrections_stored(&site).await, limit);
    // Another client is not held back.
    let r = post_correction(&app, &good_request("另一位"), "10.63.0.2").await;
    assert_eq!(r.header("location"), "/correction?sent=1");
}

#[tokio::test]
async fn robots_txt_keeps_crawlers_off_the_admin_and_names_the_sitemap() {
    let site = common::site().await;
    let without = common::router(&site);
    let r = fetch(&without, "/robots.txt", &[]).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.header("content-type").starts_with("text/plain"));
    assert!(r.header("cache-control").contains("max-age"));
    assert_eq!(r.body, "User-agent: *\nDisallow: /admin\nDisallow: /api/\n");
    let r = fetch(&without, "/sitemap.xml", &[]).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.body.contains("SITE_URL"));

    let with = router_at(&site);
    let r = fetch(&with, "/robots.txt", &[]).await;
    assert!(r
        .body
        .ends_with(&format!("\nSitemap: {SITE}/sitemap.xml\n")));
}

/// The `<loc>`s of a sitemap file.
fn locs(xml: &str) -> Vec<String> {
    xml.split("<loc>")
        .skip(1)
        .filter_map(|rest| rest.split("</loc>").next())
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn the_sitemap_lists_home_the_trust_pages_and_every_advisor() {
    let site = common::site().await;
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM advisors ORDER BY id")
        .fetch_all(site.pool())
        .await
        .unwrap();
    let want: Vec<String> = server::http::crawlers::PAGES
        .iter()
        .map(|p| format!("{SITE}{p}"))
        .chain(ids.iter().map(|id| format!("{SITE}/advisor/{id}")))
        .collect();

    let app = router_at(&site);
    let r = fetch(&app, "/sitemap.xml", &[]).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.header("content-type").starts_with("application/xml"));
    assert!(r.header("cache-control").contains("max-age"));
    assert!(r.body.starts_with("<?xml"));
    assert!(r
        .body
        .contains("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"));
    assert_eq!(locs(&r.body), want);

    // More URLs than one file may hold: an index of numbered parts, which
    // together list the same URLs, none over the size.
    let per_part = 40;
    assert!(ids.len() > per_part, "{} advisors", ids.len());
    let small =
        server::http::crawlers::router(site.clone(), Some(SiteUrl::parse(SITE).unwrap()), per_part);
    let r = fetch(&small, "/sitemap.xml", &[]).await;
    assert!(r.body.contains("<sitemapindex"));
    let parts = locs(&r.body);
    assert_eq!(parts[0], format!("{SITE}/sitemap-pages.xml"));
    assert_eq!(
        parts.len() - 1,
        server::http::crawlers::parts(ids.len(), per_part)
    );
    let mut listed = Vec::new();
    for (n, part) in parts.iter().enumerate() {
        let path = part.strip_prefix(SITE).unwrap();
        if n > 0 {
            assert_eq!(path, format!("/sitemap-advisors-{n}.xml"));
        }
        let r = fetch(&small, path, &[]).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        let urls = locs(&r.body);
        assert!(
            !urls.is_empty() && urls.len() <= per_part,
            "{path}: {}",
            urls.len()
        );
        listed.extend(urls);
    }
    assert_eq!(listed, want);
    let past = format!("/sitemap-advisors-{}.xml", parts.len());
    for path in [
        past.as_str(),
        "/sitemap-advisors-0.xml",
        "/sitemap-advisors-x.xml",
    ] {
        assert_eq!(
            fetch(&small, path, &[]).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
}

/// The content of the meta tag `key="name"` in a page (its `&amp;` read).
fn meta(body: &str, key: &str, name: &str) -> Option<String> {
    let marker = format!(r#"<meta {key}="{name}" content=""#);
    let rest = body.split(&marker).nth(1)?;
    rest.split('"').next().map(|c| c.replace("&amp;", "&"))
}

#[tokio::test]
async fn home_ranking_and_advisor_pages_carry_description_and_open_graph() {
    let site = common::site().await;
    let (id, name): (i64, String) =
        sqlx::query_as("SELECT id, name FROM advisors WHERE review_count > 0 ORDER BY id LIMIT 1")
            .fetch_one(site.pool())
            .await
            .unwrap();
    let app = router_at(&site);
    let ranking = "/ranking?school=北京大学&major=计算机科学与技术";
    for (uri, og_type, says) in [
        ("/", "website", "导师排行"),
        (ranking, "website", "北京大学 · 计算机科学与技术 导师排行"),
        (&format!("/advisor/{id}")[..], "profile", name.as_str()),
    ] {
        let r = fetch(&app, uri, &[]).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}");
        assert_eq!(
            r.body.matches(r#"<meta name="description""#).count(),
            1,
            "{uri}"
        );
        let description = meta(&r.body, "name", "description").unwrap();
        assert!(description.contains(says), "{uri}: {description}");
        assert_eq!(
            meta(&r.body, "property", "og:description"),
            Some(description)
        );
        assert!(meta(&r.body, "property", "og:title").is_some(), "{uri}");
        assert_eq!(
            meta(&r.body, "property", "og:type").as_deref(),
            Some(og_type)
        );
        assert_eq!(
            meta(&r.body, "property", "og:image"),
            Some(format!("{SITE}/icon-512.png"))
        );
        let url = meta(&r.body, "property", "og:url").unwrap();
        assert_eq!(url, format!("{SITE}{}", common::encode_uri(uri)), "{uri}");
        assert!(r
            .body
            .contains(r#"<link rel="apple-touch-icon" href="/apple-touch-icon.png""#));
    }
    // One set of tags a page, also where the page runs its body more than
    // once while the server resolves it.
    for uri in [
        "/advisor/1/review",
        "/compare?ids=1,2",
        "/search?q=张",
        "/no/such/page",
    ] {
        let r = fetch(&app, uri, &[]).await;
        for tag in [
            r#"<meta name="description""#,
            r#"<meta property="og:title""#,
        ] {
            assert_eq!(r.body.matches(tag).count(), 1, "{uri}: {tag}");
        }
    }
    // Without SITE_URL: no og:url, the image by its path.
    let r = fetch(&common::router(&site), "/", &[]).await;
    assert_eq!(meta(&r.body, "property", "og:url"), None);
    assert_eq!(
        meta(&r.body, "property", "og:image").as_deref(),
        Some("/icon-512.png")
    );
}
