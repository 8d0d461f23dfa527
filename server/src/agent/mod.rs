//! The voice agent: one turn of `POST /api/v1/chat`, as a pipeline with one
//! module per step, in this order:
//!
//! 1. [`request`]: reject malformed input before anything is touched;
//!    [`session`]: load or open the session (form, page context, memory).
//! 2. [`option`]: a chip click updates its form field directly.
//! 3. [`crate::speech_act`]: the speech act — which clauses are the
//!    student's own and what they do to each consequential action (reset,
//!    publish, drop the draft); nothing consequential happens without its
//!    verdict. The review coach, when a draft is open, takes the turn here.
//!    [`intent`]: greeting, reset (on a direct instruction only) and
//!    meaningless input, answered by code; the form values come from the
//!    student's own clauses, and a value they negate leaves the form.
//! 4. [`planner`]: everything else; the embedded planner reads [`nlu`]'s
//!    analysis, a configured language model reads the message, the form, the
//!    page and the history (turns code can answer alone stay with code).
//! 5. [`validate`]: unknown tools dropped, names made canonical, ids checked.
//! 6. [`steer`]: the triggers, the duplicate guard, the phase chips.
//! 7. [`tools`]: execution with results attached; [`narrate`] speaks for code;
//!    [`voice`] keeps it short; the turn is saved in one transaction.
//!
//! [`stream`] carries the reply's sentences to the browser while the turn
//! runs; [`eval`] replays dialogue suites against either planner.

pub mod client;
pub mod eval;
pub mod facts;
pub mod intent;
pub mod merge;
pub mod narrate;
pub mod nlu;
pub mod option;
pub mod persona;
pub mod planner;
pub mod recommend;
pub mod replies;
pub mod request;
pub mod session;
pub mod steer;
pub mod stream;
pub mod tools;
pub mod validate;
pub mod voice;

use std::sync::Arc;

use app::error::ApiError;
use app::model::ChatHistory;
use app::protocol::{
    AgentEvent, ChatRequest, ChatResponse, ErrorInfo, IntentResult, PageContext, SelectedAdvisor,
    ToolCall, UserForm,
};

use self::intent::{Intent, IntentLexicon};
use self::narrate::{Narrator, SpokenNames};
use self::nlu::{Act, Analysis, Lexicons, NameSet, Slot};
use self::option::Chip;
use self::persona::{PersonaLexicon, Reason, ANALYSIS, CASUAL};
use self::planner::{embedded::EmbeddedPlanner, model::ModelPlanner, Plan, PlanInput, Planner};
use self::recommend::Recommender;
use self::replies::Templates;
use self::request::Input;
use self::session::{Session, SessionStore};
use self::steer::{ChipSource, TurnFacts};
use self::stream::VoiceSink;
use self::tools::{Executor, ToolRegistry, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS};
use self::validate::Validator;
use crate::coach::checkpoint::Checkpoints;
use crate::coach::state::CoachState;
use crate::coach::Coach;
use crate::llm::{LlmClient, LlmConfig};
use crate::site::Site;
use crate::speech_act::{self as speech, Force, Reading, SpeechActs};

/// The persona a new session starts with: the data side, since most
/// students arrive with a school in mind (seed 000's main flow).
pub const DEFAULT_PERSONA: &str = ANALYSIS;
/// History lines a planner sees.
const HISTORY_LINES: u32 = 12;
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
    drafts: Checkpoints,
    /// Whose words each clause is and what it does to an action (issue 16).
    acts: Arc<SpeechActs>,
    /// For telling advisor names in a reply (facts only from data).
    surnames: facts::Surnames,
    /// The tools' names, which are never spoken.
    tool_names: Vec<String>,
}

/// Whose words a turn's reply carries, for the facts check after execution.
enum Words<'a> {
    /// Code's own, composed from data.
    Code,
    /// A model's: said only if every advisor name and figure in them is in
    /// the results, the page or code's reply (`fallback`, also what is said
    /// instead; empty = narrate the results). `known` are the advisor names
    /// the turn knows. When code resolved the advisor the turn is about
    /// (`about`), the words may name only that advisor and those in the
    /// results, not others on the page.
    Model {
        fallback: String,
        known: &'a [String],
        about: Option<String>,
    },
}

/// What a coached turn does to the session's draft once the turn is stored.
enum Draft {
    Keep(Box<CoachState>),
    Drop,
}

/// A request that passed the checks: its session and what the student did.
pub struct Prepared {
    session: Session,
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
    pub tokens: u32,
    pub micros: u64,
}

/// How one turn went, for the reply and the log.
struct Outcome {
    intent: IntentResult,
    voice: String,
    calls: Vec<ToolCall>,
    form: UserForm,
    memory: session::Memory,
    error: Option<ErrorInfo>,
    model_calls: u32,
    tokens: u32,
    /// The persona that answered, when this turn decided it (else unchanged).
    persona: Option<&'static str>,
    /// A persona switch, as the reply's `events`.
    events: Vec<AgentEvent>,
    /// The review draft to checkpoint (or drop) after the turn is stored.
    draft: Option<Draft>,
}

impl Outcome {
    /// A turn that said `voice` and did nothing else (yet).
    fn said(
        intent: IntentResult,
        voice: String,
        form: UserForm,
        memory: session::Memory,
    ) -> Outcome {
        Outcome {
            intent,
            voice,
            calls: Vec::new(),
            form,
            memory,
            error: None,
            model_calls: 0,
            tokens: 0,
            persona: None,
            events: Vec::new(),
            draft: None,
        }
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
        let coach = Coach::new(site.clone(), acts.clone());
        let drafts = Checkpoints::new(site.pool().clone());
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
            drafts,
            acts,
            surnames: facts::Surnames::load(),
            tool_names,
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
        }
    }

    /// One turn of the protocol.
    pub async fn turn(&self, req: ChatRequest) -> Result<ChatResponse, ApiError> {
        self.turn_from(req, session::LOCAL_CLIENT).await
    }

    /// One turn sent by `client` (`http::client`'s key): per-client limits,
    /// such as the review coach's posting limits, count against it.
    pub async fn turn_from(
        &self,
        req: ChatRequest,
        client: &str,
    ) -> Result<ChatResponse, ApiError> {
        let prepared = self.prepare_from(req, client).await?;
        Ok(self.run(prepared, None).await.0)
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
        self.prepare_from(req, session::LOCAL_CLIENT).await
    }

    /// [`Agent::prepare`] for a turn sent by `client`.
    pub async fn prepare_from(&self, req: ChatRequest, client: &str) -> Result<Prepared, ApiError> {
        let input = request::check(&req)?;
        let mut session = self
            .session(req.session_id.as_deref(), DEFAULT_PERSONA)
            .await?;
        session.client = client.to_string();
        // The page as the database knows it: a forged advisor id is no advisor.
        let page = self.site.checked_page(req.page_context).await?;
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
        Ok(Prepared { session, page, act })
    }

    /// The stored session `id` names (404 when there is none), or a new one
    /// with `persona` when no id is given.
    async fn session(&self, id: Option<&str>, persona: &str) -> Result<Session, ApiError> {
        match id.map(str::trim).filter(|s| !s.is_empty()) {
            Some(id) => self
                .sessions
                .load(id)
                .await
                .map_err(|_| ApiError::unavailable("会话加载失败，请稍后再试。"))?
                .ok_or_else(|| {
                    ApiError::not_found("unknown_session", app::error::UNKNOWN_SESSION_MESSAGE)
                        .with_field("session_id")
                }),
            None => Ok(SessionStore::open(persona)),
        }
    }

    /// Steps 2–7 of a prepared turn. Never fails: a failing dependency ends
    /// in a spoken apology with `error`, and the turn is stored.
    pub async fn run(
        &self,
        prepared: Prepared,
        voice: Option<&VoiceSink>,
    ) -> (ChatResponse, TurnStats) {
        let started = std::time::Instant::now();
        let Prepared {
            mut session,
            page,
            act,
        } = prepared;
        let (user_text, mut outcome) = match act {
            Action::Text(text) => {
                let outcome = self.message_turn(&text, &session, &page, voice).await;
                (text, outcome)
            }
            Action::Chip { chip, shown } => (shown, self.chip_turn(chip, &session, &page).await),
        };
        let (model_calls, tokens) = (outcome.model_calls, outcome.tokens);
        let draft = outcome.draft.take();
        if let Some(persona) = outcome.persona {
            session.persona = persona.to_string();
        }
        let reply = ChatResponse {
            session_id: session.id.clone(),
            intent: outcome.intent,
            agent: session.persona.clone(),
            voice_response: voice::fit(&outcome.voice),
            tool_calls: outcome.calls,
            form_status: outcome.form.status(),
            form: outcome.form,
            events: outcome.events,
            error: outcome.error,
        };
        session.form = reply.form.clone();
        session.page_context = page;
        session.memory = outcome.memory;
        session.memory.turns += 1;
        let reply = match self.sessions.save_turn(&session, &user_text, &reply).await {
            Ok(()) => {
                self.store_draft(&session.id, draft).await;
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
        let micros = started.elapsed().as_micros() as u64;
        tracing::info!(
            session = %crate::http::client::short(&reply.session_id),
            intent = %reply.intent.intent,
            tools = ?reply.tool_calls.iter().map(|c| c.tool.as_str()).collect::<Vec<_>>(),
            error = reply.error.as_ref().map(|e| e.code.as_str()),
            model_calls,
            tokens,
            micros,
            "turn"
        );
        (
            reply,
            TurnStats {
                model_calls,
                tokens,
                micros,
            },
        )
    }

    /// A chip click: the field is set (or skipped) by code alone.
    async fn chip_turn(&self, chip: Chip, session: &Session, page: &PageContext) -> Outcome {
        let mut memory = session.memory.clone();
        let proposed = match chip {
            Chip::Update { field, call } => {
                if !memory.asked.contains(&field) {
                    memory.asked.push(field);
                }
                vec![call]
            }
            Chip::Skip { field } => {
                if !memory.asked.contains(&field) {
                    memory.asked.push(field);
                }
                Vec::new()
            }
            Chip::Text(_) => Vec::new(),
        };
        let intent = IntentResult {
            intent: "option".into(),
            confidence: 1.0,
            reasoning: "点击选项，直接更新表单".into(),
        };
        let facts = TurnFacts {
            page,
            about_form: true,
            open: None,
        };
        let mut outcome = self
            .finish(
                intent,
                proposed,
                String::new(),
                &session.form,
                &memory,
                &facts,
                &[],
                Words::Code,
            )
            .await;
        if outcome.calls.is_empty() && outcome.error.is_none() {
            outcome.voice = self.templates.render("skip_ack", session.memory.turns, &[]);
        }
        // A chip answers a question of the form: that is the data side.
        if session.persona == CASUAL {
            outcome.persona = Some(ANALYSIS);
            outcome.events = vec![switch_event(CASUAL, ANALYSIS, &Reason::DataNeeded)];
        }
        outcome
    }

    /// A typed or spoken message.
    async fn message_turn(
        &self,
        text: &str,
        session: &Session,
        page: &PageContext,
        voice: Option<&VoiceSink>,
    ) -> Outcome {
        let reading = self.speech_act(text);
        // A review in progress: the coach has the conversation until the
        // review is published or abandoned.
        if !session.is_new {
            match self.drafts.load(&session.id).await {
                Ok(Some(draft)) => return self.coach_turn(text, &reading, session, draft).await,
                Ok(None) => {}
                Err(e) => tracing::warn!(error = %e, "could not read the review draft"),
            }
        }
        let (intent, result) = self.intents.classify(text);
        let turn = session.memory.turns;
        let said = |key: &str| {
            Outcome::said(
                result.clone(),
                self.templates.render(key, turn, &[]),
                session.form.clone(),
                session.memory.clone(),
            )
        };
        let intent = match self.reset_gate(intent, &reading) {
            Ok(intent) => intent,
            Err((key, reasoning)) => {
                return Outcome {
                    intent: IntentResult {
                        intent: Intent::Unknown.name().into(),
                        confidence: 0.9,
                        reasoning: reasoning.into(),
                    },
                    ..said(key)
                }
            }
        };
        let (form, mut memory) = match intent {
            Intent::Greeting => return said("greeting"),
            Intent::Meaningless => return said("meaningless"),
            Intent::Reset { rest: false } => {
                return Outcome {
                    form: UserForm::default(),
                    memory: session::Memory::default(),
                    ..said("reset")
                }
            }
            Intent::Reset { rest: true } => (UserForm::default(), session::Memory::default()),
            Intent::Unknown => (session.form.clone(), session.memory.clone()),
        };
        let authorised: Vec<speech::Action> = matches!(intent, Intent::Reset { .. })
            .then_some(speech::Action::Reset)
            .into_iter()
            .collect();

        // The student opened a detail page by themselves since the last turn:
        // that advisor is now the one "他" means.
        if page.selected_advisor.is_some()
            && page.selected_advisor != session.page_context.selected_advisor
        {
            memory.last_advisor = page.selected_advisor.clone();
        }
        let known = self.known_names(page, &memory, &form).await;
        let analysis = self.understand(text, &reading, &known);
        // A value the student negates leaves the form ("我不想做机器学习").
        let form = without_rejected(form, &analysis.rejected);

        // "我想评价一下张三老师": the coach starts a review conversation — when
        // the student asks it, not when a friend wants to ("我同学想评价他").
        let own_words = crate::catalog::normalize(&reading.own_text());
        if self.coach.wants_to_start(&own_words) {
            let mut outcome = self
                .start_review(&analysis, session, page, &form, &memory)
                .await;
            outcome.intent = IntentResult {
                intent: "review_coach".into(),
                confidence: 0.9,
                reasoning: "学生想写评价，交给评价助手".into(),
            };
            return outcome;
        }

        // Who answers: the persona switches on what the student says (or
        // holds a manual choice); a switch is an event of the reply.
        let normalized = crate::catalog::normalize(text);
        let (persona, events) = match self.personas.decide(
            &normalized,
            &analysis,
            &session.persona,
            memory.persona_manual,
        ) {
            Some((to, why)) => {
                if why.strong() {
                    memory.persona_manual = false;
                }
                (to, vec![switch_event(&session.persona, to, &why)])
            }
            None => (
                persona::parse(&session.persona).unwrap_or(DEFAULT_PERSONA),
                Vec::new(),
            ),
        };
        if let Some(sink) = voice {
            sink.set_agent(persona);
        }
        if persona == CASUAL {
            let mut outcome = self
                .casual_turn(text, &normalized, session, &form, memory, voice)
                .await;
            outcome.persona = Some(persona);
            outcome.events = events;
            return outcome;
        }

        let input = PlanInput {
            message: text,
            analysis: &analysis,
            form: &form,
            memory: &memory,
            page,
            history: &[],
            turn,
            understood: None,
            voice,
        };
        // Understanding always runs: code plans every turn from its analysis.
        let code_plan = self.embedded.plan(&input).await;
        let mut degraded = None;
        let (plan, words) = match (&self.model, code_plan) {
            (Some(model), code) if !restates_page(&analysis, page) => {
                let history = if session.is_new {
                    Vec::new()
                } else {
                    self.sessions
                        .history(&session.id, HISTORY_LINES)
                        .await
                        .unwrap_or_default()
                };
                let asked = PlanInput {
                    history: &history,
                    understood: code.as_ref().ok(),
                    ..input
                };
                match (model.plan(&asked).await, code) {
                    (Ok(proposal), Ok(code)) => {
                        let merged = merge::merge(code, proposal, &form);
                        let words = if merged.model_words {
                            Words::Model {
                                fallback: merged.code_voice,
                                known: &known,
                                about: merged.plan.focus.as_ref().map(|a| a.name.clone()),
                            }
                        } else {
                            Words::Code
                        };
                        (merged.plan, words)
                    }
                    (Ok(proposal), Err(_)) => (
                        proposal,
                        Words::Model {
                            fallback: String::new(),
                            known: &known,
                            about: None,
                        },
                    ),
                    // A broken answer degrades to code's plan; an apology
                    // only when code cannot answer either.
                    (Err(e), Ok(code)) if code_answers(&e, &code) => {
                        tracing::warn!(error = %e, "model failed; code's plan answers (degraded)");
                        let model_calls = u32::from(e.code.starts_with("upstream_"));
                        degraded = Some(degraded_event(&e.code, &e.message));
                        (
                            Plan {
                                model_calls,
                                ..code
                            },
                            Words::Code,
                        )
                    }
                    (Err(e), _) => return self.apology(e, form, memory, said),
                }
            }
            (_, Ok(code)) => (code, Words::Code),
            (_, Err(e)) => return self.apology(e, form, memory, said),
        };
        if let Some(focus) = plan.focus.clone() {
            memory.last_advisor = Some(focus);
        }
        let facts = TurnFacts {
            page,
            about_form: plan.about_form,
            open: plan.open.clone(),
        };
        // Form values by clause, whichever planner proposed them: nothing the
        // student negated and nothing only someone else said.
        let mut foreign = analysis.rejected.clone();
        foreign.extend(self.reported_values(&reading, &analysis, &known));
        let proposed = own_values_only(plan.tool_calls, &foreign);
        let mut outcome = self
            .finish(
                result,
                proposed,
                plan.voice_response,
                &form,
                &memory,
                &facts,
                &authorised,
                words,
            )
            .await;
        outcome.model_calls = plan.model_calls;
        outcome.tokens = plan.tokens;
        outcome.persona = Some(persona);
        let checks = std::mem::take(&mut outcome.events);
        outcome.events = events.into_iter().chain(degraded).chain(checks).collect();
        outcome
    }

    /// The turn ends in a spoken apology with `error` (a model that failed
    /// still costs its call).
    fn apology(
        &self,
        e: planner::PlanError,
        form: UserForm,
        memory: session::Memory,
        said: impl Fn(&str) -> Outcome,
    ) -> Outcome {
        tracing::warn!(error = %e, "planner failed");
        let model_calls = u32::from(e.code.starts_with("upstream_"));
        let key = if model_calls > 0 {
            "model_error"
        } else {
            "data_error"
        };
        Outcome {
            form,
            memory,
            error: Some(ErrorInfo {
                code: e.code,
                message: e.message,
                field: None,
            }),
            model_calls,
            ..said(key)
        }
    }

    /// Step 3, the speech act: the message read for whose words each clause
    /// is and what it does to each consequential action. It runs on every
    /// message, with or without a model, before anything can act on it; the
    /// coach, the reset below, the form values and validation all take its
    /// verdict.
    fn speech_act(&self, text: &str) -> Reading {
        self.acts.read(text)
    }

    /// Resetting the form is consequential: a reset the intents found
    /// passes only as a direct instruction. A negation or a question about
    /// it is answered and the form stays (`Err`: the reply's template and
    /// reasoning); someone else's words or a mere mention go on as an
    /// ordinary message.
    fn reset_gate(
        &self,
        intent: Intent,
        reading: &Reading,
    ) -> Result<Intent, (&'static str, &'static str)> {
        let Intent::Reset { rest } = intent else {
            return Ok(intent);
        };
        match self.acts.force(reading, speech::Action::Reset) {
            Force::Instruction => Ok(Intent::Reset { rest }),
            Force::Negation => Err(("reset_declined", "学生说先不重新开始，表单保留")),
            Force::Question | Force::Condition => {
                Err(("reset_question", "学生在问或假设重新开始，表单保留"))
            }
            Force::Absent | Force::Reported | Force::Mention => Ok(Intent::Unknown),
        }
    }

    /// Opens a review conversation about the advisor the message, the page
    /// or the conversation points at.
    async fn start_review(
        &self,
        analysis: &nlu::Analysis,
        session: &Session,
        page: &PageContext,
        form: &UserForm,
        memory: &session::Memory,
    ) -> Outcome {
        let said = |voice: String| {
            Outcome::said(IntentResult::default(), voice, form.clone(), memory.clone())
        };
        let Some(advisor) = self.review_target(analysis, page, memory, form).await else {
            return said(self.coach.which_advisor());
        };
        let draft = CoachState::new(advisor.id.clone(), advisor.name.clone());
        let mut memory = memory.clone();
        memory.last_advisor = Some(advisor);
        let _ = session;
        Outcome {
            draft: Some(Draft::Keep(Box::new(draft.clone()))),
            ..Outcome::said(
                IntentResult::default(),
                self.coach.opening(&draft),
                form.clone(),
                memory,
            )
        }
    }

    /// Who a review is about: a reference or name in the message, else the
    /// advisor on the page, else the one last talked about.
    async fn review_target(
        &self,
        analysis: &nlu::Analysis,
        page: &PageContext,
        memory: &session::Memory,
        form: &UserForm,
    ) -> Option<SelectedAdvisor> {
        use self::planner::embedded::{resolve_on_page, Target};
        if let Some(reference) = analysis.references.first() {
            match resolve_on_page(reference, page, memory) {
                Some(Target::Found(a)) => return Some(a),
                Some(_) => return None,
                None => {}
            }
            if let nlu::Reference::Name(name) = reference {
                let (school, major) = self.form_pair(form);
                let rows = self
                    .site
                    .advisors_named(name, school.map(|s| s.id), major.map(|m| m.id))
                    .await
                    .unwrap_or_default();
                return match rows.as_slice() {
                    [only] => Some(SelectedAdvisor {
                        id: only.id.to_string(),
                        name: only.name.clone(),
                    }),
                    _ => None,
                };
            }
        }
        page.selected_advisor
            .clone()
            .or_else(|| memory.last_advisor.clone())
    }

    /// The message understood from the student's own clauses: with someone
    /// else's words in it ("我朋友想考清华，我想考北大"), the form values come
    /// from the student's clauses alone; references and the act asked for
    /// from the whole message.
    fn understand(&self, text: &str, reading: &Reading, known: &[String]) -> Analysis {
        let whole = nlu::analyze(text, &self.lexicons, known);
        if !reading.has_reported() {
            return whole;
        }
        let own = nlu::analyze(&reading.own_text(), &self.lexicons, known);
        Analysis {
            act: whole.act,
            references: whole.references,
            pair: whole.pair,
            faq: whole.faq,
            follow_up: whole.follow_up,
            normalized: whole.normalized,
            ..own
        }
    }

    /// Form values only someone else's clauses name: no planner may put
    /// them in the form.
    fn reported_values(&self, reading: &Reading, own: &Analysis, known: &[String]) -> Vec<String> {
        if !reading.has_reported() {
            return Vec::new();
        }
        let theirs = nlu::analyze(&reading.reported_text(), &self.lexicons, known);
        let one = |slot: &Option<Slot>| match slot {
            Some(Slot::One(v)) => Some(v.clone()),
            _ => None,
        };
        let own_values = [
            one(&own.school),
            one(&own.major),
            own.research_direction.clone(),
        ];
        [
            one(&theirs.school),
            one(&theirs.major),
            theirs.research_direction.clone(),
        ]
        .into_iter()
        .flatten()
        .filter(|v| !own_values.iter().flatten().any(|o| o == v))
        .collect()
    }

    /// One message of a review conversation, through the coach's graph.
    async fn coach_turn(
        &self,
        text: &str,
        reading: &Reading,
        session: &Session,
        mut draft: CoachState,
    ) -> Outcome {
        // The coach posts as the client who chats: the same per-client
        // limits as the form and the API, whatever session it uses.
        let model = self.model.as_ref().map(|m| m.client());
        let turn = self
            .coach
            .step(&mut draft, text, reading, &session.client, model)
            .await;
        let mut memory = session.memory.clone();
        memory.pending = turn
            .calls
            .iter()
            .find(|c| c.tool == tools::PRESENT_OPTIONS)
            .cloned();
        let intent = IntentResult {
            intent: "review_coach".into(),
            confidence: 0.9,
            reasoning: turn.reasoning.clone(),
        };
        Outcome {
            calls: turn.calls,
            error: turn.failed.then(|| ErrorInfo {
                code: "coach_failed".into(),
                message: "评价助手出错，草稿已保留。".into(),
                field: None,
            }),
            draft: Some(if turn.finished {
                Draft::Drop
            } else {
                Draft::Keep(Box::new(draft))
            }),
            ..Outcome::said(intent, turn.voice, session.form.clone(), memory)
        }
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

    /// The casual persona (seed 002's 闲聊 agent): a warm reply and no
    /// tools — the form, the page and the history stay as they are, shared
    /// with the analysis persona.
    async fn casual_turn(
        &self,
        text: &str,
        normalized: &str,
        session: &Session,
        form: &UserForm,
        memory: session::Memory,
        voice: Option<&VoiceSink>,
    ) -> Outcome {
        let turn = session.memory.turns;
        let intent = IntentResult {
            intent: "chitchat".into(),
            confidence: 0.8,
            reasoning: "闲聊模式：陪伴与鼓励，不调用数据工具".into(),
        };
        let mut outcome = Outcome::said(intent, String::new(), form.clone(), memory);
        let Some(model) = &self.model else {
            let key = format!("casual_{}", self.personas.topic(normalized));
            outcome.voice = self.casual.render(&key, turn, &[]);
            return outcome;
        };
        let history = if session.is_new {
            Vec::new()
        } else {
            self.sessions
                .history(&session.id, HISTORY_LINES)
                .await
                .unwrap_or_default()
        };
        let analysis = nlu::Analysis::default();
        let input = PlanInput {
            message: text,
            analysis: &analysis,
            form,
            memory: &outcome.memory,
            page: &session.page_context,
            history: &history,
            turn,
            understood: None,
            voice,
        };
        match model.chat_casual(&input).await {
            Ok(plan) => {
                outcome.voice = voice::clean(&plan.voice_response, &self.tool_names);
                outcome.model_calls = plan.model_calls;
                outcome.tokens = plan.tokens;
            }
            Err(e) => {
                tracing::warn!(error = %e, "casual persona failed");
                outcome.voice = self.templates.render("model_error", turn, &[]);
                outcome.model_calls = 1;
                outcome.error = Some(ErrorInfo {
                    code: e.code,
                    message: e.message,
                    field: None,
                });
            }
        }
        outcome
    }

    /// Steps 5–7: validate, steer, execute, and speak. `authorised` are the
    /// consequential actions code's speech-act verdict allows this turn (a
    /// planner's call of any other consequential tool is dropped).
    #[allow(clippy::too_many_arguments)]
    async fn finish(
        &self,
        intent: IntentResult,
        proposed: Vec<ToolCall>,
        voice: String,
        form: &UserForm,
        memory: &session::Memory,
        facts: &TurnFacts<'_>,
        authorised: &[speech::Action],
        words: Words<'_>,
    ) -> Outcome {
        let validator = Validator {
            site: &self.site,
            registry: &self.registry,
            authorised,
        };
        let (calls, corrections) = validator.validate(proposed, form, facts.page).await;
        for c in &corrections {
            tracing::debug!(tool = %c.tool, what = %c.what, "proposal corrected");
        }
        // Chips are about the form as this turn leaves it.
        let mut form_after = form.clone();
        for call in calls.iter().filter(|c| c.tool == tools::UPDATE_FORM) {
            steer::apply_form_update(&mut form_after, &call.params);
        }
        let chip_data = self.chip_source(&form_after).await;
        let steered = steer::steer(calls, form, memory, facts, |_| chip_data);
        let executor = Executor {
            site: &self.site,
            recommender: &self.recommender,
        };
        let mut executed = Vec::with_capacity(steered.calls.len());
        let mut memory = steered.memory;
        for mut call in steered.calls {
            match executor.execute(&call).await {
                Ok(result) => {
                    call.result = result;
                    if call.tool == GET_ADVISOR_DETAIL || call.tool == GET_ADVISOR_REVIEWS {
                        if let Some(a) = advisor_of(&call) {
                            memory.last_advisor = Some(a);
                        }
                    }
                    executed.push(call);
                }
                // An advisor that does not exist (a stale or forged id) is
                // the student's answer, not our failure.
                Err(e) if e.info.code == "unknown_advisor" => {
                    tracing::info!(tool = %call.tool, "no such advisor");
                    let voice = self.templates.render("advisor_missing", memory.turns, &[]);
                    return Outcome {
                        calls: executed,
                        ..Outcome::said(intent, voice, steered.form, memory)
                    };
                }
                Err(e) => {
                    tracing::error!(tool = %call.tool, error = %e, "tool failed");
                    let voice = self.templates.render("data_error", memory.turns, &[]);
                    return Outcome {
                        error: Some(ErrorInfo {
                            code: "upstream_unavailable".into(),
                            message: e.info.message,
                            field: None,
                        }),
                        ..Outcome::said(intent, voice, steered.form, memory)
                    };
                }
            }
        }
        // Nothing internal is spoken; a model's words only with facts from data.
        let mut voice = voice::clean(&voice, &self.tool_names);
        let mut events = Vec::new();
        if let Words::Model {
            fallback,
            known,
            about,
        } = words
        {
            let mut grounding = facts::Grounding::default();
            for call in &executed {
                grounding.add_json(&call.params);
                if let Some(result) = &call.result {
                    grounding.add_json(result);
                }
            }
            match &about {
                Some(name) => grounding.add_text(name),
                None => grounding.add_page(facts.page),
            }
            grounding.add_figures(&fallback);
            let claims = facts::unsupported(&voice, &grounding, known, &self.surnames);
            if !claims.is_empty() {
                tracing::warn!(
                    ?claims,
                    "the model's reply states what the data does not; code narrates"
                );
                let mut data = serde_json::Map::new();
                data.insert("reason".into(), "unsupported_facts".into());
                data.insert("claims".into(), claims.into());
                events.push(AgentEvent {
                    kind: DEGRADED.into(),
                    data,
                });
                voice = voice::clean(&fallback, &self.tool_names);
            }
        }
        let voice = if voice.trim().is_empty() {
            self.narrator()
                .narrate(&executed, &steered.form, memory.turns)
        } else {
            voice
        };
        Outcome {
            calls: executed,
            events,
            ..Outcome::said(intent, voice, steered.form, memory)
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
                let mut counts: Vec<(usize, String)> = Vec::new();
                for list in directory.directions.values() {
                    for d in list {
                        match counts.iter_mut().find(|(_, name)| name == d) {
                            Some(entry) => entry.0 += 1,
                            None => counts.push((1, d.clone())),
                        }
                    }
                }
                counts.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                directions = counts.into_iter().take(CHIPS).map(|(_, d)| d).collect();
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
    /// talked about, and the advisors of the form's school + major.
    async fn known_names(
        &self,
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
        if let (Some(s), Some(m)) = self.form_pair(form) {
            if let Ok(directory) = self.site.directory(s.id, m.id).await {
                names.extend(directory.advisors.iter().map(|(_, name)| name.clone()));
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
            .known_names(page, &session::Memory::default(), &reply.form)
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
        let mut session = self.session(session_id, to).await?;
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
        tracing::info!(session = %crate::http::client::short(&session.id), from, to, "persona switched by hand");
        Ok((session.id, to, message))
    }

    /// The stored conversation of a session, `None` if there is none.
    pub async fn history(&self, session_id: &str) -> Result<Option<ChatHistory>, ApiError> {
        let Some(session) = self
            .sessions
            .load(session_id.trim())
            .await
            .map_err(|_| ApiError::unavailable("会话加载失败，请稍后再试。"))?
        else {
            return Ok(None);
        };
        let messages = self
            .sessions
            .messages(&session.id)
            .await
            .map_err(|_| ApiError::unavailable("会话加载失败，请稍后再试。"))?;
        Ok(Some(ChatHistory {
            session_id: session.id,
            agent: session.persona,
            messages,
            form: session.form,
            options: session.memory.pending,
        }))
    }
}

/// The event type of a reply whose model answer code replaced (an
/// extension of the protocol's `events`).
pub const DEGRADED: &str = "degraded";

/// A model answer that was broken or failed, replaced by code's plan.
fn degraded_event(code: &str, message: &str) -> AgentEvent {
    let mut data = serde_json::Map::new();
    data.insert("reason".into(), code.into());
    // Not `message`: that would be a system line of the conversation.
    data.insert("detail".into(), message.into());
    AgentEvent {
        kind: DEGRADED.into(),
        data,
    }
}

/// Whether code's plan answers a turn whose model call failed: always when
/// the model answered something unusable (code could have answered it); on
/// a timeout or a provider that is down, when code understood something —
/// form values, an advisor, a data call — rather than only a wish it cannot
/// fulfil alone.
fn code_answers(e: &planner::PlanError, code: &Plan) -> bool {
    let broken_output = matches!(
        e.code.as_str(),
        "upstream_empty_reply" | "upstream_invalid_output"
    );
    broken_output
        || code.focus.is_some()
        || code
            .tool_calls
            .iter()
            .any(|c| c.tool != tools::PRESENT_OPTIONS)
}

/// The `agent_switched` event of seed 002 §2.2, whose message is also the
/// system line stored in the conversation.
fn switch_event(from: &str, to: &'static str, why: &Reason) -> AgentEvent {
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

/// The message only names the school and major whose ranking the page
/// already shows (seed 001's duplicate guard): code answers it without a
/// model call.
fn restates_page(a: &Analysis, page: &PageContext) -> bool {
    let (Some(Slot::One(school)), Some(Slot::One(major))) = (&a.school, &a.major) else {
        return false;
    };
    a.act == Act::None
        && a.references.is_empty()
        && a.research_direction.is_none()
        && a.personality.is_none()
        && a.research_style.is_none()
        && a.funding.is_none()
        && a.rejected.is_empty()
        && page.current_page == app::protocol::PageKind::Ranking
        && page
            .ranking_filters
            .as_ref()
            .is_some_and(|f| &f.school == school && &f.major == major)
}

/// The form without the values the student negated.
fn without_rejected(mut form: UserForm, rejected: &[String]) -> UserForm {
    for field in app::vocabulary::FORM_FIELDS {
        let value = steer::field_value(&form, field);
        if value.is_some_and(|v| rejected.iter().any(|r| r == v)) {
            steer::set_field(&mut form, field, None);
        }
    }
    form
}

/// `calls` with every `update_form` value in `foreign` (negated, or only
/// someone else's) taken out; a form update left empty is dropped.
fn own_values_only(calls: Vec<ToolCall>, foreign: &[String]) -> Vec<ToolCall> {
    if foreign.is_empty() {
        return calls;
    }
    let is_foreign = |v: &serde_json::Value| {
        v.as_str()
            .is_some_and(|s| foreign.iter().any(|f| f == s.trim()))
    };
    calls
        .into_iter()
        .filter_map(|mut call| {
            if call.tool != tools::UPDATE_FORM {
                return Some(call);
            }
            if let Some(params) = call.params.as_object_mut() {
                params.retain(|_, v| !is_foreign(v));
                if let Some(prefs) = params
                    .get_mut("preferences")
                    .and_then(|p| p.as_object_mut())
                {
                    prefs.retain(|_, v| !is_foreign(v));
                }
                if params.is_empty() {
                    return None;
                }
            }
            Some(call)
        })
        .collect()
}

/// The advisor a detail or reviews call was about.
fn advisor_of(call: &ToolCall) -> Option<SelectedAdvisor> {
    let id = call.params.get("advisor_id")?.as_str()?.to_string();
    let name = call
        .result
        .as_ref()
        .and_then(|r| r.get("name"))
        .or_else(|| call.params.get("advisor_name"))
        .and_then(|n| n.as_str())
        .unwrap_or_default()
        .to_string();
    Some(SelectedAdvisor { id, name })
}

#[async_trait::async_trait]
impl app::api::AgentApi for Agent {
    async fn chat(&self, request: ChatRequest) -> Result<ChatResponse, ApiError> {
        // A server function: the request's parts are in Leptos's context.
        let client = leptos::prelude::use_context::<axum::http::request::Parts>()
            .map(|parts| crate::http::client::of(&parts.extensions).key)
            .unwrap_or_else(|| session::LOCAL_CLIENT.to_string());
        self.turn_from(request, &client).await
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
