//! The session as the student sees it outside a turn: the persona switched
//! by hand (`POST /api/v1/chat/switch_agent`) and the stored conversation.

use app::error::ApiError;
use app::model::ChatHistory;
use app::protocol::{mode_name, switch_message};

use super::session_store::Caller;
use super::{persona_named, Agent, DEFAULT_PERSONA};

impl Agent {
    /// Switches the persona by hand: it then holds against
    /// keywords until the student switches again or a strong trigger fires.
    /// No session yet: one is opened with that persona. Returns the session
    /// id and the sentence to show.
    pub async fn switch_agent(
        &self,
        session_id: Option<&str>,
        agent_type: &str,
    ) -> Result<(String, &'static str, String), ApiError> {
        let to = persona_named(agent_type).ok_or_else(|| {
            ApiError::bad_request(
                "invalid_agent_type",
                "agent_type 只能是 casual（闲聊）或 analysis（分析）。",
            )
            .with_field("agent_type")
        })?;
        let (mut session, _) = self.start(session_id, to, Caller::local()).await?;
        let from = persona_named(&session.persona).unwrap_or(DEFAULT_PERSONA);
        let line = (from != to).then(|| switch_message(from, to));
        let message = if line.is_some() || session.is_new {
            format!("已切换到{}模式", mode_name(to))
        } else {
            format!("当前已经是{}模式", mode_name(to))
        };
        session.persona = to.to_string();
        session.memory.persona_manual = true;
        self.sessions
            .save_state(&session, line.as_deref())
            .await
            .map_err(|_| ApiError::unavailable("会话保存失败，请稍后再试。"))?;
        tracing::info!(session = %crate::agent::session_store::short(&session.id), from, to, "persona switched by hand");
        Ok((session.id, to, message))
    }

    /// The stored conversation of a session, `None` if there is none.
    pub async fn history(&self, session_id: &str) -> Result<Option<ChatHistory>, ApiError> {
        let Some(session) = self
            .sessions
            .load(Some(session_id.trim()), &Caller::local())
            .await
            .map_err(|_| ApiError::unavailable("会话加载失败，请稍后再试。"))?
            .session
        else {
            return Ok(None);
        };
        let messages = self
            .sessions
            .messages(&session.id)
            .await
            .map_err(|_| ApiError::unavailable("会话加载失败，请稍后再试。"))?;
        let start_time = self
            .sessions
            .started_at(&session.id)
            .await
            .map_err(|_| ApiError::unavailable("会话加载失败，请稍后再试。"))?
            .unwrap_or_default();
        Ok(Some(ChatHistory {
            session_id: session.id,
            agent: session.persona,
            messages,
            form: session.form,
            options: session.memory.pending,
            start_time,
            page_context: session.page_context,
        }))
    }
}
