//! The review coach (a router → follow-up / editor graph): "我想评价一下张
//! 三老师" — or "我想评价他" on a detail page — starts a conversation in the
//! panel that ends in a published review, through exactly the validation of
//! the review form.
//!
//! - [`state`]: the graph state (the growing draft), checkpointed per session
//! - [`lexicon`]: the coach's words (`server/lexicons/coach.txt`)
//! - [`reader`]: what a message says about each dimension, as a score
//!   (the language itself is read by `text` and `speech_act`); beside it
//!   [`layout`], a long post's headings, [`told`], whose words run on
//!   and the situations a student tells, and [`topics`], what names and
//!   judges each dimension
//! - [`edits`]: score edits as students say them ("经费改成2分，学术给5分")
//! - [`router`]: the router step's structured evaluation and route
//! - [`graph`]: the steps (verdict, router, follow-up, choose, editor,
//!   tool, fallback) and their edges, in the agent's idiom
//! - [`speak`]: the follow-up's and the editor's words through a model, and
//!   the checks every model line passes
//! - [`knowledge`]: the editor's lookup tool over the site's own knowledge
//! - [`checkpoint`]: the state in SQLite, so a reload resumes the draft
//!
//! Its labelled sets are scored by `crate::evals` (`coach`, `coach_scores`).

pub mod checkpoint;
pub mod dimension;
pub mod edits;
pub mod graph;
pub mod knowledge;
pub mod layout;
pub mod lexicon;
pub mod reader;
pub mod router;
pub mod speak;
pub mod state;
pub mod told;
pub mod topics;

use std::sync::Arc;

use crate::site::Site;
use crate::speech_act::SpeechActs;
use crate::text::templates::Templates;

use self::lexicon::CoachLexicon;
use self::state::CoachState;

const REPLIES: &str = include_str!("../../../prompts/coach/replies.txt");

/// The coach: its words, its lines, the site it writes to, and the speech
/// acts that decide whether the student asked to publish or to drop the draft.
pub struct Coach {
    lex: CoachLexicon,
    replies: Templates,
    site: Arc<Site>,
    acts: Arc<SpeechActs>,
    reader: reader::Reader,
    knowledge: knowledge::Knowledge,
}

impl Coach {
    /// `faq`: the site's FAQ as passages, for the editor's lookups (the
    /// agent parses the FAQ and hands it over: `agent::nlu::faq_passages`).
    pub fn new(site: Arc<Site>, acts: Arc<SpeechActs>, faq: Vec<knowledge::Extra>) -> Coach {
        let lex = CoachLexicon::load();
        Coach {
            reader: reader::Reader::new(&lex, acts.clone()),
            lex,
            replies: Templates::parse(REPLIES),
            site,
            acts,
            knowledge: knowledge::Knowledge::load(faq),
        }
    }

    /// Whether `text` (folded) asks to write a review.
    pub fn wants_to_start(&self, text: &str) -> bool {
        CoachLexicon::any(&self.lex.start, text)
    }

    /// What `message` says about each dimension of a review: read once a
    /// turn, for [`Coach::is_about_review`] and [`Coach::step`].
    /// The draft's last topic carries into a message that judges without
    /// naming one ("挺多的").
    pub fn read(&self, state: &CoachState, message: &str) -> reader::Said {
        self.reader.read_after(message, state.last_topic)
    }

    /// Whether `message` is about the open review: it says something of a
    /// dimension, changes a score, answers the chips, asks about writing or
    /// publishing, or goes back to the draft. Anything else (a ranking,
    /// another advisor, a general question) is the agent's, with the draft
    /// kept for later.
    pub fn is_about_review(
        &self,
        state: &CoachState,
        message: &str,
        reading: &crate::speech_act::Reading,
        said: &reader::Said,
    ) -> bool {
        let text = crate::text::fold::fold(message);
        let l = &self.lex;
        let names = |a: crate::speech_act::Action| {
            !matches!(
                self.acts.force(reading, a),
                crate::speech_act::Force::Absent | crate::speech_act::Force::Reported
            )
        };
        // Publishing or dropping the draft, asked, declined or questioned.
        names(crate::speech_act::Action::Cancel)
            || names(crate::speech_act::Action::Publish)
            || state.waiting != state::Waiting::Content
                && self.acts.answer(reading) != crate::speech_act::Answer::Other
            || !said.is_empty()
            || !self.reader.edits(message, state.edit_target()).is_empty()
            || CoachLexicon::any(&l.question, &text)
            || CoachLexicon::any(&l.done, &text)
            || CoachLexicon::any(&l.resume, &text)
            || CoachLexicon::any(&l.start, &text)
            || (CoachLexicon::any(&l.topic_review, &text)
                && (CoachLexicon::any(&l.topic_edit, &text)
                    || CoachLexicon::any(&l.topic_visible, &text)))
    }

    /// The opening line of a review conversation about `state`'s advisor.
    pub fn opening(&self, state: &CoachState) -> String {
        self.replies
            .render("coach_start", 0, &[("name", &state.advisor_name)])
    }

    /// The line when nobody can be identified to review.
    pub fn which_advisor(&self) -> String {
        self.replies.render("coach_need_advisor", 0, &[])
    }

    fn rule_context(&self, state: &CoachState) -> crate::reviews::rules::RuleContext {
        crate::reviews::rules::RuleContext {
            advisor_name: state.advisor_name.clone(),
        }
    }
}
