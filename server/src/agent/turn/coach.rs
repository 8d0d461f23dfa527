//! `coach` and `review`: the review coach (seed 003) has the conversation
//! while a draft is open; "我想评价一下张三老师" opens one about the advisor
//! the resolve step found (the message's reference, else the page's
//! advisor, else the one last talked about). The draft is checkpointed by
//! `save`, after the turn is stored.

use app::protocol::{ErrorInfo, IntentResult};

use super::{Draft, Turn};
use crate::agent::resolve::Target;
use crate::agent::{tools, Agent};
use crate::coach::state::CoachState;

impl Agent {
    pub(super) async fn coach(&self, t: &mut Turn<'_>) {
        let Some(mut draft) = t.draft.take() else {
            return;
        };
        let reading = self.acts.read(&t.text);
        // The coach posts as the client who chats: the same per-client
        // limits as the form and the API, whatever session it uses.
        let model = self.model.as_ref().map(|m| m.client());
        let turn = self
            .coach
            .step(&mut draft, &t.text, &reading, &t.session.client, model)
            .await;
        t.memory.pending = turn
            .calls
            .iter()
            .find(|c| c.tool == tools::PRESENT_OPTIONS)
            .cloned();
        t.intent = IntentResult {
            intent: "review_coach".into(),
            confidence: 0.9,
            reasoning: turn.reasoning.clone(),
        };
        t.calls = turn.calls;
        t.model_calls += turn.model_calls;
        t.error = turn.failed.then(|| ErrorInfo {
            code: "coach_failed".into(),
            message: "评价助手出错，草稿已保留。".into(),
            field: None,
        });
        t.draft_out = Some(if turn.finished {
            Draft::Drop
        } else {
            Draft::Keep(Box::new(draft))
        });
        t.say(turn.voice);
    }

    pub(super) fn review(&self, t: &mut Turn<'_>) {
        t.intent = IntentResult {
            intent: "review_coach".into(),
            confidence: 0.9,
            reasoning: "学生想写评价，交给评价助手".into(),
        };
        let advisor = match t
            .resolved
            .subject
            .as_ref()
            .and_then(|r| t.resolved.target(r))
        {
            Some(Target::Found(a)) => Some(a.clone()),
            Some(_) => None,
            None => t
                .page
                .selected_advisor
                .clone()
                .or_else(|| t.memory.last_advisor.clone()),
        };
        let Some(advisor) = advisor else {
            t.say(self.coach.which_advisor());
            return;
        };
        let draft = CoachState::new(advisor.id.clone(), advisor.name.clone());
        t.memory.last_advisor = Some(advisor);
        let opening = self.coach.opening(&draft);
        t.draft_out = Some(Draft::Keep(Box::new(draft)));
        t.say(opening);
    }
}
