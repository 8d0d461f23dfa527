//! What chips may be (the `present_options` tool): 2–4 options, a
//! question of 5–10 characters, about a form field or `general` (a chip
//! sent on as if typed). The request check refuses a click on any other
//! field; the `validate` step holds a proposal to this shape and the
//! `steer` step's own chips fit it.

use app::vocabulary::FORM_FIELDS;

/// Whether chips may target this field: a form field, or `general` (a chip
/// sent on as if typed).
pub fn is_chip_field(field: &str) -> bool {
    field == "general" || FORM_FIELDS.contains(&field)
}

/// The `present_options` schema: 2–4 options, a question of 5–10
/// characters — few enough to be read aloud and taken in at a glance.
pub const MIN_CHIPS: usize = 2;
pub const MAX_CHIPS: usize = 4;
pub const QUESTION_CHARS: std::ops::RangeInclusive<usize> = 5..=10;

/// The question of chips for `field` when a proposed one does not fit
/// [`QUESTION_CHARS`] (each is 5–10 characters; the tests hold them to it).
pub fn chip_question(field: &str) -> &'static str {
    match field {
        "school" => "想考哪所学校？",
        "major" => "想考哪个专业？",
        "research_direction" => "感兴趣的方向？",
        "personality" => "希望导师怎样？",
        "research_style" => "偏好哪种风格？",
        "funding" => "经费要求如何？",
        "degree_type" => "想读哪种学位？",
        "enrollment_year" => "打算哪年入学？",
        _ => "你想选哪个？",
    }
}

/// `question` if it fits the schema's 5–10 characters, else `field`'s own.
pub fn fitted_question(question: &str, field: &str) -> String {
    let question = question.trim();
    if QUESTION_CHARS.contains(&question.chars().count()) {
        question.to_string()
    } else {
        chip_question(field).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fallback_question_fits_five_to_ten_characters() {
        for field in FORM_FIELDS.iter().copied().chain(["general"]) {
            let n = chip_question(field).chars().count();
            assert!(QUESTION_CHARS.contains(&n), "{field}: {n}");
        }
    }
}
