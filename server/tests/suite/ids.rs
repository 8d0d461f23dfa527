//! Ids are never given twice: a review deleted, the next one written gets
//! a new id, on both backends, so an audit line or a link that named the
//! deleted one never comes to name another. On SQLite a database made
//! before (`INTEGER PRIMARY KEY` without `AUTOINCREMENT`) is rebuilt at its
//! next start keeping every row, id and aggregate.

use crate::common;

use server::db::{Backend, Pool};

/// Writes a copy of the review `id` (every column but the id) and returns
/// the new row's id.
async fn copy_review(pool: &Pool, id: i64) -> i64 {
    let backend = Backend::of(pool);
    let columns: Vec<String> = match backend {
        Backend::Sqlite => sqlx::query_scalar("SELECT name FROM pragma_table_info('reviews')"),
        Backend::Postgres => sqlx::query_scalar(
            "SELECT column_name::text FROM information_schema.columns \
             WHERE table_name = 'reviews' AND table_schema = current_schema() \
             ORDER BY ordinal_position",
        ),
    }
    .fetch_all(pool)
    .await
    .unwrap();
    let columns = columns
        .into_iter()
        .filter(|c| c != "id")
        .collect::<Vec<_>>()
        .join(", ");
    sqlx::query_scalar(&format!(
        "INSERT INTO reviews ({columns}) SELECT {columns} FROM reviews WHERE id = $1 RETURNING id"
    ))
    .bind(id)
    .fetch_one(pool)
    .await
    .unwrap()
}

async fn newest_review(pool: &Pool) -> i64 {
    sqlx::query_scalar("SELECT MAX(id) FROM reviews")
        .fetch_one(pool)
        .await
        .unwrap()
}

async fn delete_review(pool: &Pool, id: i64) {
    sqlx::query("DELETE FROM reviews WHERE id = $1")
        .bind(id)
        .execute(pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_deleted_reviews_id_is_never_given_to_the_next_one() {
    let site = common::site().await;
    let pool = site.pool();
    let newest = newest_review(pool).await;
    delete_review(pool, newest).await;
    let next = copy_review(pool, newest - 1).await;
    assert!(
        next > newest,
        "the deleted review's id {newest} was given again ({next})"
    );
}

#[tokio::test]
async fn an_older_sqlite_database_is_rebuilt_keeping_every_row_and_id() {
    let path = std::env::temp_dir().join(format!("advisor-ids-{}.db", std::process::id()));
    let url = format!("sqlite://{}", path.display());
    let pool = server::db::connect(&url).await.unwrap();
    // As an older version left it: the migrations, no AUTOINCREMENT.
    sqlx::migrate!("./migrations/sqlite")
        .run(&pool)
        .await
        .unwrap();
    server::demo::seed_if_empty(&pool, server::startup::Seeding::Demo)
        .await
        .unwrap();
    // A review deleted before the upgrade, named by an audit line.
    let newest = newest_review(&pool).await;
    sqlx::query(
        "INSERT INTO admin_audit (actor, action, review_id, changed) VALUES ('k:x', 'hide', $1, 1)",
    )
    .bind(newest)
    .execute(&pool)
    .await
    .unwrap();
    delete_review(&pool, newest).await;
    server::store::rebuild_aggregates(&mut pool.acquire().await.unwrap())
        .await
        .unwrap();
    let schema =
        "SELECT type, name FROM sqlite_schema WHERE type IN ('index', 'trigger') ORDER BY 1, 2";
    let objects: Vec<(String, String)> = sqlx::query_as(schema).fetch_all(&pool).await.unwrap();
    let tables = [
        "advisors",
        "reviews",
        "review_reports",
        "admin_audit",
        "review_tags",
    ];
    let mut before = Vec::new();
    for t in tables {
        let row: (i64, i64) = sqlx::query_as(&format!(
            "SELECT COUNT(*), COALESCE(SUM(rowid), 0) FROM {t}"
        ))
        .fetch_one(&pool)
        .await
        .unwrap();
        before.push(row);
    }

    assert_eq!(server::db::ids_never_reused(&pool).await.unwrap(), 6);
    assert_eq!(server::db::ids_never_reused(&pool).await.unwrap(), 0);

    for (t, was) in tables.iter().zip(&before) {
        let now: (i64, i64) = sqlx::query_as(&format!(
            "SELECT COUNT(*), COALESCE(SUM(rowid), 0) FROM {t}"
        ))
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(&now, was, "{t} changed in the rebuild");
    }
    let mut conn = pool.acquire().await.unwrap();
    let drift = server::store::aggregate_drift(&mut conn, 3).await.unwrap();
    assert!(drift.is_empty(), "{drift:?}");
    let broken: Vec<(String,)> = sqlx::query_as(r#"SELECT "table" FROM pragma_foreign_key_check"#)
        .fetch_all(&mut *conn)
        .await
        .unwrap();
    assert!(broken.is_empty(), "{broken:?}");
    drop(conn);
    // Every index and trigger came back.
    let after: Vec<(String, String)> = sqlx::query_as(schema).fetch_all(&pool).await.unwrap();
    assert_eq!(after, objects);
    let next = copy_review(&pool, newest - 1).await;
    assert!(
        next > newest,
        "id {newest}, deleted and audited, was given again"
    );
    pool.close().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}
