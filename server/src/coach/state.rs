//! The coach's graph state: the advisor, the
//! draft as it grows, what each dimension has been told, the last
//! evaluation, and where the conversation waits. It is checkpointed per
//! session after every turn, so a reload resumes the draft.

use serde::{Deserialize, Serialize};

pub use super::dimension::{Dimension, Scores};
use super::reader::Said;

/// What the student has said about one dimension so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    pub mentioned: bool,
    /// Said with something concrete (a number, a frequency, a thing).
    pub specific: bool,
    /// The score the student's words give it (`coach/reader.rs`); the
    /// latest statement replaces earlier ones.
    #[serde(default)]
    pub score: Option<u8>,
    /// The score was judged in words or given as a number; `false`: named
    /// without a judgement, so the student is asked to choose.
    #[serde(default)]
    pub sure: bool,
}

/// Which agent the router sends a message to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NextAgent {
    /// The follow-up: asks about a missing or vague dimension.
    FollowUp,
    /// The editor: a broken rule, a complete review to
    /// summarise, a question to answer, a change to the draft.
    Editor,
}

/// The router's structured evaluation of one message.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Dimensions this message speaks about.
    pub dimensions: Vec<Dimension>,
    /// It says something concrete.
    pub specific: bool,
    /// Codes of the posting rules it breaks (`contains_phone`, `insult`, …).
    pub violations: Vec<String>,
    /// With this message the review is complete enough to summarise.
    pub complete: bool,
    /// A direct question to the coach.
    pub question: bool,
    pub reason: String,
    pub next_agent: Option<NextAgent>,
    /// What a model says the student asks the coach to do ("publish",
    /// "cancel"). Only a proposal: code performs a consequential action on
    /// its own speech-act verdict alone (see `graph/verdict.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
}

/// Where the conversation waits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Waiting {
    /// For more of the review.
    #[default]
    Content,
    /// For "确认" (or a change) of the summarised draft: the agent asked
    /// "发布吗？", and a plain yes publishes.
    Confirmation,
    /// The student declined to publish ("先不发布"): changes are welcome, a
    /// direct instruction ("发布吧") publishes, a bare yes shows the draft
    /// again instead (the last question was "想改哪里？").
    Revising,
}

/// The whole state of one review conversation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CoachState {
    pub advisor_id: String,
    pub advisor_name: String,
    /// What the student said for the review, rule-breaking parts removed.
    pub fragments: Vec<String>,
    pub coverage: Vec<(Dimension, Coverage)>,
    /// Dimensions already asked about (each at most once).
    pub asked: Vec<Dimension>,
    pub relation: Option<String>,
    /// 是否推荐报考, when the student said (optional on the review).
    #[serde(default)]
    pub recommend: Option<bool>,
    pub tags: Vec<String>,
    /// Set when the editor summarised; the student may change it.
    pub scores: Option<Scores>,
    pub waiting: Waiting,
    pub evaluation: Option<Evaluation>,
    /// What the last broken rule was and where, as the rule check said it.
    pub notice: Option<String>,
    /// Node errors, for the log.
    pub log: String,
    /// The student asked to finish (就这些) or covered all four: what is
    /// left is choosing the scores the words did not decide.
    #[serde(default)]
    pub finishing: bool,
    /// The dimension whose score chips are on screen ("3分" answers it).
    #[serde(default)]
    pub choosing: Option<Dimension>,
    /// Dimensions already offered as score chips (each at most once).
    #[serde(default)]
    pub chosen: Vec<Dimension>,
    /// The dimension the last message ended on (see `Said::last`).
    #[serde(default)]
    pub last_topic: Option<Dimension>,
    /// The one dimension the last score edit changed: an edit that names
    /// none ("科研高一点" … "嗯，再高一点") moves it again.
    #[serde(default)]
    pub edited: Option<Dimension>,
    /// The scores the coach proposed before the student's first edit of
    /// them: what "还是按你原来的吧" goes back to. A new summary (more of
    /// the review) proposes anew.
    #[serde(default)]
    pub proposed: Option<Scores>,
}

impl CoachState {
    pub fn new(advisor_id: String, advisor_name: String) -> CoachState {
        CoachState {
            advisor_id,
            advisor_name,
            coverage: Dimension::ALL
                .iter()
                .map(|d| (*d, Coverage::default()))
                .collect(),
            ..CoachState::default()
        }
    }

    /// The dimension an edit naming none is for: the one whose score
    /// chips are on screen, else the one edited last.
    pub fn edit_target(&self) -> Option<Dimension> {
        self.choosing.or(self.edited)
    }

    pub fn coverage(&self, d: Dimension) -> Coverage {
        self.coverage
            .iter()
            .find(|(x, _)| *x == d)
            .map(|(_, c)| c.clone())
            .unwrap_or_default()
    }

    pub fn coverage_mut(&mut self, d: Dimension) -> &mut Coverage {
        if let Some(i) = self.coverage.iter().position(|(x, _)| *x == d) {
            return &mut self.coverage[i].1;
        }
        self.coverage.push((d, Coverage::default()));
        &mut self.coverage.last_mut().expect("just pushed").1
    }

    /// The review text: the fragments joined as sentences.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for f in &self.fragments {
            let f = f.trim();
            if f.is_empty() {
                continue;
            }
            out.push_str(f);
            if !f.ends_with(['。', '！', '？', '!', '?', '…']) {
                out.push('。');
            }
        }
        out
    }

    /// Scores proposed from what was said: each dimension's reading, 3 for
    /// one the student never scored (the coach offers chips before it gets
    /// here, see `graph/choose.rs`).
    pub fn propose(&self) -> Scores {
        let mut s = Scores::default();
        for d in Dimension::ALL {
            s.set(d, self.coverage(d).score.unwrap_or(3));
        }
        s.settle_overall();
        s
    }

    /// What a message said, taken into the draft: each dimension's reading
    /// replaces an earlier one, except that a bare mention does not undo a
    /// judgement. More of the review after the summary is summarised again
    /// from the readings.
    pub fn take(&mut self, said: &Said, specific: bool) {
        if !said.dims.is_empty() {
            self.scores = None;
            self.proposed = None;
        }
        if said.last.is_some() {
            self.last_topic = said.last;
        }
        // "我倒不觉得" after "师姐说老板人品极差": rejected criticism is
        // praise, rejected praise criticism, unless the message says more.
        if let Some(d) = said.rejects_before.filter(|d| said.get(*d).is_none()) {
            let c = self.coverage_mut(d);
            if let Some(v) = c.score.filter(|v| *v != 3) {
                c.score = Some(if v < 3 { 4 } else { 2 });
                c.sure = true;
                self.scores = None;
                self.proposed = None;
            }
        }
        for (d, score) in &said.dims {
            let c = self.coverage_mut(*d);
            c.mentioned = true;
            c.specific |= specific;
            if score.sure || c.score.is_none() || !c.sure || said.corrects {
                c.score = Some(score.value);
                c.sure = score.sure;
            }
        }
        // "就业那块我不太清楚": a later "don't know" takes back what was said.
        for d in &said.unknown {
            if self.coverage(*d).score.is_some() {
                self.scores = None;
                self.proposed = None;
            }
            let c = self.coverage_mut(*d);
            c.score = None;
            c.sure = false;
            c.mentioned = false;
        }
    }

    /// The first dimension whose score the student's words did not decide
    /// and that was not offered as chips yet.
    pub fn undecided(&self) -> Option<Dimension> {
        Dimension::ALL.into_iter().find(|d| {
            let c = self.coverage(*d);
            let decided = c.score.is_some() && c.sure;
            !decided && !self.chosen.contains(d)
        })
    }
}
