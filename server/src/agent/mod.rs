//! The voice agent: one turn of `POST /api/v1/chat`, as a pipeline with one
//! module per step, in this order:
//!
//! 1. [`request`]: reject malformed input before anything is touched;
//!    [`session`]: load or open the session (form, page context, memory).
//! 2. [`option`]: a chip click updates its form field directly.
//! 3. [`intent`]: greeting, reset and meaningless input, answered by code.
//! 4. [`planner`]: everything else; the embedded planner reads [`nlu`]'s
//!    analysis, a language model could read the same message.
//! 5. [`validate`]: unknown tools dropped, names made canonical, ids checked.
//! 6. [`steer`]: the triggers, the duplicate guard, the phase chips.
//! 7. [`tools`]: execution with results attached; [`narrate`] speaks for code;
//!    [`voice`] keeps it short; the turn is saved in one transaction.

pub mod client;
pub mod eval;
pub mod intent;
pub mod narrate;
pub mod nlu;
pub mod option;
pub mod planner;
pub mod recommend;
pub mod request;
pub mod session;
pub mod steer;
pub mod templates;
pub mod tools;
pub mod validate;
pub mod voice;

use std::sync::Arc;

use app::error::ApiError;
use app::model::ChatHistory;
use app::protocol::{
    ChatRequest, ChatResponse, ErrorInfo, IntentResult, PageContext, SelectedAdvisor, ToolCall,
    UserForm,
};

use self::intent::{Intent, IntentLexicon};
use self::narrate::{Narrator, SpokenNames};
use self::nlu::{Lexicons, NameSet};
use self::option::Chip;
use self::planner::{embedded::EmbeddedPlanner, PlanInput, Planner};
use self::recommend::Recommender;
use self::request::Input;
use self::session::{Session, SessionStore};
use self::steer::{ChipSource, TurnFacts};
use self::templates::Templates;
use self::tools::{Executor, ToolRegistry, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS};
use self::validate::Validator;
use crate::site::Site;

/// The persona that answers until the persona issue adds the casual one.
pub const DEFAULT_PERSONA: &str = "analysis";
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
    planner: Box<dyn Planner>,
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
}

impl Agent {
    /// The agent with the embedded planner.
    pub fn new(site: Arc<Site>) -> Agent {
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
        let templates = Arc::new(Templates::load());
        let names = Arc::new(SpokenNames::load());
        let planner = Box::new(EmbeddedPlanner::new(
            site.clone(),
            lexicons.clone(),
            templates.clone(),
            names.clone(),
        ));
        Agent {
            sessions: SessionStore::new(site.pool().clone()),
            site,
            intents: IntentLexicon::load(),
            lexicons,
            registry: ToolRegistry::load(),
            recommender: Recommender::load(),
            templates,
            names,
            planner,
        }
    }

    pub fn planner_name(&self) -> String {
        self.planner.name()
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
        let started = std::time::Instant::now();
        let input = request::check(&req)?;
        let mut session = match req
            .session_id
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            Some(id) => self
                .sessions
                .load(id)
                .await
                .map_err(|_| ApiError::unavailable("会话加载失败，请稍后再试。"))?
                .ok_or_else(|| {
                    ApiError::not_found("unknown_session", app::error::UNKNOWN_SESSION_MESSAGE)
                        .with_field("session_id")
                })?,
            None => SessionStore::open(DEFAULT_PERSONA),
        };
        let page = req.page_context.clone();
        let (user_text, outcome) = match input {
            Input::Option(click) => {
                let chip = option::interpret(&click, self.site.catalog(), &session.form)?;
                let shown = if click.values.is_empty() {
                    "跳过".to_string()
                } else {
                    click.values.join("、")
                };
                match chip {
                    Chip::Text(text) => (
                        text.clone(),
                        self.message_turn(&text, &session, &page).await,
                    ),
                    chip => (shown, self.chip_turn(chip, &session, &page).await),
                }
            }
            Input::Message(text) => {
                let outcome = self.message_turn(&text, &session, &page).await;
                (text, outcome)
            }
        };
        let reply = ChatResponse {
            session_id: session.id.clone(),
            intent: outcome.intent,
            agent: session.persona.clone(),
            voice_response: voice::fit(&outcome.voice),
            tool_calls: outcome.calls,
            form_status: outcome.form.status(),
            form: outcome.form,
            events: Vec::new(),
            error: outcome.error,
        };
        session.form = reply.form.clone();
        session.page_context = page;
        session.memory = outcome.memory;
        session.memory.turns += 1;
        if let Err(e) = self.sessions.save_turn(&session, &user_text, &reply).await {
            tracing::error!(error = %e, "saving the turn failed");
            return Ok(ChatResponse {
                voice_response: self.templates.render("data_error", 0, &[]),
                tool_calls: Vec::new(),
                error: Some(ErrorInfo {
                    code: "storage_unavailable".into(),
                    message: "会话保存失败，请稍后再试。".into(),
                    field: None,
                }),
                ..reply
            });
        }
        tracing::info!(
            session = %reply.session_id,
            intent = %reply.intent.intent,
            tools = ?reply.tool_calls.iter().map(|c| c.tool.as_str()).collect::<Vec<_>>(),
            model_calls = outcome.model_calls,
            tokens = outcome.tokens,
            micros = started.elapsed().as_micros() as u64,
            "turn"
        );
        Ok(reply)
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
            )
            .await;
        if outcome.calls.is_empty() && outcome.error.is_none() {
            outcome.voice = self.templates.render("skip_ack", session.memory.turns, &[]);
        }
        outcome
    }

    /// A typed or spoken message.
    async fn message_turn(&self, text: &str, session: &Session, page: &PageContext) -> Outcome {
        let (intent, result) = self.intents.classify(text);
        let turn = session.memory.turns;
        let said = |key: &str| Outcome {
            intent: result.clone(),
            voice: self.templates.render(key, turn, &[]),
            calls: Vec::new(),
            form: session.form.clone(),
            memory: session.memory.clone(),
            error: None,
            model_calls: 0,
            tokens: 0,
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

        // The student opened a detail page by themselves since the last turn:
        // that advisor is now the one "他" means.
        if page.selected_advisor.is_some()
            && page.selected_advisor != session.page_context.selected_advisor
        {
            memory.last_advisor = page.selected_advisor.clone();
        }
        let known = self.known_names(page, &memory, &form).await;
        let analysis = nlu::analyze(text, &self.lexicons, &known);
        let history = if self.planner.reads_history() && !session.is_new {
            self.sessions
                .history(&session.id, HISTORY_LINES)
                .await
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let input = PlanInput {
            message: text,
            analysis: &analysis,
            form: &form,
            memory: &memory,
            page,
            history: &history,
            turn,
        };
        let plan = match self.planner.plan(&input).await {
            Ok(plan) => plan,
            Err(e) => {
                tracing::warn!(error = %e, "planner failed");
                return Outcome {
                    form,
                    memory,
                    error: Some(ErrorInfo {
                        code: e.code,
                        message: e.message,
                        field: None,
                    }),
                    ..said("data_error")
                };
            }
        };
        if let Some(focus) = plan.focus.clone() {
            memory.last_advisor = Some(focus);
        }
        let facts = TurnFacts {
            page,
            about_form: plan.about_form,
            open: plan.open.clone(),
        };
        let mut outcome = self
            .finish(
                result,
                plan.tool_calls,
                plan.voice_response,
                &form,
                &memory,
                &facts,
            )
            .await;
        outcome.model_calls = plan.model_calls;
        outcome.tokens = plan.tokens;
        outcome
    }

    /// Steps 5–7: validate, steer, execute, and speak.
    async fn finish(
        &self,
        intent: IntentResult,
        proposed: Vec<ToolCall>,
        voice: String,
        form: &UserForm,
        memory: &session::Memory,
        facts: &TurnFacts<'_>,
    ) -> Outcome {
        let validator = Validator {
            site: &self.site,
            registry: &self.registry,
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
                Err(e) => {
                    tracing::error!(tool = %call.tool, error = %e, "tool failed");
                    return Outcome {
                        intent,
                        voice: self.templates.render("data_error", memory.turns, &[]),
                        calls: Vec::new(),
                        form: steered.form,
                        memory,
                        error: Some(ErrorInfo {
                            code: "upstream_unavailable".into(),
                            message: e.info.message,
                            field: None,
                        }),
                        model_calls: 0,
                        tokens: 0,
                    };
                }
            }
        }
        let voice = if voice.trim().is_empty() {
            self.narrator()
                .narrate(&executed, &steered.form, memory.turns)
        } else {
            voice
        };
        Outcome {
            intent,
            voice,
            calls: executed,
            form: steered.form,
            memory,
            error: None,
            model_calls: 0,
            tokens: 0,
        }
    }

    /// The chips each phase offers: popular schools (those with the major,
    /// when it is known), the school's largest majors, and the most common
    /// research directions of the school + major.
    async fn chip_source(&self, form: &UserForm) -> ChipSource {
        let catalog = self.site.catalog();
        let school = form
            .school
            .as_deref()
            .and_then(|s| catalog.resolve_school(s).found());
        let major = form
            .major
            .as_deref()
            .and_then(|m| catalog.resolve_major(m).found());
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
        ChipSource {
            schools,
            majors: majors.into_iter().take(CHIPS).map(|(_, _, m)| m).collect(),
            directions,
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
        let catalog = self.site.catalog();
        if let (Some(s), Some(m)) = (
            form.school
                .as_deref()
                .and_then(|s| catalog.resolve_school(s).found()),
            form.major
                .as_deref()
                .and_then(|m| catalog.resolve_major(m).found()),
        ) {
            if let Ok(directory) = self.site.directory(s.id, m.id).await {
                names.extend(directory.advisors.iter().map(|(_, name)| name.clone()));
            }
        }
        names.sort();
        names.dedup();
        names
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
        self.turn(request).await
    }

    async fn history(&self, session_id: &str) -> Result<Option<ChatHistory>, ApiError> {
        Agent::history(self, session_id).await
    }
}
