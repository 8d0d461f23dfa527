//! The heads of a name's terms, and the heads a query is looked up under.
//!
//! A query is a prefix of the terms it finds; looking prefixes up as a
//! range reads every matching row before the best twenty can be chosen,
//! which is what made "wang" cost 200 ms at a million advisors. But a
//! query stops somewhere inside a syllable of the term it finds, so the
//! term cut at the end of that syllable (a *head*) is the query with that
//! syllable completed: "zh" is one of zha, zhai … zhuo (or z + ha … huo,
//! the initials), "zhangs" is one of zhangsa … zhangsuo. A name is stored
//! under every head of every term, and a query looks up each of its few
//! dozen possible heads by equality, each an index range already in the
//! order results are shown (most reviews first), from which only the first
//! rows are read. The syllables are those of the readings the terms are
//! made of ([`super::readings`] over the CJK block), not a table of their
//! own.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use super::{is_han, readings, spelled};

/// Where in a name a head comes from, which is how a match ranks: the
/// whole of a term at the name's start (the query is the name, in one
/// spelling), a part of one, or a term inside the name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HeadClass {
    Whole = 0,
    Start = 1,
    Inside = 2,
}

impl HeadClass {
    pub const ALL: [HeadClass; 3] = [HeadClass::Whole, HeadClass::Start, HeadClass::Inside];
}

/// One head of a name: its text and the best class it has in that name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    pub text: String,
    pub class: HeadClass,
}

/// Every head `name` is stored under, each once with its best class. A
/// head of one character is left out: one Latin letter finds nobody and
/// one Chinese character is a surname, looked up by the name's first
/// character instead.
pub fn heads(name: &str) -> Vec<Head> {
    let mut out: Vec<Head> = Vec::new();
    for term in spelled(name) {
        for &end in &term.ends {
            let text = &term.text[..end];
            if text.chars().nth(1).is_none() {
                continue;
            }
            let class = match (term.pos, end == term.text.len()) {
                (0, true) => HeadClass::Whole,
                (0, false) => HeadClass::Start,
                _ => HeadClass::Inside,
            };
            match out.iter_mut().find(|h| h.text == text) {
                Some(h) => h.class = h.class.min(class),
                None => out.push(Head {
                    text: text.to_string(),
                    class,
                }),
            }
        }
    }
    out
}

/// Every plain pinyin syllable of the readings of the CJK block, once.
fn syllables() -> &'static [String] {
    static ALL: OnceLock<Vec<String>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut set = BTreeSet::new();
        for c in ('\u{3400}'..='\u{4DBF}').chain('\u{4E00}'..='\u{9FFF}') {
            set.extend(
                readings(c, true)
                    .into_iter()
                    .filter(|r| !r.chars().any(is_han)),
            );
        }
        set.into_iter().collect()
    })
}

/// The longest syllable, in letters ("zhuang", "shuang").
const LONGEST_SYLLABLE: usize = 6;

/// The heads a query key ([`super::query_key`]) is looked up under, the
/// key itself first: any term that starts with the key has one of them.
/// The key ends at a syllable's end (itself a head) or inside a syllable
/// that began at one of its last few letters; for each such start whose
/// letters begin a syllable, every syllable they begin completes it.
/// Chinese characters are syllables of their own, so a key in characters
/// is its own only head.
pub fn lookup_heads(key: &str) -> Vec<String> {
    let mut out = vec![key.to_string()];
    if key.chars().any(is_han) {
        return out;
    }
    let starts: Vec<usize> = key.char_indices().map(|(i, _)| i).collect();
    let from = starts.len().saturating_sub(LONGEST_SYLLABLE);
    for &start in &starts[from..] {
        let begun = &key[start..];
        for s in syllables() {
            if s.len() > begun.len() && s.starts_with(begun) {
                let head = format!("{key}{}", &s[begun.len()..]);
                if !out.contains(&head) {
                    out.push(head);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(name: &str) -> Vec<(String, HeadClass)> {
        heads(name).into_iter().map(|h| (h.text, h.class)).collect()
    }

    #[test]
    fn a_name_is_stored_under_each_syllable_end_of_each_term() {
        let h = of("张三丰");
        for (text, class) in [
            ("张三", HeadClass::Start),
            ("张三丰", HeadClass::Whole),
            ("三丰", HeadClass::Inside),
            ("zhang", HeadClass::Start),
            ("zhangsan", HeadClass::Start),
            ("zhangsanfeng", HeadClass::Whole),
            ("san", HeadClass::Inside),
            ("feng", HeadClass::Inside),
            ("zs", HeadClass::Start),
            ("zsf", HeadClass::Whole),
        ] {
            assert!(
                h.contains(&(text.to_string(), class)),
                "{text} missing: {h:?}"
            );
        }
        // One character finds by the surname index or not at all.
        assert!(h.iter().all(|(t, _)| t.chars().count() > 1), "{h:?}");
    }

    /// Every term of a name that starts with the key has a head the key
    /// looks up: the key is a prefix of the term, and the shortest head at
    /// least as long as the key is among the key's heads.
    #[test]
    fn every_prefix_of_every_term_finds_it_through_one_of_its_heads() {
        for name in [
            "张三丰",
            "单晓明",
            "欧阳娜娜",
            "詹刚",
            "王旺",
            "李翔宇",
            "John Smith",
        ] {
            let stored: Vec<String> = heads(name).into_iter().map(|h| h.text).collect();
            for term in spelled(name) {
                for (i, _) in term.text.char_indices().skip(2) {
                    let key = &term.text[..i];
                    let looked: Vec<String> = lookup_heads(key);
                    assert!(
                        looked
                            .iter()
                            .any(|h| stored.contains(h) && h.starts_with(key)),
                        "{name}: {key} ({}) not found among {looked:?}",
                        term.text
                    );
                }
                let key = term.text.as_str();
                if key.chars().nth(1).is_some() {
                    assert!(
                        lookup_heads(key).iter().any(|h| stored.contains(h)),
                        "{key}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_key_looks_up_a_few_dozen_heads_at_most() {
        assert_eq!(lookup_heads("张三"), vec!["张三".to_string()]);
        let zh = lookup_heads("zh");
        assert!(zh.contains(&"zhang".to_string()) && zh.contains(&"zhuo".to_string()));
        assert!(zh.contains(&"zhan".to_string()), "{zh:?}");
        for key in ["zh", "zhang", "wang", "zs", "li", "zhangs", "shuang"] {
            let n = lookup_heads(key).len();
            assert!(n <= 80, "{key}: {n}");
        }
        assert!(lookup_heads("zhangs").contains(&"zhangsan".to_string()));
    }
}
