//! Statistics: what the reviews of a (school, major) add up to — in SQL
//! from the advisors' aggregate columns ([`Site::ranking_stats`]), and the
//! same from rows ([`stats_of`], the reference the tests hold it to) — and
//! the home page's figures for the whole site.

use app::error::ApiError;
use app::model::{AdvisorRef, DimensionBest, HomeData, RankingStats, SortKey};

use crate::catalog::{MajorEntry, Resolution, SchoolEntry};
use crate::ranking;
use crate::store::{self, AdvisorRow};

use super::{db_error, Site};

impl Site {
    /// What the reviews of a resolved (school, major) add up to: sums of the
    /// advisors' aggregate columns and a best advisor per dimension, in SQL
    /// (`store::rankings`), never the reviews. [`stats_of`] is the same
    /// statistics from rows, the reference the tests hold this to.
    pub async fn ranking_stats(
        &self,
        school: &SchoolEntry,
        major: &MajorEntry,
    ) -> Result<RankingStats, ApiError> {
        use store::rankings;
        let (s, m) = (school.id, major.id);
        let sums = rankings::sums(&self.pool, s, m).await.map_err(db_error)?;
        let most = rankings::most_reviewed(&self.pool, s, m)
            .await
            .map_err(db_error)?;
        let mut best = Vec::with_capacity(DIMENSIONS.len());
        for &(key, sum, column) in &DIMENSIONS {
            if let Some(a) = rankings::best_on(&self.pool, s, m, column)
                .await
                .map_err(db_error)?
            {
                best.push(DimensionBest {
                    dimension: key.as_param().to_string(),
                    label: key.label().to_string(),
                    advisor: advisor_ref(
                        &a,
                        ranking::round1(ranking::mean(sum(&a), a.review_count)),
                    ),
                });
            }
        }
        Ok(RankingStats {
            advisors: sums.advisors.max(0) as u64,
            reviews: sums.reviews,
            average: (sums.reviews > 0)
                .then(|| ranking::round1(ranking::mean(sums.sum_overall, sums.reviews))),
            histogram: [
                sums.hist_1,
                sums.hist_2,
                sums.hist_3,
                sums.hist_4,
                sums.hist_5,
            ],
            most_reviewed: most.map(|a| advisor_ref(&a, a.review_count as f64)),
            best,
        })
    }

    /// [`Site::ranking_stats`] by what the student typed, resolved as
    /// [`Site::ranking`] resolves it; `None` where that shows no ranking (an
    /// unknown or ambiguous school, a major the school does not have).
    pub async fn ranking_stats_by_name(
        &self,
        school: &str,
        major: &str,
    ) -> Result<Option<RankingStats>, ApiError> {
        let Some(s) = self.catalog.resolve_school(school).found() else {
            return Ok(None);
        };
        if major.trim().is_empty() {
            return Ok(None);
        }
        match self.catalog.resolve_major_at(s.id, major) {
            Resolution::Found(m) if self.catalog.advisor_count(s.id, m.id) > 0 => {
                self.ranking_stats(s, m).await.map(Some)
            }
            _ => Ok(None),
        }
    }

    pub async fn home(&self) -> Result<HomeData, ApiError> {
        let stats = store::site_stats(&self.pool).await.map_err(db_error)?;
        let advisor_count = store::advisor_total(&self.pool).await.map_err(db_error)?;
        Ok(HomeData {
            schools: self.schools(),
            school_count: self.catalog.schools().len() as i64,
            advisor_count,
            review_count: stats.review_count,
        })
    }
}

/// Reads one aggregate column of an advisor row.
type SumColumn = fn(&AdvisorRow) -> i64;

/// The four dimensions students rate, with the aggregate column of each
/// (as a row's field and as the store's column).
const DIMENSIONS: [(SortKey, SumColumn, store::rankings::SumColumn); 4] = [
    (
        SortKey::Academic,
        |a| a.sum_academic,
        store::rankings::SumColumn::Academic,
    ),
    (
        SortKey::Funding,
        |a| a.sum_funding,
        store::rankings::SumColumn::Funding,
    ),
    (
        SortKey::Relationship,
        |a| a.sum_relationship,
        store::rankings::SumColumn::Relationship,
    ),
    (
        SortKey::Prospects,
        |a| a.sum_prospects,
        store::rankings::SumColumn::Prospects,
    ),
];

fn advisor_ref(a: &AdvisorRow, value: f64) -> AdvisorRef {
    AdvisorRef {
        id: a.id.to_string(),
        name: a.name.clone(),
        value,
    }
}

/// The statistics of a group of advisors from their aggregates alone.
pub fn stats_of(rows: &[AdvisorRow]) -> RankingStats {
    let reviews: i64 = rows.iter().map(|a| a.review_count).sum();
    let sum_overall: i64 = rows.iter().map(|a| a.sum_overall).sum();
    let mut histogram = [0i64; 5];
    for a in rows {
        for (total, n) in histogram.iter_mut().zip(a.histogram()) {
            *total += n;
        }
    }
    // Most reviews; equal counts go to the name first by code point (a
    // stable order, not pinyin), then the lower id.
    let most_reviewed = rows
        .iter()
        .filter(|a| a.review_count > 0)
        .min_by(|a, b| {
            b.review_count
                .cmp(&a.review_count)
                .then_with(|| a.name.cmp(&b.name))
                .then(a.id.cmp(&b.id))
        })
        .map(|a| advisor_ref(a, a.review_count as f64));
    let rated: Vec<&AdvisorRow> = rows
        .iter()
        .filter(|a| a.review_count >= RankingStats::MIN_REVIEWS)
        .collect();
    let best = DIMENSIONS
        .iter()
        .filter_map(|&(key, sum, _)| {
            rated
                .iter()
                .min_by(|a, b| better_on(a, b, sum))
                .map(|a| DimensionBest {
                    dimension: key.as_param().to_string(),
                    label: key.label().to_string(),
                    advisor: advisor_ref(a, ranking::round1(ranking::mean(sum(a), a.review_count))),
                })
        })
        .collect();
    RankingStats {
        advisors: rows.len() as u64,
        reviews,
        average: (reviews > 0).then(|| ranking::round1(ranking::mean(sum_overall, reviews))),
        histogram,
        most_reviewed,
        best,
    }
}

/// `Less` when `a` is the better advisor on the dimension `sum` reads: the
/// higher exact average (compared as fractions, no rounding), then more
/// reviews, then the name first by code point, then the lower id.
fn better_on(a: &AdvisorRow, b: &AdvisorRow, sum: SumColumn) -> std::cmp::Ordering {
    let mean_a = i128::from(sum(a)) * i128::from(b.review_count);
    let mean_b = i128::from(sum(b)) * i128::from(a.review_count);
    mean_b
        .cmp(&mean_a)
        .then(b.review_count.cmp(&a.review_count))
        .then_with(|| a.name.cmp(&b.name))
        .then(a.id.cmp(&b.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An advisor row with `n` reviews whose scores on every dimension add
    /// up to `sums` (academic, funding, relationship, prospects).
    fn row(id: i64, name: &str, n: i64, sums: [i64; 4]) -> AdvisorRow {
        AdvisorRow {
            id,
            name: name.to_string(),
            title: "教授".to_string(),
            school_id: 1,
            major_id: 1,
            bio: String::new(),
            review_count: n,
            sum_overall: sums[0],
            sum_academic: sums[0],
            sum_funding: sums[1],
            sum_relationship: sums[2],
            sum_prospects: sums[3],
            hist_1: 0,
            hist_2: 0,
            hist_3: 0,
            hist_4: n,
            hist_5: 0,
            score_overall: 0.0,
            recommend_yes: 0,
            recommend_answered: 0,
        }
    }

    fn best_names(stats: &RankingStats) -> Vec<(&str, &str)> {
        stats
            .best
            .iter()
            .map(|b| (b.dimension.as_str(), b.advisor.name.as_str()))
            .collect()
    }

    #[test]
    fn an_empty_group_has_no_average_and_no_names() {
        let stats = stats_of(&[]);
        assert_eq!(stats.advisors, 0);
        assert_eq!(stats.reviews, 0);
        assert_eq!(stats.average, None);
        assert_eq!(stats.histogram, [0; 5]);
        assert_eq!(stats.most_reviewed, None);
        assert!(stats.best.is_empty());

        let unreviewed = stats_of(&[row(1, "甲", 0, [0; 4])]);
        assert_eq!(unreviewed.advisors, 1);
        assert_eq!(unreviewed.most_reviewed, None);
        assert!(unreviewed.best.is_empty());
    }

    #[test]
    fn two_perfect_reviews_are_not_enough_to_be_best() {
        let rows = [
            row(1, "满分", 2, [10, 10, 10, 10]),
            row(2, "稳定", 10, [40, 35, 45, 42]),
            row(3, "扎实", 3, [12, 13, 12, 12]),
        ];
        let stats = stats_of(&rows);
        assert_eq!(
            best_names(&stats),
            vec![
                ("academic", "稳定"),
                ("funding", "扎实"),
                ("relationship", "稳定"),
                ("prospects", "稳定"),
            ]
        );
        assert_eq!(stats.best[0].label, "学术水平");
        assert_eq!(stats.best[1].advisor.value, 4.3);
        assert_eq!(stats.reviews, 15);
        assert_eq!(stats.average, Some(ranking::round1(62.0 / 15.0)));
        assert_eq!(stats.histogram, [0, 0, 0, 15, 0]);
        let most = stats.most_reviewed.unwrap();
        assert_eq!((most.id.as_str(), most.value), ("2", 10.0));
    }

    #[test]
    fn equal_averages_go_to_more_reviews_then_to_the_name() {
        // 4.0 exactly from 3 and from 6 reviews: more reviews win.
        let stats = stats_of(&[row(1, "甲", 3, [12; 4]), row(2, "乙", 6, [24; 4])]);
        assert!(stats.best.iter().all(|b| b.advisor.name == "乙"));
        // Same average, same count: the name first by code point wins (张
        // U+5F20 before 李 U+674E), whatever the id.
        let stats = stats_of(&[row(3, "李四", 4, [16; 4]), row(9, "张三", 4, [16; 4])]);
        assert!(stats.best.iter().all(|b| b.advisor.name == "张三"));
        assert_eq!(stats.most_reviewed.unwrap().name, "张三");
        // Averages that round alike are still told apart exactly: 13/3 > 30/7.
        let stats = stats_of(&[row(1, "甲", 7, [30; 4]), row(2, "乙", 3, [13; 4])]);
        assert_eq!(stats.best[0].advisor.name, "乙");
        assert_eq!(stats.best[0].advisor.value, 4.3);
    }
}
