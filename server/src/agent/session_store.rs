//! The session store: sessions in the database —
//! the form, the page context last sent, the agent's working memory
//! (`agent::memory`) and the persona, with the conversation beside them.
//! A turn is saved in one transaction, so a turn is either all there or not
//! at all; a rejected request never reaches this module. It is a library of
//! the whole agent (the turn loads and saves through it, HTTP names the
//! caller, the manual persona switch stores its line); the turn's `session`
//! step only takes up the draft a message continues (`turn/session.rs`).

use crate::db::Pool;

use crate::store::sessions as store;

use app::model::ChatMessage;
use app::protocol::{AgentEvent, ChatResponse, PageContext, ToolCall, UserForm};

use super::memory::Memory;

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
    /// Who sent this turn: per-client limits, such as the review coach's,
    /// count against it, and the turn counts against its quota. Not stored.
    pub caller: Caller,
}

/// Who sent a turn: the client's key (`http::client`), and the quota of
/// chat turns it counts against when the counters are in the database (the
/// turn reads the window with its session and counts itself in the write
/// that stores it: `store::sessions`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    pub key: String,
    pub quota: Option<crate::store::limits::Quota>,
}

impl Caller {
    /// A turn from no network (tests, evaluations): counted nowhere.
    pub fn local() -> Caller {
        Caller {
            key: LOCAL_CLIENT.to_string(),
            quota: None,
        }
    }
}

/// A session as a turn starts from: the stored session (if the id named
/// one), its review draft, and the caller's window of turns.
pub struct Loaded {
    pub session: Option<Session>,
    pub draft: Option<crate::coach::state::CoachState>,
    /// The caller's window (start, count) when it has a quota.
    pub window: Option<crate::store::limits::Window>,
}

/// What a coached turn does to the session's review draft, written with
/// the turn.
pub enum Draft {
    Keep(Box<crate::coach::state::CoachState>),
    Drop,
}

/// Why a turn was not stored.
#[derive(Debug)]
pub enum SaveError {
    /// The caller's window was full when the turn was counted (a turn that
    /// raced others of the same client): nothing was stored; again in
    /// these many seconds.
    OverLimit(u64),
    Db(sqlx::Error),
}

impl From<sqlx::Error> for SaveError {
    fn from(e: sqlx::Error) -> Self {
        SaveError::Db(e)
    }
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
    pool: Pool,
}

impl SessionStore {
    pub fn new(pool: Pool) -> Self {
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
            caller: Caller::local(),
        }
    }

    /// The session `id` names (none for an id this server never hands out),
    /// with its review draft and `caller`'s window: one read.
    pub async fn load(&self, id: Option<&str>, caller: &Caller) -> Result<Loaded, sqlx::Error> {
        let id = id.filter(|id| is_valid_id(id));
        let window = caller
            .quota
            .as_ref()
            .map(|q| (q.scope, caller.key.as_str()));
        let start = store::turn_start(&self.pool, id, window).await?;
        Ok(Loaded {
            session: start.session.map(|row| Session {
                id: row.id,
                persona: row.persona,
                // Stored JSON is ours; a shape from an older version degrades to defaults.
                form: serde_json::from_str(&row.form).unwrap_or_default(),
                page_context: serde_json::from_str(&row.page_context).unwrap_or_default(),
                memory: serde_json::from_str(&row.memory).unwrap_or_default(),
                is_new: false,
                caller: caller.clone(),
            }),
            draft: crate::coach::checkpoint::parse(start.checkpoint.as_deref()),
            window: start.window,
        })
    }

    /// The newest lines of the conversation a model reads
    /// ([`HISTORY_LINES`](super::HISTORY_LINES)); none for a session this
    /// turn opens, and none when they cannot be read (the turn goes on).
    pub async fn recent(&self, session: &Session) -> Vec<HistoryEntry> {
        if session.is_new {
            return Vec::new();
        }
        self.history(&session.id, super::HISTORY_LINES)
            .await
            .unwrap_or_default()
    }

    /// The last `limit` messages of a session, oldest first (system lines included).
    pub async fn history(&self, id: &str, limit: u32) -> Result<Vec<HistoryEntry>, sqlx::Error> {
        let rows = store::recent_messages(&self.pool, id, limit).await?;
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

    /// When the session was opened (ISO 8601 UTC).
    pub async fn started_at(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        store::started_at(&self.pool, id).await
    }

    /// Every message of a session, for the panel after a reload.
    pub async fn messages(&self, id: &str) -> Result<Vec<ChatMessage>, sqlx::Error> {
        let rows = store::messages(&self.pool, id).await?;
        Ok(rows
            .into_iter()
            .map(|(role, content, agent)| ChatMessage {
                role,
                content,
                agent,
            })
            .collect())
    }

    /// Stores a finished turn in one transaction: the session's new state,
    /// the student's words (or chip), the events as system lines, the reply
    /// with its tool calls, the review draft's change, and the turn counted
    /// against the caller's quota (over it, nothing is stored).
    pub async fn save_turn(
        &self,
        session: &Session,
        user_text: &str,
        reply: &ChatResponse,
        draft: Option<&Draft>,
    ) -> Result<(), SaveError> {
        let to_json = |v: &dyn erased::Json| v.json();
        // The turn's lines, in order: the student's words, the events as
        // system lines, then the reply with its tool calls.
        let events: Vec<String> = reply.events.iter().filter_map(event_message).collect();
        let line = store::MessageRow::plain;
        let mut lines = vec![line("user", user_text)];
        lines.extend(events.iter().map(|m| line("system", m)));
        lines.push(store::MessageRow {
            agent: Some(reply.agent.clone()),
            intent: Some(to_json(&reply.intent)),
            tool_calls: Some(to_json(&stored_calls(&reply.tool_calls))),
            events: Some(to_json(&reply.events)),
            error: reply.error.as_ref().map(|e| to_json(e)),
            ..line("assistant", &reply.voice_response)
        });
        let checkpoint = draft.map(|d| match d {
            Draft::Keep(state) => {
                store::CheckpointWrite::Put(crate::coach::checkpoint::json(state))
            }
            Draft::Drop => store::CheckpointWrite::Delete,
        });
        let count = session.caller.quota.as_ref().map(|quota| store::Count {
            quota,
            client: &session.caller.key,
            now_ms: crate::store::limits::now_ms(),
        });
        match store::save_turn(&self.pool, &stored_row(session), &lines, checkpoint, count).await? {
            store::Saved::Stored => Ok(()),
            store::Saved::OverLimit(wait) => Err(SaveError::OverLimit(wait)),
        }
    }

    /// Stores the session's state alone, with an optional system line (a
    /// persona switched by hand), in one transaction.
    pub async fn save_state(
        &self,
        session: &Session,
        system_line: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        let line = system_line.map(|content| store::MessageRow::plain("system", content));
        store::save_turn(
            &self.pool,
            &stored_row(session),
            line.as_slice(),
            None,
            None,
        )
        .await
        .map(|_| ())
    }

    /// Deletes sessions untouched for `days` days (their messages go with them).
    pub async fn purge_older_than(&self, days: u32) -> Result<u64, sqlx::Error> {
        store::purge_older_than(&self.pool, days).await
    }
}

/// The session's row as stored: its state as JSON.
fn stored_row(session: &Session) -> store::SessionRow<'_> {
    let to_json = |v: &dyn erased::Json| v.json();
    store::SessionRow {
        id: &session.id,
        persona: &session.persona,
        form: to_json(&session.form),
        page_context: to_json(&stored_page(&session.page_context)),
        memory: to_json(&session.memory),
    }
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
/// A shortened id for logs: enough to follow one session through the log,
/// not enough to take it over.
pub fn short(id: &str) -> &str {
    let end = id.char_indices().nth(8).map(|(i, _)| i).unwrap_or(id.len());
    &id[..end]
}

#[cfg(test)]
mod short_ids {
    #[test]
    fn short_ids_cut_on_characters() {
        assert_eq!(super::short("0123456789abcdef"), "01234567");
        assert_eq!(super::short("短"), "短");
    }
}
