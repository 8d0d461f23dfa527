//! Stored Bayesian scores: each advisor carries the five scores every
//! ranking sorts by, so that a page of a ranking is one range of one index
//! instead of scoring every advisor of a pair on every request.
//!
//! Why stored scores stay correct: a score depends on the advisor's own sums
//! (changed only by [`crate::reviews::submit::add_to_aggregates`], which
//! calls [`refresh`] in the same transaction) and on the site-wide mean of
//! that dimension (the prior), which moves a little with every review on the
//! site. The scores are computed with the prior stored in `score_prior`;
//! whenever any live mean has drifted more than [`PRIOR_DRIFT`] stars from
//! the stored one, [`refresh`] stores the live prior and recomputes every
//! advisor, still in the writer's transaction. So every ranking is exactly
//! the order under the stored prior, and the stored prior is never more
//! than [`PRIOR_DRIFT`] from the live one. At a million reviews one review
//! moves a mean by at most 4 / 1,000,000 stars: the bulk recompute (about a
//! second at 100,000 advisors) happens after thousands of one-sided reviews,
//! not on ordinary writes.

use crate::db::Conn;

use crate::ranking::{self, Prior, Priors};
use crate::store::SiteStats;

/// How far (in stars) a stored prior mean may be from the live one before
/// every score is recomputed.
pub const PRIOR_DRIFT: f64 = 0.01;

/// The stored prior (weight and the five means).
#[derive(Clone, Copy, Debug, PartialEq, sqlx::FromRow)]
pub struct StoredPrior {
    pub weight: f64,
    pub mean_overall: f64,
    pub mean_academic: f64,
    pub mean_funding: f64,
    pub mean_relationship: f64,
    pub mean_prospects: f64,
}

impl StoredPrior {
    /// The prior the live site-wide sums give.
    pub fn live(s: &SiteStats) -> StoredPrior {
        let p = s.priors();
        StoredPrior {
            weight: ranking::PRIOR_WEIGHT,
            mean_overall: p.overall.mean,
            mean_academic: p.academic.mean,
            mean_funding: p.funding.mean,
            mean_relationship: p.relationship.mean,
            mean_prospects: p.prospects.mean,
        }
    }

    fn means(&self) -> [f64; 5] {
        [
            self.mean_overall,
            self.mean_academic,
            self.mean_funding,
            self.mean_relationship,
            self.mean_prospects,
        ]
    }

    /// The largest distance between two priors' means, in stars.
    pub fn distance(&self, other: &StoredPrior) -> f64 {
        self.means()
            .iter()
            .zip(other.means())
            .map(|(a, b)| (a - b).abs())
            .fold((self.weight - other.weight).abs(), f64::max)
    }

    /// As the ranking maths' priors (for shaping a score the way the stored
    /// ones were computed).
    pub fn priors(&self) -> Priors {
        let p = |mean| Prior {
            mean,
            weight: self.weight,
        };
        Priors {
            overall: p(self.mean_overall),
            academic: p(self.mean_academic),
            funding: p(self.mean_funding),
            relationship: p(self.mean_relationship),
            prospects: p(self.mean_prospects),
        }
    }
}

/// The formula of every stored score, in SQL (the same operations, in the
/// same order, as [`ranking::bayesian`], so both give the same doubles).
const SCORES_SET: &str = "score_overall = (p.weight * p.mean_overall + sum_overall) / (p.weight + review_count), \
     score_academic = (p.weight * p.mean_academic + sum_academic) / (p.weight + review_count), \
     score_funding = (p.weight * p.mean_funding + sum_funding) / (p.weight + review_count), \
     score_relationship = (p.weight * p.mean_relationship + sum_relationship) / (p.weight + review_count), \
     score_prospects = (p.weight * p.mean_prospects + sum_prospects) / (p.weight + review_count)";

pub async fn stored_prior<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
) -> Result<StoredPrior, sqlx::Error> {
    sqlx::query_as(
        "SELECT weight, mean_overall, mean_academic, mean_funding, mean_relationship, mean_prospects \
         FROM score_prior WHERE id = 1",
    )
    .fetch_one(db)
    .await
}

/// After an advisor's sums changed: that advisor's scores, and every
/// advisor's when the prior has drifted beyond [`PRIOR_DRIFT`]. Returns
/// whether everything was recomputed.
pub async fn refresh(conn: &mut Conn, advisor_id: i64) -> Result<bool, sqlx::Error> {
    let stored = stored_prior(&mut *conn).await?;
    let live = StoredPrior::live(&crate::store::site_stats(&mut *conn).await?);
    if stored.distance(&live) > PRIOR_DRIFT {
        recompute_all(&mut *conn, &live).await?;
        return Ok(true);
    }
    rescore(conn, advisor_id).await?;
    Ok(false)
}

/// One advisor's scores under the stored prior, the prior left as it is:
/// for an advisor added without reviews (`store::roster`), whose sums
/// moved nothing site-wide. The default 0 of the score columns would put
/// a new advisor last and off the formula; this makes it the prior mean,
/// computed exactly as every other score.
pub async fn rescore(conn: &mut Conn, advisor_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "UPDATE advisors SET {SCORES_SET} FROM score_prior AS p WHERE p.id = 1 AND advisors.id = $1"
    ))
    .bind(advisor_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Stores `prior` and recomputes every advisor's scores with it.
pub async fn recompute_all(conn: &mut Conn, prior: &StoredPrior) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE score_prior SET weight = $1, mean_overall = $2, mean_academic = $3, mean_funding = $4, \
         mean_relationship = $5, mean_prospects = $6 WHERE id = 1",
    )
    .bind(prior.weight)
    .bind(prior.mean_overall)
    .bind(prior.mean_academic)
    .bind(prior.mean_funding)
    .bind(prior.mean_relationship)
    .bind(prior.mean_prospects)
    .execute(&mut *conn)
    .await?;
    sqlx::query(&format!(
        "UPDATE advisors SET {SCORES_SET} FROM score_prior AS p WHERE p.id = 1"
    ))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// What is wrong with the stored scores, as lines (empty when right): the
/// stored prior further than [`PRIOR_DRIFT`] from the live one, and advisors
/// whose stored scores are not the formula under the stored prior.
pub async fn score_drift(conn: &mut Conn, max: usize) -> Result<Vec<String>, sqlx::Error> {
    let mut out = Vec::new();
    let stored = stored_prior(&mut *conn).await?;
    let live = StoredPrior::live(&crate::store::site_stats(&mut *conn).await?);
    if stored.distance(&live) > PRIOR_DRIFT {
        out.push(format!("prior {stored:?} / live {live:?}"));
    }
    let wrong: Vec<(i64, f64, f64)> = sqlx::query_as(
        "SELECT a.id, a.score_overall, \
                (p.weight * p.mean_overall + a.sum_overall) / (p.weight + a.review_count) AS expected \
         FROM advisors a, score_prior p WHERE p.id = 1 AND ( \
            a.score_overall != (p.weight * p.mean_overall + a.sum_overall) / (p.weight + a.review_count) \
         OR a.score_academic != (p.weight * p.mean_academic + a.sum_academic) / (p.weight + a.review_count) \
         OR a.score_funding != (p.weight * p.mean_funding + a.sum_funding) / (p.weight + a.review_count) \
         OR a.score_relationship != (p.weight * p.mean_relationship + a.sum_relationship) / (p.weight + a.review_count) \
         OR a.score_prospects != (p.weight * p.mean_prospects + a.sum_prospects) / (p.weight + a.review_count)) \
         ORDER BY a.id LIMIT $1",
    )
    .bind(max as i64)
    .fetch_all(&mut *conn)
    .await?;
    out.extend(
        wrong
            .into_iter()
            .map(|(id, stored, expected)| format!("advisor {id} score {stored} / {expected}")),
    );
    out.truncate(max);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_is_the_largest_difference_of_any_mean() {
        let a = StoredPrior::live(&SiteStats::default());
        assert_eq!(a.mean_overall, ranking::FALLBACK_MEAN);
        let mut b = a;
        b.mean_funding += 0.02;
        b.mean_overall -= 0.005;
        assert!((a.distance(&b) - 0.02).abs() < 1e-12);
        assert_eq!(a.distance(&a), 0.0);
    }

    #[test]
    fn the_sql_formula_and_the_rust_one_agree() {
        // The stored score is (w·m + sum) / (w + n), evaluated in doubles in
        // this order; ranking::bayesian must be the same expression.
        let prior = Prior {
            mean: 3.87,
            weight: ranking::PRIOR_WEIGHT,
        };
        let by_hand = (prior.weight * prior.mean + 431.0) / (prior.weight + 97.0);
        assert_eq!(ranking::bayesian(431, 97, prior), by_hand);
    }
}
