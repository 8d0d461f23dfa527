//! What the reviews of one (school, major) add up to: the ranking page's
//! overview and the result of `get_statistics`.

use serde::{Deserialize, Serialize};

/// An advisor named in statistics, with the number that put them there (a
/// review count, or an average on one dimension).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AdvisorRef {
    pub id: String,
    pub name: String,
    pub value: f64,
}

/// The advisor with the highest average on one dimension.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct DimensionBest {
    /// `academic`, `funding`, `relationship` or `prospects` (as `sort=` names them).
    pub dimension: String,
    /// 学术水平, 科研经费, 师生关系 or 学生前途.
    pub label: String,
    /// `value` is the plain average on that dimension, one decimal.
    pub advisor: AdvisorRef,
}

/// What the reviews of one (school, major) add up to, read from the
/// aggregates on the advisor rows (never by scanning reviews).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct RankingStats {
    /// Advisors of the (school, major), reviewed or not.
    pub advisors: u64,
    /// Published reviews of those advisors.
    pub reviews: i64,
    /// Plain mean of every overall score, one decimal; `None` without reviews.
    pub average: Option<f64>,
    /// Counts of overall scores 1..=5 (index 0 is the count of 1-star reviews).
    pub histogram: [i64; 5],
    /// The advisor with the most reviews (`value` is the count); `None`
    /// without reviews.
    pub most_reviewed: Option<AdvisorRef>,
    /// The best advisor on each of the four dimensions, in the order
    /// 学术水平, 科研经费, 师生关系, 学生前途, among advisors with at least
    /// [`RankingStats::MIN_REVIEWS`] reviews: empty when nobody has that many.
    pub best: Vec<DimensionBest>,
}

impl RankingStats {
    /// Reviews an advisor needs to be named best on a dimension: two glowing
    /// reviews are an anecdote, not a reputation.
    pub const MIN_REVIEWS: i64 = 3;
}
