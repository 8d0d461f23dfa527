//! The database failing under the site, in process and fast (`make test`;
//! the same faults under the real binary on a real full disk are
//! `disk_full.rs`, `make faults`):
//!
//! - a write transaction that failed with `database or disk is full` does
//!   not leave its connection in the pool still inside it: the next write
//!   succeeds once there is room (SQLite's `max_page_count` makes SQLite
//!   itself answer `SQLITE_FULL`, as a full disk does, and is the
//!   connection's own setting, so a fresh connection has room again);
//! - a chat turn the database refuses to store is not answered 200: the
//!   JSON endpoint answers 503 in Chinese, the stream's reply says the turn
//!   was not kept, and nothing of it is stored.

use crate::common;

use axum::http::StatusCode;

#[tokio::test]
async fn a_connection_left_inside_a_failed_transaction_is_closed_not_reused() {
    let url = format!(
        "sqlite://{}",
        std::env::temp_dir()
            .join(format!("advisor-full-{}.db", std::process::id()))
            .display()
    );
    // One connection: whatever the next write gets is the one that failed,
    // unless it was closed.
    let pool = server::db::connect_with(&url, 1).await.unwrap();
    sqlx::query("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)")
        .execute(&pool)
        .await
        .unwrap();
    let mut full = 0;
    for _ in 0..3 {
        let mut tx = server::db::begin_write(&pool)
            .await
            .expect("a write begins");
        let pages: i64 = sqlx::query_scalar("PRAGMA page_count")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        sqlx::query(&format!("PRAGMA max_page_count = {pages}"))
            .execute(&mut *tx)
            .await
            .unwrap();
        let mut failed = None;
        for _ in 0..1000 {
            if let Err(e) = sqlx::query("INSERT INTO t (v) VALUES ($1)")
                .bind("x".repeat(4000))
                .execute(&mut *tx)
                .await
            {
                failed = Some(e.to_string());
                break;
            }
        }
        let failed = failed.expect("the database filled up");
        assert!(failed.contains("full"), "{failed}");
        full += 1;
        drop(tx);
    }
    assert_eq!(full, 3);
    // Room again (a fresh connection has no page limit): writes succeed.
    for i in 0..3 {
        let mut tx = server::db::begin_write(&pool)
            .await
            .unwrap_or_else(|e| panic!("write {i} after the disk had room: {e}"));
        sqlx::query("INSERT INTO t (v) VALUES ('after')")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
    }
    pool.close().await;
    let path = url.trim_start_matches("sqlite://");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{path}{suffix}"));
    }
}

/// Makes the database refuse every new chat message, as a full disk does.
async fn refuse_messages(pool: &server::db::Pool, refuse: bool) {
    let postgres = server::db::Backend::of(pool) == server::db::Backend::Postgres;
    let statements: &[&str] = match (postgres, refuse) {
        (false, true) => &[
            "CREATE TRIGGER refuse_messages BEFORE INSERT ON chat_messages \
             BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
        ],
        (false, false) => &["DROP TRIGGER refuse_messages"],
        (true, true) => &[
            "CREATE FUNCTION refuse_messages() RETURNS trigger AS $$ \
             BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$ \
             LANGUAGE plpgsql",
            "CREATE TRIGGER refuse_messages BEFORE INSERT ON chat_messages \
             FOR EACH ROW EXECUTE FUNCTION refuse_messages()",
        ],
        (true, false) => &[
            "DROP TRIGGER refuse_messages ON chat_messages",
            "DROP FUNCTION refuse_messages()",
        ],
    };
    for sql in statements {
        sqlx::query(sql).execute(pool).await.unwrap();
    }
}

async fn sessions(pool: &server::db::Pool) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM chat_sessions")
        .fetch_one(pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_turn_the_database_refuses_is_not_answered_as_if_it_were_kept() {
    let (app, site) = common::app().await;
    let pool = site.pool().clone();
    let before = sessions(&pool).await;
    refuse_messages(&pool, true).await;
    let body = r#"{"message": "北京大学计算机系有哪些导师"}"#;

    let refused = common::post_json(&app, "/api/v1/chat", body).await;
    assert_eq!(
        refused.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        refused.body
    );
    let error = &refused.json()["error"];
    assert_eq!(error["code"], "unavailable");
    assert!(
        error["message"].as_str().unwrap().contains("没有保存"),
        "{error}"
    );

    // The stream has answered 200 before the turn ends: its reply says so.
    let streamed = common::post_json(&app, "/api/v1/chat/stream", body).await;
    assert_eq!(streamed.status, StatusCode::OK);
    let reply = streamed
        .body
        .split("event: reply\ndata: ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .expect("a reply event");
    let reply: serde_json::Value = serde_json::from_str(reply).unwrap();
    assert_eq!(reply["error"]["code"], "storage_unavailable", "{reply}");
    assert!(
        reply["voice_response"]
            .as_str()
            .unwrap()
            .contains("没能记下来"),
        "{reply}"
    );
    assert_eq!(reply["tool_calls"], serde_json::json!([]));
    assert_eq!(
        sessions(&pool).await,
        before,
        "an unsaved turn stored a session"
    );

    // The database takes writes again: so does the turn.
    refuse_messages(&pool, false).await;
    let kept = common::post_json(&app, "/api/v1/chat", body).await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.body);
    assert_eq!(sessions(&pool).await, before + 1);
}
