//! Names as a search finds them: the terms an advisor's name is indexed
//! under, and the key a typed query is looked up by.
//!
//! A name search must find 张三丰 from "张三丰", "张三", "三丰", "zhangsan",
//! "zhang san", "sanfeng", "zsf" or "張三" — and do it from a B-tree index,
//! at a cost that does not grow with the number of advisors. The trick:
//! a substring of a name is a *prefix* of one of its suffixes. So a name is
//! indexed under each of its suffixes (张三丰, 三丰, 丰), its pinyin from each
//! syllable on (zhangsanfeng, sanfeng, feng) and its initials (zsf), each with
//! the position it starts at; a query is folded to the same alphabet and
//! is a prefix of the terms it finds. Pinyin comes from the `pinyin` crate (the Unihan
//! readings); a surname's every reading is indexed (单 shan/dan, 曾
//! zeng/ceng), since surnames are where the common reading is often wrong.
//!
//! What the database stores is not the terms but their heads
//! ([`heads`]): a term cut at each of its syllable ends. A prefix range
//! over the terms costs as many rows as match, and at a million advisors
//! "wang" matches tens of thousands; a head is looked up by equality, in
//! the order results are shown, so a query reads a few dozen rows whatever
//! the number of advisors.

mod heads;
pub use heads::{heads, lookup_heads, Head, HeadClass};

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

/// A term with the byte offsets where its syllables end (a character of
/// the name, a pinyin syllable, an initial): where a query may stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Spelled {
    pub text: String,
    pub pos: usize,
    pub ends: Vec<usize>,
}

/// Every term `name` is indexed under, with its syllables, each once (at
/// its first position).
pub(crate) fn spelled(name: &str) -> Vec<Spelled> {
    let chars = fold_name(name);
    let mut out: Vec<Spelled> = Vec::new();
    let mut push = |parts: &[&str], pos: usize| {
        let mut text = String::new();
        let mut ends = Vec::with_capacity(parts.len());
        for p in parts {
            text.push_str(p);
            ends.push(text.len());
        }
        if !text.is_empty() && !out.iter().any(|t| t.text == text) {
            out.push(Spelled { text, pos, ends });
        }
    };
    // The name's own characters, from each position.
    let own: Vec<String> = chars.iter().map(char::to_string).collect();
    let own: Vec<&str> = own.iter().map(String::as_str).collect();
    for i in 0..own.len() {
        push(&own[i..], i);
    }
    if chars.iter().any(|&c| is_han(c)) {
        let syllables: Vec<Vec<String>> = chars
            .iter()
            .enumerate()
            .map(|(i, &c)| readings(c, i == 0))
            .collect();
        // Pinyin from each syllable on; the first syllable in every reading.
        for i in 0..syllables.len() {
            for first in &syllables[i] {
                let mut parts = vec![first.as_str()];
                parts.extend(syllables[i + 1..].iter().map(|s| s[0].as_str()));
                push(&parts, i);
            }
        }
        // Initials of the whole name (zs, zsf), for each surname reading.
        let rest: Vec<String> = syllables[1..]
            .iter()
            .filter_map(|s| s[0].chars().next())
            .map(String::from)
            .collect();
        for first in &syllables[0] {
            if let Some(f) = first.chars().next() {
                let f = f.to_string();
                let mut parts = vec![f.as_str()];
                parts.extend(rest.iter().map(String::as_str));
                push(&parts, 0);
            }
        }
    }
    out
}

/// Every term `name` is indexed under, each once (at its first position).
pub fn terms(name: &str) -> Vec<Term> {
    spelled(name)
        .into_iter()
        .map(|t| Term {
            text: t.text,
            pos: t.pos as i64,
        })
        .collect()
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

/// Whether `short` is an abbreviation of the institution's name `full`
/// the way Chinese shortens one: each word of the name kept whole, cut
/// to its first characters or left out, in order; the first word never
/// left out and the last (大学) cut to its first character: 哈尔滨工大 and
/// 中国科大 for 哈尔滨工业大学 and 中国科学技术大学, but not 北京工大 for
/// 北京理工大学 (理工 is not cut to 工: that is 北京工业大学, another
/// school) nor 东北大学 for 东北师范大学.
/// An institution's name is read as words of two characters from its end
/// (大学, 工业, 尔滨, 哈): a place of three characters then keeps its first
/// alone or whole, as it is said. Three characters at least.
pub fn abbreviates(short: &[char], full: &[char]) -> bool {
    if short.len() < 3 || short.len() >= full.len() {
        return false;
    }
    let words = two_character_words(full, true);
    let last = words.len() - 1;
    // The first word at least begun, the last cut to one character.
    let keeps =
        |i: usize, n: usize, _: usize| (i != 0 && i != last || n >= 1) && (i != last || n <= 1);
    word_by_word(&words, short, &keeps, &|a, b| a == b)
}

/// `full` as words of two characters, from its end (the first word then
/// has one character when the length is odd) or from its start.
fn two_character_words(full: &[char], from_end: bool) -> Vec<&[char]> {
    if from_end {
        let mut words: Vec<&[char]> = full.rchunks(2).collect();
        words.reverse();
        words
    } else {
        full.chunks(2).collect()
    }
}

/// Whether `short` is `words` in order, the `i`-th word giving its first
/// `n` characters where `keeps(i, n, its length)`, each character compared
/// by `same`: how `abbreviates` and `shortens` read a name.
fn word_by_word(
    words: &[&[char]],
    short: &[char],
    keeps: &dyn Fn(usize, usize, usize) -> bool,
    same: &dyn Fn(char, char) -> bool,
) -> bool {
    fn fits(
        words: &[&[char]],
        i: usize,
        short: &[char],
        keeps: &dyn Fn(usize, usize, usize) -> bool,
        same: &dyn Fn(char, char) -> bool,
    ) -> bool {
        let Some(word) = words.get(i) else {
            return short.is_empty();
        };
        (0..=word.len().min(short.len())).rev().any(|n| {
            keeps(i, n, word.len())
                && short[..n].iter().zip(&word[..n]).all(|(&a, &b)| same(a, b))
                && fits(words, i + 1, &short[n..], keeps, same)
        })
    }
    fits(words, 0, short, keeps, same)
}

/// Whether `short` is how students shorten the subject's name `full`
/// ("生科" for 生物科学, "应统" for 应用统计, "自控" for 自动控制, "汉语言"
/// for 汉语言文学): the name read as words of two characters (from its start,
/// or from its end when its length is odd), each kept whole, cut to its first
/// character or, after the first, left out, in order; at least two
/// characters, and shorter than the name.
pub fn shortens(short: &[char], full: &[char]) -> bool {
    shortens_by(short, full, |a, b| a == b)
}

/// [`shortens`], each character of `short` compared with the name's by
/// `same` (a homophone written for it: 声科 for 生科).
pub fn shortens_by(short: &[char], full: &[char], same: impl Fn(char, char) -> bool) -> bool {
    if short.len() < 2 || short.len() >= full.len() {
        return false;
    }
    // Whole, its first character, or (after the first) left out.
    let keeps = |i: usize, n: usize, len: usize| n == 1 || n == len || (n == 0 && i > 0);
    [false, true]
        .into_iter()
        .any(|from_end| word_by_word(&two_character_words(full, from_end), short, &keeps, &same))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_institution_is_shortened_word_by_word() {
        let c = |s: &str| s.chars().collect::<Vec<char>>();
        assert!(abbreviates(&c("哈尔滨工大"), &c("哈尔滨工业大学")));
        assert!(abbreviates(&c("中国科大"), &c("中国科学技术大学")));
        assert!(abbreviates(&c("华中科大"), &c("华中科技大学")));
        assert!(abbreviates(&c("上海交大"), &c("上海交通大学")));
        assert!(!abbreviates(&c("北京工大"), &c("北京理工大学")));
        assert!(!abbreviates(&c("北京大学"), &c("北京大学")));
        assert!(!abbreviates(&c("东北大学"), &c("东北师范大学")));
        assert!(!abbreviates(&c("北京大学"), &c("北京理工大学")));
        assert!(abbreviates(&c("北师大"), &c("北京师范大学")));
        assert!(shortens(&c("生科"), &c("生物科学")));
        assert!(shortens(&c("应统"), &c("应用统计")));
        assert!(shortens(&c("自控"), &c("自动控制")));
        assert!(shortens(&c("汉语言"), &c("汉语言文学")));
        assert!(!shortens(&c("生物"), &c("生物")));
        assert!(!shortens(&c("物科"), &c("生物科学")));
        assert!(!shortens(&c("经管"), &c("工商管理")));
        assert!(!abbreviates(&c("工大"), &c("哈尔滨工业大学")));
    }

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
}
