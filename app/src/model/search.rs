//! What the name search finds (`/search?q=`, `GET /api/v1/search`):
//! advisors, schools and majors, each with how it matched.

use serde::{Deserialize, Serialize};

/// What the name search found (`/search?q=`, `GET /api/v1/search`):
/// advisors by name, pinyin or initials; schools and majors by name or alias.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SearchResults {
    pub query: String,
    pub advisors: Vec<AdvisorHit>,
    pub schools: Vec<SchoolHit>,
    pub majors: Vec<MajorHit>,
}

impl SearchResults {
    pub fn is_empty(&self) -> bool {
        self.advisors.is_empty() && self.schools.is_empty() && self.majors.is_empty()
    }
}

/// An advisor the search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AdvisorHit {
    pub id: String,
    pub name: String,
    pub title: String,
    pub school: String,
    pub major: String,
    /// Bayesian overall score, one decimal (what rankings sort by).
    pub score: f64,
    pub review_count: i64,
    /// exact / start / inside: how the name matched.
    pub matched: String,
}

/// A school the search found, by its name or one of its aliases.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SchoolHit {
    pub name: String,
    /// The name or alias that matched (北大 for 北京大学).
    pub matched: String,
    pub advisor_count: i64,
}

/// A major the search found, with the schools that have most advisors in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct MajorHit {
    pub name: String,
    pub matched: String,
    pub schools: Vec<String>,
}
