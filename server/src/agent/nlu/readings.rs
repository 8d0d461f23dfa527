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
//!
//! When no reading names the school or the major the student seems to be
//! asking about, the recording may be heard once more, told the few names
//! its words came near ([`listen_for`]); what that second listening hears
//! is one more reading, taken by the same rule.

use super::lexicon::{Tag, MAJOR_SOUNDS, SCHOOL_SOUNDS};
use super::{analyze, Act, Analysis, Lexicons, Reference, Slot};

/// Names of each kind a second listening is told, at most.
const NEAR_NAMES: usize = 3;

/// What to listen for when the recording is heard again: the names read
/// (so they come out the same) and the names near words that read as
/// none, of the kinds the reading is missing.
#[derive(Debug, Default, PartialEq)]
pub struct Listen {
    pub schools: Vec<String>,
    pub majors: Vec<String>,
}

/// Whether `text`, the reading taken, is worth hearing again, and for
/// which names. Only a request about a school and major (no act, or one
/// about places and their advisors) that leaves the school or the major
/// unread, or heard only by sound, where words code did not understand
/// (`Analysis::unexplained`) come near a name of that kind
/// (`text::sound`'s `nearest`). Never a message about advisors (it points
/// at one), nor one read whole, nor one that reads several entries on
/// purpose (北大或者清华, 交大: asked about as they are).
pub fn listen_for(text: &str, lex: &Lexicons, known_names: &[String]) -> Option<Listen> {
    let a = analyze(text, lex, known_names);
    let about_places = matches!(
        a.act,
        Act::None
            | Act::WantExam
            | Act::AboutPlace
            | Act::ListAdvisors
            | Act::Recommend
            | Act::Statistics
    );
    if !a.references.is_empty() || !about_places {
        return None;
    }
    let unexplained: Vec<char> = a.unexplained.join("，").chars().collect();
    // A kind unread, or heard only by sound, is listened for: what it
    // sounded like first, then the names near the unread words. A kind
    // read is told as read; one read as several entries, not at all.
    let missing = |slot: &Option<Slot>| matches!(slot, None | Some(Slot::Heard { .. }));
    let names = |slot: &Option<Slot>, group: u8| -> Vec<String> {
        let mut names = match slot {
            Some(Slot::One(name)) => return vec![name.clone()],
            Some(Slot::Heard { candidates, .. }) => candidates.clone(),
            Some(Slot::Ambiguous { .. } | Slot::Either(_)) => return Vec::new(),
            None => Vec::new(),
        };
        for near in lex.sound.nearest(&unexplained, |_| true, group, NEAR_NAMES) {
            if names.len() < NEAR_NAMES && !names.contains(&near.name) {
                names.push(near.name);
            }
        }
        names
    };
    let listen = Listen {
        schools: names(&a.school, SCHOOL_SOUNDS),
        majors: names(&a.major, MAJOR_SOUNDS),
    };
    let listens = (missing(&a.school) && !listen.schools.is_empty())
        || (missing(&a.major) && !listen.majors.is_empty());
    listens.then_some(listen)
}

/// Whether `word` is, as written, a name the site knows: a school, a major
/// or a research direction, or one of their short names.
pub fn is_name(lex: &Lexicons, word: &[char]) -> bool {
    lex.trie.get(word).is_some_and(|tags| {
        tags.iter()
            .any(|t| matches!(t, Tag::School(_) | Tag::Major(_) | Tag::Direction(_)))
    })
}

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

    fn listen(text: &str) -> Option<Listen> {
        listen_for(text, lexicons(), &[])
    }

    #[test]
    fn a_request_missing_a_name_is_heard_again_for_the_names_near_it() {
        let l = listen("我想去中山大学读林城").unwrap();
        assert_eq!(l.schools, ["中山大学"]);
        assert!(l.majors.iter().any(|m| m == "临床"), "{l:?}");
        let l = listen("华库网案").unwrap();
        assert!(l.schools.iter().any(|m| m == "华科"), "{l:?}");
        assert!(l.majors.iter().any(|m| m == "网安"), "{l:?}");
        // Heard by sound only: what it sounded like is listened for.
        let l = listen("我想报哈尔、并工业大学的计算机").unwrap();
        assert_eq!(l.schools[0], "哈尔滨工业大学");
    }

    #[test]
    fn what_is_read_or_no_request_is_not_heard_again() {
        assert_eq!(listen("我想考北京大学计算机"), None);
        // A school alone, read whole: nothing is missing that was said.
        assert_eq!(listen("我想考北京大学"), None);
        assert_eq!(listen("好的谢谢"), None);
        assert_eq!(listen("第二个老师怎么样"), None);
        // Two schools on purpose: asked about, not heard again.
        assert_eq!(listen("北大或者清华的计算机都行"), None);
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
