//! Chat sessions and their messages, and the coach's checkpoints: the SQL of
//! the conversation state (`agent::session_store` and `coach::checkpoint` keep
//! its shapes and turn them into JSON and back). Every instance reads and
//! writes the same rows, so a student's turns may go to any of them.

use sqlx::Row;

use crate::db::{Backend, Pool};
use crate::store::sql::Sql;

/// A session's row as stored: its id, persona, and form, page context and
/// memory as JSON.
pub struct SessionRow<'a> {
    pub id: &'a str,
    pub persona: &'a str,
    pub form: String,
    pub page_context: String,
    pub memory: String,
}

/// One line of a conversation; the reply's fields only on the reply.
pub struct MessageRow<'a> {
    pub role: &'static str,
    pub content: &'a str,
    pub agent: Option<String>,
    pub intent: Option<String>,
    pub tool_calls: Option<String>,
    pub events: Option<String>,
    pub error: Option<String>,
}

impl<'a> MessageRow<'a> {
    /// A line that is not the reply: the student's words, a system line.
    pub fn plain(role: &'static str, content: &'a str) -> MessageRow<'a> {
        MessageRow {
            role,
            content,
            agent: None,
            intent: None,
            tool_calls: None,
            events: None,
            error: None,
        }
    }
}

/// A session's row as read: its id, persona, and form, page context and
/// memory as JSON.
pub struct StoredSession {
    pub id: String,
    pub persona: String,
    pub form: String,
    pub page_context: String,
    pub memory: String,
}

/// What a turn reads before it starts.
pub struct TurnStart {
    pub session: Option<StoredSession>,
    /// The coach's checkpoint of the session (its state as JSON).
    pub checkpoint: Option<String>,
    /// The caller's window of turns (start, count).
    pub window: Option<crate::store::limits::Window>,
}

/// The session `id` (if given), its coach checkpoint and the window of
/// `(scope, client)` (if given), in one statement: a turn reads once.
pub async fn turn_start(
    pool: &Pool,
    id: Option<&str>,
    window: Option<(&str, &str)>,
) -> Result<TurnStart, sqlx::Error> {
    if id.is_none() && window.is_none() {
        return Ok(TurnStart {
            session: None,
            checkpoint: None,
            window: None,
        });
    }
    type Row = (
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<i64>,
        Option<i64>,
    );
    let (scope, client) = window.unzip();
    let row: Row = sqlx::query_as(
        "SELECT s.id, s.persona, s.form, s.page_context, s.memory, c.state, w.started_ms, w.count \
         FROM (SELECT 1 AS one) AS o \
         LEFT JOIN chat_sessions s ON s.id = $1 \
         LEFT JOIN review_coach_checkpoints c ON c.session_id = s.id \
         LEFT JOIN rate_windows w ON w.scope = $2 AND w.client = $3",
    )
    .bind(id)
    .bind(scope)
    .bind(client)
    .fetch_one(pool)
    .await?;
    let (id, persona, form, page_context, memory, checkpoint, started, count) = row;
    let session = match (id, persona, form, page_context, memory) {
        (Some(id), Some(persona), Some(form), Some(page_context), Some(memory)) => {
            Some(StoredSession {
                id,
                persona,
                form,
                page_context,
                memory,
            })
        }
        _ => None,
    };
    Ok(TurnStart {
        session,
        checkpoint,
        window: started.zip(count),
    })
}

/// When a session was opened (ISO 8601 UTC), `None` for no such session.
pub async fn started_at(pool: &Pool, id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT created_at FROM chat_sessions WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// The last `limit` messages of a session, oldest first: (role, content,
/// tool calls as JSON).
pub async fn recent_messages(
    pool: &Pool,
    id: &str,
    limit: u32,
) -> Result<Vec<(String, String, Option<String>)>, sqlx::Error> {
    let mut rows: Vec<(String, String, Option<String>)> = sqlx::query_as(
        "SELECT role, content, tool_calls FROM chat_messages WHERE session_id = $1 ORDER BY id DESC LIMIT $2",
    )
    .bind(id)
    .bind(i64::from(limit))
    .fetch_all(pool)
    .await?;
    rows.reverse();
    Ok(rows)
}

/// Every message of a session in order: (role, content, agent).
pub async fn messages(
    pool: &Pool,
    id: &str,
) -> Result<Vec<(String, String, Option<String>)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT role, content, agent FROM chat_messages WHERE session_id = $1 ORDER BY id",
    )
    .bind(id)
    .fetch_all(pool)
    .await
}

/// What a turn's write does to the coach's checkpoint of the session.
pub enum CheckpointWrite {
    /// The draft goes on: its state as JSON.
    Put(String),
    /// The review was published or abandoned.
    Delete,
}

/// The turn counted against a quota in the write that stores it.
pub struct Count<'a> {
    pub quota: &'a crate::store::limits::Quota,
    pub client: &'a str,
    pub now_ms: i64,
}

/// Whether a turn was stored.
#[derive(Debug, PartialEq, Eq)]
pub enum Saved {
    Stored,
    /// Counted over the quota: rolled back; again in these many seconds.
    OverLimit(u64),
}

/// The session's new state, the turn's lines and the checkpoint's change,
/// with the turn counted against `count` first: one transaction, the
/// turn's only write. Over the quota nothing is stored.
///
/// On SQLite the transaction is one batch of statements sent to the
/// connection in one call ([`save_in_one_call`]); on PostgreSQL, whose
/// prepared statements are one statement each, it is sent statement by
/// statement. The statements are the same text.
pub async fn save_turn(
    pool: &Pool,
    session: &SessionRow<'_>,
    lines: &[MessageRow<'_>],
    checkpoint: Option<CheckpointWrite>,
    count: Option<Count<'_>>,
) -> Result<Saved, sqlx::Error> {
    match Backend::of(pool) {
        Backend::Sqlite => save_in_one_call(pool, session, lines, checkpoint, count).await,
        Backend::Postgres => save_by_statements(pool, session, lines, checkpoint, count).await,
    }
}

/// The session's row, inserted or updated: `$1`…`$5` are its id, persona,
/// form, page context and memory.
const UPSERT_SESSION: &str =
    "INSERT INTO chat_sessions (id, persona, form, page_context, memory) VALUES ($1, $2, $3, $4, $5) \
     ON CONFLICT (id) DO UPDATE SET persona = excluded.persona, form = excluded.form, \
         page_context = excluded.page_context, memory = excluded.memory, \
         updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

/// The head of the turn's lines' insert; the rows follow as `VALUES`.
const INSERT_LINES: &str =
    "INSERT INTO chat_messages (session_id, role, content, agent, intent, tool_calls, events, error) ";

/// The session `$1`'s checkpoint set to `$2`.
const PUT_CHECKPOINT: &str =
    "INSERT INTO review_coach_checkpoints (session_id, state) VALUES ($1, $2) \
     ON CONFLICT (session_id) DO UPDATE SET state = excluded.state, \
         updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

/// The session `$1`'s checkpoint gone.
const DELETE_CHECKPOINT: &str = "DELETE FROM review_coach_checkpoints WHERE session_id = $1";

/// SQLite: the turn's transaction as one batch, `BEGIN IMMEDIATE` to
/// `COMMIT`, run by the connection's worker in one call.
///
/// sqlx runs each SQLite statement on the connection's own thread and hands
/// the answer back: about 75 µs a statement on two cores, and a turn's
/// transaction was five of them (begin, count, session, lines, commit:
/// 0.38–0.46 ms, half of a whole turn). As one batch it is one hand-over,
/// two when a quota must be read before the commit is decided.
///
/// The batch is not sqlx's transaction, so what sqlx would do for one is
/// done here. It runs in a task of its own: a request dropped halfway (the
/// student closed the page) must not leave the connection inside a
/// transaction, as the worker stops a batch whose caller went away. A batch
/// that fails is rolled back, and a connection that cannot be rolled back
/// is closed rather than handed back to the pool.
async fn save_in_one_call(
    pool: &Pool,
    session: &SessionRow<'_>,
    lines: &[MessageRow<'_>],
    checkpoint: Option<CheckpointWrite>,
    count: Option<Count<'_>>,
) -> Result<Saved, sqlx::Error> {
    let mut sql: Sql<'static> = Sql::new("BEGIN IMMEDIATE; ");
    let decide = count.map(|count| {
        sql.push_numbered(crate::store::limits::COUNT)
            .bind(count.quota.scope)
            .bind(count.client.to_string())
            .bind(count.now_ms)
            .bind(count.quota.window_ms)
            .push("; ");
        (*count.quota, count.now_ms)
    });
    push_session(&mut sql, session);
    if !lines.is_empty() {
        sql.push("; ");
        push_lines(&mut sql, session.id, lines);
    }
    if let Some(checkpoint) = checkpoint {
        sql.push("; ");
        push_checkpoint(&mut sql, session.id, checkpoint);
    }
    if decide.is_none() {
        sql.push("; COMMIT");
    }
    let pool = pool.clone();
    let write = tokio::spawn(async move {
        let mut conn = pool.acquire().await?;
        let rows = match sql.build().fetch_all(&mut *conn).await {
            Ok(rows) => rows,
            Err(e) => {
                roll_back(conn).await;
                return Err(e);
            }
        };
        let Some((quota, now_ms)) = decide else {
            return Ok(Saved::Stored);
        };
        let counted = rows
            .first()
            .map(|row| Ok::<_, sqlx::Error>((row.try_get(0)?, row.try_get(1)?)))
            .transpose();
        let counted = match counted {
            Ok(Some(counted)) => counted,
            Ok(None) => {
                roll_back(conn).await;
                return Err(sqlx::Error::RowNotFound);
            }
            Err(e) => {
                roll_back(conn).await;
                return Err(e);
            }
        };
        if let Some(wait) = quota.over(counted, now_ms) {
            roll_back(conn).await;
            return Ok(Saved::OverLimit(wait));
        }
        match sqlx::query("COMMIT").execute(&mut *conn).await {
            Ok(_) => Ok(Saved::Stored),
            Err(e) => {
                roll_back(conn).await;
                Err(e)
            }
        }
    });
    write.await.map_err(|_| sqlx::Error::WorkerCrashed)?
}

/// Ends a batch's transaction that did not commit. When none is open any
/// more (its `BEGIN` failed, or SQLite rolled it back itself, as after a
/// full disk) the `ROLLBACK` fails harmlessly; when it fails otherwise the
/// connection may still be inside the transaction, and is closed instead of
/// going back to the pool.
async fn roll_back(mut conn: sqlx::pool::PoolConnection<crate::db::Db>) {
    if let Err(e) = sqlx::query("ROLLBACK").execute(&mut *conn).await {
        if !e.to_string().contains("no transaction is active") {
            tracing::warn!(error = %e, "a turn's write could not be rolled back; its connection is closed");
            crate::observe::metrics::db_connection_discarded();
            let _ = sqlx::Connection::close(conn.detach()).await;
        }
    }
}

/// PostgreSQL: the turn's transaction a statement at a time.
async fn save_by_statements(
    pool: &Pool,
    session: &SessionRow<'_>,
    lines: &[MessageRow<'_>],
    checkpoint: Option<CheckpointWrite>,
    count: Option<Count<'_>>,
) -> Result<Saved, sqlx::Error> {
    let mut tx = crate::db::begin_own_rows(pool).await?;
    if let Some(count) = count {
        let counted =
            crate::store::limits::hit(&mut *tx, count.quota, count.client, count.now_ms).await?;
        if let Some(wait) = count.quota.over(counted, count.now_ms) {
            tx.rollback().await?;
            return Ok(Saved::OverLimit(wait));
        }
    }
    let mut statements = vec![Sql::new("")];
    push_session(&mut statements[0], session);
    if !lines.is_empty() {
        let mut sql = Sql::new("");
        push_lines(&mut sql, session.id, lines);
        statements.push(sql);
    }
    if let Some(checkpoint) = checkpoint {
        let mut sql = Sql::new("");
        push_checkpoint(&mut sql, session.id, checkpoint);
        statements.push(sql);
    }
    for mut sql in statements {
        sql.build().execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(Saved::Stored)
}

/// The session's upsert, its values bound. Both backends' writes build
/// their statements here; the values are owned, as a batch runs in a task
/// of its own.
fn push_session(sql: &mut Sql<'static>, session: &SessionRow<'_>) {
    sql.push_numbered(UPSERT_SESSION)
        .bind(session.id.to_string())
        .bind(session.persona.to_string())
        .bind(session.form.clone())
        .bind(session.page_context.clone())
        .bind(session.memory.clone());
}

/// The insert of the turn's lines, their values bound.
fn push_lines(sql: &mut Sql<'static>, id: &str, lines: &[MessageRow<'_>]) {
    sql.push(INSERT_LINES);
    sql.push_values(lines, |b, line| {
        b.push_bind(id.to_string())
            .push_bind(line.role)
            .push_bind(line.content.to_string())
            .push_bind(line.agent.clone())
            .push_bind(line.intent.clone())
            .push_bind(line.tool_calls.clone())
            .push_bind(line.events.clone())
            .push_bind(line.error.clone());
    });
}

/// The change to the session's checkpoint, its values bound.
fn push_checkpoint(sql: &mut Sql<'static>, id: &str, checkpoint: CheckpointWrite) {
    match checkpoint {
        CheckpointWrite::Put(state) => {
            sql.push_numbered(PUT_CHECKPOINT)
                .bind(id.to_string())
                .bind(state);
        }
        CheckpointWrite::Delete => {
            sql.push_numbered(DELETE_CHECKPOINT).bind(id.to_string());
        }
    }
}

/// Deletes sessions untouched for `days` days (their messages and
/// checkpoints go with them).
pub async fn purge_older_than(pool: &Pool, days: u32) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "DELETE FROM chat_sessions WHERE updated_at < strftime('%Y-%m-%dT%H:%M:%SZ', 'now', $1)",
    )
    .bind(format!("-{days} days"))
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::limits::Quota;

    /// A migrated SQLite database of its own with a single connection: a
    /// connection left inside a transaction would fail the next write.
    async fn one_connection(name: &str) -> Pool {
        let dir = std::env::temp_dir().join(format!("sessions-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let pool = crate::db::connect_with(&format!("sqlite://{}/t.db", dir.display()), 1)
            .await
            .unwrap();
        crate::db::migrate(&pool).await.unwrap();
        pool
    }

    fn session(id: &str) -> SessionRow<'_> {
        SessionRow {
            id,
            persona: "casual",
            form: "{}".into(),
            page_context: "{}".into(),
            memory: "{}".into(),
        }
    }

    async fn count(pool: &Pool, sql: &str) -> i64 {
        sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
    }

    #[tokio::test]
    async fn a_turn_whose_write_fails_halfway_stores_nothing_and_the_next_one_is_stored() {
        let pool = one_connection("halfway").await;
        sqlx::query(
            "CREATE TRIGGER refuse BEFORE INSERT ON chat_messages WHEN NEW.content = 'refused' \
             BEGIN SELECT RAISE(ABORT, 'refused'); END",
        )
        .execute(&pool)
        .await
        .unwrap();
        let lines = [
            MessageRow::plain("user", "fine"),
            MessageRow::plain("system", "refused"),
        ];
        let failed = save_turn(&pool, &session("a"), &lines, None, None).await;
        assert!(failed.is_err(), "{failed:?}");
        assert_eq!(count(&pool, "SELECT COUNT(*) FROM chat_sessions").await, 0);
        let lines = [MessageRow::plain("user", "fine")];
        let put = Some(CheckpointWrite::Put("{}".into()));
        assert_eq!(
            save_turn(&pool, &session("b"), &lines, put, None)
                .await
                .unwrap(),
            Saved::Stored
        );
        assert_eq!(count(&pool, "SELECT COUNT(*) FROM chat_sessions").await, 1);
        assert_eq!(count(&pool, "SELECT COUNT(*) FROM chat_messages").await, 1);
        assert_eq!(
            count(&pool, "SELECT COUNT(*) FROM review_coach_checkpoints").await,
            1
        );
        let drop = Some(CheckpointWrite::Delete);
        save_turn(&pool, &session("b"), &lines, drop, None)
            .await
            .unwrap();
        assert_eq!(
            count(&pool, "SELECT COUNT(*) FROM review_coach_checkpoints").await,
            0
        );
        assert_eq!(count(&pool, "SELECT COUNT(*) FROM chat_messages").await, 2);
    }

    #[tokio::test]
    async fn a_turn_over_the_quota_stores_nothing_and_the_window_keeps_its_count() {
        let pool = one_connection("quota").await;
        let quota = Quota {
            scope: "chat",
            limit: 1,
            window_ms: 60_000,
        };
        let turn = |now_ms| {
            Some(Count {
                quota: &quota,
                client: "k",
                now_ms,
            })
        };
        let lines = [MessageRow::plain("user", "你好")];
        let first = save_turn(&pool, &session("a"), &lines, None, turn(1_000)).await;
        assert_eq!(first.unwrap(), Saved::Stored);
        let second = save_turn(&pool, &session("b"), &lines, None, turn(11_000)).await;
        assert_eq!(second.unwrap(), Saved::OverLimit(50));
        assert_eq!(count(&pool, "SELECT COUNT(*) FROM chat_sessions").await, 1);
        assert_eq!(count(&pool, "SELECT COUNT(*) FROM chat_messages").await, 1);
        assert_eq!(count(&pool, "SELECT count FROM rate_windows").await, 1);
        // A new window: stored again.
        let third = save_turn(&pool, &session("b"), &lines, None, turn(61_000)).await;
        assert_eq!(third.unwrap(), Saved::Stored);
    }
}
