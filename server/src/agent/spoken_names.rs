//! Short spoken forms of schools and majors ("北大", "计算机系"), from
//! `server/lexicons/spoken_majors.txt` and the catalog's aliases. A module of
//! its own because every part of the agent that speaks a place uses it — the
//! narrator, the answer to a place question ([`super::about_place`]) and the
//! embedded planner — and it needs none of them: it sits below them all.

use std::collections::HashMap;

use crate::catalog::Catalog;

const SPOKEN_MAJORS: &str = include_str!("../../lexicons/spoken_majors.txt");

/// Short spoken forms of schools and majors ("北大", "计算机系").
pub struct SpokenNames {
    majors: HashMap<String, String>,
}

impl SpokenNames {
    pub fn load() -> SpokenNames {
        let majors = SPOKEN_MAJORS
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect();
        SpokenNames { majors }
    }

    /// "计算机科学与技术" → "计算机系"; unknown → "<name>专业".
    pub fn major(&self, name: &str) -> String {
        self.majors
            .get(name)
            .cloned()
            .unwrap_or_else(|| format!("{name}专业"))
    }

    /// The shortest unambiguous Chinese alias of a school ("北京大学" → "北大").
    pub fn school_short(&self, catalog: &Catalog, name: &str) -> String {
        let Some(school) = catalog.schools().iter().find(|s| s.name == name) else {
            return name.to_string();
        };
        school
            .aliases
            .iter()
            .filter(|a| a.chars().all(|c| c as u32 > 0x2E80) && a.chars().count() <= 3)
            .filter(|a| {
                catalog
                    .resolve_school(a)
                    .found()
                    .is_some_and(|s| s.name == name)
            })
            .min_by_key(|a| a.chars().count())
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }
}
