//! The router step as the graph runs it: the
//! posting rules, the evaluation (`coach::router`'s rules, or a model's
//! structured output rerouted by the same rules), what the message adds to
//! the draft, and the route to the next step. The rules themselves live in
//! `coach/router.rs`; this file is what the step does with them.

use super::{Route, Task, Walk};
use crate::coach::edits::Edit;
use crate::coach::lexicon::CoachLexicon;
use crate::coach::router;
use crate::coach::state::{CoachState, Dimension, Evaluation, NextAgent, Waiting};
use crate::coach::Coach;
use crate::llm::json::json_object;
use crate::llm::wire::WireMessage;
use crate::llm::{CompletionRequest, LlmClient};
use crate::speech_act::Action;
use crate::text::fold::fold;
use crate::text::templates::fill;

impl Coach {
    /// The router step: evaluate, update the draft, choose the next step.
    pub(super) async fn router(&self, state: &mut CoachState, w: &mut Walk<'_>) {
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
        crate::observe::coach_route(w.route.name());
        if w.route == Route::Editor && w.task.is_none() {
            w.task = Some(if question && w.model.is_some() {
                Task::Answer(w.message.trim().to_string())
            } else {
                Task::FromEvaluation
            });
        }
    }

    /// The posting rules `message` breaks: (code, what and where).
    pub(in crate::coach) fn rule_check(
        &self,
        message: &str,
        state: &CoachState,
    ) -> Vec<(String, String)> {
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

    /// The model's evaluation (structured output), as JSON (also scored
    /// by `evals::coach`).
    pub(crate) async fn model_evaluation(
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

const ROUTER_PROMPT: &str = include_str!("../../../../prompts/coach/router.txt");
