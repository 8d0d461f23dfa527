//! The coach as an explicit graph (seed 003 §4.3, mapped onto writing a
//! review): nodes, edges and a Command-like `goto`, run until `End` with a
//! step cap.
//!
//! ```text
//!  message ─▶ router ─┬─▶ follow_up ─▶ end          (ask about a gap)
//!     model fails ────┤
//!                     └─▶ editor ─┬─▶ end           (rule broken, question,
//!                          ▲      │                  draft changed)
//!                          │      └─▶ tool ─┐       (rule check of the
//!                          └────────────────┘        draft, submission, a
//!                                                    knowledge lookup)
//!  any node that fails ─▶ fallback ─▶ end           (apologise, log)
//! ```
//!
//! With a model configured, the follow-up and the editor are model calls
//! with their own prompts filled with the router's evaluation (`speak.rs`);
//! the editor answering a question may call `lookup_knowledge`, which the
//! tool node runs (`knowledge.rs`, at most `MAX_LOOKUPS` a turn) before the
//! editor answers from what it found. Every model line passes code's checks
//! (`Coach::accept`) or the template speaks. A router whose model call
//! fails hands the turn to the editor, which works from the rules'
//! evaluation (seed 003 §4.3), not to an apology.
//!
//! The router's evaluation comes from rules (`router.rs`) or, when a model
//! is configured, from the model's structured output — checked by the same
//! rule check and routed by the same rules, so code decides the path either
//! way. Submitting goes through `reviews::submit`, exactly the validation
//! of the form and the JSON API.
//!
//! Publishing and dropping the draft are consequential (issue 16): they
//! happen only on the speech-act verdict of the message (`speech_act.rs`),
//! read before any node runs — a direct instruction, or a yes to "发布吗？".
//! A negation declines and keeps the draft, a question is answered with the
//! question still pending, a condition is discussed. A model's evaluation
//! may propose an `action`; it is logged and never performed by itself.

use serde_json::json;

use app::model::{NewReview, PostedReview, Ratings};
use app::protocol::ToolCall;

use super::knowledge::{Passage, MAX_LOOKUPS};
use super::lexicon::CoachLexicon;
use super::router::{self, MIN_TEXT};
use super::speak::EditorReply;
use super::state::{CoachState, Dimension, Evaluation, NextAgent, Scores, Waiting};
use super::Coach;
use crate::llm::json::json_object;
use crate::llm::wire::WireMessage;
use crate::llm::{CompletionRequest, LlmClient};
use crate::speech_act::{Action, Answer, Force, Reading};
use crate::text::templates::fill;

/// The most nodes one turn may run.
const MAX_STEPS: usize = 8;

/// What the editor is asked to do.
#[derive(Clone, Debug, PartialEq)]
enum Task {
    FromEvaluation,
    /// Answer the student's question (a model, with the lookup tool).
    Answer(String),
    /// The router's model failed and the rules send the turn to a gap: the
    /// editor asks about it in the template's words (seed 003 §4.3).
    AskGap(String),
    Publish,
    Adjust(Vec<(Dimension, u8)>),
}

/// What the tool node is asked to run.
#[derive(Clone, Debug, PartialEq)]
enum Job {
    CheckDraft,
    Submit,
    /// The editor's knowledge lookup.
    Lookup(String),
}

/// What the tool node found, handed back to the editor.
#[derive(Clone, Debug)]
enum Found {
    DraftOk,
    DraftBroken(String),
    Posted(Box<PostedReview>),
    Refused(String),
    Passages(Vec<Passage>),
}

#[derive(Clone, Debug)]
enum Node {
    Router,
    FollowUp,
    Editor(Task, Option<Found>),
    Tool(Task, Job),
    Fallback(String),
    End,
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

/// "经费改成3分", "学术给5分": a score for a dimension named in the message.
fn score_changes(lex: &CoachLexicon, text: &str) -> Vec<(Dimension, u8)> {
    let mut out = Vec::new();
    for clause in text.split(['，', '。', '；', ',', ';', '、']) {
        let digit = clause
            .chars()
            .find_map(|c| c.to_digit(10))
            .filter(|d| (1..=5).contains(d));
        let Some(score) = digit else { continue };
        for (d, words) in &lex.dimensions {
            if CoachLexicon::any(words, clause) && !out.iter().any(|(x, _)| x == d) {
                out.push((*d, score as u8));
            }
        }
    }
    out
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
    /// model, if any (for the router's evaluation).
    /// `reading` is the message's speech act, read by the agent's pipeline.
    pub async fn step(
        &self,
        state: &mut CoachState,
        message: &str,
        reading: &Reading,
        client_key: &str,
        model: Option<&LlmClient>,
    ) -> CoachTurn {
        let text = crate::catalog::normalize(message);
        let mut turn = CoachTurn::default();
        // Dropping the draft is consequential: only on a direct instruction.
        let (key, reason) = match self.acts.force(reading, Action::Cancel) {
            Force::Instruction => ("cancelled", "学生不写了"),
            Force::Negation => ("cancel_declined", "学生说先别删，草稿保留"),
            Force::Question | Force::Condition => ("cancel_question", "学生问放弃的后果，草稿保留"),
            Force::Absent | Force::Reported | Force::Mention => ("", ""),
        };
        if !key.is_empty() {
            turn.voice = self.say(key, state, &[]);
            turn.finished = key == "cancelled";
            turn.reasoning = reason.into();
            return turn;
        }
        let mut node = Node::Router;
        for _ in 0..MAX_STEPS {
            node = match node {
                Node::Router => {
                    self.router(state, message, &text, reading, model, &mut turn)
                        .await
                }
                Node::FollowUp => self.follow_up(state, &text, model, &mut turn).await,
                Node::Editor(task, found) => {
                    self.editor(state, task, found, model, &mut turn).await
                }
                Node::Tool(task, job) => self.tool(state, task, job, client_key).await,
                Node::Fallback(error) => {
                    tracing::error!(error = %error, advisor = %state.advisor_id, "review coach node failed");
                    state.log = error;
                    turn.voice = self.say("coach_error", state, &[]);
                    turn.failed = true;
                    Node::End
                }
                Node::End => return turn,
            };
        }
        // A cycle that never ended is a bug in the graph; the fallback says so.
        tracing::error!("review coach ran {MAX_STEPS} steps without ending");
        turn.voice = self.say("coach_error", state, &[]);
        turn.failed = true;
        turn
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

    /// The router node: evaluate, update the draft, choose the next agent.
    async fn router(
        &self,
        state: &mut CoachState,
        message: &str,
        text: &str,
        reading: &Reading,
        model: Option<&LlmClient>,
        turn: &mut CoachTurn,
    ) -> Node {
        let pending = state.waiting != Waiting::Content;
        if pending {
            match self.reply_to_summary(reading, state.waiting) {
                Reply::Publish => {
                    turn.reasoning = "学生确认发布".into();
                    return Node::Editor(Task::Publish, None);
                }
                Reply::Decline => {
                    turn.reasoning = "学生暂不发布，草稿保留".into();
                    turn.voice = self.say("publish_declined", state, &[]);
                    state.waiting = Waiting::Revising;
                    return Node::End;
                }
                Reply::Ask => {
                    turn.reasoning = "学生问发布的事，问题仍待回答".into();
                    turn.voice = self.publish_answer(state, text);
                    turn.calls.push(confirm_chips());
                    // The answer ends in "要发布吗？": a yes now publishes.
                    state.waiting = Waiting::Confirmation;
                    return Node::End;
                }
                Reply::Suppose => {
                    turn.reasoning = "学生在假设发布，不执行".into();
                    turn.voice = self.say("publish_conditional", state, &[]);
                    return Node::End;
                }
                Reply::Other => {}
            }
            let changes = score_changes(&self.lex, text);
            if !changes.is_empty() {
                turn.reasoning = "学生修改评分".into();
                return Node::Editor(Task::Adjust(changes), None);
            }
        }
        let found = self.rule_check(message, state);
        state.notice = found.first().map(|(_, m)| m.clone());
        let mut violations: Vec<String> = found.into_iter().map(|(c, _)| c).collect();
        violations.dedup();
        let mut evaluation = router::evaluate(&self.lex, state, text, violations.clone());
        let mut router_failed = false;
        if let Some(client) = model {
            turn.model_calls += 1;
            match self.model_evaluation(client, state, message).await {
                Ok(proposed) => {
                    if let Some(action) = &proposed.action {
                        // Code's verdict already ran: had it said "do it",
                        // this node would not be reached.
                        tracing::info!(
                            proposed = %action,
                            verdict = ?Action::from_key(action).map(|a| self.acts.force(reading, a)),
                            "the model proposed a consequential action; not performed"
                        );
                    }
                    evaluation = router::reroute(&self.lex, state, text, proposed, violations)
                }
                Err(e) => {
                    tracing::warn!(error = %e, "the router's model failed; the editor takes the rules' evaluation");
                    state.log = e;
                    router_failed = true;
                }
            }
        }
        self.absorb(state, message, text, reading, &evaluation);
        turn.reasoning = evaluation.reason.clone();
        let next = evaluation.next_agent;
        state.evaluation = Some(evaluation);
        match next {
            // With "发布吗？" pending, what the student adds goes into the
            // draft and the summary is shown again; a router whose model
            // failed hands the turn to the editor (seed 003 §4.3).
            Some(NextAgent::FollowUp) if !pending && !router_failed => Node::FollowUp,
            Some(NextAgent::FollowUp) if !pending => {
                Node::Editor(Task::AskGap(text.to_string()), None)
            }
            _ if model.is_some()
                && state
                    .evaluation
                    .as_ref()
                    .is_some_and(|e| e.question && e.violations.is_empty()) =>
            {
                Node::Editor(Task::Answer(message.trim().to_string()), None)
            }
            _ => Node::Editor(Task::FromEvaluation, None),
        }
    }

    /// The posting rules `message` breaks: (code, what and where).
    pub(super) fn rule_check(&self, message: &str, state: &CoachState) -> Vec<(String, String)> {
        crate::reviews::rules::check(message, &self.rule_context(state))
            .into_iter()
            .map(|v| (v.code.to_string(), v.message))
            .collect()
    }

    /// What the message adds to the draft: coverage and leaning per
    /// dimension, the text (unless it breaks a rule: then it is left out),
    /// the relation and the tags it suggests, and 是否推荐报考 from the
    /// student's own words only (not "师兄说别报").
    fn absorb(
        &self,
        state: &mut CoachState,
        message: &str,
        text: &str,
        reading: &Reading,
        e: &Evaluation,
    ) {
        if !e.violations.is_empty() || e.question {
            return;
        }
        let (dims, _) = router::read(&self.lex, text);
        for (d, leaning) in dims {
            let c = state.coverage_mut(d);
            c.mentioned = true;
            c.leaning += leaning;
            c.specific |= e.specific;
        }
        for (relation, words) in &self.lex.relations {
            if CoachLexicon::any(words, text) {
                state.relation = Some(relation.clone());
            }
        }
        let own = crate::catalog::normalize(&reading.own_text());
        if let Some(r) = recommendation(&self.lex, &own) {
            state.recommend = Some(r);
        }
        for (tag, words) in &self.lex.tags {
            if CoachLexicon::any(words, text) && !state.tags.contains(tag) && state.tags.len() < 3 {
                state.tags.push(tag.clone());
            }
        }
        let content = !e.dimensions.is_empty() || text.chars().count() >= 8;
        let instruction = CoachLexicon::any(&self.lex.done, text) && text.chars().count() <= 8;
        if content && !instruction {
            state.fragments.push(message.trim().to_string());
        }
    }

    /// Seed 003's student agent: one question about a gap — the template's,
    /// or with a model its own words about the same gap, if they pass.
    async fn follow_up(
        &self,
        state: &mut CoachState,
        text: &str,
        model: Option<&LlmClient>,
        turn: &mut CoachTurn,
    ) -> Node {
        let e = state.evaluation.clone().unwrap_or_default();
        if let Some(d) = e.dimensions.first().filter(|_| !e.specific) {
            if !state.asked.contains(d) {
                state.asked.push(*d);
                let said: String = text.chars().take(8).collect();
                turn.voice = self.say("ask_vague", state, &[("said", &said)]);
                return Node::End;
            }
        }
        let gap = Dimension::ALL
            .into_iter()
            .find(|d| !state.coverage(*d).mentioned && !state.asked.contains(d));
        turn.voice = match gap {
            Some(d) => {
                state.asked.push(d);
                self.say(&format!("ask_{}", d.key()), state, &[])
            }
            None => self.say("ask_more", state, &[]),
        };
        if let (Some(client), Some(d)) = (model, gap) {
            turn.model_calls += 1;
            match self.follow_up_line(client, state, &e, d, text).await {
                Ok(line) => turn.voice = line,
                Err(why) => {
                    turn.refused_lines += 1;
                    tracing::info!(why = %why, "the follow-up's model line is not said; the template is");
                }
            }
        }
        Node::End
    }

    /// Seed 003's teacher agent.
    async fn editor(
        &self,
        state: &mut CoachState,
        task: Task,
        found: Option<Found>,
        model: Option<&LlmClient>,
        turn: &mut CoachTurn,
    ) -> Node {
        match (task, found) {
            // The router failed: the rules' evaluation says a gap is left,
            // so the draft is not summarised; the template asks about it.
            (Task::AskGap(text), _) => self.follow_up(state, &text, None, turn).await,
            // A question, with a model: its answer, looked up first if it
            // asks; the template when no line passes.
            (Task::Answer(question), found) => {
                let passages = match &found {
                    Some(Found::Passages(p)) => Some(p.as_slice()),
                    _ => None,
                };
                let fallback = self.say("answer_question", state, &[]);
                let Some(client) = model else {
                    turn.voice = fallback;
                    return Node::End;
                };
                let e = state.evaluation.clone().unwrap_or_default();
                turn.model_calls += 1;
                match self
                    .editor_reply(client, state, &e, &question, passages)
                    .await
                {
                    Ok(EditorReply::Lookup(query))
                        if passages.is_none() && turn.lookups < MAX_LOOKUPS =>
                    {
                        turn.lookups += 1;
                        Node::Tool(Task::Answer(question), Job::Lookup(query))
                    }
                    // An answer about the site not looked up is not
                    // taken (measured: the 0.5B model answered "否" to
                    // "评价发布后还能修改吗"): code runs the lookup itself
                    // and the editor answers from what it found.
                    Ok(EditorReply::Line(_))
                        if passages.is_none() && turn.lookups < MAX_LOOKUPS =>
                    {
                        turn.lookups += 1;
                        Node::Tool(Task::Answer(question.clone()), Job::Lookup(question))
                    }
                    Ok(EditorReply::Line(line)) => {
                        turn.voice = line;
                        Node::End
                    }
                    Ok(EditorReply::Lookup(_)) => {
                        turn.voice = fallback;
                        Node::End
                    }
                    Err(why) if passages.is_none() && turn.lookups < MAX_LOOKUPS => {
                        turn.refused_lines += 1;
                        tracing::info!(why = %why, "the editor's line is not said; code looks the question up");
                        turn.lookups += 1;
                        Node::Tool(Task::Answer(question.clone()), Job::Lookup(question))
                    }
                    Err(why) => {
                        turn.refused_lines += 1;
                        tracing::info!(why = %why, "the editor's model line is not said; the template is");
                        turn.voice = fallback;
                        Node::End
                    }
                }
            }
            (Task::FromEvaluation, None) => {
                let e = state.evaluation.clone().unwrap_or_default();
                if !e.violations.is_empty() {
                    let message = state.notice.clone().unwrap_or_else(|| {
                        format!("这句话违反了发帖规则（{}）。", e.violations.join("、"))
                    });
                    turn.voice = self.say("rule_broken", state, &[("message", &message)]);
                    return Node::End;
                }
                if e.question {
                    turn.voice = self.say("answer_question", state, &[]);
                    return Node::End;
                }
                Node::Tool(Task::FromEvaluation, Job::CheckDraft)
            }
            (Task::FromEvaluation, Some(Found::DraftOk)) => {
                let scores = state.scores.clone().unwrap_or_else(|| state.propose());
                let vars = Self::scores_vars(&scores, state.recommend);
                let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
                turn.voice = self.say("draft_ready", state, &vars);
                turn.calls.push(confirm_chips());
                state.scores = Some(scores);
                state.waiting = Waiting::Confirmation;
                Node::End
            }
            (_, Some(Found::DraftBroken(message))) => {
                turn.voice = if state.text().chars().count() < MIN_TEXT {
                    self.say("draft_too_thin", state, &[])
                } else {
                    self.say("post_refused", state, &[("message", &message)])
                };
                state.waiting = Waiting::Content;
                Node::End
            }
            (Task::Adjust(changes), None) => {
                let mut scores = state.scores.clone().unwrap_or_else(|| state.propose());
                for (d, v) in changes {
                    scores.set(d, v);
                }
                scores.settle_overall();
                let vars = Self::scores_vars(&scores, state.recommend);
                let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
                turn.voice = self.say("draft_changed", state, &vars);
                turn.calls.push(confirm_chips());
                state.scores = Some(scores);
                state.waiting = Waiting::Confirmation;
                Node::End
            }
            (Task::Publish, None) => Node::Tool(Task::Publish, Job::Submit),
            (_, Some(Found::Posted(posted))) => {
                turn.voice = self.say("posted", state, &[("name", &state.advisor_name)]);
                turn.calls.push(ToolCall {
                    tool: SUBMIT_REVIEW.into(),
                    params: json!({"advisor_id": state.advisor_id, "advisor_name": state.advisor_name}),
                    result: serde_json::to_value(*posted).ok(),
                });
                turn.finished = true;
                Node::End
            }
            (_, Some(Found::Refused(message))) => {
                turn.voice = self.say("post_refused", state, &[("message", &message)]);
                state.waiting = Waiting::Content;
                Node::End
            }
            (task, found) => Node::Fallback(format!("editor: no edge for {task:?} / {found:?}")),
        }
    }

    /// The tool node: runs the job and hands the result back to the editor.
    async fn tool(&self, state: &mut CoachState, task: Task, job: Job, client_key: &str) -> Node {
        let review = self.draft(state);
        let found = match job {
            Job::CheckDraft => match crate::reviews::validate(&review, &self.rule_context(state)) {
                problems if problems.is_empty() => Found::DraftOk,
                problems => Found::DraftBroken(problems[0].message.clone()),
            },
            Job::Lookup(query) => {
                Found::Passages(self.knowledge.lookup(&query).into_iter().cloned().collect())
            }
            Job::Submit => {
                match crate::reviews::submit(&self.site, &state.advisor_id, review, client_key)
                    .await
                {
                    Ok(posted) => Found::Posted(Box::new(posted)),
                    Err(e) => Found::Refused(e.info.message),
                }
            }
        };
        Node::Editor(task, Some(found))
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
