//! Names as a search finds them: the terms an advisor's name is indexed
//! under, and the key a typed query is looked up by.
//!
//! A name search must find 张三丰 from "张三丰", "张三", "三丰", "zhangsan",
//! "zhang san", "sanfeng", "zsf" or "張三" — and do it with one range of a
//! B-tree index, so it costs the same at 100 advisors or 100,000. The trick:
//! a substring of a name is a *prefix* of one of its suffixes. So a name is
//! indexed under each of its suffixes (张三丰, 三丰, 丰), its pinyin from each
//! syllable on (zhangsanfeng, sanfeng, feng) and its initials (zsf), each with
//! the position it starts at; a query is folded to the same alphabet and
//! looked up as a prefix. Pinyin comes from the `pinyin` crate (the Unihan
//! readings); a surname's every reading is indexed (单 shan/dan, 曾
//! zeng/ceng), since surnames are where the common reading is often wrong.

use pinyin::{ToPinyin, ToPinyinMulti};

use super::fold::fold_char;

/// One term of a name: the text and where in the name it starts (0: the
/// name's start; such a match ranks above one inside the name).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Term {
    pub text: String,
    pub pos: i64,
}

/// The longest query that is looked up (a name is short; a longer text is
/// not a name and is cut rather than refused by the index).
pub const MAX_KEY_CHARS: usize = 32;

pub(crate) fn is_han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{2FA1F}')
}

/// A name's characters in one spelling: simplified, half-width,
/// lower-case, without spaces, middle dots and other separators.
pub fn fold_name(s: &str) -> Vec<char> {
    s.chars()
        .filter_map(fold_char)
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The plain (toneless) readings of one character: every reading for
/// `all`, else the common one; a character without a reading is itself.
pub(crate) fn readings(c: char, all: bool) -> Vec<String> {
    if !is_han(c) {
        return vec![c.to_string()];
    }
    let mut out: Vec<String> = Vec::new();
    if all {
        if let Some(multi) = c.to_pinyin_multi() {
            for p in multi {
                let s = p.plain().to_string();
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    } else if let Some(p) = c.to_pinyin() {
        out.push(p.plain().to_string());
    }
    if out.is_empty() {
        out.push(c.to_string());
    }
    out
}

/// Every term `name` is indexed under, each once (at its first position).
pub fn terms(name: &str) -> Vec<Term> {
    let chars = fold_name(name);
    let mut out: Vec<Term> = Vec::new();
    let mut push = |text: String, pos: usize| {
        if !text.is_empty() && !out.iter().any(|t| t.text == text) {
            out.push(Term {
                text,
                pos: pos as i64,
            });
        }
    };
    // The name's own characters, from each position.
    for i in 0..chars.len() {
        push(chars[i..].iter().collect(), i);
    }
    if chars.iter().any(|&c| is_han(c)) {
        let syllables: Vec<Vec<String>> = chars
            .iter()
            .enumerate()
            .map(|(i, &c)| readings(c, i == 0))
            .collect();
        // Pinyin from each syllable on; the first syllable in every reading.
        for i in 0..syllables.len() {
            let rest: String = syllables[i + 1..].iter().map(|s| s[0].as_str()).collect();
            for first in &syllables[i] {
                push(format!("{first}{rest}"), i);
            }
        }
        // Initials of the whole name (zs, zsf), for each surname reading.
        let rest: String = syllables[1..]
            .iter()
            .filter_map(|s| s[0].chars().next())
            .collect();
        for first in &syllables[0] {
            if let Some(f) = first.chars().next() {
                push(format!("{f}{rest}"), 0);
            }
        }
    }
    out
}

/// The key a typed query is looked up by: folded like a name; a query that
/// mixes characters and Latin letters ("张san") is spelled all in pinyin, so
/// it meets the pinyin terms. Empty when nothing searchable is left.
pub fn query_key(query: &str) -> String {
    let chars: Vec<char> = fold_name(query).into_iter().take(MAX_KEY_CHARS).collect();
    let has_han = chars.iter().any(|&c| is_han(c));
    let has_latin = chars.iter().any(char::is_ascii_alphabetic);
    if has_han && has_latin {
        chars
            .iter()
            .map(|&c| readings(c, false).remove(0))
            .collect()
    } else {
        chars.into_iter().collect()
    }
}

/// The exclusive upper bound of the terms that start with `key`: every
/// string with that prefix sorts below it (UTF-8 byte order, which is
/// SQLite's BINARY collation).
pub fn prefix_end(key: &str) -> String {
    format!("{key}\u{10FFFF}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(name: &str) -> Vec<String> {
        terms(name).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn a_name_is_found_by_its_parts_its_pinyin_and_its_initials() {
        let t = texts("张三丰");
        for want in [
            "张三丰",
            "三丰",
            "丰",
            "zhangsanfeng",
            "sanfeng",
            "feng",
            "zsf",
        ] {
            assert!(t.contains(&want.to_string()), "{want} missing from {t:?}");
        }
        let pos: Vec<(String, i64)> = terms("张三丰")
            .into_iter()
            .map(|t| (t.text, t.pos))
            .collect();
        assert!(pos.contains(&("三丰".to_string(), 1)));
        assert!(pos.contains(&("zhangsanfeng".to_string(), 0)));
    }

    #[test]
    fn a_surname_is_indexed_in_every_reading() {
        let t = texts("单晓明");
        assert!(t.contains(&"shanxiaoming".to_string()), "{t:?}");
        assert!(t.contains(&"danxiaoming".to_string()), "{t:?}");
        assert!(t.contains(&"sxm".to_string()) && t.contains(&"dxm".to_string()));
    }

    #[test]
    fn queries_fold_to_the_index_alphabet() {
        assert_eq!(query_key(" Zhang San "), "zhangsan");
        assert_eq!(query_key("張三"), "张三");
        assert_eq!(query_key("ＺＳ"), "zs");
        assert_eq!(query_key("张san"), "zhangsan");
        assert_eq!(query_key("欧阳·娜娜"), "欧阳娜娜");
        assert_eq!(query_key("  ,, "), "");
        assert!(query_key(&"张".repeat(100)).chars().count() <= MAX_KEY_CHARS);
    }

    #[test]
    fn latin_names_are_indexed_as_written() {
        let t = texts("John Smith");
        assert!(t.contains(&"johnsmith".to_string()));
        assert!(t.contains(&"smith".to_string()));
    }

    #[test]
    fn the_prefix_range_holds_every_extension_and_nothing_else() {
        let end = prefix_end("zhang");
        for inside in ["zhang", "zhangsan", "zhang丰"] {
            assert!(inside >= "zhang" && inside < end.as_str(), "{inside}");
        }
        for outside in ["zhan", "", "zhb", "zhanf"] {
            assert!(!(outside >= "zhang" && outside < end.as_str()), "{outside}");
        }
    }
}
