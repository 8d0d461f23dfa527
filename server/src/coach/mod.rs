//! The review coach (seed 003 mapped onto writing a review): "我想评价一下张
//! 三老师" — or "我想评价他" on a detail page — starts a conversation in the
//! panel that ends in a published review, through exactly the validation of
//! the review form.
//!
//! - [`state`]: the graph state (the growing draft), checkpointed per session
//! - [`lexicon`]: the coach's words (`server/lexicons/coach.txt`)
//! - [`router`]: the router node's structured evaluation and route
//! - [`graph`]: the nodes (router, follow-up, editor, tool, fallback) and
//!   their edges
//! - [`speak`]: the follow-up's and the editor's words through a model, and
//!   the checks every model line passes
//! - [`knowledge`]: the editor's lookup tool over the site's own knowledge
//! - [`checkpoint`]: the state in SQLite, so a reload resumes the draft
//! - [`eval`]: the labelled set → routing accuracy, rule precision / recall

pub mod checkpoint;
pub mod eval;
pub mod graph;
pub mod knowledge;
pub mod lexicon;
pub mod router;
pub mod speak;
pub mod state;

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
    knowledge: knowledge::Knowledge,
}

impl Coach {
    pub fn new(site: Arc<Site>, acts: Arc<SpeechActs>) -> Coach {
        Coach {
            lex: CoachLexicon::load(),
            replies: Templates::parse(REPLIES),
            site,
            acts,
            knowledge: knowledge::Knowledge::load(),
        }
    }

    /// Whether `text` (normalised) asks to write a review.
    pub fn wants_to_start(&self, text: &str) -> bool {
        CoachLexicon::any(&self.lex.start, text)
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
