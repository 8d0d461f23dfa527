//! The database failing under the site, in process and fast (`make test`;
//! the same faults under the real binary on a real full disk are
//! `disk_full.rs`, `make faults`):
//!
//! - a write transaction that failed with `database or disk is full` does
//!   not leave its connection in the pool still inside it: the next write
//!   succeeds once there is room (SQLite's `max_page_count` makes SQLite
//!   itself answer `SQLITE_FULL`, as a full disk does, and is the
//!   connection's own setting, so a fresh connection has room again).

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
