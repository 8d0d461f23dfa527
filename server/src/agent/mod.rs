//! The voice agent: `POST /api/v1/chat` and its stream. This module is the
//! agent and its construction; its public face is in the files beside it:
//! the one door into a turn, [`Agent::prepare`] (`prepare.rs`: everything
//! that can reject a request before anything is stored), then
//! [`Agent::run`] or [`Agent::answer`] (`entry.rs`), the persona switch by hand and the stored history
//! (`history.rs`), the reply's events (`events.rs`: [`DEGRADED`]), the
//! names a turn may read and the facts check of a reply (`grounding.rs`),
//! and what a turn cost (`stats.rs`).
//!
//! A turn itself is an explicit graph in [`turn`]: session → chip → intent
//! → understand → resolve → persona → plan → model → merge → validate →
//! steer → execute → narrate → save, the edges in one function. Each step
//! owns its code there, a file or a folder by concept (`turn/persona/`:
//! when the persona switches; `turn/resolve/`: references found
//! once per turn; `turn/validate/`: every proposal checked; `turn/steer/`:
//! the triggers and the chips of a phase). No step has a twin
//! here: what other parts use too is a library of its own name.
//!
//! The libraries the steps share (and the planners, HTTP, the tools):
//! - [`request`]: input checks; [`session_store`]: the sessions as stored
//!   (loaded, saved, their history, the caller); [`memory`]: what the agent
//!   remembers between turns besides the form.
//! - [`option`]: what a clicked chip means; [`spoken`]: a chip answered in
//!   words ("第二个", "西安那个").
//! - [`nlu`]: code's language understanding (slots, acts, references).
//! - [`targets`]: which advisor each reference points at (what the
//!   `resolve` step found, read by the planners and the coach).
//! - [`form`]: the student's form — fields by name, an update applied, the
//!   phase its gaps decide, the values it takes, what chips
//!   about it may be.
//! - [`planner`]: the embedded planner and the model planner.
//! - [`merge`]: code's plan and a model's proposal made one.
//! - [`tools`]: the tools and their execution.
//! - [`replies`], [`facts`]: the reply templates, facts only from data (the
//!   voice limit and cleaning are `crate::voice`, shared with the coach);
//!   [`about_place`]: the answer to a question about a school or a major;
//!   [`spoken_names`]: the short spoken forms of schools and majors.
//! - [`stream`]: the reply's sentences to the browser while the turn runs.
//!   Dialogue suites are replayed against either planner by
//!   `crate::evals::dialogues`.

pub mod about_place;
mod entry;
mod events;
pub mod facts;
pub mod form;
mod grounding;
mod history;
pub mod memory;
pub mod merge;
pub mod nlu;
pub mod option;
pub mod planner;
mod prepare;
pub mod readback;
pub mod recommend;
pub mod replies;
pub mod request;
pub mod session_store;
pub mod spoken;
pub mod spoken_names;
mod stats;
pub mod stream;
pub mod targets;
pub mod tools;
mod turn;

use std::sync::Arc;

use app::protocol::{ANALYSIS, CASUAL};

pub(crate) use self::events::degraded_event;
pub use self::events::DEGRADED;
use self::nlu::{Lexicons, NameSet};
use self::planner::{embedded::EmbeddedPlanner, model::ModelPlanner, Planner};
use self::prepare::Action;
pub use self::prepare::Prepared;
use self::recommend::Recommender;
use self::replies::Templates;
use self::session_store::SessionStore;
use self::spoken_names::SpokenNames;
pub use self::stats::{ModelCalls, TurnStats};
use self::tools::ToolRegistry;
use crate::coach::Coach;
use crate::llm::{LlmClient, LlmConfig};
use crate::site::Site;
use crate::speech_act::SpeechActs;

/// The persona a new session starts with: the data side, since most
/// students arrive with a school in mind.
pub const DEFAULT_PERSONA: &str = ANALYSIS;
/// The persona `name` names (`casual` / `analysis`, surrounding space
/// ignored), `None` for any other: a request's `agent_type`, a stored
/// session's persona. The names themselves are the protocol's.
pub(crate) fn persona_named(name: &str) -> Option<&'static str> {
    match name.trim() {
        CASUAL => Some(CASUAL),
        ANALYSIS => Some(ANALYSIS),
        _ => None,
    }
}

/// History lines a planner sees.
pub(crate) const HISTORY_LINES: u32 = 12;

/// Everything the agent loads once at start.
pub struct Agent {
    site: Arc<Site>,
    sessions: SessionStore,
    lexicons: Arc<Lexicons>,
    registry: ToolRegistry,
    recommender: Recommender,
    templates: Arc<Templates>,
    names: Arc<SpokenNames>,
    /// Code's planner: the default, and for the turns code answers alone.
    embedded: EmbeddedPlanner,
    /// The configured language model, if any.
    model: Option<ModelPlanner>,
    /// The review coach and its per-session drafts.
    coach: Coach,
    /// Whose words each clause is and what it does to an action (the agent
    /// acts only on a direct yes).
    acts: Arc<SpeechActs>,
    /// For telling advisor names in a reply (facts only from data).
    surnames: facts::Surnames,
    /// Reading the form back ("我是哪个学校的").
    readback: readback::ReadBack,
    /// The offer under a place answer ("看看导师排名").
    place_words: about_place::PlaceWords,
}

impl Agent {
    /// The agent with the embedded planner.
    pub fn new(site: Arc<Site>) -> Agent {
        Agent::build(site, None)
    }

    /// The agent with a language model planning the turns code does not
    /// answer alone; `Err` when the HTTP client cannot be built.
    pub fn with_model(site: Arc<Site>, config: LlmConfig) -> Result<Agent, String> {
        let client = LlmClient::new(config)?;
        Ok(Agent::build(site, Some(client)))
    }

    /// As configured: a model when `LLM_*` set one (`llm`, read once by
    /// the configuration), else embedded.
    pub fn configured(site: Arc<Site>, llm: Option<LlmConfig>) -> Result<Agent, String> {
        match llm {
            Some(config) => Agent::with_model(site, config),
            None => Ok(Agent::new(site)),
        }
    }

    fn build(site: Arc<Site>, client: Option<LlmClient>) -> Agent {
        let catalog = site.catalog();
        let name_sets = |list: Vec<(String, Vec<String>)>| -> Vec<NameSet> {
            list.into_iter()
                .map(|(canonical, aliases)| NameSet { canonical, aliases })
                .collect()
        };
        let schools = name_sets(
            catalog
                .schools()
                .iter()
                .map(|s| (s.name.clone(), s.aliases.clone()))
                .collect(),
        );
        let majors = name_sets(
            catalog
                .majors()
                .iter()
                .map(|m| (m.name.clone(), m.aliases.clone()))
                .collect(),
        );
        let cities = catalog.schools().iter().map(|s| s.city.clone()).collect();
        let lexicons = Arc::new(Lexicons::new(&schools, &majors).with_cities(cities));
        let templates = Arc::new(replies::replies());
        let names = Arc::new(SpokenNames::load());
        let embedded = EmbeddedPlanner::new(
            site.clone(),
            lexicons.clone(),
            templates.clone(),
            names.clone(),
        );
        let registry = ToolRegistry::load();
        let model = client.map(|c| ModelPlanner::new(c, &registry));
        let acts = Arc::new(SpeechActs::load());
        let coach = Coach::new(site.clone(), acts.clone(), nlu::faq_passages());
        Agent {
            sessions: SessionStore::new(site.pool().clone()),
            site,
            lexicons,
            registry,
            recommender: Recommender::load(),
            templates,
            names,
            embedded,
            model,
            coach,
            acts,
            surnames: facts::Surnames::load(),
            readback: readback::ReadBack::load(),
            place_words: about_place::PlaceWords::load(),
        }
    }

    /// `embedded`, or `model:<name>`.
    pub fn planner_name(&self) -> String {
        match &self.model {
            Some(m) => m.name(),
            None => self.embedded.name(),
        }
    }

    /// The lexicons of the code's own language understanding.
    pub fn lexicons(&self) -> Arc<Lexicons> {
        self.lexicons.clone()
    }

    pub fn sessions(&self) -> &SessionStore {
        &self.sessions
    }
}
