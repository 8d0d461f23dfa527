//! `coach` and `review`: the review coach has the conversation
//! while a draft is open — except for a message that is not about the
//! review, which the agent answers with the draft kept (a digression); "我想评价一下张三老师" opens one about the advisor
//! the resolve step found (the message's reference, else the page's
//! advisor, else the one last talked about). The draft is checkpointed by
//! `save`, after the turn is stored.

use app::protocol::{ErrorInfo, IntentResult};

use super::{Answer, Asker, Decided, Outcome, Turn};
use crate::agent::nlu::Lexicons;
use crate::agent::session_store::Draft;
use crate::agent::targets::Target;
use crate::agent::tools;
use crate::coach::state::CoachState;
use crate::coach::Coach;
use crate::llm::LlmClient;
use crate::site::Site;
use crate::speech_act::SpeechActs;

/// What the `coach` step reads besides the turn: the coach, the speech
/// acts, the model it may ask, and what tells a digression (the data's
/// advisor names and the understanding's lexicons).
pub(super) struct CoachDeps<'a> {
    pub coach: &'a Coach,
    pub acts: &'a SpeechActs,
    pub model: Option<&'a LlmClient>,
    pub site: &'a Site,
    pub lexicons: &'a Lexicons,
}

impl CoachDeps<'_> {
    pub(super) async fn run(&self, t: &mut Turn<'_>) -> Decided {
        let Some(mut draft) = t.understood.draft.clone() else {
            return Decided::answered(Answer::default());
        };
        // A message that is not about the review (a ranking, another
        // advisor, a general question) is the agent's: the draft stays
        // stored as it is, and "继续写" or any review sentence returns to it.
        let said = self.coach.read(&draft, &t.input.text);
        let reading = self.acts.read(&t.input.text);
        if !self
            .coach
            .is_about_review(&draft, &t.input.text, &reading, &said)
            && self.is_agent_business(t).await
        {
            return Outcome::Digressed.into();
        }
        // The coach posts as the client who chats: the same per-client
        // limits as the form and the API, whatever session it uses.
        let model = self.model;
        let turn = self
            .coach
            .step(
                &mut draft,
                &t.input.text,
                &said,
                &reading,
                &t.input.session.caller.key,
                model,
            )
            .await;
        t.cost.spend(Some(Asker::Coach), turn.model_calls, 0);
        Decided::answered(Answer {
            intent: Some(IntentResult {
                intent: "review_coach".into(),
                confidence: 0.9,
                reasoning: turn.reasoning.clone(),
            }),
            error: turn.failed.then(|| ErrorInfo {
                code: "coach_failed".into(),
                message: "评价助手出错，草稿已保留。".into(),
                field: None,
            }),
            chips: Some(
                turn.calls
                    .iter()
                    .find(|c| c.tool == tools::PRESENT_OPTIONS)
                    .cloned(),
            ),
            calls: Some(turn.calls),
            about: None,
            draft: Some(if turn.finished {
                Draft::Drop
            } else {
                Draft::Keep(Box::new(draft))
            }),
            voice: turn.voice,
        })
    }

    /// Whether the agent understands `t`'s message as something of its
    /// own: a school or major, a ranking or recommendation, another
    /// advisor, a comparison, a general or site question.
    async fn is_agent_business(&self, t: &Turn<'_>) -> bool {
        use crate::agent::nlu::{self, Act};
        let known = t.known_names(self.site, self.lexicons).await;
        let a = nlu::analyze(&t.input.text, self.lexicons, &known);
        a.school.is_some()
            || a.major.is_some()
            || a.unknown_school.is_some()
            || !a.references.is_empty()
            || a.faq.is_some()
            || matches!(
                a.act,
                Act::AskAbout
                    | Act::AskReviews
                    | Act::OpenDetail
                    | Act::Recommend
                    | Act::ListAdvisors
                    | Act::Compare
                    | Act::Statistics
                    | Act::WantExam
                    | Act::Help
                    | Act::Faq
                    | Act::ReadBack
                    | Act::AboutPlace
            )
    }
}

/// `review`: reads the coach (its opening words) besides the turn.
pub(super) fn review(coach: &Coach, t: &Turn<'_>) -> Answer {
    let intent = IntentResult {
        intent: "review_coach".into(),
        confidence: 0.9,
        reasoning: "学生想写评价，交给评价助手".into(),
    };
    let advisor = match t
        .understood
        .resolved
        .subject
        .as_ref()
        .and_then(|r| t.understood.resolved.target(r))
    {
        Some(Target::Found(a)) => Some(a.clone()),
        Some(_) => None,
        None => t
            .input
            .page
            .selected_advisor
            .clone()
            .or_else(|| t.memory().last_advisor.clone()),
    };
    let Some(advisor) = advisor else {
        return Answer::as_intent(coach.which_advisor(), intent);
    };
    let draft = CoachState::new(advisor.id.clone(), advisor.name.clone());
    let opening = coach.opening(&draft);
    Answer {
        draft: Some(Draft::Keep(Box::new(draft))),
        about: Some(advisor),
        ..Answer::as_intent(opening, intent)
    }
}
