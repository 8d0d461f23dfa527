//! The demo-data generator: turns a seed into a complete, realistic dataset of
//! schools, majors, fictional advisors and their reviews, so that a fresh site
//! has something to browse, rank and search the moment it starts.
//!
//! Schools and majors come straight from [`super::catalog_data`]; advisors and
//! reviews are drawn at random. Every advisor gets latent traits (quality,
//! personality, style, funding) and every review scatters around them, so
//! scores, tags and text agree with each other the way real reviews do, with
//! a few contrarian opinions mixed in.
//!
//! This file holds the entry points (`catalog`, `generate`) and the order of
//! the draws, which is the data: the advisors and their review plans come
//! from one random stream, the reviews from another. The steps live beside it:
//!
//! - `catalog`: the schools and majors, from the tables;
//! - `rng`: the random numbers;
//! - `traits`: what students would say about an advisor on average;
//! - `advisors`: who teaches where (names, titles, directions, 张三 and 李四);
//! - `bio`: an advisor's biography;
//! - `plans`: how many reviews each advisor gets and what they add up to;
//! - `drafts`: a review's scores, relation and date; `tags`: its tags;
//! - `text`: its words; `dates`: the review window and the calendar.
//!
//! Determinism: the output depends only on the seed and the static tables.
//! The random numbers come from a hand-written SplitMix64 (no crate whose
//! algorithm could change on upgrade), nothing reads the clock or the OS, no
//! hash-map order is ever observed, and floating point is limited to `+ - * /`
//! and `round` (no `ln`, `exp` or `cos`, whose last bits may differ between
//! platform math libraries). The same seed gives byte-identical data forever.
//! `the_demo_data_does_not_drift` below holds it to that.

mod advisors;
mod bio;
mod catalog;
mod dates;
mod drafts;
mod plans;
mod rng;
mod tags;
mod text;
mod traits;

use std::collections::BTreeSet;

use super::catalog_data as data;
pub use crate::store::dataset::data::{AdvisorSeed, DemoData, MajorSeed, ReviewSeed, SchoolSeed};

pub use catalog::catalog;
// What the demo grown to scale (`super::scale`) draws with.
pub(in crate::demo) use advisors::{make_name, pick_directions, TITLES, TITLE_WEIGHTS};
pub(in crate::demo) use catalog::major_index;
pub(in crate::demo) use dates::random_date;
pub(in crate::demo) use rng::Rng;

use advisors::make_advisors;
use drafts::draft_reviews;
use plans::make_plans;
use text::{review_text, TextCtx};

/// Generates the whole demo dataset from `seed`. Same seed, same data.
pub fn generate(seed: u64) -> DemoData {
    let DemoData {
        schools, majors, ..
    } = catalog();
    let mut rng = Rng::stream(seed, 1);
    let (advisors, mut traits) = make_advisors(&mut rng, &schools, &majors);
    let plans = make_plans(&mut rng, &schools, &advisors, &mut traits);

    let mut rng = Rng::stream(seed, 2);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut reviews: Vec<ReviewSeed> = Vec::new();
    for (i, advisor) in advisors.iter().enumerate() {
        let t = &traits[i];
        let drafts = draft_reviews(&mut rng, t, &plans[i]);
        let ctx = TextCtx {
            traits: t,
            directions: &advisor.directions,
            careers: data::MAJORS[advisor.major].careers,
            lab: is_lab(majors[advisor.major].category),
        };
        for d in drafts {
            let text = review_text(&mut rng, &ctx, &d, &mut seen);
            reviews.push(ReviewSeed {
                advisor: i,
                academic: d.scores[0],
                funding: d.scores[1],
                relationship: d.scores[2],
                prospects: d.scores[3],
                overall: d.scores[4],
                tags: d.tags,
                text,
                relation: d.relation,
                created_at: d.created_at,
                recommend: None,
            });
        }
    }
    // Ids follow positions, so order reviews as they would have been written.
    reviews.sort_by(|a, b| {
        a.created_at
            .cmp(&b.created_at)
            .then(a.advisor.cmp(&b.advisor))
    });
    super::answer_recommend(&mut reviews);

    DemoData {
        schools,
        majors,
        advisors,
        reviews,
    }
}

/// 0 for the least popular school of the table, 1 for the most popular.
fn school_factor(school: &SchoolSeed) -> f64 {
    ((school.popularity - 59) as f64 / 41.0).clamp(0.0, 1.0)
}

/// Fields whose students work in labs (experiments, equipment, code).
fn is_lab(category: &str) -> bool {
    matches!(category, "工学" | "理学" | "医学")
}

/// Length in characters, as the site counts it.
fn chars(s: &str) -> usize {
    s.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::collections::BTreeMap;
    use std::time::Instant;

    use super::dates::tests::is_valid_date;

    /// Seeds checked for the invariants: the test seed, the site's seed
    /// (`DEMO_SEED` in `demo/mod.rs`) and two arbitrary ones.
    const SEEDS: [u64; 4] = [42, 20_260_112, 1, 0xDEAD_BEEF];

    fn mean_overall(d: &DemoData, advisor: usize) -> (usize, f64) {
        let scores: Vec<f64> = d
            .reviews
            .iter()
            .filter(|r| r.advisor == advisor)
            .map(|r| f64::from(r.overall))
            .collect();
        let n = scores.len();
        (n, scores.iter().sum::<f64>() / n.max(1) as f64)
    }

    fn review_counts(d: &DemoData) -> Vec<usize> {
        let mut counts = vec![0; d.advisors.len()];
        for r in &d.reviews {
            counts[r.advisor] += 1;
        }
        counts
    }

    /// Phone numbers, ID numbers and the like: seven or more digits in a row
    /// (half- or full-width); e-mail addresses and links.
    fn looks_private(s: &str) -> bool {
        let mut run = 0;
        for c in s.chars() {
            if c.is_ascii_digit() || ('０'..='９').contains(&c) {
                run += 1;
                if run >= 7 {
                    return true;
                }
            } else {
                run = 0;
            }
        }
        s.contains('@') || s.contains('＠') || s.contains("http") || s.contains("www.")
    }

    fn check_invariants(d: &DemoData) {
        assert!(d.schools.len() >= 34, "schools: {}", d.schools.len());
        assert!(d.majors.len() >= 24, "majors: {}", d.majors.len());
        assert!(d.advisors.len() >= 1600, "advisors: {}", d.advisors.len());
        assert!(d.reviews.len() >= 16_000, "reviews: {}", d.reviews.len());

        // Schools and majors.
        for s in &d.schools {
            assert!(s.majors.len() >= 6, "{} offers {}", s.name, s.majors.len());
            assert!(s.majors.windows(2).all(|w| w[0] < w[1]));
            assert!(s.majors.iter().all(|m| *m < d.majors.len()));
            assert!(["985", "211", "双一流", "科研院所"].contains(&s.tier));
        }
        for (mi, m) in d.majors.iter().enumerate() {
            assert!(
                (8..=16).contains(&m.directions.len()),
                "{} has {} directions",
                m.name,
                m.directions.len()
            );
            let distinct: BTreeSet<_> = m.directions.iter().collect();
            assert_eq!(distinct.len(), m.directions.len(), "{}", m.name);
            assert!(
                d.schools.iter().any(|s| s.majors.contains(&mi)),
                "nobody offers {}",
                m.name
            );
        }

        // Advisors.
        let mut per_pair: BTreeMap<(usize, usize), Vec<&AdvisorSeed>> = BTreeMap::new();
        for a in &d.advisors {
            per_pair.entry((a.school, a.major)).or_default().push(a);
            assert!(d.schools[a.school].majors.contains(&a.major));
            let n = a.name.chars().count();
            assert!((2..=3).contains(&n), "{}", a.name);
            assert!(TITLES.contains(&a.title));
            assert!((1..=3).contains(&a.directions.len()));
            for dir in &a.directions {
                assert!(d.majors[a.major].directions.contains(&dir.as_str()));
            }
            let bio = chars(&a.bio);
            assert!((40..=120).contains(&bio), "bio of {} chars: {}", bio, a.bio);
            assert!(!looks_private(&a.bio), "{}", a.bio);
            assert!(!a.bio.contains('{'), "{}", a.bio);
        }
        let offered: usize = d.schools.iter().map(|s| s.majors.len()).sum();
        assert_eq!(per_pair.len(), offered, "every offered pair has advisors");
        for (pair, list) in &per_pair {
            assert!((3..=10).contains(&list.len()), "{pair:?}: {}", list.len());
            let names: BTreeSet<_> = list.iter().map(|a| a.name.as_str()).collect();
            assert_eq!(names.len(), list.len(), "duplicate name in {pair:?}");
        }
        let zs: Vec<usize> = (0..d.advisors.len())
            .filter(|i| matches!(d.advisors[*i].name.as_str(), "张三" | "李四"))
            .collect();
        assert_eq!(zs, vec![0, 1], "张三 and 李四 appear exactly once, first");
        for (title, share) in [
            ("教授", 0.35),
            ("副教授", 0.35),
            ("研究员", 0.15),
            ("讲师", 0.15),
        ] {
            let n = d.advisors.iter().filter(|a| a.title == title).count();
            let actual = n as f64 / d.advisors.len() as f64;
            assert!((actual - share).abs() < 0.05, "{title}: {actual}");
        }

        // Reviews.
        let first = "2019-01-01";
        let last = "2026-10-31";
        let mut texts: BTreeSet<&str> = BTreeSet::new();
        for r in &d.reviews {
            assert!(r.advisor < d.advisors.len());
            let dims = [r.academic, r.funding, r.relationship, r.prospects];
            for s in dims.iter().chain([r.overall].iter()) {
                assert!((1..=5).contains(s));
            }
            let mean = dims.iter().map(|s| f64::from(*s)).sum::<f64>() / 4.0;
            assert!(
                (f64::from(r.overall) - mean).abs() <= 1.75,
                "overall {} vs dims {dims:?}",
                r.overall
            );
            assert!(r.tags.len() <= 3);
            let distinct: BTreeSet<_> = r.tags.iter().collect();
            assert_eq!(distinct.len(), r.tags.len());
            for t in &r.tags {
                assert!(data::TAGS.iter().any(|(name, _)| name == t), "{t}");
            }
            let funding_levels = r
                .tags
                .iter()
                .filter(|t| matches!(**t, "经费充足" | "经费一般" | "经费紧张"))
                .count();
            assert!(funding_levels <= 1, "{:?}", r.tags);
            assert!(["在读", "已毕业", "了解"].contains(&r.relation));
            assert!(is_valid_date(&r.created_at), "{}", r.created_at);
            assert!(r.created_at.as_str() >= first && r.created_at.as_str() <= last);
            let n = chars(&r.text);
            assert!((20..=300).contains(&n), "{n} chars: {}", r.text);
            assert!(!looks_private(&r.text), "{}", r.text);
            assert!(!r.text.contains('{'), "{}", r.text);
            texts.insert(&r.text);
        }
        assert!(
            texts.len() as f64 >= 0.99 * d.reviews.len() as f64,
            "only {} distinct texts of {}",
            texts.len(),
            d.reviews.len()
        );
        assert!(d
            .reviews
            .windows(2)
            .all(|w| w[0].created_at <= w[1].created_at));

        // The fixed advisors.
        let pku = d.schools.iter().position(|s| s.name == "北京大学").unwrap();
        let cs = d
            .majors
            .iter()
            .position(|m| m.name == "计算机科学与技术")
            .unwrap();
        let zhang = &d.advisors[0];
        assert_eq!(
            (zhang.name.as_str(), zhang.title, zhang.school, zhang.major),
            ("张三", "教授", pku, cs)
        );
        assert_eq!(zhang.directions, ["机器学习", "深度学习"]);
        let li = &d.advisors[1];
        assert_eq!(
            (li.name.as_str(), li.title, li.school, li.major),
            ("李四", "副教授", pku, cs)
        );
        assert_eq!(li.directions[0], "计算机视觉");
        let (n, mean) = mean_overall(d, 0);
        assert!(
            (40..=60).contains(&n) && (4.4..=4.6).contains(&mean),
            "张三: {n}, {mean}"
        );
        let (n, mean) = mean_overall(d, 1);
        assert!(
            (30..=50).contains(&n) && (4.2..=4.4).contains(&mean),
            "李四: {n}, {mean}"
        );
        let mut zhang_tags: BTreeMap<&str, usize> = BTreeMap::new();
        for r in d.reviews.iter().filter(|r| r.advisor == 0) {
            for t in &r.tags {
                *zhang_tags.entry(t).or_default() += 1;
            }
        }
        let mut ranked: Vec<(&str, usize)> = zhang_tags.into_iter().collect();
        ranked.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        let top: BTreeSet<&str> = ranked[..2].iter().map(|(t, _)| *t).collect();
        assert_eq!(top, BTreeSet::from(["温和", "负责"]), "{ranked:?}");

        // Long tail and the ranking edge cases.
        let counts = review_counts(d);
        assert!(counts.iter().filter(|c| **c <= 2).count() >= 100);
        assert!(counts.iter().filter(|c| **c >= 30).count() >= 20);
        let mut by_advisor: Vec<Vec<&ReviewSeed>> = vec![Vec::new(); d.advisors.len()];
        for r in &d.reviews {
            by_advisor[r.advisor].push(r);
        }
        let perfect_few = by_advisor.iter().any(|rs| {
            (1..=2).contains(&rs.len())
                && rs.iter().all(|r| {
                    [
                        r.academic,
                        r.funding,
                        r.relationship,
                        r.prospects,
                        r.overall,
                    ] == [5; 5]
                })
        });
        assert!(perfect_few, "an advisor with one or two perfect reviews");
        let stars = (0..d.advisors.len())
            .filter(|i| counts[*i] >= 60)
            .filter(|i| (4.5..=4.7).contains(&mean_overall(d, *i).1))
            .count();
        assert!(stars >= 3, "advisors with 60+ reviews around 4.6: {stars}");
    }

    /// Every row the demo writes, one line each, field by field (no `Debug`
    /// output, whose format is not promised to stay), digested.
    fn digest(d: &DemoData) -> String {
        use sha2::{Digest, Sha256};
        use std::fmt::Write;

        let mut out = String::new();
        let list = |xs: &[usize]| {
            xs.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        for s in &d.schools {
            let (aliases, majors) = (s.aliases.join(","), list(&s.majors));
            let (name, city, tier, pop) = (s.name, s.city, s.tier, s.popularity);
            writeln!(out, "school|{name}|{aliases}|{city}|{tier}|{pop}|{majors}").unwrap();
        }
        for m in &d.majors {
            let (aliases, directions) = (m.aliases.join(","), m.directions.join(","));
            let (name, category) = (m.name, m.category);
            writeln!(out, "major|{name}|{aliases}|{category}|{directions}").unwrap();
        }
        for a in &d.advisors {
            let (name, title, school, major, bio) = (&a.name, a.title, a.school, a.major, &a.bio);
            let directions = a.directions.join(",");
            writeln!(
                out,
                "advisor|{name}|{title}|{school}|{major}|{directions}|{bio}"
            )
            .unwrap();
        }
        for r in &d.reviews {
            let scores = [
                r.academic,
                r.funding,
                r.relationship,
                r.prospects,
                r.overall,
            ]
            .map(|s| s.to_string())
            .join(",");
            let recommend = match r.recommend {
                Some(true) => "yes",
                Some(false) => "no",
                None => "-",
            };
            let (advisor, tags, text) = (r.advisor, r.tags.join(","), &r.text);
            let (relation, date) = (r.relation, &r.created_at);
            writeln!(
                out,
                "review|{advisor}|{scores}|{tags}|{text}|{relation}|{date}|{recommend}"
            )
            .unwrap();
        }
        format!("{:x}", Sha256::digest(out.as_bytes()))
    }

    /// The site's demo, byte for byte. The module's promise is that a seed
    /// gives the same data forever: a refactor that moves one draw, or a
    /// platform whose arithmetic differs, fails here. When the data is meant
    /// to change, pin the new digest (the assertion prints it).
    #[test]
    fn the_demo_data_does_not_drift() {
        assert_eq!(
            digest(&generate(crate::demo::DEMO_SEED)),
            "2a4567adf0e680baf232156a3dd4952304af913e6c24d01b2c8f63ea5e820efd"
        );
        assert_eq!(
            digest(&catalog()),
            "4853a77e148821b444241237369f3c770c12d9d2f7a6c3da81480002b1cd61cf"
        );
    }

    #[test]
    fn deterministic() {
        let data = generate(42);
        assert_eq!(data, generate(42));
        assert_ne!(data.reviews, generate(43).reviews);
    }

    #[test]
    fn invariants_hold_for_several_seeds() {
        for seed in SEEDS {
            check_invariants(&generate(seed));
        }
    }

    #[test]
    fn print_counts_and_timing() {
        let start = Instant::now();
        let d = generate(42);
        let elapsed = start.elapsed();
        let counts = review_counts(&d);
        let mean =
            d.reviews.iter().map(|r| f64::from(r.overall)).sum::<f64>() / d.reviews.len() as f64;
        let distinct: BTreeSet<&str> = d.reviews.iter().map(|r| r.text.as_str()).collect();
        println!(
            "schools {}, majors {}, advisors {}, reviews {}, generated in {:?}",
            d.schools.len(),
            d.majors.len(),
            d.advisors.len(),
            d.reviews.len(),
            elapsed
        );
        println!(
            "mean overall {mean:.2}; advisors with 0 reviews {}, ≤2 {}, ≥30 {}, ≥60 {}; max {}; distinct texts {}",
            counts.iter().filter(|c| **c == 0).count(),
            counts.iter().filter(|c| **c <= 2).count(),
            counts.iter().filter(|c| **c >= 30).count(),
            counts.iter().filter(|c| **c >= 60).count(),
            counts.iter().max().unwrap(),
            distinct.len()
        );
        println!(
            "张三 {:?}, 李四 {:?}",
            mean_overall(&d, 0),
            mean_overall(&d, 1)
        );
        for r in d.reviews.iter().step_by(d.reviews.len() / 6) {
            println!(
                "{} {:?} {:?} {}",
                r.created_at,
                r.tags,
                [
                    r.academic,
                    r.funding,
                    r.relationship,
                    r.prospects,
                    r.overall
                ],
                r.text
            );
        }
        for a in d.advisors.iter().step_by(d.advisors.len() / 4) {
            println!("{} {} {:?} {}", a.name, a.title, a.directions, a.bio);
        }
    }
}
