//! What the site holds about a school or a major as a whole — for a
//! student's general question ("中山大学怎么样", "计算机专业好就业吗"), which
//! the agent answers directly rather than as a search: the school's city and
//! tier (the catalog), how many advisors and reviews the site has there, the
//! average rating and the 学生前途 (prospects) average of those reviews, and
//! the best-ranked advisors. Every figure is read, none is estimated.

use app::error::ApiError;
use app::model::SortKey;

use crate::catalog::{MajorEntry, SchoolEntry};
use crate::ranking;
use crate::site::{db_error, Site};
use crate::store;

/// Best-ranked advisors a major's answer names.
const BEST_NAMED: usize = 2;

/// One advisor a place's answer names, with the school it is at.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BestAdvisor {
    pub name: String,
    pub school: String,
    pub score: f64,
}

/// The figures of a school, a major, or one pair.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlaceFacts {
    pub advisors: i64,
    pub reviews: i64,
    /// Mean overall rating of its reviews (`None` without reviews).
    pub average: Option<f64>,
    /// Mean 学生前途 rating of its reviews.
    pub prospects: Option<f64>,
    /// Schools with advisors in the major (a major alone).
    pub schools: usize,
    /// The best-ranked advisors, best first (a major, or a pair: the first
    /// of the ranking; a school alone: none).
    pub best: Vec<BestAdvisor>,
}

impl Site {
    /// The figures of `school`, `major` or both (see the module doc).
    pub async fn place_facts(
        &self,
        school: Option<&SchoolEntry>,
        major: Option<&MajorEntry>,
    ) -> Result<PlaceFacts, ApiError> {
        let sums = store::places::sums(self.pool(), school.map(|s| s.id), major.map(|m| m.id))
            .await
            .map_err(db_error)?;
        let mean = |sum: i64| {
            (sums.reviews > 0).then(|| ranking::round1(ranking::mean(sum, sums.reviews)))
        };
        let mut facts = PlaceFacts {
            advisors: sums.advisors,
            reviews: sums.reviews,
            average: mean(sums.sum_overall),
            prospects: mean(sums.sum_prospects),
            ..PlaceFacts::default()
        };
        let Some(major) = major else {
            return Ok(facts);
        };
        let catalog = self.catalog();
        let schools: Vec<&SchoolEntry> = match school {
            Some(s) => vec![s],
            None => catalog
                .schools()
                .iter()
                .filter(|s| catalog.advisor_count(s.id, major.id) > 0)
                .collect(),
        };
        facts.schools = schools.len();
        // The first of each school's ranking: the stored scores share one
        // site-wide prior, so they compare across schools.
        let mut best = Vec::new();
        for s in schools {
            let top = store::rankings::page(self.pool(), s.id, major.id, SortKey::Overall, 1, 0)
                .await
                .map_err(db_error)?;
            best.extend(top.into_iter().filter(|a| a.review_count > 0).map(|a| {
                (
                    a.score_overall,
                    a.review_count,
                    a.id,
                    BestAdvisor {
                        name: a.name,
                        school: s.name.clone(),
                        score: ranking::round1(a.score_overall),
                    },
                )
            }));
        }
        best.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
        facts.best = best.into_iter().take(BEST_NAMED).map(|(.., b)| b).collect();
        Ok(facts)
    }
}
