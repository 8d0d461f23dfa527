//! The offers of a question: which schools, majors, research directions
//! and years the form's phases offer as chips, drawn from the database.
//! Changes when what is offered changes, not how a turn steers.

use app::protocol::UserForm;

use super::nlu;
use super::steer::ChipSource;
use super::Agent;

/// Chips offered per question.
const CHIPS: usize = 6;

impl Agent {
    /// The chips each phase offers: popular schools (those with the major,
    /// when it is known), the school's largest majors, and the most common
    /// research directions of the school + major.
    pub(super) async fn chip_source(&self, form: &UserForm) -> ChipSource {
        let catalog = self.site.catalog();
        let (school, major) = self.form_pair(form);
        let schools = catalog
            .schools()
            .iter()
            .filter(|s| major.is_none_or(|m| catalog.advisor_count(s.id, m.id) > 0))
            .take(CHIPS)
            .map(|s| s.name.clone())
            .collect();
        // The school's majors, those most schools offer first (计算机 before 心理学).
        let site_wide = |major_id: i64| {
            catalog
                .schools()
                .iter()
                .filter(|s| catalog.advisor_count(s.id, major_id) > 0)
                .count()
        };
        let mut majors: Vec<(usize, i64, String)> = school
            .map(|s| {
                catalog
                    .majors_of(s.id)
                    .into_iter()
                    .map(|m| {
                        (
                            site_wide(m.id),
                            catalog.advisor_count(s.id, m.id),
                            m.name.clone(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        majors.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
        let mut directions = Vec::new();
        if let (Some(s), Some(m)) = (school, major) {
            if let Ok(directory) = self.site.directory(s.id, m.id).await {
                directions = directory
                    .common_directions
                    .iter()
                    .take(CHIPS)
                    .map(|(_, d)| d.clone())
                    .collect();
            }
        }
        // Students apply in the autumn for the next year's intake.
        let next = nlu::enrollment::current_year() + 1;
        ChipSource {
            schools,
            majors: majors.into_iter().take(CHIPS).map(|(_, _, m)| m).collect(),
            directions,
            years: (next..next + 3).map(|y| y.to_string()).collect(),
        }
    }
}
