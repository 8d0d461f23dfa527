//! Ranking maths: a Bayesian average, so that an advisor with two 5-star
//! reviews does not outrank one with eighty 4.6-star reviews. Every mean is
//! pulled toward the site-wide mean by `PRIOR_WEIGHT` imaginary reviews; the
//! more real reviews an advisor has, the less the pull matters.

use std::cmp::Ordering;

/// How many site-average reviews every advisor starts with (`app::policy`,
/// which the `/about` page prints).
pub const PRIOR_WEIGHT: f64 = app::policy::PRIOR_REVIEWS as f64;

/// The site-wide mean a score shrinks toward, used when there are no reviews yet.
pub const FALLBACK_MEAN: f64 = 3.5;

/// The prior of one dimension: the site-wide mean of that score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior {
    pub mean: f64,
    pub weight: f64,
}

impl Prior {
    /// The prior from site-wide sums (`sum` of scores over `count` reviews).
    pub fn from_sums(sum: i64, count: i64) -> Prior {
        let mean = if count > 0 {
            sum as f64 / count as f64
        } else {
            FALLBACK_MEAN
        };
        Prior {
            mean,
            weight: PRIOR_WEIGHT,
        }
    }
}

/// The priors of the five scores (overall, then the four dimensions), from
/// the site-wide sums.
#[derive(Clone, Copy, Debug)]
pub struct Priors {
    pub overall: Prior,
    pub academic: Prior,
    pub funding: Prior,
    pub relationship: Prior,
    pub prospects: Prior,
}

impl Priors {
    /// From the site-wide sums of overall, academic, funding, relationship
    /// and prospects, over `count` reviews.
    pub fn from_sums(sums: [i64; 5], count: i64) -> Priors {
        let p = |sum| Prior::from_sums(sum, count);
        Priors {
            overall: p(sums[0]),
            academic: p(sums[1]),
            funding: p(sums[2]),
            relationship: p(sums[3]),
            prospects: p(sums[4]),
        }
    }
}

/// The Bayesian average of `count` scores adding up to `sum`.
pub fn bayesian(sum: i64, count: i64, prior: Prior) -> f64 {
    (prior.weight * prior.mean + sum as f64) / (prior.weight + count as f64)
}

/// The plain mean, 0 without reviews.
pub fn mean(sum: i64, count: i64) -> f64 {
    if count > 0 {
        sum as f64 / count as f64
    } else {
        0.0
    }
}

/// Rounds to one decimal, as scores are shown.
pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The one order of every ranking: higher score first, then more reviews,
/// then the lower id, so that equal advisors keep a stable order across pages.
pub fn compare(a: (f64, i64, i64), b: (f64, i64, i64)) -> Ordering {
    let (score_a, count_a, id_a) = a;
    let (score_b, count_b, id_b) = b;
    score_b
        .partial_cmp(&score_a)
        .unwrap_or(Ordering::Equal)
        .then(count_b.cmp(&count_a))
        .then(id_a.cmp(&id_b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_perfect_reviews_do_not_beat_many_good_ones() {
        let prior = Prior {
            mean: 3.8,
            weight: PRIOR_WEIGHT,
        };
        let two_fives = bayesian(10, 2, prior);
        let eighty_good = bayesian(368, 80, prior); // 80 reviews averaging 4.6
        assert!(eighty_good > two_fives, "{eighty_good} vs {two_fives}");
        assert!(compare((eighty_good, 80, 2), (two_fives, 2, 1)).is_lt());
    }

    #[test]
    fn no_reviews_means_the_prior_mean() {
        let prior = Prior::from_sums(380, 100);
        assert!((bayesian(0, 0, prior) - 3.8).abs() < 1e-9);
        assert_eq!(mean(0, 0), 0.0);
        assert_eq!(Prior::from_sums(0, 0).mean, FALLBACK_MEAN);
    }

    #[test]
    fn many_reviews_converge_to_the_plain_mean() {
        let prior = Prior {
            mean: 3.0,
            weight: PRIOR_WEIGHT,
        };
        let score = bayesian(4500, 1000, prior);
        assert!((score - 4.5).abs() < 0.02, "{score}");
    }

    #[test]
    fn ties_break_on_review_count_then_id() {
        assert!(compare((4.0, 10, 5), (4.0, 3, 1)).is_lt());
        assert!(compare((4.0, 3, 1), (4.0, 3, 2)).is_lt());
        assert_eq!(compare((4.0, 3, 1), (4.0, 3, 1)), Ordering::Equal);
    }

    #[test]
    fn rounding_to_one_decimal() {
        assert_eq!(round1(4.449), 4.4);
        assert_eq!(round1(4.45001), 4.5);
    }
}
