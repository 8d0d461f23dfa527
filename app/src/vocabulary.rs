//! The words the site's two forms accept, in one place: the student's search
//! form (its fields in the order they are asked, the preference values, the
//! degree types) and the review form (relations, tags, text limits).
//!
//! Why here, in `app`: the pages (the review form's hints and limits), the
//! server's checks (`reviews::submit`, the agent's validation and chips, the
//! review coach) and the demo data must agree on these words; one definition
//! that every side reads keeps a new tag or a changed limit from being
//! accepted by one and refused by another.

/// The search form's fields, in the order the agent asks for them.
pub const FORM_FIELDS: &[&str] = &[
    SCHOOL,
    MAJOR,
    DIRECTION,
    PERSONALITY,
    STYLE,
    FUNDING,
    DEGREE,
    YEAR,
];
pub const SCHOOL: &str = "school";
pub const MAJOR: &str = "major";
pub const DIRECTION: &str = "research_direction";
pub const PERSONALITY: &str = "personality";
pub const STYLE: &str = "research_style";
pub const FUNDING: &str = "funding";
pub const DEGREE: &str = "degree_type";
pub const YEAR: &str = "enrollment_year";

/// The values each preference accepts.
pub const PERSONALITIES: &[&str] = &["温和", "严格", "放养", "负责"];
pub const STYLES: &[&str] = &["理论型", "工程型", "产业型"];
pub const FUNDINGS: &[&str] = &["充足", "一般", "紧张"];
/// The degree types; a direct PhD (直博) is asked no enrollment year.
pub const DEGREES: [&str; 3] = ["学硕", "专硕", "直博"];
pub const PHD: &str = "直博";
/// A research direction is a short phrase, not a paragraph.
pub const MAX_DIRECTION_CHARS: usize = 24;

/// The values a preference field accepts (`None`: not a preference).
pub fn preference_values(field: &str) -> Option<&'static [&'static str]> {
    match field {
        PERSONALITY => Some(PERSONALITIES),
        STYLE => Some(STYLES),
        FUNDING => Some(FUNDINGS),
        _ => None,
    }
}

/// How a review's writer knows the advisor.
pub const RELATIONS: [&str; 3] = ["在读", "已毕业", "了解"];
/// A review's text, in characters after trimming.
pub const MIN_TEXT: usize = 20;
pub const MAX_TEXT: usize = 2000;
/// Tags one review may carry.
pub const MAX_TAGS: usize = 3;
/// The review tags as (name, kind); the same rows as the `tags` table.
pub const TAGS: &[(&str, &str)] = &[
    ("温和", "personality"),
    ("严格", "personality"),
    ("放养", "personality"),
    ("负责", "personality"),
    ("平易近人", "personality"),
    ("要求高", "personality"),
    ("耐心", "personality"),
    ("push", "personality"),
    ("理论型", "style"),
    ("工程型", "style"),
    ("产业型", "style"),
    ("经费充足", "funding"),
    ("经费一般", "funding"),
    ("经费紧张", "funding"),
    ("补助高", "funding"),
    ("学术大牛", "other"),
    ("组会多", "other"),
    ("实习自由", "other"),
    ("毕业顺利", "other"),
    ("推荐信给力", "other"),
    ("人品好", "other"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferences_are_form_fields_and_tags_are_unique() {
        for field in [PERSONALITY, STYLE, FUNDING] {
            assert!(FORM_FIELDS.contains(&field));
            assert!(preference_values(field).is_some());
        }
        assert!(preference_values(SCHOOL).is_none());
        assert!(DEGREES.contains(&PHD));
        let mut names: Vec<&str> = TAGS.iter().map(|(n, _)| *n).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), TAGS.len());
        const { assert!(MIN_TEXT < MAX_TEXT) };
    }
}
