//! The coach as an explicit graph, in the idiom of the agent's turn
//! (`agent/turn/mod.rs`): named steps, the edges in one function
//! ([`next`]), one loop with a step cap ([`Coach::step`]), and a test that
//! every path ends.
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
//! - `verdict`: consequential actions on the speech act alone (issue 16):
//!   dropping the draft on a direct instruction; with "发布吗？" pending,
//!   publishing on a direct instruction or a yes, declining, a question about
//!   publishing answered with the question still pending, a condition only
//!   discussed; a score edit ("经费改成2分，学术给5分", "都改成3", "关系打低一
//!   点") goes to the editor, an edit it cannot read gets a question back.
//! - `router`: the posting rules, the evaluation (rules, or a model's
//!   structured output checked by the same rules), and what the message adds
//!   to the draft: each dimension's score from the student's words
//!   (`reader.rs`), a later statement replacing an earlier one.
//! - `follow_up`: one question about a gap — the template's, or a model's
//!   own words about the same gap if they pass `Coach::accept`.
//! - `choose`: before the summary, a dimension that was never judged (named
//!   without a judgement, or not said) is offered as score chips, never
//!   invented.
//! - `editor` and `tool`: the rule check of the draft, the summary, the
//!   changed draft, publishing through `reviews::submit` (exactly the
//!   form's validation), answering a question (with a model: the
//!   `lookup_knowledge` tool, at most `MAX_LOOKUPS` a turn; a line that
//!   contradicts the site's knowledge is refused and the passage speaks).
//!
//! A model's evaluation may propose an `action`; it is logged and never
//! performed by itself. A router whose model call fails hands a gap to the
//! editor, which asks about it in the template's words (seed 003 §4.3).

use serde_json::json;

use app::model::{NewReview, PostedReview, Ratings};
use app::protocol::ToolCall;

use super::edits::{self, Edit};
use super::knowledge::{Passage, MAX_LOOKUPS};
use super::lexicon::CoachLexicon;
use super::reader::Said;
use super::router::{self, MIN_TEXT};
use super::speak::EditorReply;
use super::state::{CoachState, Dimension, Evaluation, NextAgent, Scores, Waiting};
use super::Coach;
use crate::llm::json::json_object;
use crate::llm::wire::WireMessage;
use crate::llm::{CompletionRequest, LlmClient};
use crate::speech_act::{Action, Answer, Force, Reading};
use crate::text::fold::fold;
use crate::text::templates::fill;

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
    /// editor asks about it in the template's words (seed 003 §4.3).
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
    /// once (issue 28: a model only for what code did not understand).
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

/// What the student's reply to "发布吗？" asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reply {
    Publish,
    Decline,
    /// A question about publishing: answered, the question stays pending.
    Ask,
    /// "如果…就发布": discussed, not done.
    Suppose,
    /// Anything else: a new message, the question still pending.
    Other,
}

/// The chips under a summarised draft: each is sent on as typed, so they
/// go through the same verdict ("再改改" declines).
fn confirm_chips() -> ToolCall {
    ToolCall {
        tool: "present_options".into(),
        params: json!({
            "question": "发布这条评价？",
            "options": ["确认发布", "再改改", "不写了"],
            "target_field": "general",
            "allow_skip": false,
            "multi_select": false,
        }),
        result: None,
    }
}

/// 是否推荐报考 in a message: no before yes (不推荐报考 holds 推荐报考).
fn recommendation(lex: &CoachLexicon, text: &str) -> Option<bool> {
    if CoachLexicon::any(&lex.recommend_no, text) {
        Some(false)
    } else if CoachLexicon::any(&lex.recommend_yes, text) {
        Some(true)
    } else {
        None
    }
}

/// Score chips for `d`: four scores around `around`, sent on as typed
/// ("3分", which the coach binds to the dimension it asked about).
fn score_chips(d: Dimension, around: u8) -> ToolCall {
    let start = around.saturating_sub(2).clamp(1, 2);
    let options: Vec<String> = (start..start + 4).map(|v| format!("{v}分")).collect();
    ToolCall {
        tool: "present_options".into(),
        params: json!({
            "question": format!("{}打几分？", d.name()),
            "options": options,
            "target_field": "general",
            "allow_skip": false,
            "multi_select": false,
        }),
        result: None,
    }
}

impl Coach {
    fn say(&self, key: &str, state: &CoachState, vars: &[(&str, &str)]) -> String {
        self.replies.render(key, state.fragments.len() as u32, vars)
    }

    fn scores_vars(s: &Scores, recommend: Option<bool>) -> Vec<(&'static str, String)> {
        vec![
            ("academic", s.academic.to_string()),
            ("funding", s.funding.to_string()),
            ("relationship", s.relationship.to_string()),
            ("prospects", s.prospects.to_string()),
            ("overall", s.overall.to_string()),
            (
                "recommend",
                match recommend {
                    Some(true) => "，推荐报考",
                    Some(false) => "，不推荐报考",
                    None => "",
                }
                .to_string(),
            ),
        ]
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
        let mut w = Walk {
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
        let mut step = Step::Verdict;
        let mut taken = 0;
        while step != Step::End {
            if taken == MAX_STEPS {
                // A cycle is a bug in the edges; the turn still answers.
                tracing::error!(?step, "review coach ran {MAX_STEPS} steps without ending");
                w.turn.voice = self.say("coach_error", state, &[]);
                w.turn.failed = true;
                break;
            }
            taken += 1;
            match step {
                Step::Verdict => self.verdict(state, &mut w),
                Step::Router => self.router(state, &mut w).await,
                Step::FollowUp => self.follow_up(state, &mut w, true).await,
                Step::Choose => self.choose(state, &mut w),
                Step::Editor => self.editor(state, &mut w).await,
                Step::Tool => self.tool(state, &mut w).await,
                Step::Fallback => {
                    let error = w.error.take().unwrap_or_else(|| "no edge".into());
                    tracing::error!(error = %error, advisor = %state.advisor_id, "review coach step failed");
                    state.log = error;
                    w.turn.voice = self.say("coach_error", state, &[]);
                    w.turn.failed = true;
                    w.answered = true;
                }
                Step::End => {}
            }
            step = next(step, &w);
        }
        w.turn
    }

    /// The reply to "发布吗？" (or, while revising, to "想改哪里？"): the
    /// speech act's verdict on publishing, else the answer to the question.
    fn reply_to_summary(&self, reading: &Reading, waiting: Waiting) -> Reply {
        match self.acts.force(reading, Action::Publish) {
            Force::Instruction => Reply::Publish,
            Force::Negation => Reply::Decline,
            // Someone else's word for it: the question is answered and
            // asked again, nothing is published.
            Force::Question | Force::Reported => Reply::Ask,
            Force::Condition => Reply::Suppose,
            // The word in another statement ("导师帮我们提交论文很及时"):
            // more of the review.
            Force::Mention => Reply::Other,
            Force::Absent => match self.acts.answer(reading) {
                // While revising, the last question was "想改哪里？": a bare
                // yes is no instruction to publish.
                Answer::Yes if waiting == Waiting::Confirmation => Reply::Publish,
                Answer::Yes => Reply::Other,
                Answer::No => Reply::Decline,
                Answer::Other => Reply::Other,
            },
        }
    }

    /// The answer to a question about publishing, by what it asks.
    fn publish_answer(&self, state: &CoachState, text: &str) -> String {
        let key = if CoachLexicon::any(&self.lex.topic_edit, text) {
            "publish_question_edit"
        } else if CoachLexicon::any(&self.lex.topic_visible, text) {
            "publish_question_visible"
        } else {
            "publish_question"
        };
        self.say(key, state, &[])
    }

    /// The verdict step: dropping the draft, and with a summary pending,
    /// publishing, declining, questions about it and score edits.
    fn verdict(&self, state: &mut CoachState, w: &mut Walk<'_>) {
        // Dropping the draft is consequential: only on a direct instruction.
        let (key, reason) = match self.acts.force(w.reading, Action::Cancel) {
            Force::Instruction => ("cancelled", "学生不写了"),
            Force::Negation => ("cancel_declined", "学生说先别删，草稿保留"),
            Force::Question | Force::Condition => ("cancel_question", "学生问放弃的后果，草稿保留"),
            Force::Absent | Force::Reported | Force::Mention => ("", ""),
        };
        if !key.is_empty() {
            w.turn.finished = key == "cancelled";
            w.turn.reasoning = reason.into();
            let voice = self.say(key, state, &[]);
            w.say(voice);
            return;
        }
        // "继续写" after the agent answered something else: back to the gap.
        if self.wants_to_resume(&w.text) {
            w.turn.reasoning = "学生回到评价草稿".into();
            // The first dimension still unsaid, asked before or not.
            let gap = Dimension::ALL
                .into_iter()
                .find(|d| !state.coverage(*d).mentioned);
            let question = match gap {
                Some(d) => self.say(&format!("ask_{}", d.key()), state, &[]),
                None => self.say("ask_more", state, &[]),
            };
            let voice = format!(
                "{}{question}",
                self.say("resume", state, &[("name", &state.advisor_name)])
            );
            w.say(voice);
            return;
        }
        if state.waiting == Waiting::Content {
            return;
        }
        match self.reply_to_summary(w.reading, state.waiting) {
            Reply::Publish => {
                w.turn.reasoning = "学生确认发布".into();
                w.task = Some(Task::Publish);
            }
            Reply::Decline => {
                w.turn.reasoning = "学生暂不发布，草稿保留".into();
                state.waiting = Waiting::Revising;
                let voice = self.say("publish_declined", state, &[]);
                w.say(voice);
            }
            Reply::Ask => {
                w.turn.reasoning = "学生问发布的事，问题仍待回答".into();
                let voice = self.publish_answer(state, &w.text);
                w.turn.calls.push(confirm_chips());
                // The answer ends in "要发布吗？": a yes now publishes.
                state.waiting = Waiting::Confirmation;
                w.say(voice);
            }
            Reply::Suppose => {
                w.turn.reasoning = "学生在假设发布，不执行".into();
                let voice = self.say("publish_conditional", state, &[]);
                w.say(voice);
            }
            Reply::Other => {
                let edits = self.reader.edits(w.message, state.choosing);
                if !edits.is_empty() {
                    w.turn.reasoning = "学生修改评分".into();
                    w.task = Some(Task::Adjust(edits));
                } else if self.reader.looks_like_edit(w.message) && w.said.is_empty() {
                    // An edit the coach cannot read gets a question back,
                    // never the same summary again.
                    w.turn.reasoning = "学生想改分，但没说清改哪项、改成几分".into();
                    let voice = self.say("edit_unclear", state, &[]);
                    w.say(voice);
                }
            }
        }
    }

    /// Whether `text` (folded) asks to go back to the draft and says
    /// nothing of the review itself.
    fn wants_to_resume(&self, text: &str) -> bool {
        CoachLexicon::any(&self.lex.resume, text) && text.chars().count() <= 10
    }

    /// The next dimension to ask about: never said and never asked.
    fn next_gap(&self, state: &CoachState) -> Option<Dimension> {
        Dimension::ALL
            .into_iter()
            .find(|d| !state.coverage(*d).mentioned && !state.asked.contains(d))
    }

    /// The router step: evaluate, update the draft, choose the next step.
    async fn router(&self, state: &mut CoachState, w: &mut Walk<'_>) {
        let pending = state.waiting != Waiting::Content;
        let found = self.rule_check(w.message, state);
        state.notice = found.first().map(|(_, m)| m.clone());
        let mut violations: Vec<String> = found.into_iter().map(|(c, _)| c).collect();
        violations.dedup();
        let mut evaluation =
            router::evaluate(&self.lex, w.said, state, &w.text, violations.clone());
        let mut router_failed = false;
        w.unread = w.said.is_empty()
            && violations.is_empty()
            && !evaluation.question
            && !CoachLexicon::any(&self.lex.done, &w.text);
        if let Some(client) = w.model.filter(|_| w.unread) {
            w.turn.model_calls += 1;
            match self.model_evaluation(client, state, w.message).await {
                Ok(proposed) => {
                    if let Some(action) = &proposed.action {
                        // Code's verdict already ran: had it said "do it",
                        // this step would not be reached.
                        tracing::info!(
                            proposed = %action,
                            verdict = ?Action::from_key(action).map(|a| self.acts.force(w.reading, a)),
                            "the model proposed a consequential action; not performed"
                        );
                    }
                    evaluation =
                        router::reroute(&self.lex, w.said, state, &w.text, proposed, violations)
                }
                Err(e) => {
                    tracing::warn!(error = %e, "the router's model failed; the editor takes the rules' evaluation");
                    state.log = e;
                    router_failed = true;
                }
            }
        }
        self.absorb(state, w, &evaluation);
        w.turn.reasoning = evaluation.reason.clone();
        let next_agent = evaluation.next_agent;
        let question = evaluation.question && evaluation.violations.is_empty();
        let broken = !evaluation.violations.is_empty();
        if evaluation.complete || CoachLexicon::any(&self.lex.done, &w.text) {
            state.finishing = true;
        }
        state.evaluation = Some(evaluation);
        w.route = match next_agent {
            _ if broken || question => Route::Editor,
            // With "发布吗？" pending, what the student adds goes into the
            // draft and the summary is shown again.
            Some(NextAgent::FollowUp) if !pending && !state.finishing && !router_failed => {
                Route::FollowUp
            }
            Some(NextAgent::FollowUp) if !pending && !state.finishing => {
                w.task = Some(Task::AskGap);
                Route::Editor
            }
            _ if state.undecided().is_some() && state.scores.is_none() => Route::Choose,
            _ => Route::Editor,
        };
        if w.route == Route::Editor && w.task.is_none() {
            w.task = Some(if question && w.model.is_some() {
                Task::Answer(w.message.trim().to_string())
            } else {
                Task::FromEvaluation
            });
        }
    }

    /// The posting rules `message` breaks: (code, what and where).
    pub(super) fn rule_check(&self, message: &str, state: &CoachState) -> Vec<(String, String)> {
        crate::reviews::rules::check(message, &self.rule_context(state))
            .into_iter()
            .map(|v| (v.code.to_string(), v.message))
            .collect()
    }

    /// What the message adds to the draft: each dimension's reading (the
    /// latest statement replacing an earlier one; a number the student
    /// gives, or a score chip, is the score), the text (unless it breaks a
    /// rule: then it is left out), the relation and the tags it suggests,
    /// and 是否推荐报考 from the student's own words only (not "师兄说别报").
    fn absorb(&self, state: &mut CoachState, w: &Walk<'_>, e: &Evaluation) {
        let (message, text, said) = (w.message, w.text.as_str(), w.said);
        if !e.violations.is_empty() || e.question {
            return;
        }
        state.take(said, e.specific);
        // "3分" answers the score chips on screen.
        if let Some(asked) = state.choosing.take() {
            for edit in self.reader.edits(message, Some(asked)) {
                if let Edit::Set(d, v) = edit {
                    let c = state.coverage_mut(d);
                    c.mentioned = true;
                    c.score = Some(v);
                    c.sure = true;
                }
            }
        }
        for (relation, words) in &self.lex.relations {
            if CoachLexicon::any(words, text) {
                state.relation = Some(relation.clone());
            }
        }
        let own = fold(&w.reading.own_text());
        if let Some(r) = recommendation(&self.lex, &own) {
            state.recommend = Some(r);
        }
        for (tag, words) in &self.lex.tags {
            if CoachLexicon::any(words, text) && !state.tags.contains(tag) && state.tags.len() < 3 {
                state.tags.push(tag.clone());
            }
        }
        let scores_only = said.dims.iter().all(|(_, s)| s.explicit)
            && self.reader.looks_like_edit(message)
            && text.chars().count() <= 12;
        let content = !said.dims.is_empty() || text.chars().count() >= 8;
        let instruction = CoachLexicon::any(&self.lex.done, text) && text.chars().count() <= 8;
        if content && !instruction && !scores_only {
            state.fragments.push(message.trim().to_string());
        }
    }

    /// Seed 003's student agent: one question about a gap — the template's,
    /// or with a model its own words about the same gap, if they pass.
    async fn follow_up(&self, state: &mut CoachState, w: &mut Walk<'_>, with_model: bool) {
        w.answered = true;
        let e = state.evaluation.clone().unwrap_or_default();
        if let Some(d) = e.dimensions.first().filter(|_| !e.specific) {
            if !state.asked.contains(d) {
                state.asked.push(*d);
                let said: String = w.text.chars().take(8).collect();
                w.turn.voice = self.say("ask_vague", state, &[("said", &said)]);
                return;
            }
        }
        let gap = self.next_gap(state);
        w.turn.voice = match gap {
            Some(d) => {
                state.asked.push(d);
                self.say(&format!("ask_{}", d.key()), state, &[])
            }
            None => self.say("ask_more", state, &[]),
        };
        let model = w.model.filter(|_| with_model && w.unread);
        if let (Some(client), Some(d)) = (model, gap) {
            w.turn.model_calls += 1;
            match self.follow_up_line(client, state, &e, d, &w.text).await {
                Ok(line) => w.turn.voice = line,
                Err(why) => {
                    w.turn.refused_lines += 1;
                    tracing::info!(why = %why, "the follow-up's model line is not said; the template is");
                }
            }
        }
    }

    /// Score chips for the first dimension the words did not decide.
    fn choose(&self, state: &mut CoachState, w: &mut Walk<'_>) {
        let Some(d) = state.undecided() else {
            w.error = Some("choose: nothing undecided".into());
            return;
        };
        let c = state.coverage(d);
        state.chosen.push(d);
        state.choosing = Some(d);
        w.turn.calls.push(score_chips(d, c.score.unwrap_or(3)));
        w.turn.reasoning = format!("{}的分数从原话看不出来，请学生选", d.name());
        let key = if c.mentioned {
            "choose_unsure"
        } else {
            "choose_unsaid"
        };
        let voice = self.say(key, state, &[("dimension", d.name())]);
        w.say(voice);
    }

    /// Seed 003's teacher agent: works on its task, with what the tool
    /// step found.
    async fn editor(&self, state: &mut CoachState, w: &mut Walk<'_>) {
        let Some(task) = w.task.clone() else {
            w.error = Some("editor: no task".into());
            return;
        };
        let found = w.found.take();
        w.job = None;
        match (task, found) {
            // The router failed: the rules' evaluation says a gap is left,
            // so the draft is not summarised; the template asks about it.
            (Task::AskGap, _) => self.follow_up(state, w, false).await,
            // A question, with a model: its answer, looked up first if it
            // asks; the template when no line passes.
            (Task::Answer(question), found) => {
                let passages = match &found {
                    Some(Found::Passages(p)) => Some(p.as_slice()),
                    _ => None,
                };
                let fallback = self.say("answer_question", state, &[]);
                let Some(client) = w.model else {
                    w.say(fallback);
                    return;
                };
                let e = state.evaluation.clone().unwrap_or_default();
                w.turn.model_calls += 1;
                let may_look_up = passages.is_none() && w.turn.lookups < MAX_LOOKUPS;
                match self
                    .editor_reply(client, state, &e, &question, passages)
                    .await
                {
                    Ok(EditorReply::Lookup(query)) if may_look_up => {
                        w.turn.lookups += 1;
                        w.job = Some(Job::Lookup(query));
                    }
                    // An answer about the site not looked up is not
                    // taken (measured: the 0.5B model answered "否" to
                    // "评价发布后还能修改吗"): code runs the lookup itself
                    // and the editor answers from what it found.
                    Ok(EditorReply::Line(_)) if may_look_up => {
                        w.turn.lookups += 1;
                        w.job = Some(Job::Lookup(question));
                    }
                    Ok(EditorReply::Line(line)) => {
                        // A line that says the opposite of the site's own
                        // knowledge is refused; the passage speaks.
                        match self.knowledge.contradicted(&line, &question) {
                            Some(p) => {
                                w.turn.refused_lines += 1;
                                tracing::info!(passage = %p.id, line = %line, "the editor's line contradicts the site's knowledge; the passage is said");
                                w.say(p.text.clone());
                            }
                            None => w.say(line),
                        }
                    }
                    Ok(EditorReply::Lookup(_)) => w.say(fallback),
                    Err(why) if may_look_up => {
                        w.turn.refused_lines += 1;
                        tracing::info!(why = %why, "the editor's line is not said; code looks the question up");
                        w.turn.lookups += 1;
                        w.job = Some(Job::Lookup(question));
                    }
                    Err(why) => {
                        w.turn.refused_lines += 1;
                        tracing::info!(why = %why, "the editor's model line is not said; the template is");
                        // The passage found answers better than the template.
                        let voice = passages
                            .and_then(|p| p.first())
                            .map(|p| p.text.clone())
                            .unwrap_or(fallback);
                        w.say(voice);
                    }
                }
            }
            (Task::FromEvaluation, None) => {
                let e = state.evaluation.clone().unwrap_or_default();
                if !e.violations.is_empty() {
                    let message = state.notice.clone().unwrap_or_else(|| {
                        format!("这句话违反了发帖规则（{}）。", e.violations.join("、"))
                    });
                    let voice = self.say("rule_broken", state, &[("message", &message)]);
                    w.say(voice);
                    return;
                }
                if e.question {
                    let voice = self.answer_without_model(state, &w.text);
                    w.say(voice);
                    return;
                }
                w.job = Some(Job::CheckDraft);
            }
            (Task::FromEvaluation, Some(Found::DraftOk)) => {
                let scores = state.scores.clone().unwrap_or_else(|| state.propose());
                let vars = Self::scores_vars(&scores, state.recommend);
                let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let voice = self.say("draft_ready", state, &vars);
                w.turn.calls.push(confirm_chips());
                state.scores = Some(scores);
                state.waiting = Waiting::Confirmation;
                w.say(voice);
            }
            (_, Some(Found::DraftBroken(message))) => {
                let voice = if state.text().chars().count() < MIN_TEXT {
                    self.say("draft_too_thin", state, &[])
                } else {
                    self.say("post_refused", state, &[("message", &message)])
                };
                state.waiting = Waiting::Content;
                w.say(voice);
            }
            (Task::Adjust(edits), None) => {
                let mut scores = state.scores.clone().unwrap_or_else(|| state.propose());
                edits::apply(&mut scores, &edits);
                // The scores the student set are theirs from now on: more of
                // the review later does not undo them.
                for d in Dimension::ALL {
                    let c = state.coverage_mut(d);
                    c.score = Some(scores.get(d));
                    c.sure = true;
                }
                let vars = Self::scores_vars(&scores, state.recommend);
                let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let voice = self.say("draft_changed", state, &vars);
                w.turn.calls.push(confirm_chips());
                state.scores = Some(scores);
                state.waiting = Waiting::Confirmation;
                w.say(voice);
            }
            (Task::Publish, None) => w.job = Some(Job::Submit),
            (_, Some(Found::Posted(posted))) => {
                let voice = self.say("posted", state, &[("name", &state.advisor_name)]);
                w.turn.calls.push(ToolCall {
                    tool: SUBMIT_REVIEW.into(),
                    params: json!({"advisor_id": state.advisor_id, "advisor_name": state.advisor_name}),
                    result: serde_json::to_value(*posted).ok(),
                });
                w.turn.finished = true;
                w.say(voice);
            }
            (_, Some(Found::Refused(message))) => {
                let voice = self.say("post_refused", state, &[("message", &message)]);
                state.waiting = Waiting::Content;
                w.say(voice);
            }
            (task, found) => {
                w.error = Some(format!("editor: no edge for {task:?} / {found:?}"));
            }
        }
    }

    /// A question answered without a model: the knowledge passage it asks
    /// about, else the template.
    fn answer_without_model(&self, state: &CoachState, text: &str) -> String {
        if CoachLexicon::any(&self.lex.topic_edit, text)
            || CoachLexicon::any(&self.lex.topic_visible, text)
        {
            if let Some(p) = self.knowledge.lookup(text).first() {
                return p.text.clone();
            }
        }
        self.say("answer_question", state, &[])
    }

    /// The tool step: runs the job and hands the result back to the editor.
    async fn tool(&self, state: &mut CoachState, w: &mut Walk<'_>) {
        let Some(job) = w.job.take() else {
            w.error = Some("tool: no job".into());
            return;
        };
        let review = self.draft(state);
        w.found = Some(match job {
            Job::CheckDraft => match crate::reviews::validate(&review, &self.rule_context(state)) {
                problems if problems.is_empty() => Found::DraftOk,
                problems => Found::DraftBroken(problems[0].message.clone()),
            },
            Job::Lookup(query) => {
                Found::Passages(self.knowledge.lookup(&query).into_iter().cloned().collect())
            }
            Job::Submit => {
                match crate::reviews::submit(&self.site, &state.advisor_id, review, w.client_key)
                    .await
                {
                    Ok(posted) => Found::Posted(Box::new(posted)),
                    Err(e) => Found::Refused(e.info.message),
                }
            }
        });
    }

    /// The draft as the form would submit it.
    fn draft(&self, state: &CoachState) -> NewReview {
        let scores = state.scores.clone().unwrap_or_else(|| state.propose());
        NewReview {
            ratings: Ratings {
                academic: scores.academic,
                funding: scores.funding,
                relationship: scores.relationship,
                prospects: scores.prospects,
                overall: scores.overall,
            },
            tags: state.tags.clone(),
            text: state.text(),
            relation: state.relation.clone().unwrap_or_else(|| "了解".to_string()),
            recommend: state.recommend,
        }
    }

    /// The model's evaluation (seed 003: structured output), as JSON.
    pub(super) async fn model_evaluation(
        &self,
        client: &LlmClient,
        state: &CoachState,
        message: &str,
    ) -> Result<Evaluation, String> {
        let coverage: Vec<String> = Dimension::ALL
            .iter()
            .filter(|d| state.coverage(**d).mentioned)
            .map(|d| d.key().to_string())
            .collect();
        let prompt = fill(
            ROUTER_PROMPT,
            &[
                ("advisor", &state.advisor_name),
                ("covered", &coverage.join(", ")),
                ("draft", &state.text()),
            ],
        );
        let request = CompletionRequest {
            messages: vec![
                WireMessage::new("system", prompt),
                WireMessage::new("user", message.trim()),
            ],
            tools: None,
            tool_choice: None,
            temperature: None,
        };
        let completion = client
            .complete(&request, &mut |_| {})
            .await
            .map_err(|e| e.to_string())?;
        let object = json_object(&completion.content).ok_or("no JSON object in the reply")?;
        serde_json::from_value(serde_json::Value::Object(object)).map_err(|e| e.to_string())
    }
}

/// The tool a published review is reported by, with the stored review (and
/// its edit token) as result.
pub const SUBMIT_REVIEW: &str = "submit_review";

const ROUTER_PROMPT: &str = include_str!("../../../prompts/coach/router.txt");

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
