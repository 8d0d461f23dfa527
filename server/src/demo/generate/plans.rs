//! Review plans: how many reviews each advisor gets (a long tail, more at
//! popular schools) and what some must add up to: 张三 and 李四 at their
//! known averages, a few star advisors with many excellent reviews and a few
//! with one or two perfect ones, the edge cases of the Bayesian ranking.

use super::advisors::FIXED_SCHOOL;
use super::rng::Rng;
use super::traits::{Group, Traits};
use super::{school_factor, AdvisorSeed, SchoolSeed};

/// Advisors with 60+ reviews averaging about 4.6, and advisors with only one
/// or two perfect reviews: both exercise the Bayesian ranking.
const STAR_ADVISORS: usize = 6;
const PERFECT_FEW_ADVISORS: usize = 10;

/// How many reviews an advisor gets and what they must add up to.
#[derive(Clone, Debug)]
pub(super) enum Plan {
    /// Reviews drawn freely around the traits.
    Free(usize),
    /// Redrawn until the mean overall score lies in `lo..=hi` and, if given,
    /// the two most frequent tags are exactly these.
    Target {
        count: usize,
        lo: f64,
        hi: f64,
        top_tags: Option<[&'static str; 2]>,
    },
    /// Only perfect reviews.
    Perfect(usize),
}

/// Long-tailed review counts: many advisors with a handful, a few with many.
fn review_count(rng: &mut Rng, school: &SchoolSeed) -> usize {
    let base = match rng.weighted(&[15.0, 44.0, 28.0, 10.0, 3.0]) {
        0 => return rng.range(0, 2),
        1 => rng.range(3, 8),
        2 => rng.range(9, 18),
        3 => rng.range(19, 34),
        _ => rng.range(35, 70),
    };
    let scale = 0.7 + 0.5 * school_factor(school);
    ((base as f64 * scale).round() as usize).max(3)
}

/// Every advisor's plan; the star and perfect-few advisors' traits are
/// raised to match theirs.
pub(super) fn make_plans(
    rng: &mut Rng,
    schools: &[SchoolSeed],
    advisors: &[AdvisorSeed],
    traits: &mut [Traits],
) -> Vec<Plan> {
    let mut plans: Vec<Plan> = advisors
        .iter()
        .map(|a| Plan::Free(review_count(rng, &schools[a.school])))
        .collect();
    let fixed = |a: &AdvisorSeed| a.name == "张三" || a.name == "李四";
    for (i, a) in advisors.iter().enumerate() {
        if schools[a.school].name == FIXED_SCHOOL && a.name == "张三" {
            plans[i] = Plan::Target {
                count: rng.range(46, 56),
                lo: 4.44,
                hi: 4.56,
                top_tags: Some(["温和", "负责"]),
            };
        } else if schools[a.school].name == FIXED_SCHOOL && a.name == "李四" {
            plans[i] = Plan::Target {
                count: rng.range(34, 44),
                lo: 4.24,
                hi: 4.36,
                top_tags: None,
            };
        }
    }

    let mut special: Vec<usize> = Vec::new();
    while special.len() < STAR_ADVISORS {
        let i = rng.below(advisors.len());
        let a = &advisors[i];
        if fixed(a)
            || special.contains(&i)
            || schools[a.school].popularity < 80
            || !matches!(a.title, "教授" | "研究员")
        {
            continue;
        }
        special.push(i);
        let t = &mut traits[i];
        t.levels = [4.9, 4.5, 4.9, 4.85];
        if t.group != Group::Warm {
            t.personality = "负责";
            t.second = Some("温和");
            t.group = Group::Warm;
        }
        t.meetings = false;
        plans[i] = Plan::Target {
            count: rng.range(60, 80),
            lo: 4.52,
            hi: 4.68,
            top_tags: None,
        };
    }
    let mut perfect = 0;
    while perfect < PERFECT_FEW_ADVISORS {
        let i = rng.below(advisors.len());
        if fixed(&advisors[i]) || special.contains(&i) {
            continue;
        }
        special.push(i);
        perfect += 1;
        let t = &mut traits[i];
        for l in t.levels.iter_mut() {
            *l = l.max(4.5);
        }
        plans[i] = Plan::Perfect(rng.range(1, 2));
    }
    plans
}
