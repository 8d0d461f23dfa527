//! The chips of a phase: the question for the form's next gap
//! and its options — popular schools, the school's largest majors, the
//! common research directions, the coming years — drawn from the database
//! for the form as this turn leaves it. Changes when what is offered
//! changes, not how a turn steers.

use serde_json::json;

use app::protocol::{ToolCall, UserForm};
use app::vocabulary::{DEGREE, DEGREES, DIRECTION, PERSONALITIES, PERSONALITY, YEAR};

use crate::agent::form::chips::{fitted_question, MAX_CHIPS, MIN_CHIPS};
use crate::agent::form::{phase, Phase};
use crate::agent::memory::Memory;
use crate::agent::tools::PRESENT_OPTIONS;
use crate::agent::{form, nlu};
use crate::site::Site;

/// The options each phase offers, from the database.
pub(super) struct ChipSource {
    pub schools: Vec<String>,
    pub majors: Vec<String>,
    pub directions: Vec<String>,
    /// Enrollment years to offer, nearest first.
    pub years: Vec<String>,
}

/// Chips offered per question.
const CHIPS: usize = 6;

impl ChipSource {
    /// The chips each phase offers: popular schools (those with the major,
    /// when it is known), the school's largest majors, and the most common
    /// research directions of the school + major.
    pub(super) async fn of(site: &Site, user_form: &UserForm) -> ChipSource {
        let catalog = site.catalog();
        let (school, major) = form::catalog_pair(catalog, user_form);
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
            if let Ok(directory) = site.directory(s.id, m.id).await {
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

/// A phase's chips: at most four options — the sources list the
/// most likely first — and a question of 5–10 characters.
fn chips(
    question: &str,
    mut options: Vec<String>,
    field: &str,
    allow_skip: bool,
    multi: bool,
) -> Option<ToolCall> {
    options.truncate(MAX_CHIPS);
    (options.len() >= MIN_CHIPS).then(|| ToolCall {
        tool: PRESENT_OPTIONS.into(),
        params: json!({
            "question": fitted_question(question, field),
            "options": options,
            "target_field": field,
            "allow_skip": allow_skip,
            "multi_select": multi,
        }),
        result: None,
    })
}

/// The chips of the phase the form's gaps decide (`None` once nothing is
/// left to ask); an optional field asked is remembered as asked.
pub(super) fn phase_chips(
    form: &UserForm,
    memory: &mut Memory,
    src: ChipSource,
) -> Option<ToolCall> {
    match phase(form, memory) {
        Phase::AskSchool => chips("想考哪所学校？", src.schools, "school", false, false),
        Phase::AskMajor => chips("想考哪个专业？", src.majors, "major", false, false),
        Phase::OfferDirection => {
            memory.asked.push(DIRECTION.to_string());
            chips("感兴趣的研究方向", src.directions, DIRECTION, true, true)
        }
        Phase::OfferPersonality => {
            memory.asked.push(PERSONALITY.to_string());
            chips(
                "希望导师的风格",
                PERSONALITIES.iter().map(|s| s.to_string()).collect(),
                PERSONALITY,
                true,
                false,
            )
        }
        Phase::OfferDegree => {
            memory.asked.push(DEGREE.to_string());
            chips(
                "想读哪种学位？",
                DEGREES.iter().map(|s| s.to_string()).collect(),
                DEGREE,
                true,
                false,
            )
        }
        Phase::OfferYear => {
            memory.asked.push(YEAR.to_string());
            chips("打算哪年入学？", src.years, YEAR, true, false)
        }
        Phase::Done => None,
    }
}
