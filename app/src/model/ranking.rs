//! A ranking of one (school, major): what it sorts by, its rows, one page
//! of it, and what a ranking request resolves to when the words do not name
//! one ranking. Shared by the ranking page, the JSON API and `update_ranking`.

use serde::{Deserialize, Serialize};

use super::catalog::Major;
use crate::protocol::VisibleAdvisor;

/// What a ranking can be sorted by: the overall score, one of the four
/// dimensions students rate on 导师评价网, or the number of reviews.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SortKey {
    #[default]
    Overall,
    Academic,
    Funding,
    Relationship,
    Prospects,
    Reviews,
}

impl SortKey {
    pub const ALL: [SortKey; 6] = [
        SortKey::Overall,
        SortKey::Academic,
        SortKey::Funding,
        SortKey::Relationship,
        SortKey::Prospects,
        SortKey::Reviews,
    ];

    /// Parses the `sort=` query parameter; an empty value means the default.
    pub fn from_param(s: &str) -> Option<SortKey> {
        match s.trim() {
            "" | "overall" => Some(SortKey::Overall),
            "academic" => Some(SortKey::Academic),
            "funding" => Some(SortKey::Funding),
            "relationship" => Some(SortKey::Relationship),
            "prospects" => Some(SortKey::Prospects),
            "reviews" => Some(SortKey::Reviews),
            _ => None,
        }
    }

    pub fn as_param(self) -> &'static str {
        match self {
            SortKey::Overall => "overall",
            SortKey::Academic => "academic",
            SortKey::Funding => "funding",
            SortKey::Relationship => "relationship",
            SortKey::Prospects => "prospects",
            SortKey::Reviews => "reviews",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            SortKey::Overall => "综合评分",
            SortKey::Academic => "学术水平",
            SortKey::Funding => "科研经费",
            SortKey::Relationship => "师生关系",
            SortKey::Prospects => "学生前途",
            SortKey::Reviews => "评价数量",
        }
    }
}

/// One row of a ranking.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AdvisorCard {
    pub id: String,
    pub name: String,
    pub title: String,
    /// 1-based position in the ranking under its current sort.
    pub rank: u32,
    /// Plain mean of the overall scores, one decimal (0 when unrated).
    pub rating: f64,
    /// The Bayesian average the ranking is ordered by.
    pub score: f64,
    pub review_count: i64,
    pub top_tags: Vec<String>,
    pub directions: Vec<String>,
}

impl AdvisorCard {
    /// The card as the page context reports it to the agent.
    pub fn to_visible(&self) -> VisibleAdvisor {
        VisibleAdvisor {
            id: self.id.clone(),
            name: self.name.clone(),
            title: self.title.clone(),
            rating: self.rating,
            rank: self.rank,
        }
    }
}

/// One page of a ranking for a (school, major), both canonical names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct RankingPage {
    pub school: String,
    pub major: String,
    pub sort: SortKey,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
    pub advisors: Vec<AdvisorCard>,
}

impl RankingPage {
    pub fn page_count(&self) -> u32 {
        (self.total.div_ceil(self.per_page.max(1) as u64)).max(1) as u32
    }
}

/// What a ranking request resolves to. A student's words may name no known
/// school, several (交大), or a school without that major; each gets a page of
/// its own rather than a guess.
///
/// Only the ranking page's server function carries it (the JSON API answers
/// with the page or an error), so it keeps serde's default, externally tagged
/// form: an internally tagged enum (`tag = "kind"`) is read through serde's
/// buffered `Content`, which compiled a second deserializer of every variant
/// into the page's WASM.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RankingView {
    Ranking(RankingPage),
    /// The school words name several schools: the student chooses.
    ChooseSchool {
        query: String,
        candidates: Vec<String>,
    },
    /// The school is known; the major is missing or not offered there.
    ChooseMajor {
        school: String,
        /// The major asked for that this school does not have, if any.
        unknown_major: Option<String>,
        majors: Vec<Major>,
    },
    /// No school matches.
    UnknownSchool {
        query: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_keys_round_trip_through_the_query_parameter() {
        for key in SortKey::ALL {
            assert_eq!(SortKey::from_param(key.as_param()), Some(key));
        }
        assert_eq!(SortKey::from_param(""), Some(SortKey::Overall));
        assert_eq!(SortKey::from_param("score; DROP TABLE"), None);
    }

    #[test]
    fn page_count_rounds_up_and_is_never_zero() {
        let page = RankingPage {
            school: "x".into(),
            major: "y".into(),
            sort: SortKey::Overall,
            page: 1,
            per_page: 20,
            total: 41,
            advisors: vec![],
        };
        assert_eq!(page.page_count(), 3);
        let empty = RankingPage { total: 0, ..page };
        assert_eq!(empty.page_count(), 1);
    }
}
