//! Explainable recommendations: every advisor of the student's school and
//! major gets a score from research-direction match, review tags that match
//! the wanted personality / style / funding, and the Bayesian rating, with the
//! weights in `server/config/recommend_weights.conf` and a reason for each part
//! that counted ("主要研究机器学习，学生评价温和").

use std::collections::HashMap;

use app::model::{RecommendResult, RecommendedAdvisor, TagCount};

use crate::ranking;
use crate::ranking::Priors;
use crate::store::AdvisorRow;

const WEIGHTS: &str = include_str!("../../config/recommend_weights.conf");

/// A recommendation lists the best fit and those scoring at least this share
/// of its score (so a weak third is not highlighted just to fill the list).
const CLOSE_TO_BEST: f64 = 0.8;
const PREFERENCE_TAGS: &str = include_str!("../../lexicons/preference_tags.txt");

/// The weights of the five criteria and how many advisors to return.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub direction: f64,
    pub personality: f64,
    pub style: f64,
    pub funding: f64,
    pub rating: f64,
    pub degree: f64,
    pub top: usize,
}

impl Weights {
    pub fn parse(text: &str) -> Weights {
        let mut w = Weights {
            direction: 40.0,
            personality: 20.0,
            style: 12.0,
            funding: 12.0,
            rating: 16.0,
            degree: 10.0,
            top: 3,
        };
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            let Ok(value) = value.trim().parse::<f64>() else {
                continue;
            };
            let value = value.max(0.0);
            match key.trim() {
                "direction" => w.direction = value,
                "personality" => w.personality = value,
                "style" => w.style = value,
                "funding" => w.funding = value,
                "rating" => w.rating = value,
                "degree" => w.degree = value,
                "top" => w.top = (value as usize).clamp(1, 10),
                _ => {}
            }
        }
        w
    }
}

/// What the student's form asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wanted {
    pub direction: Option<String>,
    pub personality: Option<String>,
    pub style: Option<String>,
    pub funding: Option<String>,
    /// 学硕 / 专硕 / 直博; only 直博 weighs in (a PhD needs a doctoral supervisor).
    pub degree: Option<String>,
}

impl Wanted {
    pub fn is_empty(&self) -> bool {
        self.direction.is_none()
            && self.personality.is_none()
            && self.style.is_none()
            && self.funding.is_none()
    }
}

/// The facts about one advisor the score is computed from.
pub struct Candidate<'a> {
    pub row: &'a AdvisorRow,
    pub directions: &'a [String],
    pub tags: &'a [TagCount],
}

pub struct Recommender {
    weights: Weights,
    /// preference value → (tags for it, tags against it)
    tags: HashMap<String, (Vec<String>, Vec<String>)>,
}

impl Default for Recommender {
    fn default() -> Self {
        Self::load()
    }
}

impl Recommender {
    pub fn load() -> Recommender {
        let mut tags = HashMap::new();
        for line in PREFERENCE_TAGS
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let Some((value, rest)) = line.split_once(':') else {
                continue;
            };
            let (pro, con) = rest.split_once('|').unwrap_or((rest, ""));
            let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
            tags.insert(value.trim().to_string(), (words(pro), words(con)));
        }
        Recommender {
            weights: Weights::parse(WEIGHTS),
            tags,
        }
    }

    pub fn weights(&self) -> Weights {
        self.weights
    }

    /// Share of an advisor's reviews carrying any of `wanted`'s tags, minus
    /// half the share carrying an opposite tag, in 0..1.
    fn tag_fit(&self, value: &str, c: &Candidate<'_>) -> (f64, i64) {
        let Some((pro, con)) = self.tags.get(value) else {
            return (0.0, 0);
        };
        let count = |list: &[String]| -> i64 {
            c.tags
                .iter()
                .filter(|t| list.contains(&t.tag))
                .map(|t| t.count)
                .sum()
        };
        let (p, n) = (count(pro), count(con));
        let reviews = c.row.review_count.max(1) as f64;
        // A third of reviews naming a trait is already a strong signal.
        let fit = ((p as f64 - 0.5 * n as f64) / reviews * 3.0).clamp(0.0, 1.0);
        (fit, p)
    }

    /// The score (0–100) and the reasons, best reason first.
    pub fn score(&self, c: &Candidate<'_>, wanted: &Wanted, priors: &Priors) -> (f64, Vec<String>) {
        let w = self.weights;
        let mut total = 0.0;
        let mut weight = 0.0;
        let mut reasons: Vec<(f64, String)> = Vec::new();

        if let Some(want) = &wanted.direction {
            let (fit, reason) = direction_fit(want, c.directions);
            total += w.direction * fit;
            weight += w.direction;
            if let Some(r) = reason {
                reasons.push((w.direction * fit + 100.0, r));
            }
        }
        for (value, wt, label) in [
            (&wanted.personality, w.personality, "personality"),
            (&wanted.style, w.style, "style"),
        ] {
            let Some(value) = value else { continue };
            let (fit, mentions) = self.tag_fit(value, c);
            total += wt * fit;
            weight += wt;
            if fit >= 0.3 && mentions > 0 {
                let text = if label == "personality" {
                    format!("学生评价{value}")
                } else {
                    format!("偏{value}")
                };
                reasons.push((wt * fit, text));
            }
        }
        if let Some(value) = &wanted.funding {
            let (tag_fit, mentions) = self.tag_fit(value, c);
            let fit = if value == "充足" {
                let dim = if c.row.review_count > 0 {
                    (ranking::mean(c.row.sum_funding, c.row.review_count) - 1.0) / 4.0
                } else {
                    0.0
                };
                0.6 * tag_fit + 0.4 * dim
            } else {
                0.5
            };
            total += w.funding * fit;
            weight += w.funding;
            if value == "充足" && fit >= 0.45 && mentions > 0 {
                reasons.push((w.funding * fit, "经费充足".to_string()));
            }
        }
        if wanted.degree.as_deref() == Some("直博") {
            let fit = phd_fit(&c.row.title);
            total += w.degree * fit;
            weight += w.degree;
            if fit >= 1.0 {
                reasons.push((w.degree, format!("{}，可带博士生", c.row.title)));
            }
        }
        let bayes = ranking::bayesian(c.row.sum_overall, c.row.review_count, priors.overall);
        total += w.rating * ((bayes - 1.0) / 4.0).clamp(0.0, 1.0);
        weight += w.rating;
        if c.row.review_count > 0 {
            let mean = ranking::round1(ranking::mean(c.row.sum_overall, c.row.review_count));
            reasons.push((
                w.rating * (mean - 3.0).max(0.0) / 2.0,
                format!("综合评分{mean}（{}条评价）", c.row.review_count),
            ));
        }
        reasons.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        let score = if weight > 0.0 {
            total / weight * 100.0
        } else {
            0.0
        };
        (
            ranking::round1(score),
            reasons.into_iter().map(|(_, r)| r).collect(),
        )
    }

    /// Ranks candidates by fit and returns the best `top` with their reasons.
    pub fn recommend(
        &self,
        school: &str,
        major: &str,
        candidates: &[Candidate<'_>],
        wanted: &Wanted,
        priors: &Priors,
    ) -> RecommendResult {
        let mut scored: Vec<(f64, &Candidate<'_>, Vec<String>)> = candidates
            .iter()
            .map(|c| {
                let (score, reasons) = self.score(c, wanted, priors);
                (score, c, reasons)
            })
            .collect();
        scored.sort_by(|a, b| {
            ranking::compare(
                (a.0, a.1.row.review_count, a.1.row.id),
                (b.0, b.1.row.review_count, b.1.row.id),
            )
        });
        // Only real fits are recommended: within reach of the best one.
        let best = scored.first().map(|s| s.0).unwrap_or(0.0);
        let advisors = scored
            .into_iter()
            .take(self.weights.top)
            .enumerate()
            .filter(|(i, s)| *i == 0 || s.0 >= best * CLOSE_TO_BEST)
            .map(|(_, s)| s)
            .map(|(score, c, reasons)| RecommendedAdvisor {
                id: c.row.id.to_string(),
                name: c.row.name.clone(),
                title: c.row.title.clone(),
                rating: ranking::round1(ranking::mean(c.row.sum_overall, c.row.review_count)),
                review_count: c.row.review_count,
                score,
                reasons,
                directions: c.directions.to_vec(),
            })
            .collect();
        RecommendResult {
            school: school.to_string(),
            major: major.to_string(),
            advisors,
        }
    }
}

/// How likely an advisor of this title supervises PhD students: full
/// professors and research professors almost always, associate ones
/// sometimes, others rarely.
pub fn phd_fit(title: &str) -> f64 {
    if title.contains("副") {
        0.4
    } else if title.contains("教授") || title.contains("研究员") || title.contains("博导") {
        1.0
    } else {
        0.1
    }
}

/// How well an advisor's directions fit the wanted one(s): an exact match
/// (the first listed direction counts most), a related one (sharing a
/// two-character word such as "学习" or containing it), or none.
/// How many advisors of a pair the recommender weighs at most. A popular
/// pair has thousands; reading every one's tags on a turn would make the
/// turn grow with the pair.
pub const MAX_CANDIDATES: usize = 150;

/// The advisors worth weighing when a pair is larger than `limit`: the
/// `limit` best by the overall ranking (`top`, in its order) and up to
/// `limit` more whose directions fit the wanted one (from `directions`, the
/// pair's directory) — a perfect fit further down the ranking is still
/// found. Without a wanted direction, the best `limit`.
pub fn shortlist(
    top: &[i64],
    directions: &HashMap<i64, Vec<String>>,
    want: Option<&str>,
    limit: usize,
) -> Vec<i64> {
    let mut out: Vec<i64> = top.iter().copied().take(limit).collect();
    if let Some(want) = want {
        let mut fitting: Vec<(i64, f64)> = directions
            .iter()
            .filter(|(id, _)| !out.contains(id))
            .map(|(id, list)| (*id, direction_fit(want, list).0))
            .filter(|(_, fit)| *fit > 0.0)
            .collect();
        fitting.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        out.extend(fitting.into_iter().take(limit).map(|(id, _)| id));
    }
    out
}

pub fn direction_fit(wanted: &str, directions: &[String]) -> (f64, Option<String>) {
    let wants = crate::text::clauses::list_items(wanted);
    let mut best = (0.0, None);
    for want in &wants {
        for (i, d) in directions.iter().enumerate() {
            let (fit, reason) = if d == want {
                let fit = if i == 0 { 1.0 } else { 0.85 };
                let reason = if i == 0 {
                    format!("主要研究{d}")
                } else {
                    format!("也做{d}")
                };
                (fit, reason)
            } else if d.contains(want) || want.contains(d.as_str()) || shares_word(d, want) {
                (0.6, format!("研究{d}，与{want}相近"))
            } else {
                continue;
            };
            if fit > best.0 {
                best = (fit, Some(reason));
            }
        }
    }
    best
}

/// True when two names share a two-character word (机器学习 / 强化学习).
fn shares_word(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: String = b.to_string();
    a.windows(2).any(|w| {
        let pair: String = w.iter().collect();
        pair.chars().all(|c| c as u32 > 0x2E80)
            && b.contains(&pair)
            && !GENERIC_PAIRS.contains(&pair.as_str())
    })
}

/// Two-character words too common to make two directions related.
const GENERIC_PAIRS: &[&str] = &[
    "研究", "技术", "系统", "工程", "科学", "理论", "应用", "方法", "分析",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranking::Prior;

    fn priors() -> Priors {
        let p = Prior {
            mean: 3.5,
            weight: 8.0,
        };
        Priors {
            overall: p,
            academic: p,
            funding: p,
            relationship: p,
            prospects: p,
        }
    }

    fn row(id: i64, n: i64, mean: f64, funding: f64) -> AdvisorRow {
        AdvisorRow {
            id,
            name: format!("导师{id}"),
            title: "教授".into(),
            school_id: 1,
            major_id: 1,
            bio: String::new(),
            review_count: n,
            sum_overall: (mean * n as f64) as i64,
            sum_academic: (mean * n as f64) as i64,
            sum_funding: (funding * n as f64) as i64,
            sum_relationship: (mean * n as f64) as i64,
            sum_prospects: (mean * n as f64) as i64,
            hist_1: 0,
            hist_2: 0,
            hist_3: 0,
            hist_4: 0,
            hist_5: n,
            score_overall: 0.0,
            recommend_yes: 0,
            recommend_answered: 0,
        }
    }

    #[test]
    fn a_large_pair_is_weighed_by_its_best_and_its_fitting_advisors() {
        let mut directions: HashMap<i64, Vec<String>> = HashMap::new();
        for id in 1..=10 {
            directions.insert(id, vec!["操作系统".to_string()]);
        }
        directions.insert(9, vec!["机器学习".to_string()]);
        directions.insert(10, vec!["数据库".to_string(), "机器学习".to_string()]);
        let top = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(shortlist(&top, &directions, None, 3), vec![1, 2, 3]);
        // The fitting ones come after the best, the closer fit first.
        assert_eq!(
            shortlist(&top, &directions, Some("机器学习"), 3),
            vec![1, 2, 3, 9, 10]
        );
        // A fitting advisor already among the best is not listed twice.
        assert_eq!(
            shortlist(&top, &directions, Some("机器学习"), 9),
            (1..=10).collect::<Vec<_>>()
        );
    }

    fn tags(list: &[(&str, i64)]) -> Vec<TagCount> {
        list.iter()
            .map(|(t, c)| TagCount {
                tag: t.to_string(),
                count: *c,
            })
            .collect()
    }

    #[test]
    fn the_weights_file_parses() {
        let w = Recommender::load().weights();
        assert!(w.direction > 0.0 && w.rating > 0.0);
        assert_eq!(
            Weights::parse("direction = 7\ntop = 5\n# x = 1\nbogus").direction,
            7.0
        );
    }

    #[test]
    fn direction_match_then_gentleness_decide() {
        let r = Recommender::load();
        let (a, b, c) = (
            row(1, 40, 4.5, 4.0),
            row(2, 40, 4.6, 4.0),
            row(3, 40, 4.5, 4.0),
        );
        let ml = vec!["机器学习".to_string(), "深度学习".to_string()];
        let db = vec!["数据库".to_string()];
        let gentle = tags(&[("温和", 20), ("负责", 10)]);
        let strict = tags(&[("严格", 20), ("push", 10)]);
        let candidates = [
            Candidate {
                row: &a,
                directions: &ml,
                tags: &gentle,
            },
            Candidate {
                row: &b,
                directions: &db,
                tags: &gentle,
            },
            Candidate {
                row: &c,
                directions: &ml,
                tags: &strict,
            },
        ];
        let wanted = Wanted {
            direction: Some("机器学习".into()),
            personality: Some("温和".into()),
            ..Wanted::default()
        };
        let result = r.recommend(
            "北京大学",
            "计算机科学与技术",
            &candidates,
            &wanted,
            &priors(),
        );
        let ids: Vec<&str> = result.advisors.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids[0], "1");
        assert!(
            !ids.contains(&"2"),
            "a database advisor is no fit for 机器学习: {ids:?}"
        );
        assert_eq!(result.advisors[0].reasons[0], "主要研究机器学习");
        assert!(result.advisors[0]
            .reasons
            .contains(&"学生评价温和".to_string()));
        assert!(result
            .advisors
            .iter()
            .skip(1)
            .all(|a| a.score >= result.advisors[0].score * CLOSE_TO_BEST));
    }

    #[test]
    fn related_directions_count_partly() {
        let (fit, reason) = direction_fit("机器学习", &["强化学习".to_string()]);
        assert!((fit - 0.6).abs() < 1e-9);
        assert!(reason.unwrap().contains("相近"));
        assert_eq!(
            direction_fit("机器学习", &["数据库系统".to_string()]).0,
            0.0
        );
        assert_eq!(
            direction_fit("操作系统", &["分布式系统".to_string()]).0,
            0.0,
            "系统 alone is too generic"
        );
        assert_eq!(
            direction_fit("机器学习、数据库", &["数据库".to_string()]).0,
            1.0
        );
    }

    #[test]
    fn without_preferences_the_rating_decides() {
        let r = Recommender::load();
        let (good, thin) = (row(1, 60, 4.6, 4.0), row(2, 2, 5.0, 5.0));
        let none: Vec<String> = vec![];
        let no_tags = tags(&[]);
        let candidates = [
            Candidate {
                row: &thin,
                directions: &none,
                tags: &no_tags,
            },
            Candidate {
                row: &good,
                directions: &none,
                tags: &no_tags,
            },
        ];
        let result = r.recommend("s", "m", &candidates, &Wanted::default(), &priors());
        assert_eq!(
            result.advisors[0].id, "1",
            "many good reviews beat two perfect ones"
        );
    }
}
