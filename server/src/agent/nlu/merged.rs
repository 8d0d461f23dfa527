//! Two schools said as one: a name and, after a word saying it became
//! another (cues.txt `merged_into`: 并到, 现在归, 现在叫), the name it
//! became. "我爷爷是上海第二医科大学毕业的，后来并到交大了" names one school:
//! of the schools 交大 may be, the one the first name belongs to. Older
//! speakers name a school this way, by the name they knew and the one it
//! has now, and the first is often said as their own past (毕业的), which
//! would otherwise drop it before it could tell which 交大.
//!
//! When the two disagree ("…并到浙大了", a recognizer's 浙大 for 交大), the
//! student said they are one school and one of the two was misheard or
//! misremembered: the later name is asked about between both
//! ([`Tag::Heard`]), never filled silently, and the earlier one is no
//! longer read as a school of its own.

use super::lexicon::{Lexicons, Tag};
use super::tokens::Text;

/// Reads every name said after a `merged_into` word as the school the
/// name before it belongs to (see the module doc). Runs before the roles
/// drop the student's past.
pub(super) fn read(text: &mut Text, lex: &Lexicons) {
    for j in 0..text.tokens.len() {
        let later = text.tokens[j].schools();
        if later.is_empty() {
            continue;
        }
        let start = text.tokens[j].start;
        let Some(cue) = lex.lists.merged_into.suffix_at(&text.chars, start, 0) else {
            continue;
        };
        let Some(i) = (0..j)
            .rev()
            .find(|&i| text.tokens[i].end <= start - cue && !text.tokens[i].schools().is_empty())
        else {
            continue;
        };
        let [earlier] = text.tokens[i].schools()[..] else {
            continue;
        };
        let others = |tags: &mut Vec<Tag>| tags.retain(|g| !matches!(g, Tag::School(_)));
        if later.contains(&earlier) {
            let tags = &mut text.tokens[j].tags;
            tags.retain(|g| !matches!(g, Tag::School(s) if *s != earlier));
        } else if let [misheard] = later[..] {
            let tags = &mut text.tokens[j].tags;
            others(tags);
            tags.extend([Tag::School(misheard), Tag::School(earlier), Tag::Heard]);
            others(&mut text.tokens[i].tags);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture;
    use super::super::{analyze, Slot};

    fn school(text: &str) -> Option<Slot> {
        analyze(text, fixture::lexicons(), &[]).school
    }

    #[test]
    fn a_name_and_the_one_it_became_are_one_school() {
        let one = |s: &str| Some(Slot::One(s.to_string()));
        assert_eq!(
            school("我爷爷是上海第二医科大学毕业的，后来那个学校并到交大了，想学临床"),
            one("上海交通大学")
        );
        assert_eq!(
            school("北京航空学院，现在叫北航了，我说的是老名字"),
            one("北京航空航天大学")
        );
    }

    #[test]
    fn a_school_said_to_be_another_is_asked_about() {
        let said = "上海第二医科大学毕业的，后来并到浙大去了";
        let Some(Slot::Heard { candidates, .. }) = school(said) else {
            panic!("{:?}", school(said));
        };
        assert_eq!(candidates, ["浙江大学", "上海交通大学"]);
    }
}
