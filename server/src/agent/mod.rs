//! The voice agent: `POST /api/v1/chat` and its stream. This module is the
//! agent's public face — construction, [`Agent::prepare`] (everything that
//! can reject a request before anything is stored), [`Agent::run`], the
//! persona switch and the stored history. A turn itself is an explicit
//! graph in [`turn`]: session → chip → intent → understand → resolve →
//! persona → plan → model → merge → validate → steer → execute → narrate →
//! save, each step a module there, the edges in one function. A step used
//! by nothing else owns its code there (`turn/intent.rs`: the greeting /
//! meaningless / reset word lists of seed 001; `turn/classify.rs`: the
//! model's classification; `turn/narrate.rs`: code's words from the
//! results).
//!
//! The libraries the steps share:
//! - [`request`], [`session`]: input checks; sessions and their memory.
//! - [`option`]: what a clicked chip means; [`spoken`]: a chip answered in
//!   words ("第二个", "西安那个").
//! - [`nlu`]: code's language understanding (slots, acts, references).
//! - [`resolve`]: references → advisors, once per turn.
//! - [`persona`]: the two personas and their switch words (seed 002).
//! - [`planner`]: the embedded planner and the model planner.
//! - [`merge`]: code's plan and a model's proposal made one.
//! - [`validate`], [`steer`], [`tools`]: checks, the form's phases and
//!   triggers (seed 004), the tools and their execution.
//! - [`replies`], [`facts`]: the reply templates, facts only from data (the
//!   voice limit and cleaning are `crate::voice`, shared with the coach);
//!   [`about_place`]: the answer to a question about a school or a major;
//!   [`spoken_names`]: the short spoken forms of schools and majors.
//! - [`stream`]: the reply's sentences to the browser while the turn runs;
//!   [`eval`]: dialogue suites replayed against either planner.

pub mod about_place;
pub mod client;
pub mod eval;
pub mod facts;
pub mod merge;
pub mod nlu;
pub mod option;
pub mod persona;
pub mod planner;
pub mod readback;
pub mod recommend;
pub mod replies;
pub mod request;
pub mod resolve;
pub mod session;
pub mod spoken;
pub mod spoken_names;
pub mod steer;
pub mod stream;
pub mod tools;
mod turn;
pub mod validate;

use std::sync::Arc;

use app::error::ApiError;
use app::model::ChatHistory;
use app::protocol::{AgentEvent, ChatRequest, ChatResponse, PageContext, UserForm};

use self::nlu::{Lexicons, NameSet};
use self::option::Chip;
use self::persona::{PersonaLexicon, Reason, ANALYSIS, CASUAL};
use self::planner::{embedded::EmbeddedPlanner, model::ModelPlanner, Planner};
use self::recommend::Recommender;
use self::replies::Templates;
use self::request::Input;
use self::session::{Caller, Session, SessionStore};
use self::spoken_names::SpokenNames;
use self::steer::ChipSource;
use self::stream::VoiceSink;
use self::tools::ToolRegistry;
use self::turn::intent::IntentLexicon;
use self::turn::narrate::Narrator;
use crate::coach::Coach;
use crate::llm::{LlmClient, LlmConfig};
use crate::site::Site;
use crate::speech_act::SpeechActs;

/// The persona a new session starts with: the data side, since most
/// students arrive with a school in mind (seed 000's main flow).
pub const DEFAULT_PERSONA: &str = ANALYSIS;
/// History lines a planner sees.
pub(crate) const HISTORY_LINES: u32 = 12;
/// Chips offered per question.
const CHIPS: usize = 6;

/// Everything the agent loads once at start.
pub struct Agent {
    site: Arc<Site>,
    sessions: SessionStore,
    intents: IntentLexicon,
    lexicons: Arc<Lexicons>,
    registry: ToolRegistry,
    recommender: Recommender,
    templates: Arc<Templates>,
    names: Arc<SpokenNames>,
    /// Code's planner: the default, and for the turns code answers alone.
    embedded: EmbeddedPlanner,
    /// The configured language model, if any.
    model: Option<ModelPlanner>,
    personas: PersonaLexicon,
    /// The casual persona's replies (embedded planner).
    casual: Templates,
    /// The review coach and its per-session drafts (seed 003).
    coach: Coach,
    /// Whose words each clause is and what it does to an action (issue 16).
    acts: Arc<SpeechActs>,
    /// For telling advisor names in a reply (facts only from data).
    surnames: facts::Surnames,
    /// The tools' names, which are never spoken.
    tool_names: Vec<String>,
    /// Reading the form back (seed 001 "我是哪个学校的").
    readback: readback::ReadBack,
    /// The offer under a place answer ("看看导师排名").
    place_words: about_place::PlaceWords,
    /// What a model's intent must agree with (seed 001 classification).
    intent_evidence: turn::classify::Evidence,
}

/// A request that passed the checks: its session and what the student did.
pub struct Prepared {
    session: Session,
    /// The session's review draft as stored, if one is open.
    draft: Option<crate::coach::state::CoachState>,
    page: PageContext,
    act: Action,
}

/// What the student did: said something, or clicked a chip.
enum Action {
    Text(String),
    Chip { chip: Chip, shown: String },
}

/// What a turn cost, for the log and the evaluation command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnStats {
    pub model_calls: u32,
    /// The same calls by why the model was asked.
    pub calls_by: ModelCalls,
    pub tokens: u32,
    pub micros: u64,
    /// Counted over its caller's quota when it was stored (it raced other
    /// turns of the same client): nothing was stored, the reply says so,
    /// and the client may try again after these many seconds.
    pub over_limit: Option<u64>,
}

/// A turn's model calls by why the model was asked (issue 28: only for
/// what code could not do). `server eval` reports them per turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelCalls {
    /// Seed 001's intent classification of a message code read nothing of.
    pub intent: u32,
    /// The planner, for words code did not read.
    pub unread: u32,
    /// The planner, where code had only its generic fallback (or no plan).
    pub fallback: u32,
    /// The casual persona, for what its replies do not answer.
    pub casual: u32,
    /// The review coach's router and lines.
    pub coach: u32,
}

impl ModelCalls {
    /// The kinds with their names, in report order.
    pub fn named(&self) -> [(&'static str, u32); 5] {
        [
            ("intent", self.intent),
            ("unread", self.unread),
            ("fallback", self.fallback),
            ("casual", self.casual),
            ("coach", self.coach),
        ]
    }

    pub fn add(&mut self, other: &ModelCalls) {
        self.intent += other.intent;
        self.unread += other.unread;
        self.fallback += other.fallback;
        self.casual += other.casual;
        self.coach += other.coach;
    }
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

    /// From the environment: a model when `LLM_*` is set, else embedded.
    pub fn from_env(site: Arc<Site>) -> Result<Agent, String> {
        match LlmConfig::from_env()? {
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
        let lexicons = Arc::new(Lexicons::new(&schools, &majors));
        let templates = Arc::new(replies::replies());
        let names = Arc::new(SpokenNames::load());
        let embedded = EmbeddedPlanner::new(
            site.clone(),
            lexicons.clone(),
            templates.clone(),
            names.clone(),
        );
        let registry = ToolRegistry::load();
        let tool_names = registry.specs().iter().map(|s| s.name.clone()).collect();
        let model = client.map(|c| ModelPlanner::new(c, &registry));
        let acts = Arc::new(SpeechActs::load());
        let coach = Coach::new(site.clone(), acts.clone(), nlu::faq_passages());
        Agent {
            sessions: SessionStore::new(site.pool().clone()),
            site,
            intents: IntentLexicon::load(),
            lexicons,
            registry,
            recommender: Recommender::load(),
            templates,
            names,
            embedded,
            model,
            personas: PersonaLexicon::load(),
            casual: replies::casual(),
            coach,
            acts,
            surnames: facts::Surnames::load(),
            tool_names,
            readback: readback::ReadBack::load(),
            place_words: about_place::PlaceWords::load(),
            intent_evidence: turn::classify::Evidence::load(),
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

    fn narrator(&self) -> Narrator<'_> {
        Narrator {
            templates: &self.templates,
            names: &self.names,
            catalog: self.site.catalog(),
            place_words: &self.place_words,
        }
    }

    /// One turn of the protocol.
    pub async fn turn(&self, req: ChatRequest) -> Result<ChatResponse, ApiError> {
        self.turn_from(req, Caller::local()).await
    }

    /// One turn sent by `caller`: per-client limits, such as the review
    /// coach's posting limits, count against its key, and the turn counts
    /// against its quota (429 when the quota is used up).
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

    /// Steps 1–2: everything that can reject the request, before anything
    /// is stored or any planner runs (so a stream starts only for a turn that
    /// will answer).
    pub async fn prepare(&self, req: ChatRequest) -> Result<Prepared, ApiError> {
        self.prepare_from(req, Caller::local()).await
    }

    /// [`Agent::prepare`] for a turn sent by `caller`: a caller whose quota
    /// is used up is refused here (429), before any planner runs.
    pub async fn prepare_from(
        &self,
        req: ChatRequest,
        caller: Caller,
    ) -> Result<Prepared, ApiError> {
        let input = request::check(&req)?;
        let (session, draft) = self
            .start(req.session_id.as_deref(), DEFAULT_PERSONA, caller)
            .await?;
        // The page as the database knows it: a forged advisor id is no advisor.
        let seen = self
            .site
            .checked_page(req.page_context, &session.page_context)
            .await?;
        let page = self.page_meant(seen, &session.page_context).await;
        let act = match input {
            Input::Option(click) => {
                let chip = option::interpret(&click, self.site.catalog(), &session.form)?;
                let shown = if click.values.is_empty() {
                    "跳过".to_string()
                } else {
                    click.values.join("、")
                };
                match chip {
                    Chip::Text(text) => Action::Text(text),
                    chip => Action::Chip { chip, shown },
                }
            }
            Input::Message(text) => Action::Text(text),
        };
        Ok(Prepared {
            session,
            draft,
            page,
            act,
        })
    }

    /// The page the student means: what the browser shows, or, while it is
    /// still loading the page the last reply opened ([`client::catching_up`]),
    /// that page, with the first page of its ranking when the reply only
    /// navigated there (as the panel does for a recommendation).
    async fn page_meant(&self, seen: PageContext, led_to: &PageContext) -> PageContext {
        if !client::catching_up(&seen, led_to) {
            return seen;
        }
        let mut page = led_to.clone();
        if let (true, Some(f)) = (page.visible_advisors.is_empty(), &page.ranking_filters) {
            let ranking = self
                .site
                .ranking(&f.school, &f.major, app::model::SortKey::Overall, 1)
                .await;
            if let Ok(app::model::RankingView::Ranking(r)) = ranking {
                page.visible_advisors = r.advisors.iter().map(|a| a.to_visible()).collect();
            }
        }
        tracing::debug!(page = ?page.current_page, "the browser is still opening the last reply's page");
        page
    }

    /// The stored session `id` names (404 when there is none) with its
    /// review draft, or a new one with `persona` when no id is given; 429
    /// when `caller`'s quota is used up. One read.
    async fn start(
        &self,
        id: Option<&str>,
        persona: &str,
        caller: Caller,
    ) -> Result<(Session, Option<crate::coach::state::CoachState>), ApiError> {
        let id = id.map(str::trim).filter(|s| !s.is_empty());
        let loaded = self
            .sessions
            .load(id, &caller)
            .await
            .map_err(|_| ApiError::unavailable("会话加载失败，请稍后再试。"))?;
        let now = crate::store::limits::now_ms();
        if let Some(wait) = caller.quota.and_then(|q| q.full(loaded.window, now)) {
            return Err(ApiError::too_many(wait, app::error::TOO_MANY_TURNS_MESSAGE));
        }
        match (id, loaded.session) {
            (Some(_), Some(session)) => Ok((session, loaded.draft)),
            (Some(_), None) => Err(ApiError::not_found(
                "unknown_session",
                app::error::UNKNOWN_SESSION_MESSAGE,
            )
            .with_field("session_id")),
            (None, _) => {
                let mut session = SessionStore::open(persona);
                session.caller = caller;
                Ok((session, None))
            }
        }
    }

    /// Steps 2–7 of a prepared turn, through the turn's graph
    /// ([`turn`]). Never fails: a failing dependency ends in a spoken
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

    /// The form's school and major as catalog entries, where they resolve.
    fn form_pair(
        &self,
        form: &UserForm,
    ) -> (
        Option<&crate::catalog::SchoolEntry>,
        Option<&crate::catalog::MajorEntry>,
    ) {
        let catalog = self.site.catalog();
        (
            form.school
                .as_deref()
                .and_then(|s| catalog.resolve_school(s).found()),
            form.major
                .as_deref()
                .and_then(|m| catalog.resolve_major(m).found()),
        )
    }

    /// The chips each phase offers: popular schools (those with the major,
    /// when it is known), the school's largest majors, and the most common
    /// research directions of the school + major.
    async fn chip_source(&self, form: &UserForm) -> ChipSource {
        let catalog = self.site.catalog();
        let (school, major) = self.form_pair(form);
        let schools = catalog
            .schools()
            .iter()
            .filter(|s| major.is_none_or(|m| catalog.advisor_count(s.id, m.id) > 0))
            .take(CHIPS)
            .map(|s| s.name.clone())
            .collect();
        // The school's majors, those most schools offer first (计算机 before 心理学).
        let site_wide = |major_id: i64| {
            catalog
                .schools()
                .iter()
                .filter(|s| catalog.advisor_count(s.id, major_id) > 0)
                .count()
        };
        let mut majors: Vec<(usize, i64, String)> = school
            .map(|s| {
                catalog
                    .majors_of(s.id)
                    .into_iter()
                    .map(|m| {
                        (
                            site_wide(m.id),
                            catalog.advisor_count(s.id, m.id),
                            m.name.clone(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        majors.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
        let mut directions = Vec::new();
        if let (Some(s), Some(m)) = (school, major) {
            if let Ok(directory) = self.site.directory(s.id, m.id).await {
                directions = directory
                    .common_directions
                    .iter()
                    .take(CHIPS)
                    .map(|(_, d)| d.clone())
                    .collect();
            }
        }
        // Students apply in the autumn for the next year's intake.
        let next = nlu::enrollment::current_year() + 1;
        ChipSource {
            schools,
            majors: majors.into_iter().take(CHIPS).map(|(_, _, m)| m).collect(),
            directions,
            years: (next..next + 3).map(|y| y.to_string()).collect(),
        }
    }

    /// Advisor names the student may say: those on the page, the one last
    /// talked about, and those of the advisors of the form's school + major
    /// that could be in `text` (a pair has up to thousands of advisors; only
    /// names whose first character the message holds can be meant, so the
    /// understanding of a turn does not grow with the pair).
    async fn known_names(
        &self,
        text: &str,
        page: &PageContext,
        memory: &session::Memory,
        form: &UserForm,
    ) -> Vec<String> {
        let mut names: Vec<String> = page
            .visible_advisors
            .iter()
            .map(|a| a.name.clone())
            .collect();
        names.extend(page.selected_advisor.iter().map(|a| a.name.clone()));
        names.extend(memory.last_advisor.iter().map(|a| a.name.clone()));
        names.extend(memory.talked_about.iter().map(|a| a.name.clone()));
        if let (Some(s), Some(m)) = self.form_pair(form) {
            if let Ok(directory) = self.site.directory(s.id, m.id).await {
                let chars = nlu::matchable_chars(text, &self.lexicons);
                names.extend(
                    directory
                        .advisors
                        .iter()
                        .filter(|(_, name)| name.chars().next().is_some_and(|c| chars.contains(&c)))
                        .map(|(_, name)| name.clone()),
                );
            }
        }
        names.sort();
        names.dedup();
        names
    }

    /// The advisor names and figures `reply` speaks that the data does not
    /// hold — the evaluation's facts check, the same for every planner. The
    /// data is the turn's tool results, `page` (what the student saw when
    /// speaking), and the database record of each advisor of the page or the
    /// form's school + major the reply names (code describes an advisor from
    /// it without a tool call); a name that is none of these, or a figure
    /// none of them holds, is unsupported.
    pub async fn unsupported_claims(
        &self,
        reply: &ChatResponse,
        page: &PageContext,
    ) -> Vec<String> {
        let mut grounding = facts::Grounding::default();
        for call in &reply.tool_calls {
            grounding.add_json(&call.params);
            if let Some(result) = &call.result {
                grounding.add_json(result);
            }
        }
        grounding.add_page(page);
        let known = self
            .known_names(
                &reply.voice_response,
                page,
                &session::Memory::default(),
                &reply.form,
            )
            .await;
        let (school, major) = self.form_pair(&reply.form);
        let claims = facts::claims(&reply.voice_response, &known, &self.surnames);
        for name in claims.names.iter().filter(|n| known.contains(n)) {
            let on_page = page
                .visible_advisors
                .iter()
                .map(|a| (&a.id, &a.name))
                .chain(page.selected_advisor.iter().map(|a| (&a.id, &a.name)))
                .find(|(_, n)| *n == name)
                .map(|(id, _)| id.clone());
            let ids: Vec<String> = match on_page {
                Some(id) => vec![id],
                None => self
                    .site
                    .advisors_named(name, school.map(|s| s.id), major.map(|m| m.id))
                    .await
                    .unwrap_or_default()
                    .iter()
                    .map(|a| a.id.to_string())
                    .collect(),
            };
            for id in ids {
                if let Ok(Some(detail)) = self.site.advisor_detail(&id).await {
                    if let Ok(v) = serde_json::to_value(detail) {
                        grounding.add_json(&v);
                    }
                }
            }
        }
        facts::unsupported(&reply.voice_response, &grounding, &known, &self.surnames)
    }

    /// Switches the persona by hand (seed 002 §3.1): it then holds against
    /// keywords until the student switches again or a strong trigger fires.
    /// No session yet: one is opened with that persona. Returns the session
    /// id and the sentence to show.
    pub async fn switch_agent(
        &self,
        session_id: Option<&str>,
        agent_type: &str,
    ) -> Result<(String, &'static str, String), ApiError> {
        let to = persona::parse(agent_type).ok_or_else(|| {
            ApiError::bad_request(
                "invalid_agent_type",
                "agent_type 只能是 casual（闲聊）或 analysis（分析）。",
            )
            .with_field("agent_type")
        })?;
        let (mut session, _) = self.start(session_id, to, Caller::local()).await?;
        let from = persona::parse(&session.persona).unwrap_or(DEFAULT_PERSONA);
        let line = (from != to).then(|| persona::switch_message(from, to));
        let message = if line.is_some() || session.is_new {
            format!("已切换到{}模式", persona::mode_name(to))
        } else {
            format!("当前已经是{}模式", persona::mode_name(to))
        };
        session.persona = to.to_string();
        session.memory.persona_manual = true;
        self.sessions
            .save_state(&session, line.as_deref())
            .await
            .map_err(|_| ApiError::unavailable("会话保存失败，请稍后再试。"))?;
        tracing::info!(session = %crate::agent::session::short(&session.id), from, to, "persona switched by hand");
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

/// The event type of a reply whose model answer code replaced (an
/// extension of the protocol's `events`).
pub const DEGRADED: &str = "degraded";

/// A model answer that was broken or failed, replaced by code's plan.
pub(crate) fn degraded_event(code: &str, message: &str) -> AgentEvent {
    let mut data = serde_json::Map::new();
    data.insert("reason".into(), code.into());
    // Not `message`: that would be a system line of the conversation.
    data.insert("detail".into(), message.into());
    AgentEvent {
        kind: DEGRADED.into(),
        data,
    }
}

/// The `agent_switched` event of seed 002 §2.2, whose message is also the
/// system line stored in the conversation.
pub(crate) fn switch_event(from: &str, to: &'static str, why: &Reason) -> AgentEvent {
    let mut data = serde_json::Map::new();
    data.insert("from".into(), from.into());
    data.insert("to".into(), to.into());
    data.insert("message".into(), persona::switch_message(from, to).into());
    data.insert(
        "reason".into(),
        match why {
            Reason::Asked => "asked".into(),
            Reason::DataNeeded => "data_needed".into(),
            Reason::Keyword(k) => format!("keyword:{k}").into(),
        },
    );
    AgentEvent {
        kind: "agent_switched".into(),
        data,
    }
}

#[async_trait::async_trait]
impl app::api::AgentApi for Agent {
    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, ApiError> {
        // A server function: the request's parts are in Leptos's context,
        // the caller among them (`http::limits::chat_turns`).
        let caller = leptos::prelude::use_context::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Caller>().cloned())
            .unwrap_or_else(Caller::local);
        self.turn_from(request, caller).await
    }

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
