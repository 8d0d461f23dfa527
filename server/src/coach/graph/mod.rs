//! The coach as an explicit graph, in the idiom of the agent's turn
//! (`agent/turn/mod.rs`): named steps, each a module of this folder, the
//! edges in one function ([`next`]), one loop with a step cap
//! ([`Coach::step`]), and a test that every path ends.
//!
//! ```text
//!  message ─▶ verdict ─┬─ 不写了 / 先不发布 / 发布了能改吗 / "继续写" ─────▶ end
//!                      ├─ 确认发布, "经费改成2分" ─▶ editor
//!                      └─▶ router ─┬─▶ follow_up ─────────────────────▶ end  (ask about a gap)
//!                                  ├─▶ choose ────────────────────────▶ end  (score chips for a
//!                                  │                                          dimension the words
//!                                  │                                          did not decide)
//!                                  └─▶ editor ─┬──────────────────────▶ end  (rule broken, question,
//!                                       ▲      │                              summary, changed draft)
//!                                       │      └─▶ tool ─┐                   (rule check of the draft,
//!                                       └────────────────┘                    submission, a lookup)
//!  any step that fails ─▶ fallback ─▶ end                                     (apologise, log)
//! ```
//!
//! - [`verdict`]: consequential actions on the speech act alone:
//!   dropping the draft on a direct instruction; with "发布吗？" pending,
//!   publishing on a direct instruction or a yes, declining, a question about
//!   publishing answered with the question still pending, a condition only
//!   discussed; a score edit ("经费改成2分，学术给5分", "都改成3", "关系打低一
//!   点") goes to the editor, an edit it cannot read gets a question back.
//! - `router` ([`route`]): the posting rules, the evaluation (rules, or a model's
//!   structured output checked by the same rules), and what the message adds
//!   to the draft: each dimension's score from the student's words
//!   (`reader.rs`), a later statement replacing an earlier one.
//! - [`follow_up`]: one question about a gap — the template's, or a model's
//!   own words about the same gap if they pass `Coach::accept`.
//! - [`choose`]: before the summary, a dimension that was never judged (named
//!   without a judgement, or not said) is offered as score chips, never
//!   invented.
//! - [`editor`] and [`tool`]: the rule check of the draft, the summary, the
//!   changed draft, publishing through `reviews::submit` (exactly the
//!   form's validation), answering a question (with a model: the
//!   `lookup_knowledge` tool, at most `MAX_LOOKUPS` a turn; a line that
//!   contradicts the site's knowledge is refused and the passage speaks).
//!
//! A model's evaluation may propose an `action`; it is logged and never
//! performed by itself. A router whose model call fails hands a gap to the
//! editor, which asks about it in the template's words.

mod choose;
mod editor;
mod follow_up;
mod route;
mod tool;
mod verdict;

use app::model::PostedReview;
use app::protocol::ToolCall;

use super::edits::Edit;
use super::knowledge::Passage;
use super::reader::Said;
use super::state::CoachState;
use super::Coach;
use crate::llm::LlmClient;
use crate::speech_act::Reading;
use crate::text::fold::fold;

/// The most steps one turn may take (the longest path is 8: verdict,
/// router, editor, tool, editor, tool, editor, end).
const MAX_STEPS: usize = 12;

/// What the editor is asked to do.
#[derive(Clone, Debug, PartialEq)]
enum Task {
    FromEvaluation,
    /// Answer the student's question (a model, with the lookup tool).
    Answer(String),
    /// The router's model failed and the rules send the turn to a gap: the
    /// editor asks about it in the template's words.
    AskGap,
    Publish,
    Adjust(Vec<Edit>),
}

/// What the tool step is asked to run.
#[derive(Clone, Debug, PartialEq)]
enum Job {
    CheckDraft,
    Submit,
    /// The editor's knowledge lookup.
    Lookup(String),
}

/// What the tool step found, handed back to the editor.
#[derive(Clone, Debug)]
enum Found {
    DraftOk,
    DraftBroken(String),
    Posted(Box<PostedReview>),
    Refused(String),
    Passages(Vec<Passage>),
}

/// The steps of a coached turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Verdict,
    Router,
    FollowUp,
    Choose,
    Editor,
    Tool,
    Fallback,
    End,
}

/// Where the router sends the turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Route {
    #[default]
    Editor,
    FollowUp,
    Choose,
}

impl Route {
    /// The route's name in the metrics (`coach_routes_total`).
    fn name(self) -> &'static str {
        match self {
            Route::Editor => "editor",
            Route::FollowUp => "follow_up",
            Route::Choose => "choose",
        }
    }
}

/// Everything one coached turn reads and decides, step by step.
struct Walk<'m> {
    message: &'m str,
    /// The message folded (`text::fold`).
    text: String,
    /// What the message says about each dimension (`reader.rs`), read once.
    said: &'m Said,
    reading: &'m Reading,
    client_key: &'m str,
    model: Option<&'m LlmClient>,
    route: Route,
    task: Option<Task>,
    job: Option<Job>,
    found: Option<Found>,
    /// A step failed: the fallback apologises.
    error: Option<String>,
    /// The reply is decided.
    answered: bool,
    /// The rules read nothing of the message (no dimension, no overall
    /// score, no rule broken, not "就这些"): only then is the router's
    /// model asked, and only then may a model word the follow-up — where
    /// code read the message, its evaluation and its templates answer at
    /// once (a model only for what code did not understand).
    unread: bool,
    turn: CoachTurn,
}

impl Walk<'_> {
    fn say(&mut self, voice: String) {
        self.turn.voice = voice;
        self.answered = true;
    }
}

/// The edges: which step follows `step`, read from what the steps found.
fn next(step: Step, w: &Walk<'_>) -> Step {
    use Step::*;
    if w.error.is_some() && !matches!(step, Fallback | End) {
        return Fallback;
    }
    match step {
        Verdict if w.answered => End,
        Verdict if w.task.is_some() => Editor,
        Verdict => Router,
        Router if w.answered => End,
        Router => match w.route {
            Route::FollowUp => FollowUp,
            Route::Choose => Choose,
            Route::Editor => Editor,
        },
        Editor if w.job.is_some() => Tool,
        Editor if w.answered || w.task.is_none() => End,
        // The editor left its task for the tool's result, or a task it
        // has no edge for: the fallback says so.
        Editor => Fallback,
        Tool => Editor,
        FollowUp | Choose | Fallback | End => End,
    }
}

/// One coached turn, for the agent to reply with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CoachTurn {
    pub voice: String,
    /// `present_options` chips and, once published, `submit_review` with the
    /// stored review (and its edit token) as result.
    pub calls: Vec<ToolCall>,
    /// The review was published or abandoned: the checkpoint goes.
    pub finished: bool,
    /// The router's reason, for the reply's `intent.reasoning`.
    pub reasoning: String,
    /// A node failed (logged; the reply is the fallback's apology).
    pub failed: bool,
    /// Model calls this turn made (router, follow-up, editor).
    pub model_calls: u32,
    /// Knowledge lookups this turn made (capped at `MAX_LOOKUPS`).
    pub lookups: usize,
    /// Model lines the checks refused (the template spoke instead).
    pub refused_lines: u32,
}

/// The tool a published review is reported by, with the stored review (and
/// its edit token) as result.
pub const SUBMIT_REVIEW: &str = app::protocol::ToolName::SubmitReview.as_str();

impl Coach {
    fn say(&self, key: &str, state: &CoachState, vars: &[(&str, &str)]) -> String {
        self.replies.render(key, state.fragments.len() as u32, vars)
    }

    /// Runs the graph for one message. `model` is the configured language
    /// model, if any; `reading` is the message's speech act, read by the
    /// agent's pipeline.
    pub async fn step(
        &self,
        state: &mut CoachState,
        message: &str,
        said: &Said,
        reading: &Reading,
        client_key: &str,
        model: Option<&LlmClient>,
    ) -> CoachTurn {
        let w = Walk {
            message,
            text: fold(message),
            said,
            reading,
            client_key,
            model,
            route: Route::default(),
            task: None,
            job: None,
            found: None,
            error: None,
            answered: false,
            unread: false,
            turn: CoachTurn::default(),
        };
        let mut graph = CoachGraph {
            coach: self,
            state,
            w,
        };
        crate::graph::walk(&mut graph, |_| false).await;
        graph.w.turn
    }
}

/// The coached turn as a graph for the one runner (`crate::graph`).
struct CoachGraph<'a, 'm> {
    coach: &'a Coach,
    state: &'a mut CoachState,
    w: Walk<'m>,
}

impl crate::graph::Graph for CoachGraph<'_, '_> {
    type Step = Step;
    /// The coach's edges read what its steps found on the walk.
    type Outcome = ();
    const START: Step = Step::Verdict;
    const END: Step = Step::End;
    const MAX_STEPS: usize = MAX_STEPS;
    const NAME: &'static str = "review coach";

    async fn run(&mut self, step: Step) {
        let (c, state, w) = (self.coach, &mut *self.state, &mut self.w);
        match step {
            Step::Verdict => c.verdict(state, w),
            Step::Router => c.router(state, w).await,
            Step::FollowUp => c.follow_up(state, w, true).await,
            Step::Choose => c.choose(state, w),
            Step::Editor => c.editor(state, w).await,
            Step::Tool => c.tool(state, w).await,
            Step::Fallback => {
                let error = w.error.take().unwrap_or_else(|| "no edge".into());
                tracing::error!(error = %error, advisor = %state.advisor_id, "review coach step failed");
                state.log = error;
                w.turn.voice = c.say("coach_error", state, &[]);
                w.turn.failed = true;
                w.answered = true;
            }
            Step::End => {}
        }
    }

    fn next(&self, step: Step, _: ()) -> Step {
        next(step, &self.w)
    }

    /// A cycle is a bug in the edges; the turn still answers.
    async fn cycled(&mut self, _step: Step) {
        self.w.turn.voice = self.coach.say("coach_error", self.state, &[]);
        self.w.turn.failed = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every step leads to `End` within the cap, whatever the flags say
    /// (the tool step always takes its job, as `Coach::tool` does).
    #[test]
    fn every_path_ends() {
        let reading = Reading::default();
        let said = Said::default();
        let steps = [
            Step::Verdict,
            Step::Router,
            Step::FollowUp,
            Step::Choose,
            Step::Editor,
            Step::Tool,
            Step::Fallback,
        ];
        for flags in 0u32..64 {
            for start in steps {
                let mut w = Walk {
                    message: "",
                    text: String::new(),
                    said: &said,
                    reading: &reading,
                    client_key: "",
                    model: None,
                    route: match flags & 3 {
                        0 => Route::Editor,
                        1 => Route::FollowUp,
                        _ => Route::Choose,
                    },
                    task: (flags & 4 != 0).then_some(Task::Publish),
                    job: (flags & 8 != 0).then_some(Job::CheckDraft),
                    found: None,
                    error: (flags & 16 != 0).then(|| "x".to_string()),
                    answered: flags & 32 != 0,
                    unread: false,
                    turn: CoachTurn::default(),
                };
                let mut step = start;
                let mut n = 0;
                while step != Step::End {
                    step = next(step, &w);
                    if step == Step::Tool {
                        w.job = None;
                    }
                    n += 1;
                    assert!(n <= MAX_STEPS, "{start:?} loops with flags {flags:b}");
                }
            }
        }
    }
}
