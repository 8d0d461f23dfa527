//! The recommender's candidates of a (school, major): every advisor of a
//! small pair, a shortlist of a large one, each with directions, tags and
//! the priors, and those candidate sets kept per pair version so that a
//! recommending turn reads one row while nothing in the pair changed.

use std::sync::Arc;

use app::error::ApiError;

use crate::ranking::{self, Priors};
use crate::store::{self, AdvisorRow};

use super::{db_error, Directory, Site};

/// The advisors of one (school, major) in ranking order, with their facts.
pub struct GroupFacts {
    pub rows: Vec<AdvisorRow>,
    pub directions: std::collections::HashMap<i64, Vec<String>>,
    pub tags: std::collections::HashMap<i64, Vec<app::model::TagCount>>,
    pub priors: Priors,
}

/// Which recommender candidates: (school, major, what a large pair's
/// shortlist was drawn for).
type FactsKey = (i64, i64, Option<String>);

/// The recommender's candidates of a pair with the pair version they were
/// read at, kept as the ranking pages are ([`Site::candidate_facts`]): a
/// recommending turn then reads one row while nothing in the pair changed,
/// instead of up to 150 advisors, their tags and the prior. The stored
/// prior changes only when every score is recomputed, which moves every
/// pair's version.
#[derive(Default)]
pub(super) struct FactsCache {
    pub(super) by_key: std::collections::HashMap<FactsKey, (i64, Arc<GroupFacts>)>,
}

impl FactsCache {
    /// Candidate sets kept at most (up to 150 advisors each: a few MB).
    const CAPACITY: usize = 200;
}

impl Site {
    /// Everything the recommender and the agent need about one (school,
    /// major): its advisors, their directions and tags, and the priors.
    pub async fn group_facts(&self, school_id: i64, major_id: i64) -> Result<GroupFacts, ApiError> {
        let priors = self.priors().await?;
        let rows = store::rankings::all(&self.pool, school_id, major_id)
            .await
            .map_err(db_error)?;
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let directions = self
            .directory(school_id, major_id)
            .await?
            .directions
            .clone();
        let tags = store::tags_of(&self.pool, &ids).await.map_err(db_error)?;
        Ok(GroupFacts {
            rows,
            directions,
            tags,
            priors,
        })
    }

    /// [`Site::group_facts`] of some advisors of a pair only (the
    /// recommender's shortlist of a large pair), in ranking order.
    pub async fn facts_of(
        &self,
        school_id: i64,
        major_id: i64,
        ids: &[i64],
    ) -> Result<GroupFacts, ApiError> {
        let priors = self.priors().await?;
        let mut rows = store::advisors_by_ids(&self.pool, ids)
            .await
            .map_err(db_error)?;
        rows.retain(|r| r.school_id == school_id && r.major_id == major_id);
        rows.sort_by(|a, b| {
            ranking::compare(
                (a.score_overall, a.review_count, a.id),
                (b.score_overall, b.review_count, b.id),
            )
        });
        let directory = self.directory(school_id, major_id).await?;
        let directions = ids
            .iter()
            .filter_map(|id| directory.directions.get(id).map(|d| (*id, d.clone())))
            .collect();
        let tags = store::tags_of(&self.pool, ids).await.map_err(db_error)?;
        Ok(GroupFacts {
            rows,
            directions,
            tags,
            priors,
        })
    }

    /// The advisors a recommendation weighs in a pair, with their
    /// directions, tags and the priors: every advisor of a pair of at most
    /// `max`, else those `shortlist` picks from the best `max` (in ranking
    /// order) and the pair's directory — the same pick for the same `drawn_for`.
    /// Kept at the pair's version, so while nothing in the pair changed a
    /// recommendation costs one row read.
    pub async fn candidate_facts(
        &self,
        (school_id, major_id): (i64, i64),
        max: usize,
        drawn_for: Option<&str>,
        seen: &super::PairVersions,
        shortlist: impl FnOnce(&[i64], &Directory) -> Vec<i64>,
    ) -> Result<Arc<GroupFacts>, ApiError> {
        let small = self.catalog.advisor_count(school_id, major_id) <= max as i64;
        // A small pair's candidates are all of it, whatever they are for.
        let key = (
            school_id,
            major_id,
            (!small).then(|| drawn_for.unwrap_or_default().to_string()),
        );
        let (_, version) = self.size_and_version((school_id, major_id), seen).await?;
        let kept = {
            let facts = self.facts.lock().unwrap_or_else(|e| e.into_inner());
            facts
                .by_key
                .get(&key)
                .filter(|(at, _)| *at == version)
                .map(|(_, f)| f.clone())
        };
        if let Some(facts) = kept {
            return Ok(facts);
        }
        let generation = self
            .directories
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .generation;
        let facts = if small {
            self.group_facts(school_id, major_id).await?
        } else {
            let top = self.top_advisor_ids(school_id, major_id, max).await?;
            let directory = self.directory(school_id, major_id).await?;
            let ids = shortlist(&top, &directory);
            self.facts_of(school_id, major_id, &ids).await?
        };
        let facts = Arc::new(facts);
        // As `keep_page` (ranking.rs): not kept if the directories were forgotten meanwhile.
        let directories = self.directories.read().unwrap_or_else(|e| e.into_inner());
        if directories.generation == generation {
            let mut kept = self.facts.lock().unwrap_or_else(|e| e.into_inner());
            if kept.by_key.len() >= FactsCache::CAPACITY {
                kept.by_key.clear();
            }
            kept.by_key.insert(key, (version, facts.clone()));
        }
        Ok(facts)
    }
}
