//! Sessions in SQLite (seed 000 §5.2): the form, the page context last sent,
//! the agent's working memory and the persona, with the conversation beside
//! them. A turn is saved in one transaction, so a turn is either all there or
//! not at all; a rejected request never reaches this module.

use serde::{Deserialize, Serialize};
use sqlx::SqlitePool;

use app::model::ChatMessage;
use app::protocol::{AgentEvent, ChatResponse, PageContext, SelectedAdvisor, ToolCall, UserForm};

/// Advisors remembered as talked about.
pub const TALKED_ABOUT: usize = 8;

/// What the agent remembers between turns besides the form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    /// The advisor last talked about, so "他" still means them on the next turn.
    #[serde(default)]
    pub last_advisor: Option<SelectedAdvisor>,
    /// The advisors talked about, most recent first (at most
    /// [`TALKED_ABOUT`]): "刚才那个张老师" is the 张 of this list.
    #[serde(default)]
    pub talked_about: Vec<SelectedAdvisor>,
    /// Optional form fields already offered as chips (answered or skipped):
    /// never asked twice.
    #[serde(default)]
    pub asked: Vec<String>,
    /// The chips still waiting for an answer.
    #[serde(default)]
    pub pending: Option<ToolCall>,
    /// Completed turns, for deterministic variety in replies.
    #[serde(default)]
    pub turns: u32,
    /// The persona was chosen by hand (the panel's toggle, `switch_agent`):
    /// keywords no longer switch it, only strong triggers do.
    #[serde(default)]
    pub persona_manual: bool,
}

impl Memory {
    /// Remembers `advisor` as the one talked about most recently.
    pub fn remember(&mut self, advisor: &SelectedAdvisor) {
        self.talked_about.retain(|a| a.id != advisor.id);
        self.talked_about.insert(0, advisor.clone());
        self.talked_about.truncate(TALKED_ABOUT);
    }
}

/// One session as a turn sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    pub id: String,
    pub persona: String,
    pub form: UserForm,
    pub page_context: PageContext,
    pub memory: Memory,
    /// Not stored yet: opened by this turn.
    pub is_new: bool,
    /// Who sent this turn (`http::client`'s key): per-client limits, such as
    /// the review coach's, count against it. Not stored.
    pub client: String,
}

/// A line of history as planners read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    pub role: String,
    pub content: String,
    /// The tools an assistant turn executed, by name (a model reads what
    /// happened on the page, not only what was said).
    pub tools: Vec<String>,
}

/// The client of a turn that came from no network (tests, evaluations).
pub const LOCAL_CLIENT: &str = "local";
/// Advisors of a page context kept with the session: a ranking page shows
/// fewer; the rest of a (possibly forged) longer list is not stored.
pub const STORED_VISIBLE_ADVISORS: usize = 50;

/// True for the ids this server hands out (32 lower-case hex digits).
pub fn is_valid_id(id: &str) -> bool {
    id.len() == 32
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[derive(Clone)]
pub struct SessionStore {
    pool: SqlitePool,
}

type SessionRow = (String, String, String, String, String);

impl SessionStore {
    pub fn new(pool: SqlitePool) -> Self {
        SessionStore { pool }
    }

    /// A new session, not stored until its first turn is saved.
    pub fn open(default_persona: &str) -> Session {
        Session {
            id: uuid::Uuid::new_v4().simple().to_string(),
            persona: default_persona.to_string(),
            form: UserForm::default(),
            page_context: PageContext::default(),
            memory: Memory::default(),
            is_new: true,
            client: LOCAL_CLIENT.to_string(),
        }
    }

    pub async fn load(&self, id: &str) -> Result<Option<Session>, sqlx::Error> {
        if !is_valid_id(id) {
            return Ok(None);
        }
        let row: Option<SessionRow> = sqlx::query_as(
            "SELECT id, persona, form, page_context, memory FROM chat_sessions WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(
            row.map(|(id, persona, form, page_context, memory)| Session {
                id,
                persona,
                // Stored JSON is ours; a shape from an older version degrades to defaults.
                form: serde_json::from_str(&form).unwrap_or_default(),
                page_context: serde_json::from_str(&page_context).unwrap_or_default(),
                memory: serde_json::from_str(&memory).unwrap_or_default(),
                is_new: false,
                client: LOCAL_CLIENT.to_string(),
            }),
        )
    }

    /// The last `limit` messages of a session, oldest first (system lines included).
    pub async fn history(&self, id: &str, limit: u32) -> Result<Vec<HistoryEntry>, sqlx::Error> {
        let mut rows: Vec<(String, String, Option<String>)> = sqlx::query_as(
            "SELECT role, content, tool_calls FROM chat_messages WHERE session_id = ? ORDER BY id DESC LIMIT ?",
        )
        .bind(id)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.reverse();
        Ok(rows
            .into_iter()
            .map(|(role, content, calls)| HistoryEntry {
                role,
                content,
                tools: calls
                    .and_then(|c| serde_json::from_str::<Vec<ToolCall>>(&c).ok())
                    .unwrap_or_default()
                    .into_iter()
                    .map(|c| c.tool)
                    .collect(),
            })
            .collect())
    }

    /// Every message of a session, for the panel after a reload.
    pub async fn messages(&self, id: &str) -> Result<Vec<ChatMessage>, sqlx::Error> {
        let rows: Vec<(String, String, Option<String>)> = sqlx::query_as(
            "SELECT role, content, agent FROM chat_messages WHERE session_id = ? ORDER BY id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(role, content, agent)| ChatMessage {
                role,
                content,
                agent,
            })
            .collect())
    }

    /// Stores a finished turn: the session's new state, the student's words
    /// (or chip), the events as system lines, and the reply with its tool calls.
    pub async fn save_turn(
        &self,
        session: &Session,
        user_text: &str,
        reply: &ChatResponse,
    ) -> Result<(), sqlx::Error> {
        let to_json = |v: &dyn erased::Json| v.json();
        let mut tx = crate::db::begin_write(&self.pool).await?;
        write_session(&mut tx, session).await?;
        // One statement for the turn's lines, in order: the student's words,
        // the events as system lines, then the reply with its tool calls.
        struct Line<'a> {
            role: &'static str,
            content: &'a str,
            reply: bool,
        }
        let events: Vec<String> = reply.events.iter().filter_map(event_message).collect();
        let mut lines = vec![Line {
            role: "user",
            content: user_text,
            reply: false,
        }];
        lines.extend(events.iter().map(|m| Line {
            role: "system",
            content: m,
            reply: false,
        }));
        lines.push(Line {
            role: "assistant",
            content: &reply.voice_response,
            reply: true,
        });
        let mut qb = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "INSERT INTO chat_messages (session_id, role, content, agent, intent, tool_calls, events, error) ",
        );
        qb.push_values(lines, |mut b, line| {
            let of_reply = |v: String| line.reply.then_some(v);
            b.push_bind(&session.id)
                .push_bind(line.role)
                .push_bind(line.content)
                .push_bind(of_reply(reply.agent.clone()))
                .push_bind(of_reply(to_json(&reply.intent)))
                .push_bind(of_reply(to_json(&stored_calls(&reply.tool_calls))))
                .push_bind(of_reply(to_json(&reply.events)))
                .push_bind(
                    reply
                        .error
                        .as_ref()
                        .filter(|_| line.reply)
                        .map(|e| to_json(e)),
                );
        });
        qb.build().execute(&mut *tx).await?;
        tx.commit().await
    }

    /// Stores the session's state alone, with an optional system line (a
    /// persona switched by hand), in one transaction.
    pub async fn save_state(
        &self,
        session: &Session,
        system_line: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        let mut tx = crate::db::begin_write(&self.pool).await?;
        write_session(&mut tx, session).await?;
        if let Some(line) = system_line {
            sqlx::query(
                "INSERT INTO chat_messages (session_id, role, content) VALUES (?, 'system', ?)",
            )
            .bind(&session.id)
            .bind(line)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await
    }

    /// Deletes sessions untouched for `days` days (their messages go with them).
    pub async fn purge_older_than(&self, days: u32) -> Result<u64, sqlx::Error> {
        let done = sqlx::query(
            "DELETE FROM chat_sessions WHERE updated_at < strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?)",
        )
        .bind(format!("-{days} days"))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }
}

/// Inserts or updates the session row: persona, form, page context, memory.
async fn write_session(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    session: &Session,
) -> Result<(), sqlx::Error> {
    let to_json = |v: &dyn erased::Json| v.json();
    sqlx::query(
        "INSERT INTO chat_sessions (id, persona, form, page_context, memory) VALUES (?, ?, ?, ?, ?) \
         ON CONFLICT (id) DO UPDATE SET persona = excluded.persona, form = excluded.form, \
             page_context = excluded.page_context, memory = excluded.memory, \
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
    )
    .bind(&session.id)
    .bind(&session.persona)
    .bind(to_json(&session.form))
    .bind(to_json(&stored_page(&session.page_context)))
    .bind(to_json(&session.memory))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The tool calls as the history keeps them: a published review's edit
/// token is the writer's secret — the browser keeps it from the live reply —
/// so it is never written to the database.
fn stored_calls(calls: &[ToolCall]) -> Vec<ToolCall> {
    calls
        .iter()
        .map(|c| {
            let mut c = c.clone();
            if let Some(result) = c.result.as_mut().and_then(|r| r.as_object_mut()) {
                result.remove("edit_token");
            }
            c
        })
        .collect()
}

/// The page context as stored: at most [`STORED_VISIBLE_ADVISORS`] advisors.
fn stored_page(page: &PageContext) -> PageContext {
    let mut page = page.clone();
    page.visible_advisors.truncate(STORED_VISIBLE_ADVISORS);
    page
}

fn event_message(event: &AgentEvent) -> Option<String> {
    event
        .data
        .get("message")
        .and_then(|m| m.as_str())
        .map(str::to_string)
}

/// Serializing our own types cannot fail; this keeps the call sites short.
mod erased {
    pub trait Json {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string(self).unwrap_or_else(|_| "null".to_string())
        }
    }
}
