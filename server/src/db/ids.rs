//! Ids never given twice on SQLite. A SQLite `INTEGER PRIMARY KEY` without
//! `AUTOINCREMENT` gives a new row the largest id plus one: delete the
//! newest review and the next review gets its id, and the moderation audit
//! line of the deleted one then names the new one. PostgreSQL's identity
//! columns never go back, so only SQLite needs this.

use sqlx::Executor;

use super::Pool;

/// The SQLite tables whose ids leave the database (URLs, the admin's audit
/// lines, reports) or whose rows are deleted: their ids must never be
/// given to a second row.
const NEVER_REUSED: [&str; 6] = [
    "advisors",
    "reviews",
    "review_reports",
    "admin_audit",
    "correction_requests",
    "chat_messages",
];

/// Rebuilds the tables of [`NEVER_REUSED`] that lack `AUTOINCREMENT`, with
/// it, keeping every row, id, index and trigger; returns how many.
///
/// A SQLite `INTEGER PRIMARY KEY` without `AUTOINCREMENT` gives a new row
/// the largest id plus one: delete the newest review and the next review
/// gets its id, and the moderation audit line of the deleted one then names
/// the new one. PostgreSQL's identity columns never go back. SQLite cannot
/// add `AUTOINCREMENT` to a table, so each table is rebuilt (SQLite's
/// documented procedure: foreign keys off, a new table from the stored
/// definition, rows copied, the old dropped, the new renamed, its indexes
/// and triggers created again from their stored definitions, the foreign
/// keys checked), all in one transaction; the counter starts past every id
/// the table or an audit line has used. A table already rebuilt is left
/// alone, so this runs at every start and costs nothing after the first.
pub async fn ids_never_reused(pool: &Pool) -> Result<usize, sqlx::Error> {
    let mut pending = Vec::new();
    for table in NEVER_REUSED {
        let sql: Option<String> =
            sqlx::query_scalar("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = $1")
                .bind(table)
                .fetch_optional(pool)
                .await?;
        if let Some(sql) = sql.filter(|sql| !sql.contains("AUTOINCREMENT")) {
            pending.push((table, sql));
        }
    }
    if pending.is_empty() {
        return Ok(0);
    }
    // The whole rebuild as one script: its statements, then the stored
    // definitions of each table's indexes and triggers.
    let mut script = String::from("BEGIN IMMEDIATE;\n");
    for (table, sql) in &pending {
        let (Some(open), Some(key)) = (sql.find('('), sql.find("INTEGER PRIMARY KEY")) else {
            return Err(sqlx::Error::Protocol(format!(
                "{table}: no INTEGER PRIMARY KEY in its definition"
            )));
        };
        let key_end = key + "INTEGER PRIMARY KEY".len();
        let dependents: Vec<String> = sqlx::query_scalar(
            "SELECT sql FROM sqlite_schema WHERE tbl_name = $1 \
             AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name",
        )
        .bind(*table)
        .fetch_all(pool)
        .await?;
        // Past every id used: the table's, and for reviews the ones audit
        // lines name (a review deleted before this start).
        let used = if *table == "reviews" {
            "MAX(COALESCE((SELECT MAX(id) FROM reviews), 0), \
                 COALESCE((SELECT MAX(review_id) FROM admin_audit), 0))"
                .to_string()
        } else {
            format!("COALESCE((SELECT MAX(id) FROM {table}), 0)")
        };
        script.push_str(&format!(
            "CREATE TABLE {table}__ids {} AUTOINCREMENT{};\n\
             INSERT INTO {table}__ids SELECT * FROM {table};\n\
             DROP TABLE {table};\n\
             ALTER TABLE {table}__ids RENAME TO {table};\n",
            &sql[open..key_end],
            &sql[key_end..]
        ));
        for dependent in dependents {
            script.push_str(&dependent);
            script.push_str(";\n");
        }
        script.push_str(&format!(
            "DELETE FROM sqlite_sequence WHERE name = '{table}';\n\
             INSERT INTO sqlite_sequence (name, seq) SELECT '{table}', {used};\n"
        ));
    }
    let mut conn = pool.acquire().await?;
    // Outside the transaction (SQLite ignores both inside one).
    (&mut *conn)
        .execute(sqlx::raw_sql(
            "PRAGMA foreign_keys = OFF; PRAGMA legacy_alter_table = ON;",
        ))
        .await?;
    let mut rebuilt = (&mut *conn)
        .execute(sqlx::raw_sql(&script))
        .await
        .map(|_| ());
    if rebuilt.is_ok() {
        let broken: Result<Vec<(String,)>, _> =
            sqlx::query_as(r#"SELECT "table" FROM pragma_foreign_key_check"#)
                .fetch_all(&mut *conn)
                .await;
        rebuilt = match broken {
            Ok(broken) if broken.is_empty() => Ok(()),
            Ok(broken) => Err(sqlx::Error::Protocol(format!(
                "rebuilding for AUTOINCREMENT left broken foreign keys in {broken:?}"
            ))),
            Err(e) => Err(e),
        };
    }
    let ended = match rebuilt {
        Ok(()) => (&mut *conn)
            .execute(sqlx::raw_sql("COMMIT"))
            .await
            .map(|_| ()),
        Err(_) => (&mut *conn)
            .execute(sqlx::raw_sql("ROLLBACK"))
            .await
            .map(|_| ()),
    };
    let restored = (&mut *conn)
        .execute(sqlx::raw_sql(
            "PRAGMA foreign_keys = ON; PRAGMA legacy_alter_table = OFF;",
        ))
        .await;
    if rebuilt.is_err() || ended.is_err() || restored.is_err() {
        // Its settings and transaction are unknown: never hand it to a request.
        let _ = sqlx::Connection::close(conn.detach()).await;
    }
    rebuilt?;
    ended?;
    Ok(pending.len())
}
