//! One advisor: the row, the detail page and a page of reviews, advisors
//! by name, and the checks of what a URL or a query says about them (an
//! advisor id, a review filter).

use app::error::ApiError;
use app::model::{AdvisorDetail, DimensionAverages, ReviewPage, ReviewQuery};

use crate::ranking;
use crate::store::{self, AdvisorRow};

use super::{db_error, Site, MAX_PAGE};

/// Reviews per page on the detail page.
pub const REVIEW_PAGE_SIZE: u32 = 10;

/// A review query with its filter checked: the relation one of
/// `vocabulary::RELATIONS`, the tag one of the site's tags (blank is none).
pub fn check_review_query(query: &ReviewQuery) -> Result<ReviewQuery, ApiError> {
    let blank = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let relation = blank(&query.relation);
    if let Some(r) = &relation {
        if !app::vocabulary::RELATIONS.contains(&r.as_str()) {
            return Err(ApiError::bad_request(
                "invalid_relation",
                format!(
                    "relation 只能是 {} 之一。",
                    app::vocabulary::RELATIONS.join("、")
                ),
            )
            .with_field("relation"));
        }
    }
    let tag = blank(&query.tag);
    if let Some(t) = &tag {
        if !app::vocabulary::TAGS.iter().any(|(name, _)| name == t) {
            return Err(ApiError::bad_request("invalid_tag", "没有这个标签。").with_field("tag"));
        }
    }
    Ok(ReviewQuery {
        page: query.page.max(1),
        sort: query.sort,
        relation,
        tag,
    })
}

/// Parses an advisor id from the URL; anything but a positive integer is no id.
pub fn parse_advisor_id(id: &str) -> Option<i64> {
    id.trim().parse::<i64>().ok().filter(|n| *n > 0)
}

impl Site {
    /// One advisor's row, if the id names one.
    pub async fn advisor_row(&self, id: &str) -> Result<Option<AdvisorRow>, ApiError> {
        match parse_advisor_id(id) {
            Some(id) => store::advisor(&self.pool, id).await.map_err(db_error),
            None => Ok(None),
        }
    }

    /// Advisors called `name`, within one school (and major) when given.
    pub async fn advisors_named(
        &self,
        name: &str,
        school_id: Option<i64>,
        major_id: Option<i64>,
    ) -> Result<Vec<AdvisorRow>, ApiError> {
        store::advisors_named(&self.pool, name, school_id, major_id)
            .await
            .map_err(db_error)
    }

    /// The detail of one advisor, `None` if there is no such advisor.
    pub async fn advisor_detail(&self, id: &str) -> Result<Option<AdvisorDetail>, ApiError> {
        let Some(id) = parse_advisor_id(id) else {
            return Ok(None);
        };
        let Some(a) = store::advisor(&self.pool, id).await.map_err(db_error)? else {
            return Ok(None);
        };
        let rank = store::rankings::rank_of(&self.pool, &a)
            .await
            .map_err(db_error)?;
        let rank_total = store::rankings::size(&self.pool, a.school_id, a.major_id)
            .await
            .map_err(db_error)?;
        let directory = self.directory(a.school_id, a.major_id).await?;
        let tags = store::tags_of(&self.pool, &[a.id])
            .await
            .map_err(db_error)?;
        let n = a.review_count;
        let avg = |sum| ranking::round1(ranking::mean(sum, n));
        Ok(Some(AdvisorDetail {
            id: a.id.to_string(),
            name: a.name.clone(),
            title: a.title.clone(),
            school: self
                .catalog
                .school_by_id(a.school_id)
                .map(|s| s.name.clone())
                .unwrap_or_default(),
            major: self
                .catalog
                .major_by_id(a.major_id)
                .map(|m| m.name.clone())
                .unwrap_or_default(),
            bio: a.bio.clone(),
            directions: directory.directions.get(&a.id).cloned().unwrap_or_default(),
            review_count: n,
            averages: (n > 0).then(|| DimensionAverages {
                academic: avg(a.sum_academic),
                funding: avg(a.sum_funding),
                relationship: avg(a.sum_relationship),
                prospects: avg(a.sum_prospects),
                overall: avg(a.sum_overall),
            }),
            score: ranking::round1(a.score_overall),
            rank: rank as u32,
            rank_total: rank_total.max(0) as u64,
            histogram: a.histogram(),
            tags: tags.get(&a.id).cloned().unwrap_or_default(),
            recommend: app::model::RecommendShare {
                yes: a.recommend_yes,
                answered: a.recommend_answered,
            },
        }))
    }

    /// A page of an advisor's reviews as `query` asks (order, relation,
    /// tag), `None` if there is no such advisor. A relation or tag the site
    /// does not have is a 400 (`invalid_relation`, `invalid_tag`). `viewer`
    /// is the reading client: each review says whether it voted 有用.
    pub async fn reviews(
        &self,
        id: &str,
        query: &ReviewQuery,
        viewer: Option<&str>,
    ) -> Result<Option<ReviewPage>, ApiError> {
        let query = check_review_query(query)?;
        let Some(id) = parse_advisor_id(id) else {
            return Ok(None);
        };
        let Some(a) = store::advisor(&self.pool, id).await.map_err(db_error)? else {
            return Ok(None);
        };
        let page = query.page.clamp(1, MAX_PAGE);
        let offset = (page as u64 - 1) * REVIEW_PAGE_SIZE as u64;
        let (total, reviews) =
            store::reviews_of(&self.pool, id, &query, REVIEW_PAGE_SIZE, offset, viewer)
                .await
                .map_err(db_error)?;
        Ok(Some(ReviewPage {
            advisor_id: id.to_string(),
            page,
            per_page: REVIEW_PAGE_SIZE,
            total,
            average: (a.review_count > 0)
                .then(|| ranking::round1(ranking::mean(a.sum_overall, a.review_count))),
            reviews,
            query: ReviewQuery { page, ..query },
        }))
    }
}
