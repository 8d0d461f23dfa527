//! The four dimensions a review is scored on, the scores of a draft, and
//! what one message says of them (`Said`, the reader's answer, and
//! `Collected`, what its clauses said of one dimension before the score is
//! taken): the words
//! every part of the coach shares (the reader, the edits, the lexicon, the
//! state), so they sit below all of them.

use serde::{Deserialize, Serialize};

/// The four dimensions of a review, in the order the form lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    Academic,
    Funding,
    Relationship,
    Prospects,
}

impl Dimension {
    pub const ALL: [Dimension; 4] = [
        Dimension::Academic,
        Dimension::Funding,
        Dimension::Relationship,
        Dimension::Prospects,
    ];

    /// The key of lexicons, templates and the protocol's `ratings`.
    pub fn key(self) -> &'static str {
        match self {
            Dimension::Academic => "academic",
            Dimension::Funding => "funding",
            Dimension::Relationship => "relationship",
            Dimension::Prospects => "prospects",
        }
    }

    /// How it is named to the student (and to a model).
    pub fn name(self) -> &'static str {
        match self {
            Dimension::Academic => "学术水平",
            Dimension::Funding => "科研经费",
            Dimension::Relationship => "师生关系",
            Dimension::Prospects => "学生前途",
        }
    }

    pub fn from_key(key: &str) -> Option<Dimension> {
        Dimension::ALL.into_iter().find(|d| d.key() == key)
    }
}

/// What a review speaks about: one dimension, or the advisor as a whole.
/// The reader and the helpers it reads a post with (`layout`, `told`)
/// share it, so it sits here, below all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aspect {
    Dim(Dimension),
    Overall,
}

/// The draft the editor proposes: scores 1–5 per dimension and overall.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scores {
    pub academic: u8,
    pub funding: u8,
    pub relationship: u8,
    pub prospects: u8,
    pub overall: u8,
}

impl Scores {
    pub fn get(&self, d: Dimension) -> u8 {
        match d {
            Dimension::Academic => self.academic,
            Dimension::Funding => self.funding,
            Dimension::Relationship => self.relationship,
            Dimension::Prospects => self.prospects,
        }
    }

    pub fn set(&mut self, d: Dimension, v: u8) {
        let v = v.clamp(1, 5);
        match d {
            Dimension::Academic => self.academic = v,
            Dimension::Funding => self.funding = v,
            Dimension::Relationship => self.relationship = v,
            Dimension::Prospects => self.prospects = v,
        }
    }

    /// The overall score: the rounded mean of the four.
    pub fn settle_overall(&mut self) {
        let sum: u32 = Dimension::ALL.iter().map(|d| u32::from(self.get(*d))).sum();
        self.overall = ((sum as f64 / 4.0).round() as u8).clamp(1, 5);
    }
}

/// One dimension as a message reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// 1–5.
    pub value: u8,
    /// Judged in words or given as a number; `false`: named without a
    /// judgement (the value is 3 and the student is asked).
    pub sure: bool,
    /// Given as a number.
    pub explicit: bool,
}

/// What one message says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Said {
    pub dims: Vec<(Dimension, Score)>,
    pub overall: Option<Score>,
    /// Dimensions the message named but asked about or did not know.
    pub unknown: Vec<Dimension>,
    /// The dimension the message ends on: a later message's judgement with
    /// no topic of its own ("挺多的") continues it.
    pub last: Option<Dimension>,
    /// The message corrects what was said before ("记错了，补助一个月两千四"):
    /// what it says replaces earlier scores, even when it is unsure.
    pub corrects: bool,
    /// The message opens by rejecting what was said before of its last
    /// dimension (师姐说老板人品极差 → "我倒不觉得"): that score turns over.
    pub rejects_before: Option<Dimension>,
}

impl Said {
    pub fn get(&self, d: Dimension) -> Option<Score> {
        self.dims.iter().find(|(x, _)| *x == d).map(|(_, s)| *s)
    }

    /// Whether the message says anything about the review's dimensions.
    pub fn is_empty(&self) -> bool {
        self.dims.is_empty() && self.overall.is_none()
    }

    /// What was collected per aspect, as scores: a dimension named but not
    /// known is unknown; the advisor as a whole only when sure. `last` is
    /// the aspect the message ends on.
    pub(super) fn of(per: Vec<(Aspect, Collected)>, last: Option<Aspect>, corrects: bool) -> Said {
        let mut said = Said {
            last: match last {
                Some(Aspect::Dim(d)) => Some(d),
                _ => None,
            },
            corrects,
            ..Said::default()
        };
        for (aspect, c) in per {
            match (aspect, c.score()) {
                (Aspect::Dim(d), Some(s)) => said.dims.push((d, s)),
                (Aspect::Dim(d), None) if c.unknown => said.unknown.push(d),
                (Aspect::Overall, Some(s)) if s.sure => said.overall = Some(s),
                _ => {}
            }
        }
        said
    }

    /// Numbers the student gives are the scores, sure and explicit.
    pub(super) fn give_numbers(&mut self, numbers: Vec<(Dimension, u8)>) {
        for (d, v) in numbers {
            let explicit = Score {
                value: v,
                sure: true,
                explicit: true,
            };
            self.unknown.retain(|x| *x != d);
            match self.dims.iter_mut().find(|(x, _)| *x == d) {
                Some(slot) => slot.1 = explicit,
                None => self.dims.push((d, explicit)),
            }
        }
    }
}

/// What a message's clauses said of one dimension (the reader collects it,
/// clause by clause), before it is scored.
#[derive(Default)]
pub(super) struct Collected {
    pub own: Vec<i8>,
    pub reported: Vec<i8>,
    pub mentioned: bool,
    /// Named in the student's own words ("但我自己的补助每月都有三千"):
    /// someone else's judgement no longer decides it.
    pub own_mention: bool,
    pub unknown: bool,
}

impl Collected {
    /// A judgement told (not said outright), the student's own or, when
    /// `reported`, someone else's.
    pub fn told(&mut self, value: i8, reported: bool) {
        self.mentioned = true;
        if reported {
            self.reported.push(value);
        } else {
            self.own.push(value);
        }
    }

    /// The score: the student's own judgements, else someone else's (unless
    /// the student named it in their own words); named without a judgement,
    /// 3, unsure; nothing for a dimension only asked about or not known.
    pub fn score(&self) -> Option<Score> {
        let values: &[i8] = if !self.own.is_empty() {
            &self.own
        } else if self.own_mention {
            &[]
        } else {
            &self.reported
        };
        if !values.is_empty() {
            Some(Score {
                value: (3 + combine(values)).clamp(1, 5) as u8,
                sure: true,
                explicit: false,
            })
        } else if self.mentioned && !self.unknown {
            Some(Score {
                value: 3,
                sure: false,
                explicit: false,
            })
        } else {
            None
        }
    }
}

/// The value of several judgements of one dimension, each −2…2: praise and
/// criticism together are mixed (0); otherwise the strongest counts.
pub(super) fn combine(values: &[i8]) -> i8 {
    let pos = values.iter().any(|v| *v > 0);
    let neg = values.iter().any(|v| *v < 0);
    if pos && neg {
        return 0;
    }
    values.iter().copied().max_by_key(|v| v.abs()).unwrap_or(0)
}
