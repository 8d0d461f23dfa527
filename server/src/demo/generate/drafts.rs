//! A review before its text: the four dimension scores and the overall one,
//! scattered around the advisor's traits (with a few contrarian opinions),
//! its tags ([`super::tags`]), the writer's relation to the group and the
//! date; drawn until the advisor's plan ([`super::plans`]) is met.

use super::dates::random_date;
use super::plans::Plan;
use super::rng::Rng;
use super::tags::draft_tags;
use super::traits::Traits;
use crate::demo::catalog_data as data;

/// A review before its text: scores (academic, funding, relationship,
/// prospects, overall), tags, relation and date.
#[derive(Clone, Debug)]
pub(super) struct Draft {
    pub(super) scores: [u8; 5],
    pub(super) tags: Vec<&'static str>,
    pub(super) relation: &'static str,
    pub(super) created_at: String,
}

fn to_score(x: f64) -> u8 {
    x.round().clamp(1.0, 5.0) as u8
}

/// The drafts of one advisor's reviews, as their plan says.
pub(super) fn draft_reviews(rng: &mut Rng, t: &Traits, plan: &Plan) -> Vec<Draft> {
    match plan {
        Plan::Free(n) => (0..*n).map(|_| draft(rng, t, false)).collect(),
        Plan::Perfect(n) => (0..*n).map(|_| draft(rng, t, true)).collect(),
        Plan::Target {
            count,
            lo,
            hi,
            top_tags,
        } => {
            let mut drafts = Vec::new();
            for _ in 0..1000 {
                drafts = (0..*count).map(|_| draft(rng, t, false)).collect();
                let mean = drafts.iter().map(|d| d.scores[4] as f64).sum::<f64>() / *count as f64;
                let tags_ok = top_tags.is_none_or(|top| top_two_tags(&drafts) == top);
                if mean >= *lo && mean <= *hi && tags_ok {
                    break;
                }
            }
            drafts
        }
    }
}

/// The two most frequent tags of some drafts, in the order of `TAGS`, if they
/// are strictly more frequent than every other tag.
fn top_two_tags(drafts: &[Draft]) -> [&'static str; 2] {
    let mut counts: Vec<(usize, usize)> = data::TAGS
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            let c = drafts.iter().filter(|d| d.tags.contains(name)).count();
            (c, i)
        })
        .collect();
    counts.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if counts[1].0 == counts[2].0 {
        return ["", ""];
    }
    let (a, b) = (counts[0].1.min(counts[1].1), counts[0].1.max(counts[1].1));
    [data::TAGS[a].0, data::TAGS[b].0]
}

fn draft(rng: &mut Rng, t: &Traits, perfect: bool) -> Draft {
    let scores = if perfect {
        [5; 5]
    } else {
        let mean_level = t.levels.iter().sum::<f64>() / 4.0;
        // A few contrarian opinions: a disappointed student of a good advisor,
        // an unusually happy one of a weak advisor.
        let shift = if mean_level > 3.0 && rng.chance(0.04) {
            -1.6
        } else if mean_level < 3.6 && rng.chance(0.03) {
            1.2
        } else {
            0.0
        };
        let mood = 0.35 * rng.normal() + shift;
        let mut dims = [0u8; 4];
        for (d, level) in dims.iter_mut().zip(t.levels.iter()) {
            *d = to_score(level + mood + 0.55 * rng.normal());
        }
        let [a, f, r, p] = dims.map(f64::from);
        let overall = to_score(0.3 * a + 0.15 * f + 0.35 * r + 0.2 * p + 0.3 * rng.normal());
        [dims[0], dims[1], dims[2], dims[3], overall]
    };
    let tags = draft_tags(rng, t, &scores);
    let relation = ["在读", "已毕业", "了解"][rng.weighted(&[45.0, 32.0, 23.0])];
    Draft {
        scores,
        tags,
        relation,
        created_at: random_date(rng),
    }
}
