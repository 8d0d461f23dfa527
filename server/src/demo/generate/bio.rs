//! An advisor's biography, the self-introduction on their page: sentences
//! from the tables of [`crate::demo::catalog_data`] (identity, research,
//! education, achievements, approach, recruiting), filled in and kept
//! between 40 and 120 characters.

use super::rng::Rng;
use super::traits::Traits;
use super::{chars, is_lab, AdvisorSeed, MajorSeed, SchoolSeed};
use crate::demo::catalog_data as data;

/// A biography of `advisor`, whose name, title and directions are drawn.
pub(super) fn make_bio(
    rng: &mut Rng,
    school: &SchoolSeed,
    major: &MajorSeed,
    advisor: &AdvisorSeed,
    t: &Traits,
) -> String {
    let senior = matches!(advisor.title, "教授" | "研究员");
    let mentor = match advisor.title {
        "教授" if rng.chance(0.9) => "博士生导师",
        "研究员" if rng.chance(0.85) => "博士生导师",
        "副教授" if rng.chance(0.25) => "博士生导师",
        _ => "硕士生导师",
    };
    let year = match advisor.title {
        "教授" => rng.range(1990, 2010),
        "研究员" => rng.range(1995, 2013),
        "副教授" => rng.range(2005, 2017),
        _ => rng.range(2014, 2022),
    };
    let overseas = rng.chance(0.15);
    let phd = if overseas {
        "海外知名高校"
    } else if rng.chance(0.3) {
        school.name
    } else {
        data::SCHOOLS[rng.below(15)].name
    };
    let fund = match major.category {
        "工学" | "理学" | "医学" => "国家自然科学基金",
        "经济学" | "管理学" if rng.chance(0.5) => "国家自然科学基金",
        _ => "国家社会科学基金",
    };
    let papers = if senior {
        rng.pick(data::PAPERS_SENIOR)
    } else {
        rng.pick(data::PAPERS_JUNIOR)
    };
    let dir = advisor.directions[0].as_str();
    let dirs = advisor.directions.join("、");
    let fill = |template: &str| -> String {
        template
            .replace("{school}", school.name)
            .replace("{title}", advisor.title)
            .replace("{mentor}", mentor)
            .replace("{year}", &year.to_string())
            .replace("{phd}", phd)
            .replace("{dirs}", &dirs)
            .replace("{dir}", dir)
            .replace("{fund}", fund)
            .replace("{papers}", papers)
    };

    let identity = fill(rng.pick(data::BIO_IDENTITY));
    let research = fill(rng.pick(data::BIO_RESEARCH));
    let education = {
        // "Visited universities abroad" reads oddly after an overseas doctorate.
        let pool = if overseas {
            &data::BIO_EDUCATION[..2]
        } else {
            data::BIO_EDUCATION
        };
        fill(rng.pick(pool))
    };
    let achieve = fill(rng.pick(if senior {
        data::BIO_ACHIEVE_SENIOR
    } else {
        data::BIO_ACHIEVE_JUNIOR
    }));
    let approach = fill(rng.pick(if t.style == "理论型" {
        data::BIO_THEORY
    } else if is_lab(major.category) {
        data::BIO_APPLIED
    } else {
        data::BIO_APPLIED_SOCIAL
    }));
    let recruit = fill(rng.pick(data::BIO_RECRUIT)).replace("{quota}", rng.pick(data::QUOTAS));

    // Optional sentences in reading order; each kept with some probability,
    // then trimmed from the end to fit 40–120 characters.
    let optional = [
        (education, 0.7),
        (achieve, 0.75),
        (approach, 0.4),
        (recruit, 0.4),
    ];
    let mut keep: Vec<bool> = optional.iter().map(|(_, p)| rng.chance(*p)).collect();
    let assemble = |keep: &[bool]| -> String {
        let mut bio = identity.clone();
        // Education reads best right after the identity, research after it.
        if keep[0] {
            bio.push_str(&optional[0].0);
        }
        bio.push_str(&research);
        for (k, (s, _)) in keep.iter().zip(optional.iter()).skip(1) {
            if *k {
                bio.push_str(s);
            }
        }
        bio
    };
    let mut bio = assemble(&keep);
    while chars(&bio) > 120 {
        match keep.iter().rposition(|k| *k) {
            Some(i) => keep[i] = false,
            None => break,
        }
        bio = assemble(&keep);
    }
    let mut i = 0;
    while chars(&bio) < 40 && i < keep.len() {
        if !keep[i] {
            keep[i] = true;
            let longer = assemble(&keep);
            if chars(&longer) <= 120 {
                bio = longer;
            } else {
                keep[i] = false;
            }
        }
        i += 1;
    }
    bio
}
