//! The demo's advisors: how many teach each (school, major) a school offers,
//! their names, titles and research directions, and the two fixed advisors
//! (张三 and 李四) every demo and test can rely on. Each draws their latent
//! traits ([`super::traits`]) and a biography ([`super::bio`]).

use super::bio::make_bio;
use super::rng::Rng;
use super::traits::{draw_traits, Group, Traits};
use super::{school_factor, AdvisorSeed, MajorSeed, SchoolSeed};
use crate::demo::catalog_data as data;

/// The fixed advisors' home: they come first in this (school, major) pair.
pub(super) const FIXED_SCHOOL: &str = "北京大学";
const FIXED_MAJOR: &str = "计算机科学与技术";

/// Advisors' titles and how often each is drawn.
pub(in crate::demo) const TITLES: [&str; 4] = ["教授", "副教授", "研究员", "讲师"];
pub(in crate::demo) const TITLE_WEIGHTS: [f64; 4] = [35.0, 35.0, 15.0, 15.0];

/// Advisors per (school, major): 3 to 10, more at popular schools and in the
/// big information majors.
fn advisor_count(rng: &mut Rng, school: &SchoolSeed, major: &MajorSeed) -> usize {
    let hot = matches!(major.name, "计算机科学与技术" | "人工智能" | "电子信息工程");
    let hi = 3 + (school_factor(school) * 4.5).round() as usize + usize::from(hot);
    rng.range(3, hi.min(10))
}

/// A name not in `taken`: common surnames more often, given names of one or
/// two characters.
pub(in crate::demo) fn make_name(rng: &mut Rng, taken: &[String]) -> String {
    let weights: Vec<f64> = (0..data::SURNAMES.len())
        .map(|i| match i {
            0..=9 => 6.0,
            10..=29 => 3.0,
            _ => 1.0,
        })
        .collect();
    loop {
        let surname = data::SURNAMES[rng.weighted(&weights)];
        let pool = if rng.chance(0.68) {
            data::GIVEN_MALE
        } else {
            data::GIVEN_FEMALE
        };
        let first = rng.pick(pool);
        let mut name = format!("{surname}{first}");
        if !rng.chance(0.28) {
            let second = rng.pick(pool);
            if second == first {
                continue;
            }
            name.push_str(second);
        }
        if first == surname || data::AVOID_NAMES.contains(&name.as_str()) || taken.contains(&name) {
            continue;
        }
        return name;
    }
}

/// One to three distinct research directions of `major`.
pub(in crate::demo) fn pick_directions(rng: &mut Rng, major: &MajorSeed) -> Vec<String> {
    let n = 1 + rng.weighted(&[20.0, 50.0, 30.0]);
    let mut chosen: Vec<String> = Vec::new();
    while chosen.len() < n {
        let d = rng.pick(major.directions);
        if !chosen.iter().any(|c| c == d) {
            chosen.push(d.to_string());
        }
    }
    chosen
}

/// Every advisor of every (school, major) a school offers, in table order,
/// with their latent traits (the same order).
pub(super) fn make_advisors(
    rng: &mut Rng,
    schools: &[SchoolSeed],
    majors: &[MajorSeed],
) -> (Vec<AdvisorSeed>, Vec<Traits>) {
    let mut advisors: Vec<AdvisorSeed> = Vec::new();
    let mut traits: Vec<Traits> = Vec::new();
    for (si, school) in schools.iter().enumerate() {
        for &mi in &school.majors {
            let major = &majors[mi];
            let n = advisor_count(rng, school, major);
            let mut names: Vec<String> = Vec::new();
            let fixed = school.name == FIXED_SCHOOL && major.name == FIXED_MAJOR;
            for k in 0..n {
                let (advisor, t) = if fixed && k < 2 {
                    fixed_advisor(k, si, mi)
                } else {
                    let title = TITLES[rng.weighted(&TITLE_WEIGHTS)];
                    let t = draw_traits(rng, school, major, title);
                    let advisor = AdvisorSeed {
                        name: make_name(rng, &names),
                        title,
                        school: si,
                        major: mi,
                        directions: pick_directions(rng, major),
                        bio: String::new(),
                    };
                    (advisor, t)
                };
                let mut advisor = advisor;
                advisor.bio = make_bio(rng, school, major, &advisor, &t);
                names.push(advisor.name.clone());
                advisors.push(advisor);
                traits.push(t);
            }
        }
    }
    (advisors, traits)
}

/// 张三 and 李四, the advisors every demo and test can rely on.
pub(super) fn fixed_advisor(k: usize, school: usize, major: usize) -> (AdvisorSeed, Traits) {
    if k == 0 {
        (
            AdvisorSeed {
                name: "张三".to_string(),
                title: "教授",
                school,
                major,
                directions: vec!["机器学习".to_string(), "深度学习".to_string()],
                bio: String::new(),
            },
            Traits {
                levels: [4.9, 4.3, 4.9, 4.8],
                personality: "温和",
                second: Some("负责"),
                group: Group::Warm,
                style: "理论型",
                funding_tag: "经费充足",
                generous: false,
                meetings: false,
                internship: true,
            },
        )
    } else {
        (
            AdvisorSeed {
                name: "李四".to_string(),
                title: "副教授",
                school,
                major,
                directions: vec!["计算机视觉".to_string(), "多模态学习".to_string()],
                bio: String::new(),
            },
            Traits {
                levels: [4.7, 4.3, 4.5, 4.6],
                personality: "严格",
                second: Some("负责"),
                group: Group::Strict,
                style: "工程型",
                funding_tag: "经费充足",
                generous: true,
                meetings: true,
                internship: false,
            },
        )
    }
}
