//! The agent's tool results that are no page's own model:
//! `recommend_advisors` and `get_advisor_reviews`. The server writes them and
//! the panel reads them back (`components/agent_panel/apply`) with these same
//! types, so their field names are the protocol's.

use serde::{Deserialize, Serialize};

use super::reviews::ReviewPage;

/// One advisor recommended by `recommend_advisors`, with an explainable score
/// and the reasons a student hears ("主要研究机器学习，学生评价温和").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecommendedAdvisor {
    pub id: String,
    pub name: String,
    pub title: String,
    pub rating: f64,
    pub review_count: i64,
    /// 0–100: how well the advisor fits the student's form.
    pub score: f64,
    pub reasons: Vec<String>,
    pub directions: Vec<String>,
}

/// The result of `recommend_advisors`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecommendResult {
    pub school: String,
    pub major: String,
    pub advisors: Vec<RecommendedAdvisor>,
}

/// The result of `get_advisor_reviews`: the protocol's `count`, `average` and
/// `reviews`, plus the page they belong to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewsResult {
    pub count: u64,
    #[serde(flatten)]
    pub page: ReviewPage,
}
