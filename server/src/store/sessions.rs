//! Chat sessions and their messages, and the coach's checkpoints: the SQL of
//! the conversation state (`agent::session_store` and `coach::checkpoint` keep
//! its shapes and turn them into JSON and back). Every instance reads and
//! writes the same rows, so a student's turns may go to any of them.

use crate::db::Pool;

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
pub async fn save_turn(
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
    write_session(&mut tx, session).await?;
    if !lines.is_empty() {
        let mut qb = crate::store::sql::Sql::new(
            "INSERT INTO chat_messages (session_id, role, content, agent, intent, tool_calls, events, error) ",
        );
        qb.push_values(lines, |b, line| {
            b.push_bind(session.id)
                .push_bind(line.role)
                .push_bind(line.content)
                .push_bind(line.agent.as_deref())
                .push_bind(line.intent.as_deref())
                .push_bind(line.tool_calls.as_deref())
                .push_bind(line.events.as_deref())
                .push_bind(line.error.as_deref());
        });
        qb.build().execute(&mut *tx).await?;
    }
    match checkpoint {
        None => {}
        Some(CheckpointWrite::Put(state)) => {
            sqlx::query(
                "INSERT INTO review_coach_checkpoints (session_id, state) VALUES ($1, $2) \
                 ON CONFLICT (session_id) DO UPDATE SET state = excluded.state, \
                     updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
            )
            .bind(session.id)
            .bind(state)
            .execute(&mut *tx)
            .await?;
        }
        Some(CheckpointWrite::Delete) => {
            sqlx::query("DELETE FROM review_coach_checkpoints WHERE session_id = $1")
                .bind(session.id)
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await?;
    Ok(Saved::Stored)
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

/// Inserts or updates the session row.
async fn write_session(
    tx: &mut crate::db::Tx,
    session: &SessionRow<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO chat_sessions (id, persona, form, page_context, memory) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (id) DO UPDATE SET persona = excluded.persona, form = excluded.form, \
             page_context = excluded.page_context, memory = excluded.memory, \
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
    )
    .bind(session.id)
    .bind(session.persona)
    .bind(&session.form)
    .bind(&session.page_context)
    .bind(&session.memory)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
