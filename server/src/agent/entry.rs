//! The agent's doors: a turn of the protocol (`turn`, `turn_from`), the
//! measured turn of the stream endpoint and the evaluation, the run of a
//! prepared turn within the model's latency budget, and the server
//! functions of `app::api::AgentApi`. The turn itself is [`super::turn`].

use app::error::ApiError;
use app::model::ChatHistory;
use app::protocol::{ChatRequest, ChatResponse};

use super::session_store::Caller;
use super::stream::VoiceSink;
use super::{Agent, Prepared, TurnStats};

impl Agent {
    /// One turn of the protocol.
    pub async fn turn(&self, req: ChatRequest) -> Result<ChatResponse, ApiError> {
        self.turn_from(req, Caller::local()).await
    }

    /// One turn sent by `caller`: per-client limits, such as the review
    /// coach's posting limits, count against its key, and the turn counts
    /// against its quota (429 when the quota is used up). A turn that could
    /// not be stored is refused with the dependency failure (503), never
    /// answered 200: the next turn would not remember it.
    pub async fn turn_from(
        &self,
        req: ChatRequest,
        caller: Caller,
    ) -> Result<ChatResponse, ApiError> {
        let prepared = self.prepare_from(req, caller).await?;
        match self.run(prepared, None).await {
            (
                _,
                TurnStats {
                    over_limit: Some(wait),
                    ..
                },
            ) => Err(ApiError::too_many(wait, app::error::TOO_MANY_TURNS_MESSAGE)),
            (reply, _) if not_saved(&reply) => Err(ApiError::unavailable(
                super::turn::save::TURN_NOT_SAVED_MESSAGE,
            )),
            (reply, _) => Ok(reply),
        }
    }

    /// One turn, with what it cost; `voice` receives the reply's sentences
    /// as they are ready (the stream endpoint).
    pub async fn turn_measured(
        &self,
        req: ChatRequest,
        voice: Option<&VoiceSink>,
    ) -> Result<(ChatResponse, TurnStats), ApiError> {
        let prepared = self.prepare(req).await?;
        Ok(self.run(prepared, voice).await)
    }

    /// The rest of a prepared turn (all after [`Self::prepare`]), through the turn's graph
    /// ([`super::turn`]). Never fails: a failing dependency ends in a spoken
    /// apology with `error`, and the turn is stored. With a model, every
    /// model call of the turn (the coach's too) keeps the turn's latency
    /// budget (`llm::budget`).
    pub async fn run(
        &self,
        prepared: Prepared,
        voice: Option<&VoiceSink>,
    ) -> (ChatResponse, TurnStats) {
        match self.model.as_ref() {
            Some(model) => {
                let budget = model.client().config().turn_budget;
                crate::llm::budget::within(budget, self.walk(prepared, voice)).await
            }
            None => self.walk(prepared, voice).await,
        }
    }
}

/// Whether `reply` is of a turn the database refused to store.
fn not_saved(reply: &ChatResponse) -> bool {
    reply
        .error
        .as_ref()
        .is_some_and(|e| e.code == super::turn::save::TURN_NOT_SAVED)
}

#[async_trait::async_trait]
impl app::api::AgentApi for Agent {
    async fn history(&self, session_id: &str) -> Result<Option<ChatHistory>, ApiError> {
        Agent::history(self, session_id).await
    }

    async fn switch_agent(
        &self,
        request: app::protocol::SwitchAgentRequest,
    ) -> Result<app::protocol::SwitchAgentData, ApiError> {
        let (session_id, agent_type, _) =
            Agent::switch_agent(self, request.session_id.as_deref(), &request.agent_type).await?;
        Ok(app::protocol::SwitchAgentData {
            agent_type: agent_type.to_string(),
            session_id,
        })
    }
}
