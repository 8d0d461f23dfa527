//! Of the readings a recognizer weighed for one recording, the one to go
//! on with.
//!
//! A recognizer returns the reading likeliest by sound and by its own
//! sense of Chinese, which knows nothing of the catalog: 川大化学系 came
//! back 春大化学系 with 川大化学系 fourth among the readings of its beam,
//! 重庆大学 came back 成清大学 with 重清大学 (the same syllables) fifth. The
//! site knows which words name something. So the recognizer's best reading
//! stands unless another of its readings reads everything the best one
//! read, the same way, and more names besides: that one is taken.
//!
//! - Only names count (a school, a major, an advisor of the page by name):
//!   they are long and sound like little else. A wish (温和, 经费) is a
//!   word or two that a reading may grow from noise; it never makes a
//!   reading better.
//! - A reading that reads a name otherwise is never taken: two readings
//!   that disagree are the recognizer's doubt, and the student is asked, as
//!   the best reading leads to. Where the best reading was unsure between
//!   several entries (清华浙大 for 西南交大: two schools side by side), a
//!   reading naming one of them is no evidence for it either; only where it
//!   sounded like one entry alone does a reading of that entry confirm it.

use super::{analyze, Analysis, Lexicons, Reference, Slot};

/// The index in `others` of the reading to take instead of `best`, if one
/// reads strictly more names than it and contradicts none it read; of
/// several, the one reading the most, the recognizer's order breaking ties.
/// `known_names`: the advisors on the student's page.
pub fn better_reading(
    best: &str,
    others: &[String],
    lex: &Lexicons,
    known_names: &[String],
) -> Option<usize> {
    let first = Names::of(&analyze(best, lex, known_names));
    let mut chosen: Option<(usize, usize)> = None;
    for (i, other) in others.iter().enumerate() {
        let names = Names::of(&analyze(other, lex, known_names));
        if names.extends(&first) && chosen.is_none_or(|(_, n)| names.count() > n) {
            chosen = Some((i, names.count()));
        }
    }
    chosen.map(|(i, _)| i)
}

/// The names one reading read.
#[derive(Debug, Default, PartialEq)]
struct Names {
    school: Option<Slot>,
    major: Option<Slot>,
    advisors: Vec<String>,
}

impl Names {
    fn of(a: &Analysis) -> Names {
        Names {
            school: a.school.clone(),
            major: a.major.clone(),
            advisors: a
                .references
                .iter()
                .filter_map(|r| match r {
                    Reference::Name(n) => Some(n.clone()),
                    _ => None,
                })
                .collect(),
        }
    }

    /// Names read as one entry each.
    fn count(&self) -> usize {
        let one = |s: &Option<Slot>| usize::from(matches!(s, Some(Slot::One(_))));
        one(&self.school) + one(&self.major) + self.advisors.len()
    }

    /// Every name `first` read is read here the same way (or, where `first`
    /// was unsure between entries, as one of them), and more are read.
    fn extends(&self, first: &Names) -> bool {
        slot_extends(&self.school, &first.school)
            && slot_extends(&self.major, &first.major)
            && first.advisors.iter().all(|a| self.advisors.contains(a))
            && self.count() > first.count()
    }
}

/// `other` reads at least what `first` read of one field.
fn slot_extends(other: &Option<Slot>, first: &Option<Slot>) -> bool {
    match (first, other) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(Slot::One(a)), Some(Slot::One(b))) => a == b,
        // The best reading only sounded like one entry: another reading
        // that reads that entry itself is the same name, heard better.
        (Some(Slot::Heard { candidates, .. }), Some(Slot::One(b))) => {
            candidates.len() == 1 && candidates[0] == *b
        }
        // Unsure between several (two schools side by side, 交大): a reading
        // that reads one of them is no evidence for it.
        (Some(f), Some(o)) => f == o,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture::lexicons;
    use super::*;

    fn pick(best: &str, others: &[&str], page: &[&str]) -> Option<usize> {
        let others: Vec<String> = others.iter().map(|s| s.to_string()).collect();
        let page: Vec<String> = page.iter().map(|s| s.to_string()).collect();
        better_reading(best, &others, lexicons(), &page)
    }

    #[test]
    fn a_reading_naming_more_is_taken_over_one_naming_less() {
        // The best reading has the major only; the third has the school too.
        assert_eq!(
            pick(
                "春道计算机系",
                &["春道计算机系。", "穿道计算机系", "华科计算机系"],
                &[]
            ),
            Some(2)
        );
        // Nothing read at all: any reading that names something.
        assert_eq!(pick("华库往安", &["华库网案", "华科网安"], &[]), Some(1));
    }

    #[test]
    fn a_reading_that_reads_a_name_otherwise_is_never_taken() {
        // Another school, though it adds a major.
        assert_eq!(pick("我想考北京大学", &["我想考南京大学计算机"], &[]), None);
        // Two schools heard side by side, then one of them: still asked.
        assert_eq!(pick("清华浙大的电气", &["清南浙大的电气"], &[]), None);
        // The same names, only spelled or punctuated otherwise.
        assert_eq!(
            pick("我想考北京大学计算机", &["我想考北京大学，计算机。"], &[]),
            None
        );
    }

    #[test]
    fn wishes_do_not_make_a_reading_better() {
        assert_eq!(
            pick(
                "我想考北京大学计算机",
                &["我想考北京大学计算机导师温和"],
                &[]
            ),
            None
        );
    }

    #[test]
    fn an_advisor_of_the_page_named_counts_as_a_name() {
        let page = ["宋莉婷", "张明"];
        assert_eq!(
            pick("打开送立天老师的主页", &["打开宋莉婷老师的主页"], &page),
            Some(0)
        );
    }
}
