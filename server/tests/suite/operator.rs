//! The operator's commands do what they say, run as the operator runs
//! them (the real binary): a dry run creates and writes nothing; an import
//! into an empty database adds no made-up advisors unless `DEMO_DATA=on`
//! was asked for; every subcommand answers `--help` alike and refuses a
//! wrong command line with exit 2; `admin-unlock` lets the right admin
//! token in again at once; a database that cannot be reached at start is
//! named, with its error, within seconds, and retried.

use crate::common;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use axum::http::StatusCode;

const EXAMPLE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/import-example.csv");

/// Every subcommand of `server`.
const SUBCOMMANDS: [&str; 13] = [
    "eval",
    "eval-model",
    "eval-coach",
    "eval-rules",
    "analyze",
    "load",
    "mock-llm",
    "mock-asr",
    "asr-prompt",
    "seed",
    "bench-scale",
    "import",
    "admin-unlock",
];

fn server(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_server"));
    command
        .args(args)
        .env_remove("DATABASE_URL")
        .env_remove("DEMO_DATA")
        .env("RUST_LOG", "error");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("run server")
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

async fn count(url: &str, table: &str) -> i64 {
    let pool = server::db::connect(url).await.unwrap();
    let n = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    n
}

#[test]
fn every_subcommand_answers_help_alike_and_refuses_a_wrong_line_with_2() {
    for name in SUBCOMMANDS {
        let out = server(&[name, "--help"], &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name} --help: {}",
            text(&out.stderr)
        );
        let help = text(&out.stdout);
        assert!(
            help.contains(&format!("Usage: server {name}")),
            "{name}: {help}"
        );
        assert!(common::has_chinese(&help), "{name}: {help}");
        let out = server(&[name, "--no-such-flag"], &[]);
        assert_eq!(out.status.code(), Some(2), "{name} --no-such-flag");
    }
    let out = server(&["--help"], &[]);
    let help = text(&out.stdout);
    for name in SUBCOMMANDS {
        assert!(help.contains(name), "server --help lists {name}: {help}");
    }
    assert_eq!(server(&["no-such-command"], &[]).status.code(), Some(2));
}

#[tokio::test]
async fn a_dry_run_creates_nothing_and_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("advisor-dry-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    // A database that does not exist yet stays so.
    let missing = dir.join("never.db");
    let url = format!("sqlite://{}", missing.display());
    let out = server(&["import", EXAMPLE_PATH, "--dry-run", "--db", &url], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("试运行，没有写入数据库。导入将会：新增 4 位"),
        "{}",
        text(&out.stdout)
    );
    assert!(!missing.exists(), "a dry run created the database");
    assert!(!dir.join("never.db.setup-lock").exists());

    // An empty database on either backend: still empty afterwards.
    let empty = common::empty_database("dry_run_empty");
    let out = server(&["import", EXAMPLE_PATH, "--dry-run", "--db", &empty], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    if empty.starts_with("postgres") {
        let pool = server::db::connect(&empty).await.unwrap();
        let tables: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        pool.close().await;
        assert_eq!(tables, 0, "a dry run migrated the database");
    }

    // A database with advisors: the same rows after a dry run that would add some.
    let site = common::demo_copy_url();
    let before = count(&site, "advisors").await;
    let out = server(&["import", EXAMPLE_PATH, "--dry-run", "--db", &site], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("新增 4 位"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(count(&site, "advisors").await, before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn an_import_into_an_empty_database_adds_no_demo_unless_asked() {
    let plain = common::empty_database("import_no_demo");
    let out = server(&["import", EXAMPLE_PATH, "--db", &plain], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("没有演示数据"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(count(&plain, "advisors").await, 4);
    assert_eq!(count(&plain, "reviews").await, 0);

    let asked = common::empty_database("import_demo_asked");
    let out = server(
        &["import", EXAMPLE_PATH, "--db", &asked],
        &[("DEMO_DATA", "on")],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(count(&asked, "advisors").await > 1000);
}

#[tokio::test]
async fn admin_unlock_lets_the_right_token_in_at_once() {
    let (app, site) = common::app().await;
    let url = common::url_of(&site);
    let cookie = ("cookie", "admin_token=test-admin");
    let from = ("x-forwarded-for", "10.7.0.9");
    for _ in 0..server::http::limits::ADMIN_FAILURES {
        common::get_with(
            &app,
            "/api/v1/admin/reviews",
            &[("cookie", "admin_token=nope"), from],
        )
        .await;
    }
    let locked = common::get_with(&app, "/api/v1/admin/reviews", &[cookie, from]).await;
    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS);

    let out = server(&["admin-unlock", "--client", "10.7.0.9", "--db", &url], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("清除了 1 个"),
        "{}",
        text(&out.stdout)
    );
    let open = common::get_with(&app, "/api/v1/admin/reviews", &[cookie, from]).await;
    assert_eq!(open.status, StatusCode::OK, "{}", open.body);
}

#[test]
fn a_database_unreachable_at_start_is_named_with_its_error_within_seconds() {
    let port = common::binary::free_port();
    let url = format!("postgres://site:secret@127.0.0.1:{port}/advisors");
    let mut child = Command::new(env!("CARGO_BIN_EXE_server"))
        .env("DATABASE_URL", &url)
        .env(
            "LEPTOS_SITE_ADDR",
            format!("127.0.0.1:{}", common::binary::free_port()),
        )
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // The first two attempts and the pause between them: about a second.
    let mut stderr = child.stderr.take().unwrap();
    let lines = std::thread::spawn(move || {
        let mut all = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut all);
        all
    });
    std::thread::sleep(Duration::from_secs(4));
    let _ = child.kill();
    let _ = child.wait();
    let log = lines.join().unwrap();
    let first = log
        .lines()
        .filter(|l| l.contains("cannot be reached"))
        .collect::<Vec<_>>();
    assert!(
        first.len() >= 2,
        "retries shown within {:?}:\n{log}",
        started.elapsed()
    );
    assert!(first[0].contains(&format!("127.0.0.1:{port}")), "{log}");
    assert!(first[0].to_lowercase().contains("refused"), "{log}");
    assert!(!log.contains("secret"), "the password was logged: {log}");
}

#[tokio::test]
async fn the_admin_api_speaks_string_ids_and_answers_a_bad_body_400() {
    let (app, _site) = common::app().await;
    let auth = ("authorization", "Bearer test-admin");
    let advisor = common::zhang_id(&app).await;
    let written = common::post_json(
        &app,
        &format!("/api/v1/advisors/{advisor}/reviews"),
        &common::review_json("导师每周组会都认真听汇报，给的修改意见很具体，经费也够用。")
            .to_string(),
    )
    .await;
    assert_eq!(written.status, StatusCode::CREATED, "{}", written.body);
    let (status, lists) =
        common::request(&app, "GET", "/api/v1/admin/reviews", &[auth], None).await;
    assert_eq!(status, StatusCode::OK);
    let recent = &lists["recent"][0];
    assert!(
        recent["id"].is_string() && recent["advisor_id"].is_string(),
        "{recent}"
    );
    let id = recent["id"].as_str().unwrap().to_string();
    let (status, _) = common::request(
        &app,
        "POST",
        &format!("/api/v1/admin/reviews/{id}/hide"),
        &[auth],
        Some(&serde_json::json!({"reason": "测试"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, lists) = common::request(&app, "GET", "/api/v1/admin/reviews", &[auth], None).await;
    assert_eq!(lists["audit"][0]["review_id"].as_str(), Some(id.as_str()));

    let numbers = serde_json::json!({"ids": [1, 2], "action": "hide", "reason": "x"});
    let (status, body) = common::request(
        &app,
        "POST",
        "/api/v1/admin/reviews/bulk",
        &[auth],
        Some(&numbers),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"]["code"], "invalid_request");
    assert!(common::has_chinese(
        body["error"]["message"].as_str().unwrap()
    ));
    let (status, body) = common::request(
        &app,
        "POST",
        &format!("/api/v1/admin/reviews/{id}/restore"),
        &[auth],
        Some(&serde_json::json!({"reason": 5})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"]["code"], "invalid_request");
}
