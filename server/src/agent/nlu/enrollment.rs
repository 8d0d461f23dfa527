//! Degree type (学硕 / 专硕 / 直博) and enrollment year, from the words of
//! `server/lexicons/enrollment.txt`. Kept apart from the slot rules: neither
//! value is a catalog name, and the year needs today's date.
//!
//! Years: "2027年入学" → 2027; "27考研" / "2027届" / "27届考研" → 2027 (the
//! year of the exam season students name, which is the year they start);
//! "今年考研" → next year (the exam is in December), "明年入学" → next
//! year; "明年考研" → the year after. Only this year up to four years ahead
//! counts: "2008年" or "1990年出生" are not enrollment years.

use crate::text::lexfile;
use app::vocabulary::DEGREES;

const LEXICON: &str = include_str!("../../../lexicons/enrollment.txt");

#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct EnrollmentLexicon {
    degrees: Vec<(String, Vec<String>)>,
    negators: Vec<String>,
    this_year: Vec<String>,
    next_year: Vec<String>,
    year_after: Vec<String>,
    exam: Vec<String>,
    start: Vec<String>,
}

impl EnrollmentLexicon {
    pub(crate) fn load() -> EnrollmentLexicon {
        let mut lex = EnrollmentLexicon::default();
        for e in lexfile::parse("enrollment.txt", LEXICON) {
            match e.key.as_str() {
                k if DEGREES.contains(&k) => lex.degrees.push((e.key.clone(), e.terms)),
                "negated_by" => lex.negators = e.terms,
                "this_year" => lex.this_year = e.terms,
                "next_year" => lex.next_year = e.terms,
                "year_after" => lex.year_after = e.terms,
                "exam" => lex.exam = e.terms,
                "start" => lex.start = e.terms,
                other => panic!("enrollment.txt: unknown key {other}"),
            }
        }
        // Longest terms first, so "专业学位" wins over a shorter overlap.
        for (_, terms) in &mut lex.degrees {
            terms.sort_by_key(|t| std::cmp::Reverse(t.chars().count()));
        }
        lex
    }

    /// The degree type the text asks for: the last one named and not negated.
    pub(crate) fn degree(&self, text: &str) -> Option<String> {
        let mut found: Option<(usize, String)> = None;
        for (value, terms) in &self.degrees {
            for term in terms {
                for (at, _) in text.match_indices(term.as_str()) {
                    let before = &text[..at];
                    if self.negators.iter().any(|n| before.ends_with(n.as_str())) {
                        continue;
                    }
                    if found.as_ref().is_none_or(|(p, _)| at > *p) {
                        found = Some((at, value.clone()));
                    }
                }
            }
        }
        found.map(|(_, v)| v)
    }

    fn followed_by(list: &[String], rest: &str) -> bool {
        let rest = rest.trim_start_matches(['年', ' ', '的']);
        list.iter().any(|w| rest.starts_with(w.as_str()))
    }

    /// The year the student would start, given the current year.
    pub(crate) fn year(&self, text: &str, this_year: i32) -> Option<String> {
        let in_range = |y: i32| (this_year..=this_year + 4).contains(&y);
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let mut i = 0;
        while i < chars.len() {
            if !chars[i].1.is_ascii_digit() {
                i += 1;
                continue;
            }
            let start = i;
            while i < chars.len() && chars[i].1.is_ascii_digit() {
                i += 1;
            }
            // Part of a longer number ("12027"), a decimal or a phone number: skip.
            let digits: String = chars[start..i].iter().map(|(_, c)| c).collect();
            let end = chars.get(i).map_or(text.len(), |(b, _)| *b);
            let rest = &text[end..];
            let year = match digits.len() {
                4 => digits.parse::<i32>().ok(),
                2 => digits.parse::<i32>().ok().map(|y| 2000 + y),
                _ => None,
            };
            let Some(year) = year.filter(|y| in_range(*y)) else {
                continue;
            };
            let exam = Self::followed_by(&self.exam, rest);
            let start_word = Self::followed_by(&self.start, rest);
            // A bare "2027年" counts; a bare "27" does not.
            let bare_year = digits.len() == 4 && rest.starts_with('年');
            if exam || start_word || bare_year {
                return Some(year.to_string());
            }
        }
        for (words, offset) in [
            (&self.this_year, 0),
            (&self.next_year, 1),
            (&self.year_after, 2),
        ] {
            for w in words {
                if let Some(at) = text.find(w.as_str()) {
                    let rest = &text[at + w.len()..];
                    if Self::followed_by(&self.start, rest) {
                        return Some((this_year + offset).to_string());
                    }
                    if Self::followed_by(&self.exam, rest) {
                        return Some((this_year + offset + 1).to_string());
                    }
                }
            }
        }
        None
    }
}

/// The degree type a longer name stands for ("专业硕士" → "专硕"), from the
/// shipped lexicon; `None` for anything else.
pub fn degree_of(value: &str) -> Option<String> {
    use std::sync::OnceLock;
    static LEX: OnceLock<EnrollmentLexicon> = OnceLock::new();
    let lex = LEX.get_or_init(EnrollmentLexicon::load);
    lex.degrees
        .iter()
        .find(|(_, terms)| terms.iter().any(|t| t == value))
        .map(|(v, _)| v.clone())
}

/// The current year (UTC), for relative years.
pub fn current_year() -> i32 {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Civil-from-days (Howard Hinnant's algorithm), year only.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degree_types_in_the_students_words() {
        let lex = EnrollmentLexicon::load();
        let d = |t: &str| lex.degree(t);
        assert_eq!(d("我想读学硕").as_deref(), Some("学硕"));
        assert_eq!(d("考专业硕士"), Some("专硕".into()));
        assert_eq!(d("打算本直博"), Some("直博".into()));
        assert_eq!(d("不读专硕，想读学硕"), Some("学硕".into()));
        assert_eq!(d("不考虑直博"), None);
        assert_eq!(d("导师怎么样"), None);
    }

    #[test]
    fn years_absolute_relative_and_false_alarms() {
        let lex = EnrollmentLexicon::load();
        let y = |t: &str| lex.year(t, 2026);
        assert_eq!(y("2027年入学").as_deref(), Some("2027"));
        assert_eq!(y("我是27考研的"), Some("2027".into()));
        assert_eq!(y("28届考研"), Some("2028".into()));
        assert_eq!(y("准备2028年考"), Some("2028".into()));
        assert_eq!(y("今年考研"), Some("2027".into()));
        assert_eq!(y("明年入学"), Some("2027".into()));
        assert_eq!(y("明年考研"), Some("2028".into()));
        assert_eq!(y("后年考"), Some("2029".into()));
        // Not enrollment years.
        assert_eq!(y("2008年毕业的导师"), None);
        assert_eq!(y("经费有30万"), None);
        assert_eq!(y("第1个导师"), None);
        assert_eq!(y("13912345678"), None);
        assert_eq!(y("他有27篇论文"), None);
    }

    #[test]
    fn the_current_year_is_plausible() {
        let y = current_year();
        assert!((2024..2100).contains(&y), "{y}");
    }
}
