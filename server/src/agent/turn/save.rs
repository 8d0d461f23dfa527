//! `save`: the reply, and the turn stored in one transaction with the
//! session, the review draft's checkpoint (kept or dropped) and the turn
//! counted against the caller's quota: the turn's only write. A failed save
//! is never answered as if it were kept: the reply carries
//! [`TURN_NOT_SAVED`] and says so in words (the stream's last event), and
//! `POST /api/v1/chat` turns it into the 503 of a failed dependency
//! (`Agent::answer`); the student's next turn would not remember this
//! one, so a plain 200 would mislead. A turn counted over the quota (it
//! raced other turns of its client) answers `rate_limited`. Neither stores
//! anything.

use app::protocol::{ChatResponse, ErrorInfo};

use super::Turn;
use crate::agent::replies::Templates;
use crate::agent::session_store::{SaveError, SessionStore};
use crate::voice;

/// The error code of a reply whose turn could not be stored.
pub const TURN_NOT_SAVED: &str = "storage_unavailable";

/// What the student reads when a turn could not be stored.
pub const TURN_NOT_SAVED_MESSAGE: &str =
    "这一轮对话没有保存下来（数据库暂时无法写入），请稍后再说一次。";

/// What the step reads besides the turn.
pub(super) struct Deps<'a> {
    pub sessions: &'a SessionStore,
    pub templates: &'a Templates,
}

impl Deps<'_> {
    /// Stores the turn; returns the reply as stored (or as not stored),
    /// which the runner hands back.
    pub(super) async fn run(&self, t: &mut Turn<'_>) -> Saved {
        if let Some(persona) = t.persona_out() {
            t.input.session.persona = persona.to_string();
        }
        let answer = t.reply.answer.as_ref();
        let reply = ChatResponse {
            session_id: t.input.session.id.clone(),
            intent: t.intent(),
            agent: t.input.session.persona.clone(),
            voice_response: voice::fit(answer.map_or("", |a| &a.voice)),
            tool_calls: answer
                .and_then(|a| a.calls.clone())
                .unwrap_or_else(|| t.proposed.executed.clone()),
            form_status: t.form().status(),
            form: t.form().clone(),
            events: t.reply.events().to_vec(),
            error: answer.and_then(|a| a.error.clone()),
        };
        t.input.session.form = reply.form.clone();
        // The page the reply leads to: a browser still loading it when the
        // next message comes is understood as showing it.
        t.input.session.page_context = app::reply::page_after(&t.input.page, &reply.tool_calls);
        t.input.session.memory = t.memory_after();
        t.input.session.memory.turns += 1;
        let saved = self
            .sessions
            .save_turn(
                &t.input.session,
                &t.input.user_text,
                &reply,
                t.reply.answer.as_ref().and_then(|a| a.draft.as_ref()),
            )
            .await;
        let mut over_limit = None;
        let response = match saved {
            Ok(()) => reply,
            Err(SaveError::OverLimit(wait)) => {
                over_limit = Some(wait);
                let message = app::error::TOO_MANY_TURNS_MESSAGE;
                unsaved(reply, "rate_limited", message, message.to_string())
            }
            Err(SaveError::Db(e)) => {
                tracing::error!(error = %e, "saving the turn failed");
                crate::observe::metrics::db_write_failed("turn");
                unsaved(
                    reply,
                    TURN_NOT_SAVED,
                    TURN_NOT_SAVED_MESSAGE,
                    self.templates.render("turn_not_saved", 0, &[]),
                )
            }
        };
        Saved {
            response,
            over_limit,
        }
    }
}

/// The reply as stored, and whether the turn was counted over the caller's
/// quota (seconds to wait).
pub(super) struct Saved {
    pub response: ChatResponse,
    pub over_limit: Option<u64>,
}

/// The reply of a turn that was not stored: `voice` and the error, no tool
/// calls (the page must not move to what was never stored).
fn unsaved(reply: ChatResponse, code: &str, message: &str, voice: String) -> ChatResponse {
    ChatResponse {
        voice_response: voice,
        tool_calls: Vec::new(),
        error: Some(ErrorInfo {
            code: code.into(),
            message: message.into(),
            field: None,
        }),
        ..reply
    }
}
