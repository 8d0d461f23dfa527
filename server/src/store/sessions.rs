//! Chat sessions and their messages, and the coach's checkpoints: the SQL of
//! the conversation state (`agent::session` and `coach::checkpoint` keep
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

/// (id, persona, form, page_context, memory) of a session.
pub async fn session(
    pool: &Pool,
    id: &str,
) -> Result<Option<(String, String, String, String, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, persona, form, page_context, memory FROM chat_sessions WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await
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

/// The session's new state and the turn's lines, in one transaction.
pub async fn save_turn(
    pool: &Pool,
    session: &SessionRow<'_>,
    lines: &[MessageRow<'_>],
) -> Result<(), sqlx::Error> {
    let mut tx = crate::db::begin_write(pool).await?;
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
    tx.commit().await
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

/// The coach's checkpoint of a session (its state as JSON), if any.
pub async fn checkpoint(pool: &Pool, session_id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT state FROM review_coach_checkpoints WHERE session_id = $1")
        .bind(session_id)
        .fetch_optional(pool)
        .await
}

/// Writes the coach's checkpoint (the session row must exist).
pub async fn save_checkpoint(
    pool: &Pool,
    session_id: &str,
    state: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO review_coach_checkpoints (session_id, state) VALUES ($1, $2) \
         ON CONFLICT (session_id) DO UPDATE SET state = excluded.state, \
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
    )
    .bind(session_id)
    .bind(state)
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn clear_checkpoint(pool: &Pool, session_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM review_coach_checkpoints WHERE session_id = $1")
        .bind(session_id)
        .execute(pool)
        .await?;
    Ok(())
}
