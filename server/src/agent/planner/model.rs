//! The model planner: an OpenAI-compatible model proposes the reply and the
//! tool calls, in one call per turn. It gets the tools of the one registry as
//! function definitions (or, in JSON mode, described in the prompt), a
//! `tool_choice` the code picks from the data, and a
//! prompt assembled from files. What it proposes then goes through the same
//! validation and steering as the embedded planner's proposals.

use std::sync::atomic::{AtomicBool, Ordering};

use app::protocol::SelectedAdvisor;

use super::output::{self, VoiceExtractor};
use super::prompt::{self, ToolChoice};
use super::{Plan, PlanError, PlanInput, Planner};
use crate::agent::form::{self, Phase};
use crate::agent::nlu::{Act, Analysis, Slot};
use crate::agent::tools::{
    ToolRegistry, COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS, GET_STATISTICS,
    RECOMMEND_ADVISORS, UPDATE_FORM,
};
use crate::llm::{Completion, CompletionRequest, LlmClient, LlmError, ToolMode};

/// The most tool calls one turn may execute.
pub const MAX_CALLS: usize = 6;

pub struct ModelPlanner {
    client: LlmClient,
    tools: serde_json::Value,
    /// The endpoint refused function calling once: JSON mode from then on.
    json_only: AtomicBool,
}

impl ModelPlanner {
    pub fn new(client: LlmClient, registry: &ToolRegistry) -> ModelPlanner {
        let json_only = client.config().mode == ToolMode::Json;
        ModelPlanner {
            client,
            tools: registry.function_definitions(),
            json_only: AtomicBool::new(json_only),
        }
    }

    /// The provider, for other model work of the site (the review coach).
    pub fn client(&self) -> &LlmClient {
        &self.client
    }

    fn mode(&self) -> ToolMode {
        if self.json_only.load(Ordering::Relaxed) {
            ToolMode::Json
        } else {
            ToolMode::Functions
        }
    }

    fn request(
        &self,
        input: &PlanInput<'_>,
        choice: &ToolChoice,
        mode: ToolMode,
    ) -> CompletionRequest {
        let messages = prompt::messages(
            input,
            choice,
            mode,
            &self.tools,
            self.client.config().history_tokens,
        );
        // The phase's temperature (`prompts/model/flow.conf`).
        let temperature =
            prompt::temperature(prompt::phase_key(form::phase(input.form, input.memory)));
        match mode {
            ToolMode::Functions => CompletionRequest {
                messages,
                tools: Some(self.tools.clone()),
                tool_choice: Some(choice.wire()),
                temperature,
            },
            ToolMode::Json => CompletionRequest {
                messages,
                tools: None,
                tool_choice: None,
                temperature,
            },
        }
    }

    async fn call(
        &self,
        input: &PlanInput<'_>,
        choice: &ToolChoice,
        mode: ToolMode,
    ) -> Result<Completion, LlmError> {
        let request = self.request(input, choice, mode);
        let mut extractor = VoiceExtractor::default();
        let sink = input.voice;
        let mut relay = |delta: &str| {
            let spoken = extractor.push(delta);
            if let Some(sink) = sink {
                if !spoken.is_empty() {
                    sink.push(&spoken);
                }
            }
        };
        self.client.complete(&request, &mut relay).await
    }
}

impl ModelPlanner {
    /// The casual persona's turn: its own prompt, no tools at all (tools are
    /// for the analysis side only), the reply streamed.
    pub async fn chat_casual(&self, input: &PlanInput<'_>) -> Result<Plan, PlanError> {
        let request = CompletionRequest {
            messages: prompt::casual_messages(input, self.client.config().history_tokens),
            tools: None,
            tool_choice: None,
            temperature: prompt::temperature("casual"),
        };
        let mut extractor = VoiceExtractor::default();
        let sink = input.voice;
        let mut relay = |delta: &str| {
            let spoken = extractor.push(delta);
            if let (Some(sink), false) = (sink, spoken.is_empty()) {
                sink.push(&spoken);
            }
        };
        let completion = self
            .client
            .complete(&request, &mut relay)
            .await
            .map_err(|e| plan_error(&e))?;
        if let Some(sink) = sink {
            sink.flush();
        }
        let tokens = completion
            .usage
            .map(|u| u.total())
            .unwrap_or_else(|| estimate_completion(&completion));
        // Whatever tools a model tried to call here are ignored.
        let out = output::read(&Completion {
            tool_calls: Vec::new(),
            ..completion
        })
        .map_err(|e| plan_error(&e))?;
        Ok(Plan {
            voice_response: out.voice,
            model_calls: 1,
            tokens,
            ..Plan::default()
        })
    }
}

/// A rejection that says the endpoint has no function calling (Ollama and
/// some vLLM models answer 400 "does not support tools").
fn refuses_tools(e: &LlmError) -> bool {
    match e {
        LlmError::Rejected(400 | 422, body) => {
            let body = body.to_ascii_lowercase();
            body.contains("tool") || body.contains("function")
        }
        _ => false,
    }
}

/// The slots the code found in the message, unambiguous ones only.
fn names_form_values(a: &Analysis) -> bool {
    matches!(a.school, Some(Slot::One(_)))
        || matches!(a.major, Some(Slot::One(_)))
        || a.names_wishes()
}

/// The advisor the message points at, as the resolve step found it.
fn referenced<'a>(input: &PlanInput<'a>) -> Option<&'a SelectedAdvisor> {
    input.resolved.subject_advisor()
}

/// The code's tool choice for this turn: no tools for small talk and general
/// questions; the tool the data calls for when the message plainly asks for
/// it (a known advisor's details or reviews, form values named while the form
/// is complete); otherwise the model decides.
pub fn choose(input: &PlanInput<'_>) -> ToolChoice {
    let a = input.analysis;
    let slots = names_form_values(a) || a.school.is_some() || a.major.is_some();
    let complete = input.form.school.is_some() && input.form.major.is_some();
    if !slots
        && a.references.is_empty()
        && matches!(
            a.act,
            Act::Thanks | Act::Goodbye | Act::Faq | Act::WantExam | Act::Help | Act::Greet
        )
    {
        return ToolChoice::None;
    }
    if a.act == Act::Compare && (a.references.len() >= 2 || a.pair) {
        return ToolChoice::Force(COMPARE_ADVISORS);
    }
    if a.act == Act::Statistics && (complete || slots) {
        return ToolChoice::Force(GET_STATISTICS);
    }
    if referenced(input).is_some() && !slots {
        match a.act {
            Act::OpenDetail => return ToolChoice::Force(GET_ADVISOR_DETAIL),
            Act::AskReviews => return ToolChoice::Force(GET_ADVISOR_REVIEWS),
            _ => {}
        }
    }
    // The last phase: the data is complete and every optional field
    // was offered — a message that adds to the form or answers the last
    // question gets the final tool, forced, in one step (code still runs it
    // should the model not).
    let last_phase = form::phase(input.form, input.memory) == Phase::Done;
    if last_phase
        && a.references.is_empty()
        && (names_form_values(a) || matches!(a.act, Act::Recommend | Act::Skip))
        && matches!(a.act, Act::None | Act::Recommend | Act::Skip)
    {
        return ToolChoice::Force(RECOMMEND_ADVISORS);
    }
    if complete && names_form_values(a) && matches!(a.act, Act::None | Act::Recommend) {
        return ToolChoice::Force(UPDATE_FORM);
    }
    ToolChoice::Auto
}

fn plan_error(e: &LlmError) -> PlanError {
    PlanError {
        code: e.code().to_string(),
        message: e.message(),
    }
}

#[async_trait::async_trait]
impl Planner for ModelPlanner {
    fn name(&self) -> String {
        format!("model:{}", self.client.config().model)
    }

    async fn plan(&self, input: &PlanInput<'_>) -> Result<Plan, PlanError> {
        let choice = choose(input);
        let mut mode = self.mode();
        let mut model_calls = 1;
        let mut result = self.call(input, &choice, mode).await;
        if let Err(e) = &result {
            if mode == ToolMode::Functions && refuses_tools(e) {
                tracing::warn!(error = %e, "the endpoint refuses function calling; using JSON output from now on");
                self.json_only.store(true, Ordering::Relaxed);
                mode = ToolMode::Json;
                model_calls += 1;
                result = self.call(input, &choice, mode).await;
            }
        }
        if let (Ok(_), Some(sink)) = (&result, input.voice) {
            sink.flush();
        }
        let completion = result.map_err(|e| {
            tracing::warn!(error = %e, code = e.code(), "model call failed");
            plan_error(&e)
        })?;
        let tokens = completion
            .usage
            .map(|u| u.total())
            .unwrap_or_else(|| estimate_completion(&completion));
        let mut out = output::read(&completion).map_err(|e| {
            tracing::warn!(error = %e, "model output unusable");
            plan_error(&e)
        })?;
        if out.calls.len() > MAX_CALLS {
            tracing::warn!(
                calls = out.calls.len(),
                "too many tool calls; extra ones dropped"
            );
            out.calls.truncate(MAX_CALLS);
        }
        let a = input.analysis;
        let about_form = out.calls.iter().any(|c| c.tool == UPDATE_FORM)
            || names_form_values(a)
            || a.act == Act::Skip;
        Ok(Plan {
            voice_response: out.voice,
            tool_calls: out.calls,
            focus: referenced(input).cloned(),
            about_form,
            open: None,
            open_ended: false,
            offer: None,
            model_calls,
            tokens,
        })
    }
}

/// Tokens of a reply whose server reported no usage (an estimate, logged as such).
fn estimate_completion(c: &Completion) -> u32 {
    let args: String = c.tool_calls.iter().map(|t| t.arguments.as_str()).collect();
    (prompt::estimate_tokens(&c.content) + prompt::estimate_tokens(&args)) as u32
}
