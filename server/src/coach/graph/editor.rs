//! The editor step: works on the task the verdict
//! or the router gave it, with what the tool step found — the rule check of
//! the draft, the summary and "发布吗？", the changed draft after a score
//! edit, the published review, and answers to the student's questions (with
//! a model: the lookup tool, a line the site's knowledge contradicts
//! refused). The longest step, so a file of its own.

use serde_json::json;

use app::protocol::ToolCall;

use super::{Found, Job, Task, Walk, SUBMIT_REVIEW};
use crate::coach::edits;
use crate::coach::knowledge::MAX_LOOKUPS;
use crate::coach::lexicon::CoachLexicon;
use crate::coach::router::MIN_TEXT;
use crate::coach::speak::EditorReply;
use crate::coach::state::{CoachState, Dimension, Scores, Waiting};
use crate::coach::Coach;

impl Coach {
    /// The editor: works on its task, with what the tool
    /// step found.
    pub(super) async fn editor(&self, state: &mut CoachState, w: &mut Walk<'_>) {
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
                let proposed = state.proposed.get_or_insert_with(|| scores.clone()).clone();
                edits::apply_message(&mut scores, &edits, &proposed, &mut state.edited);
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
}

/// The chips under a summarised draft: each is sent on as typed, so they
/// go through the same verdict ("再改改" declines).
pub(super) fn confirm_chips() -> ToolCall {
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
