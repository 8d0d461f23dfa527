//! Planners propose; code disposes. A planner reads the student's message,
//! the code's own analysis of it, the form, the page and the history, and
//! proposes a spoken reply and tool calls. Whatever it proposes goes through
//! the same validation and steering. The embedded planner (rules, lexicons,
//! templates) is the default; a language model is another implementation.
//!
//! - [`embedded`]: rules, lexicons and templates; no model, no network.
//! - [`model`]: an OpenAI-compatible model, one call per turn.
//! - [`prompt`]: the model's prompt, assembled from `prompts/model/`.
//! - [`output`]: the model's reply read into a proposal, streamed or whole.

pub mod embedded;
pub mod model;
pub mod output;
pub mod prompt;

use app::protocol::{PageContext, SelectedAdvisor, ToolCall, UserForm};

use super::memory::Memory;
use super::nlu::Analysis;
use super::session_store::HistoryEntry;
use super::stream::VoiceSink;
use super::targets::Resolved;

/// Everything a planner may read for one turn.
pub struct PlanInput<'a> {
    pub message: &'a str,
    pub analysis: &'a Analysis,
    /// The advisors the message points at (the resolve step's targets).
    pub resolved: &'a Resolved,
    pub form: &'a UserForm,
    pub memory: &'a Memory,
    pub page: &'a PageContext,
    pub history: &'a [HistoryEntry],
    /// The turn number, for deterministic variety in templates.
    pub turn: u32,
    /// Code's own plan of this turn (the embedded planner's, from the
    /// analysis): a model is told it as facts and proposes only the rest.
    pub understood: Option<&'a Plan>,
    /// Where a streaming planner writes its reply as it arrives (the stream
    /// endpoint); `None` for a plain request.
    pub voice: Option<&'a VoiceSink>,
}

/// A planner's proposal.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// What to say; empty leaves the reply to code, composed from the
    /// results of the executed tools.
    pub voice_response: String,
    pub tool_calls: Vec<ToolCall>,
    /// The advisor this turn talked about (so "他" works next turn).
    pub focus: Option<SelectedAdvisor>,
    /// The turn was about the form (slots named, an optional question skipped).
    pub about_form: bool,
    /// The student explicitly chose an advisor to open (id, name).
    pub open: Option<(String, String)>,
    /// Code did not understand the whole message: nothing specific (its
    /// reply is the generic fallback, "我可以帮你按学校和专业找导师…"), or
    /// words it did not read beside what it did (`Turn::unread`). A model
    /// may say it better; its words are still checked against the data.
    pub open_ended: bool,
    /// A place answer's offer to search (`agent::about_place`), remembered
    /// for the next turn.
    pub offer: Option<super::about_place::PlaceOffer>,
    /// Language-model calls and tokens this plan cost (0 for the embedded planner).
    pub model_calls: u32,
    pub tokens: u32,
}

/// A planner that could not plan: the turn ends in a spoken apology.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct PlanError {
    pub code: String,
    pub message: String,
}

#[async_trait::async_trait]
pub trait Planner: Send + Sync {
    /// `embedded`, or the model's name.
    fn name(&self) -> String;
    /// Whether the planner reads the conversation history (a model does; the
    /// embedded planner works from the form, the page and its memory).
    fn reads_history(&self) -> bool {
        true
    }
    async fn plan(&self, input: &PlanInput<'_>) -> Result<Plan, PlanError>;
}
