//! A form value as the form stores it, whoever proposed it (a planner's
//! `update_form`, a clicked chip): a preference in the form's vocabulary,
//! a bounded research direction, a degree type, a plausible enrollment
//! year. `None` is a value the form does not take.

use app::vocabulary::{preference_values, DEGREES, MAX_DIRECTION_CHARS};

/// Normalises one preference value to the form's vocabulary.
pub fn preference_value(field: &str, value: &str) -> Option<String> {
    let v = value.trim().trim_end_matches(['的', '些']);
    let allowed = preference_values(field)?;
    if let Some(hit) = allowed.iter().find(|a| **a == v) {
        return Some(hit.to_string());
    }
    // "理论" for "理论型", "经费充足" for "充足".
    allowed
        .iter()
        .find(|a| v.contains(**a) || (v.chars().count() >= 2 && a.starts_with(v)))
        .map(|a| a.to_string())
}

/// A research direction as the form stores it: trimmed, bounded, not empty.
pub fn direction_value(value: &str) -> Option<String> {
    let v: String = value.trim().chars().take(MAX_DIRECTION_CHARS).collect();
    (!v.is_empty()).then_some(v)
}

/// 学硕 / 专硕 / 直博, from the value or a longer name of it ("专业硕士").
pub fn degree_value(value: &str) -> Option<String> {
    let v = value.trim();
    if let Some(d) = DEGREES.iter().find(|d| **d == v) {
        return Some(d.to_string());
    }
    crate::agent::nlu::enrollment::degree_of(v)
}

/// A four-digit enrollment year from this year up to four years ahead
/// ("2027", "2027年", "27").
pub fn year_value(value: &str, this_year: i32) -> Option<String> {
    let digits: String = value
        .trim()
        .trim_end_matches(['年', '级', '届'])
        .chars()
        .collect();
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let year = match digits.len() {
        4 => digits.parse::<i32>().ok()?,
        2 => 2000 + digits.parse::<i32>().ok()?,
        _ => return None,
    };
    (this_year..=this_year + 4)
        .contains(&year)
        .then(|| year.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preference_values_are_normalised_or_refused() {
        assert_eq!(preference_value("personality", "温和"), Some("温和".into()));
        assert_eq!(
            preference_value("research_style", "理论"),
            Some("理论型".into())
        );
        assert_eq!(preference_value("funding", "经费充足"), Some("充足".into()));
        assert_eq!(preference_value("personality", "凶"), None);
        assert_eq!(preference_value("color", "红"), None);
    }

    #[test]
    fn directions_are_trimmed_and_bounded() {
        assert_eq!(direction_value("  机器学习 "), Some("机器学习".into()));
        assert_eq!(direction_value(""), None);
        assert_eq!(
            direction_value(&"长".repeat(100)).unwrap().chars().count(),
            MAX_DIRECTION_CHARS
        );
    }
}
