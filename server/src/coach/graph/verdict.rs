//! The verdict step, first in every turn: what the student asks the coach
//! to *do* is decided on the speech act alone, before any model
//! is asked — dropping the draft, "继续写", and with "发布吗？" pending,
//! publishing, declining, a question about publishing, a condition only
//! discussed, and score edits (handed to the editor). Kept apart from the
//! graph because these are the turn's consequential decisions.

use super::editor::confirm_chips;
use super::{Task, Walk};
use crate::coach::lexicon::CoachLexicon;
use crate::coach::state::{CoachState, Dimension, Waiting};
use crate::coach::Coach;
use crate::speech_act::{Action, Answer, Force, Reading};

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

impl Coach {
    /// The verdict step: dropping the draft, and with a summary pending,
    /// publishing, declining, questions about it and score edits.
    pub(super) fn verdict(&self, state: &mut CoachState, w: &mut Walk<'_>) {
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
                let edits = self.reader.edits(w.message, state.edit_target());
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
    /// Whether `text` (folded) asks to go back to the draft and says
    /// nothing of the review itself.
    fn wants_to_resume(&self, text: &str) -> bool {
        CoachLexicon::any(&self.lex.resume, text) && text.chars().count() <= 10
    }
}
