//! The form's phases ("数据缺口决定阶段": the data gaps decide them): where
//! the conversation stands is a function of what the form still lacks and
//! of the optional fields already offered. The planners read it to know what to ask; the
//! `steer` step asks it with chips.

use app::protocol::UserForm;
use app::vocabulary::{DEGREE, DIRECTION, PERSONALITY, YEAR};

use crate::agent::memory::Memory;

/// Where the conversation stands, derived from what the form still lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    AskSchool,
    AskMajor,
    /// Form complete; research direction not given and not yet offered.
    OfferDirection,
    /// Form complete; personality not given and not yet offered.
    OfferPersonality,
    /// Form complete; degree type (学硕 / 专硕 / 直博) not given, not yet offered.
    OfferDegree,
    /// Form complete; enrollment year not given and not yet offered.
    OfferYear,
    Done,
}

/// The phase is a function of the data gaps and of what was already offered.
pub fn phase(form: &UserForm, memory: &Memory) -> Phase {
    let asked = |f: &str| memory.asked.iter().any(|a| a == f);
    if form.school.is_none() {
        Phase::AskSchool
    } else if form.major.is_none() {
        Phase::AskMajor
    } else if form.research_direction.is_none() && !asked(DIRECTION) {
        Phase::OfferDirection
    } else if form.preferences.personality.is_none() && !asked(PERSONALITY) {
        Phase::OfferPersonality
    } else if form.degree_type.is_none() && !asked(DEGREE) {
        Phase::OfferDegree
    } else if form.enrollment_year.is_none() && !asked(YEAR) {
        Phase::OfferYear
    } else {
        Phase::Done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(school: Option<&str>, major: Option<&str>) -> UserForm {
        UserForm {
            school: school.map(str::to_string),
            major: major.map(str::to_string),
            ..UserForm::default()
        }
    }

    #[test]
    fn phases_follow_the_data_gaps() {
        let mut m = Memory::default();
        assert_eq!(phase(&UserForm::default(), &m), Phase::AskSchool);
        assert_eq!(phase(&form(Some("a"), None), &m), Phase::AskMajor);
        assert_eq!(phase(&form(None, Some("b")), &m), Phase::AskSchool);
        let f = form(Some("a"), Some("b"));
        assert_eq!(phase(&f, &m), Phase::OfferDirection);
        m.asked.push(DIRECTION.into());
        assert_eq!(phase(&f, &m), Phase::OfferPersonality);
        m.asked.push(PERSONALITY.into());
        assert_eq!(phase(&f, &m), Phase::OfferDegree);
        m.asked.push(DEGREE.into());
        assert_eq!(phase(&f, &m), Phase::OfferYear);
        m.asked.push(YEAR.into());
        assert_eq!(phase(&f, &m), Phase::Done);
        let mut filled = f.clone();
        filled.degree_type = Some("专硕".into());
        filled.enrollment_year = Some("2027".into());
        let m = Memory {
            asked: vec![DIRECTION.into(), PERSONALITY.into()],
            ..Memory::default()
        };
        assert_eq!(
            phase(&filled, &m),
            Phase::Done,
            "given fields are not asked"
        );
    }
}
