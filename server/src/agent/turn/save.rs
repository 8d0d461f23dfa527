//! `save`: the reply, and the turn stored with the session in one
//! transaction; the review draft is checkpointed (or dropped) only once the
//! turn is stored. A failed save still answers, with `storage_unavailable`.

use app::protocol::{ChatResponse, ErrorInfo};

use super::{Draft, Turn};
use crate::agent::{voice, Agent};

impl Agent {
    pub(super) async fn save(&self, t: &mut Turn<'_>) {
        if let Some(advisor) = t.memory.last_advisor.clone() {
            t.memory.remember(&advisor);
        }
        if let Some(persona) = t.persona_out {
            t.session.persona = persona.to_string();
        }
        let reply = ChatResponse {
            session_id: t.session.id.clone(),
            intent: std::mem::take(&mut t.intent),
            agent: t.session.persona.clone(),
            voice_response: voice::fit(&t.voice),
            tool_calls: std::mem::take(&mut t.calls),
            form_status: t.form.status(),
            form: t.form.clone(),
            events: std::mem::take(&mut t.events),
            error: t.error.take(),
        };
        t.session.form = reply.form.clone();
        t.session.page_context = std::mem::take(&mut t.page);
        t.session.memory = std::mem::take(&mut t.memory);
        t.session.memory.turns += 1;
        let reply = match self
            .sessions
            .save_turn(&t.session, &t.user_text, &reply)
            .await
        {
            Ok(()) => {
                self.store_draft(&t.session.id, t.draft_out.take()).await;
                reply
            }
            Err(e) => {
                tracing::error!(error = %e, "saving the turn failed");
                ChatResponse {
                    voice_response: self.templates.render("data_error", 0, &[]),
                    tool_calls: Vec::new(),
                    error: Some(ErrorInfo {
                        code: "storage_unavailable".into(),
                        message: "会话保存失败，请稍后再试。".into(),
                        field: None,
                    }),
                    ..reply
                }
            }
        };
        t.reply = Some(reply);
    }

    /// Checkpoints (or drops) the review draft after its turn was stored.
    async fn store_draft(&self, session_id: &str, draft: Option<Draft>) {
        let result = match draft {
            None => return,
            Some(Draft::Keep(state)) => self.drafts.save(session_id, &state).await,
            Some(Draft::Drop) => self.drafts.clear(session_id).await,
        };
        if let Err(e) = result {
            tracing::error!(error = %e, "could not checkpoint the review draft");
        }
    }
}
