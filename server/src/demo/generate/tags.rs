//! A review's tags: the advisor's personality and style, a funding level
//! and the habits their scores bear out, drawn by weight (now and then one
//! that disagrees), at most three, in the order of the site's tag table.

use super::rng::Rng;
use super::traits::{Group, Traits};
use crate::demo::catalog_data as data;

/// The tags of one review with these `scores` (academic, funding,
/// relationship, prospects, overall) of an advisor with traits `t`.
pub(super) fn draft_tags(rng: &mut Rng, t: &Traits, scores: &[u8; 5]) -> Vec<&'static str> {
    let [ac, fu, re, pr, ov] = *scores;
    let mut cand: Vec<(&'static str, f64)> = Vec::new();
    // A student who fell out with a warm advisor rarely calls them warm.
    let agrees = re >= 3 || t.group != Group::Warm;
    cand.push((t.personality, if agrees { 3.0 } else { 0.8 }));
    if let Some(second) = t.second {
        cand.push((second, if agrees { 2.4 } else { 0.6 }));
    }
    cand.push((t.style, 1.2));
    match fu {
        4 | 5 => cand.push((
            "经费充足",
            if t.funding_tag == "经费充足" {
                2.0
            } else {
                0.5
            },
        )),
        3 => cand.push(("经费一般", 1.0)),
        _ => cand.push(("经费紧张", 1.8)),
    }
    if t.generous && fu >= 4 {
        cand.push(("补助高", 1.5));
    }
    if ac == 5 {
        cand.push(("学术大牛", if t.levels[0] >= 4.3 { 1.5 } else { 0.3 }));
    }
    cand.push(("组会多", if t.meetings { 1.5 } else { 0.1 }));
    if t.internship && pr >= 3 {
        cand.push(("实习自由", 1.4));
    }
    if pr >= 4 {
        cand.push(("毕业顺利", 0.9));
    }
    if pr >= 4 && re >= 4 {
        cand.push(("推荐信给力", 0.6));
    }
    if re >= 4 && ov >= 4 {
        cand.push(("人品好", 0.9));
    }
    // Now and then a tag that disagrees with everyone else.
    if rng.chance(0.05) {
        // Never a second funding level: one review cannot say both 充足 and 紧张.
        let (tag, _) = rng.pick(data::TAGS);
        let level = matches!(tag, "经费充足" | "经费一般" | "经费紧张");
        if !level && !cand.iter().any(|(c, _)| *c == tag) {
            cand.push((tag, 2.0));
        }
    }

    let k = rng.weighted(&[12.0, 28.0, 35.0, 25.0]);
    let mut tags: Vec<&'static str> = Vec::new();
    while tags.len() < k && !cand.is_empty() {
        let weights: Vec<f64> = cand.iter().map(|c| c.1).collect();
        let (tag, _) = cand.remove(rng.weighted(&weights));
        tags.push(tag);
    }
    tags.sort_by_key(|t| tag_position(t));
    tags
}

fn tag_position(tag: &str) -> usize {
    data::TAGS
        .iter()
        .position(|(name, _)| *name == tag)
        .unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::{generate, ReviewSeed};

    #[test]
    fn tag_table_matches_the_site() {
        let names: Vec<&str> = data::TAGS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names.len(), 21);
        assert_eq!(
            names,
            [
                "温和",
                "严格",
                "放养",
                "负责",
                "平易近人",
                "要求高",
                "耐心",
                "push",
                "理论型",
                "工程型",
                "产业型",
                "经费充足",
                "经费一般",
                "经费紧张",
                "补助高",
                "学术大牛",
                "组会多",
                "实习自由",
                "毕业顺利",
                "推荐信给力",
                "人品好"
            ]
        );
        for (tag, _) in data::TAG_FRAGMENTS {
            assert!(names.contains(tag), "{tag}");
        }
        for (tag, _) in data::TAGS {
            assert!(data::TAG_FRAGMENTS.iter().any(|(t, _)| t == tag), "{tag}");
        }
    }

    #[test]
    fn tags_follow_traits() {
        let d = generate(42);
        // Reviews with a high funding score say 经费充足 far more often than
        // reviews with a low one.
        let share = |pred: &dyn Fn(&ReviewSeed) -> bool| {
            let rs: Vec<&ReviewSeed> = d.reviews.iter().filter(|r| pred(r)).collect();
            rs.iter().filter(|r| r.tags.contains(&"经费充足")).count() as f64 / rs.len() as f64
        };
        assert!(share(&|r| r.funding >= 4) > 5.0 * share(&|r| r.funding <= 2));
    }
}
