//! One advisor as the detail page shows them: the averages, the histogram,
//! the tags and the share who recommend applying, and how a page listing
//! the advisor reports them to the agent. `get_advisor_detail` returns it and
//! the compare page puts several side by side.

use serde::{Deserialize, Serialize};

use crate::protocol::VisibleAdvisor;

/// Averages of the five scores (1–5), one decimal; `None` without reviews.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct DimensionAverages {
    pub academic: f64,
    pub funding: f64,
    pub relationship: f64,
    pub prospects: f64,
    pub overall: f64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct TagCount {
    pub tag: String,
    pub count: i64,
}

/// The detail page of one advisor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AdvisorDetail {
    pub id: String,
    pub name: String,
    pub title: String,
    pub school: String,
    pub major: String,
    pub bio: String,
    pub directions: Vec<String>,
    pub review_count: i64,
    pub averages: Option<DimensionAverages>,
    /// Bayesian average of the overall score (what rankings sort by).
    pub score: f64,
    /// Position in the overall ranking of its school and major.
    pub rank: u32,
    /// How many advisors that ranking has.
    pub rank_total: u64,
    /// Counts of overall scores 1..=5 (index 0 is the count of 1-star reviews).
    pub histogram: [i64; 5],
    /// Tags by how often reviewers chose them, most frequent first.
    pub tags: Vec<TagCount>,
    /// 是否推荐报考: of the reviews that answered, how many said yes.
    #[serde(default)]
    pub recommend: RecommendShare,
}

impl AdvisorDetail {
    /// The advisor as a page listing it (the compare page) reports it to the
    /// agent: `rating` is the plain overall average (0 without reviews).
    pub fn to_visible(&self) -> VisibleAdvisor {
        VisibleAdvisor {
            id: self.id.clone(),
            name: self.name.clone(),
            title: self.title.clone(),
            rating: self.averages.as_ref().map_or(0.0, |a| a.overall),
            rank: self.rank,
        }
    }
}

/// The answers to 是否推荐报考 over an advisor's published reviews.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct RecommendShare {
    pub yes: i64,
    pub answered: i64,
}

impl RecommendShare {
    /// The share of yes in whole percent; `None` when nobody answered.
    pub fn percent(self) -> Option<i64> {
        (self.answered > 0).then(|| (self.yes * 100 + self.answered / 2) / self.answered)
    }
}
