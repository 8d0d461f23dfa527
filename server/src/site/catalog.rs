//! Schools and majors as the API lists them, with their advisor counts
//! from the catalog, and a school by any of its names with the error the
//! API answers when it names none or several. A change to how the catalog
//! is shown to readers is made here.

use app::error::ApiError;
use app::model::{Major, School};

use crate::catalog::{MajorEntry, Resolution, SchoolEntry};

use super::Site;

impl Site {
    fn school_model(&self, s: &SchoolEntry) -> School {
        School {
            id: s.id.to_string(),
            name: s.name.clone(),
            city: s.city.clone(),
            tier: s.tier.clone(),
            aliases: s.aliases.clone(),
            advisor_count: self.catalog.school_advisor_count(s.id),
        }
    }

    pub(super) fn major_model(&self, m: &MajorEntry, school_id: Option<i64>) -> Major {
        let advisor_count = match school_id {
            Some(s) => self.catalog.advisor_count(s, m.id),
            None => self
                .catalog
                .schools()
                .iter()
                .map(|s| self.catalog.advisor_count(s.id, m.id))
                .sum(),
        };
        Major {
            id: m.id.to_string(),
            name: m.name.clone(),
            category: m.category.clone(),
            aliases: m.aliases.clone(),
            advisor_count,
        }
    }

    /// Every school, most popular first.
    pub fn schools(&self) -> Vec<School> {
        self.catalog
            .schools()
            .iter()
            .map(|s| self.school_model(s))
            .collect()
    }

    /// The majors of a school (by any of its names), or of the whole site.
    pub fn majors(&self, school: Option<&str>) -> Result<(Option<String>, Vec<Major>), ApiError> {
        match school.map(str::trim).filter(|s| !s.is_empty()) {
            None => Ok((
                None,
                self.catalog
                    .majors()
                    .iter()
                    .map(|m| self.major_model(m, None))
                    .collect(),
            )),
            Some(name) => {
                let s = self.require_school(name)?;
                let majors = self
                    .catalog
                    .majors_of(s.id)
                    .into_iter()
                    .map(|m| self.major_model(m, Some(s.id)))
                    .collect();
                Ok((Some(s.name.clone()), majors))
            }
        }
    }

    /// A school by any of its names, or the error the API answers.
    pub fn require_school(&self, name: &str) -> Result<&SchoolEntry, ApiError> {
        match self.catalog.resolve_school(name) {
            Resolution::Found(s) => Ok(s),
            Resolution::Ambiguous(list) => Err(ApiError::bad_request(
                "ambiguous_school",
                format!(
                    "“{}”可能指：{}。请说出学校全称。",
                    name.trim(),
                    list.iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join("、")
                ),
            )
            .with_field("school")),
            Resolution::Unknown => Err(ApiError::not_found(
                "unknown_school",
                format!("没有找到“{}”这所学校。", name.trim()),
            )
            .with_field("school")),
        }
    }
}
