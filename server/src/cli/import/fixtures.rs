//! What the tests of the import's files share: a small catalog with
//! aliases that collide, the header, and a plan's bad lines as printed.

use super::ImportPlan;
use crate::catalog::{Catalog, MajorEntry, SchoolEntry};

pub(super) fn catalog() -> Catalog {
    let school = |id, name: &str, aliases: &[&str]| SchoolEntry {
        id,
        name: name.into(),
        city: "北京".into(),
        tier: "985".into(),
        popularity: 100 - id,
        aliases: aliases.iter().map(|a| a.to_string()).collect(),
    };
    let major = |id, name: &str, aliases: &[&str]| MajorEntry {
        id,
        name: name.into(),
        category: "工学".into(),
        aliases: aliases.iter().map(|a| a.to_string()).collect(),
    };
    Catalog::new(
        vec![
            school(1, "北京大学", &["北大", "PKU"]),
            school(2, "上海交通大学", &["上交", "交大"]),
            school(3, "西安交通大学", &["西交", "交大"]),
        ],
        vec![
            major(1, "计算机科学与技术", &["计算机", "CS"]),
            major(2, "电子信息工程", &["电子"]),
            major(3, "电子科学与技术", &["电子"]),
        ],
        [((1, 1), 3)].into_iter().collect(),
    )
}

pub(super) const HEADER: &str = "name,title,school,major,directions,bio\n";

pub(super) fn reasons(plan: &ImportPlan) -> Vec<String> {
    plan.bad.iter().map(|b| b.to_string()).collect()
}
