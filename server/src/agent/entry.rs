//! After the one door into a turn ([`Agent::prepare`], `prepare.rs`): the
//! run of the prepared turn within the model's latency budget, measured
//! and streamed ([`Agent::run`]: the stream endpoint, the evaluation) or
//! as one JSON answer ([`Agent::answer`]: `POST /chat`, which turns a
//! quota raced past or a turn not stored into an error); and the server
//! functions of `app::api::AgentApi`. The turn itself is [`super::turn`].

use app::error::ApiError;
use app::model::ChatHistory;
use app::protocol::ChatResponse;

use super::stream::VoiceSink;
use super::{Agent, Prepared, TurnStats};

impl Agent {
    /// The rest of a prepared turn (all after [`Self::prepare`], the one
    /// door into a turn), through the turn's graph ([`super::turn`]), with
    /// what it cost; `voice` receives the reply's sentences as they are
    /// ready (the stream endpoint, the evaluation). Never fails: a failing
    /// dependency ends in a spoken apology with `error`, and the turn is
    /// stored. With a model, every model call of the turn (the coach's too)
    /// keeps the turn's latency budget (`llm::budget`).
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

    /// A prepared turn run for one JSON answer (`POST /chat`): a turn that
    /// raced its client's other turns past the quota is refused (429), and
    /// one that could not be stored is refused with the dependency failure
    /// (503), never answered 200: the next turn would not remember it.
    pub async fn answer(&self, prepared: Prepared) -> Result<ChatResponse, ApiError> {
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
