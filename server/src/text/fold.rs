//! Folding: one canonical spelling of a text, so that a rule written once
//! matches however the writer typed it — and a map back to the original,
//! so every finding still points at the characters the writer wrote.
//!
//! Character by character ([`Folded::new`]):
//! - full-width forms → half-width (`１３８` → `138`, `＠` → `@`), the
//!   ideographic space → a space;
//! - traditional → simplified (`師兄` → `师兄`), from OpenCC's character table
//!   as the `hanconv` crate ships it (one character for one character, so
//!   offsets stay simple);
//! - ASCII upper case → lower case;
//! - invisible format characters (zero-width spaces and joiners, bidi
//!   overrides, soft hyphens) dropped;
//! - Chinese and capital numerals (零〇一二…九, 幺, 壹贰叁…玖) → digits, but
//!   only where they form a number: a run of at least
//!   [`MIN_SPELLED_DIGITS`] digit characters (separators such as spaces or
//!   dashes between them allowed). "一三八一二三四五六七八" becomes a phone
//!   number; "一一对应", "三四个" and "一五一十" stay words.
//!
//! [`Folded::compact`] then drops separators (spaces, `-`, `.`, `*` …) for
//! the word lists, so "傻 逼" and "人.渣" are the words they spell — except
//! one space where it parts two ASCII words, so "vx zhangsan" keeps its
//! keyword a word of its own.

use std::collections::HashMap;
use std::sync::OnceLock;

/// Fewer spelled-out digits than this in a row are words, not a number.
pub const MIN_SPELLED_DIGITS: usize = 5;

/// A folded text and, per folded character, where it came from.
#[derive(Clone, Debug, Default)]
pub struct Folded {
    pub text: String,
    /// Per folded character: (its byte offset in `text`, the byte range of
    /// the original character(s) it stands for).
    origin: Vec<(usize, usize, usize)>,
    original_len: usize,
}

/// A character that may stand between the digits of one number
/// ("138 1234 5678", "010-6275", "(010)6275", "138.1234", "一三九，一二三四").
pub fn is_digit_separator(c: char) -> bool {
    c.is_whitespace() || "-–—_.·()（）,，".contains(c)
}

/// The digit a numeral stands for (ASCII digits included).
pub fn numeral_digit(c: char) -> Option<char> {
    Some(match c {
        '0'..='9' => c,
        '零' | '〇' => '0',
        '一' | '壹' | '幺' => '1',
        '二' | '贰' => '2',
        '三' | '叁' => '3',
        '四' | '肆' => '4',
        '五' | '伍' => '5',
        '六' | '陆' => '6',
        '七' | '柒' => '7',
        '八' | '捌' => '8',
        '九' | '玖' => '9',
        _ => return None,
    })
}

/// Traditional → simplified, one character for one (OpenCC's table).
pub fn simplified(c: char) -> char {
    static TABLE: OnceLock<HashMap<char, char>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        hanconv::RawDictionary::TSCharacters
            .iter()
            .filter_map(|(from, to)| {
                let mut f = from.chars();
                let mut t = to.chars();
                match (f.next(), f.next(), t.next(), t.next()) {
                    (Some(a), None, Some(b), None) => Some((a, b)),
                    _ => None,
                }
            })
            .collect()
    });
    table.get(&c).copied().unwrap_or(c)
}

/// Zero-width and bidi-control characters: invisible, used to split words.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// One character folded (width, script, case); `None` for an invisible one.
/// The single place a character is folded: every reader of text, the
/// agent's, the coach's, the posting rules' and the name search's, goes
/// through it.
pub fn fold_char(c: char) -> Option<char> {
    if invisible(c) {
        return None;
    }
    let c = match c {
        '\u{3000}' => ' ',
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    };
    Some(if c.is_ascii() {
        c.to_ascii_lowercase()
    } else {
        simplified(c)
    })
}

/// `s` folded (see the module doc): what a sentence is read in. Punctuation
/// stays, half-width ("，" → ","), so clauses can still be cut.
pub fn fold(s: &str) -> String {
    Folded::new(s).text
}

/// `s` folded without any spaces: the form the speech acts' word lists and
/// the messages they read are matched in (punctuation stays: it cuts
/// clauses).
pub fn compact(s: &str) -> String {
    fold(s).chars().filter(|c| !c.is_whitespace()).collect()
}

/// Punctuation and spaces a name is written with but not told apart by.
fn name_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '·' | '・' | '-' | '_' | '.' | '。' | ',' | '•')
}

/// The key a name is looked up by: folded, without spaces and the
/// separators names are written with ("ＰＫＵ", "北京大學", "张 三" → "pku",
/// "北京大学", "张三"). For names only: a sentence is read with [`fold`],
/// which keeps the punctuation that cuts its clauses.
pub fn key(s: &str) -> String {
    s.chars()
        .filter_map(fold_char)
        .filter(|c| !name_separator(*c))
        .collect()
}

impl Folded {
    /// Folds `original` character by character (see the module doc).
    pub fn new(original: &str) -> Folded {
        let mut chars: Vec<(char, usize, usize)> = original
            .char_indices()
            .filter_map(|(i, c)| fold_char(c).map(|f| (f, i, i + c.len_utf8())))
            .collect();
        spell_out_numbers(&mut chars);
        let mut text = String::with_capacity(original.len());
        let mut origin = Vec::with_capacity(chars.len());
        for (c, from, to) in chars {
            origin.push((text.len(), from, to));
            text.push(c);
        }
        Folded {
            text,
            origin,
            original_len: original.len(),
        }
    }

    /// The same text without the separators `is_separator` picks (the map
    /// follows); whitespace between two ASCII letters or digits stays as one
    /// space.
    pub fn compact(&self, is_separator: impl Fn(char) -> bool) -> Folded {
        let mut text = String::with_capacity(self.text.len());
        let mut origin: Vec<(usize, usize, usize)> = Vec::with_capacity(self.origin.len());
        let mut pending_space: Option<(usize, usize)> = None;
        for (&(_, from, to), c) in self.origin.iter().zip(self.text.chars()) {
            if is_separator(c) {
                if c.is_whitespace() && text.ends_with(|p: char| p.is_ascii_alphanumeric()) {
                    pending_space = pending_space.or(Some((from, to)));
                }
                continue;
            }
            if let Some((f, t)) = pending_space.take() {
                if c.is_ascii_alphanumeric() {
                    origin.push((text.len(), f, t));
                    text.push(' ');
                }
            }
            origin.push((text.len(), from, to));
            text.push(c);
        }
        Folded {
            text,
            origin,
            original_len: self.original_len,
        }
    }

    /// The byte range in the original text of the folded range
    /// `start..end` (byte offsets in [`Folded::text`], on char boundaries).
    pub fn origin(&self, start: usize, end: usize) -> (usize, usize) {
        let index = |b: usize| self.origin.partition_point(|&(at, _, _)| at < b);
        let first = index(start);
        let last = index(end).saturating_sub(1).max(first);
        let from = self
            .origin
            .get(first)
            .map_or(self.original_len, |&(_, f, _)| f);
        let to = self.origin.get(last).map_or(self.original_len, |o| o.2);
        (from, to.max(from))
    }
}

/// Replaces spelled-out digits by ASCII digits in runs that form a number.
fn spell_out_numbers(chars: &mut [(char, usize, usize)]) {
    let mut i = 0;
    while i < chars.len() {
        if numeral_digit(chars[i].0).is_none() {
            i += 1;
            continue;
        }
        // The run: digit characters, separators only between two of them.
        let start = i;
        let mut end = i;
        let mut digits = 0;
        let mut spelled = false;
        let mut j = i;
        while j < chars.len() {
            let c = chars[j].0;
            if numeral_digit(c).is_some() {
                digits += 1;
                spelled |= !c.is_ascii_digit();
                end = j + 1;
            } else if !is_digit_separator(c) {
                break;
            }
            j += 1;
        }
        if spelled && digits >= MIN_SPELLED_DIGITS {
            for ch in &mut chars[start..end] {
                if let Some(d) = numeral_digit(ch.0) {
                    ch.0 = d;
                }
            }
        }
        i = end.max(i + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_width_script_case_numerals_and_keeps_the_way_back() {
        let original = "師兄ＱＱ：一三八 一二三四 五六七八。一一对应";
        let f = Folded::new(original);
        assert_eq!(f.text, "师兄qq:138 1234 5678。一一对应");
        let at = f.text.find("138").unwrap();
        let (from, to) = f.origin(at, at + 3);
        assert_eq!(&original[from..to], "一三八");
        let compact = f.compact(|c| c.is_whitespace());
        let at = compact.text.find("138 1234 5678").unwrap();
        let (from, to) = compact.origin(at, at + 13);
        assert_eq!(&original[from..to], "一三八 一二三四 五六七八");
        let words = Folded::new("VX zhang_san 傻 逼").compact(|c| c.is_whitespace() || c == '_');
        assert_eq!(words.text, "vx zhangsan傻逼");
    }

    #[test]
    fn sentences_keep_their_punctuation_names_lose_it() {
        assert_eq!(fold("學術水平很高，經費不夠！"), "学术水平很高,经费不够!");
        assert_eq!(key("ＰＫＵ 北京大學·计算机"), "pku北京大学计算机");
        assert_eq!(key("张 三。"), "张三");
    }

    #[test]
    fn invisible_characters_are_dropped_and_odd_input_is_fine() {
        let f = Folded::new("傻\u{200B}逼");
        assert_eq!(f.text, "傻逼");
        for odd in ["", "\u{0}", "\u{FEFF}", "𝕏", "\u{10FFFF}零"] {
            let f = Folded::new(odd);
            let _ = f.origin(0, f.text.len());
        }
    }
}
