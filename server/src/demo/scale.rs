//! The demo grown to a country's size (`server seed --advisors 100000
//! --reviews 1000000`): what the site must stay fast at. China has a few
//! hundred thousand graduate advisors; a popular (school, major) has
//! thousands.
//!
//! Deterministic like the demo: the demo data first, unchanged, then more
//! advisors (the pair [`BIG_PAIR`] grown to [`BIG_PAIR_ADVISORS`], the rest
//! spread over every pair a school offers) and more reviews, whose scores
//! follow a quality drawn per advisor and whose texts, tags and relations
//! are those of demo reviews with the same overall score. Aggregates are
//! rebuilt from the reviews after the load, so they are consistent by
//! construction.

use std::collections::HashMap;

use super::generate::{self, DemoData, ReviewSeed, Rng};

/// The pair grown past a few thousand advisors.
pub const BIG_PAIR: (&str, &str) = ("北京大学", "计算机科学与技术");
/// Advisors of [`BIG_PAIR`] at scale, at least (the advisors spread over
/// every pair may add a few).
pub const BIG_PAIR_ADVISORS: usize = 5_000;

/// Grows `data` (the demo) to `advisors` advisors and `reviews` reviews in
/// total; sizes below the demo's leave that part as it is.
pub fn grow(data: &mut DemoData, advisors: usize, reviews: usize, seed: u64) {
    let mut rng = Rng::stream(seed, 101);
    grow_advisors(data, advisors, &mut rng);
    let mut rng = Rng::stream(seed, 102);
    grow_reviews(data, reviews, &mut rng);
}

fn grow_advisors(data: &mut DemoData, target: usize, rng: &mut Rng) {
    let Some(extra) = target.checked_sub(data.advisors.len()).filter(|n| *n > 0) else {
        return;
    };
    let big_school = data.schools.iter().position(|s| s.name == BIG_PAIR.0);
    let big_major = generate::major_index(BIG_PAIR.1);
    let pairs: Vec<(usize, usize)> = data
        .schools
        .iter()
        .enumerate()
        .flat_map(|(s, school)| school.majors.iter().map(move |m| (s, *m)))
        .collect();
    let mut taken: HashMap<(usize, usize), Vec<String>> = HashMap::new();
    for a in &data.advisors {
        taken
            .entry((a.school, a.major))
            .or_default()
            .push(a.name.clone());
    }
    let in_big = big_school.map_or(0, |s| taken.get(&(s, big_major)).map_or(0, Vec::len));
    let to_big = big_school.map_or(0, |_| BIG_PAIR_ADVISORS.saturating_sub(in_big).min(extra));
    for k in 0..extra {
        let (school, major) = match big_school {
            Some(s) if k < to_big => (s, big_major),
            _ => pairs[rng.below(pairs.len())],
        };
        let names = taken.entry((school, major)).or_default();
        let name = generate::make_name(rng, names);
        names.push(name.clone());
        let title = generate::TITLES[rng.weighted(&generate::TITLE_WEIGHTS)];
        let directions = generate::pick_directions(rng, &data.majors[major]);
        let bio = format!(
            "{name}，{}{}{title}，主要研究{}。欢迎对相关方向感兴趣的同学联系。",
            data.schools[school].name,
            data.majors[major].name,
            directions.join("、"),
        );
        data.advisors.push(generate::AdvisorSeed {
            name,
            title,
            school,
            major,
            directions,
            bio,
        });
    }
}

fn grow_reviews(data: &mut DemoData, target: usize, rng: &mut Rng) {
    let Some(extra) = target.checked_sub(data.reviews.len()).filter(|n| *n > 0) else {
        return;
    };
    // Demo reviews by overall score: the texts the new reviews borrow.
    let mut by_overall: [Vec<usize>; 5] = Default::default();
    for (i, r) in data.reviews.iter().enumerate() {
        by_overall[usize::from(r.overall.clamp(1, 5)) - 1].push(i);
    }
    if by_overall.iter().any(Vec::is_empty) {
        return;
    }
    // Each advisor's quality (their students' average) and popularity (how
    // many reviews they draw): most have a few reviews, some very many.
    let n = data.advisors.len();
    let quality: Vec<f64> = (0..n)
        .map(|_| (3.7 + 0.6 * rng.normal()).clamp(1.5, 4.9))
        .collect();
    let popular: Vec<usize> = (0..n / 20).map(|_| rng.below(n)).collect();
    let mut added = Vec::with_capacity(extra);
    for _ in 0..extra {
        let advisor = if !popular.is_empty() && rng.chance(0.3) {
            popular[rng.below(popular.len())]
        } else {
            rng.below(n)
        };
        let q = quality[advisor];
        let mut score = |spread: f64| ((q + spread * rng.normal()).round()).clamp(1.0, 5.0) as u8;
        let overall = score(0.6);
        let (academic, funding, relationship, prospects) =
            (score(0.8), score(1.0), score(0.9), score(0.8));
        let like = &by_overall[usize::from(overall) - 1];
        let model = &data.reviews[like[rng.below(like.len())]];
        added.push(ReviewSeed {
            advisor,
            academic,
            funding,
            relationship,
            prospects,
            overall,
            tags: model.tags.clone(),
            text: model.text.clone(),
            relation: model.relation,
            created_at: generate::random_date(rng),
            recommend: None,
        });
    }
    data.reviews.extend(added);
    super::answer_recommend(&mut data.reviews);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growing_is_deterministic_and_reaches_the_sizes() {
        let grown = |seed| {
            let mut d = generate::generate(super::super::DEMO_SEED);
            grow(&mut d, 8_000, 30_000, seed);
            d
        };
        let a = grown(7);
        assert_eq!(a.advisors.len(), 8_000);
        assert_eq!(a.reviews.len(), 30_000);
        assert!(a == grown(7));
        let s = a.schools.iter().position(|s| s.name == BIG_PAIR.0).unwrap();
        let m = generate::major_index(BIG_PAIR.1);
        let big = a
            .advisors
            .iter()
            .filter(|x| x.school == s && x.major == m)
            .count();
        assert!(big >= BIG_PAIR_ADVISORS, "{big}");
        // Every new advisor is in a pair its school offers, named uniquely there.
        let mut seen = std::collections::HashSet::new();
        for x in &a.advisors {
            assert!(a.schools[x.school].majors.contains(&x.major));
            assert!(
                seen.insert((x.school, x.major, x.name.clone())),
                "{}",
                x.name
            );
        }
        for r in &a.reviews {
            assert!(r.advisor < a.advisors.len());
            assert!((1..=5).contains(&r.overall) && (1..=5).contains(&r.funding));
        }
    }

    #[test]
    fn smaller_sizes_leave_the_demo_alone() {
        let demo = generate::generate(super::super::DEMO_SEED);
        let mut d = demo.clone();
        grow(&mut d, 10, 10, 1);
        assert!(d == demo);
    }
}
