//! One utterance as the agent's understanding spells and searches it.
//! [`basic`] is the spelling every lexicon term, FAQ trigger and advisor
//! name is stored in (and the first stage of the agent's `normalize`),
//! built on [`super::fold`] and the one clause splitter; [`SEP`] is the
//! clause separator punctuation becomes and [`DE`] the particle 的;
//! [`WordList`] and [`find_word`] look plain words up with Latin word
//! edges. Nothing here needs a loaded lexicon. (Not [`super::words`], the
//! one-pass word sets long texts such as reviews are searched with: these
//! are the short lists one utterance is read with.)

use super::trie::word_edges_ok;

/// The clause separator every punctuation mark becomes.
pub(crate) const SEP: char = ',';

/// The particle 的, which joins a modifier to its noun ("北大的计算机",
/// "排第一的"): grammar, not vocabulary, so it is a constant and not in a list.
pub(crate) const DE: char = '的';

/// The copula 是, which opens what is said instead after a "no" ("不是，
/// 是心理学", "不是金融，是经济学"): grammar too.
pub(crate) const SHI: char = '是';

/// One character as the rules see it (`text::fold`); an invisible one is
/// nothing.
fn fold(c: char) -> Option<char> {
    crate::text::fold::fold_char(c)
}

/// Punctuation as the one clause splitter defines it (`text::clauses`).
fn is_punct(c: char) -> bool {
    crate::text::clauses::is_punctuation(c)
}

/// Width, case, punctuation and spaces only: the form every lexicon term is
/// stored in, and the first stage of `normalize::normalize`.
pub(crate) fn basic(s: &str) -> String {
    let chars: Vec<char> = s.chars().filter_map(fold).collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    for (i, &c) in chars.iter().enumerate() {
        let prev = out.last().copied();
        let next = chars[i + 1..].iter().copied().find(|c| !c.is_whitespace());
        let latin = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        if c.is_whitespace() {
            if latin(prev) && latin(next) && prev != Some(' ') {
                out.push(' ');
            }
        } else if (c == '、' || (c == '/' && !(latin(prev) && latin(next))))
            && prev.is_some_and(|p| p != SEP)
            && next.is_some_and(|n| !is_punct(n))
        {
            if prev == Some(' ') {
                out.pop();
            }
            out.push('和');
        } else if c == '.'
            && prev.is_some_and(|p| p.is_ascii_digit())
            && next.is_some_and(|n| n.is_ascii_digit())
        {
            out.push('.');
        } else if c == '.'
            && prev.is_some_and(|p| p.is_ascii_alphabetic())
            && next.is_some_and(|n| n.is_ascii_digit())
        {
            // An abbreviation point ("No.2", "Vol.3"), not a full stop.
            out.push(' ');
        } else if matches!(c, '-' | '_' | '/' | '\'' | '’') && latin(prev) && latin(next) {
            // "Xi'an": pinyin's apostrophe parts syllables, as a hyphen
            // parts words.
            out.push(' ');
        } else if matches!(c, '+' | '#')
            && prev.is_some_and(|p| p.is_ascii_alphabetic() || p == '+')
        {
            out.push(c);
        } else if is_punct(c) {
            if prev.is_some() && prev != Some(SEP) {
                if prev == Some(' ') {
                    out.pop();
                }
                out.push(SEP);
            }
        } else {
            if prev == Some(' ') && !latin(Some(c)) {
                out.pop();
            }
            out.push(c);
        }
    }
    while matches!(out.last(), Some(&SEP) | Some(&' ')) {
        out.pop();
    }
    out.into_iter().collect()
}

/// A term as characters in the spelling every word is stored in ([`basic`]).
pub(crate) fn chars(term: &str) -> Vec<char> {
    basic(term).chars().collect()
}

/// A plain word list, longest words first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct WordList(Vec<Vec<char>>);

impl WordList {
    pub(crate) fn from_terms(terms: &[String]) -> WordList {
        let mut words: Vec<Vec<char>> = terms
            .iter()
            .map(|t| chars(t))
            .filter(|w| !w.is_empty())
            .collect();
        words.sort_by_key(|w| std::cmp::Reverse(w.len()));
        words.dedup();
        WordList(words)
    }

    /// Length of the longest word starting at `chars[i]`.
    pub fn prefix_at(&self, chars: &[char], i: usize) -> Option<usize> {
        self.0
            .iter()
            .find(|w| {
                chars.get(i..i + w.len()) == Some(&w[..]) && word_edges_ok(chars, i, i + w.len())
            })
            .map(Vec::len)
    }

    /// Length of the longest word ending at `chars[..end]`, not reaching before `floor`.
    pub fn suffix_at(&self, chars: &[char], end: usize, floor: usize) -> Option<usize> {
        self.0
            .iter()
            .find(|w| {
                w.len() <= end - floor.min(end)
                    && chars.get(end - w.len()..end) == Some(&w[..])
                    && word_edges_ok(chars, end - w.len(), end)
            })
            .map(Vec::len)
    }

    /// Where a run of the list's words starting at `chars[from]` ends, one
    /// after another, the longest each time (`from` itself when none
    /// starts there).
    pub fn skip_run(&self, chars: &[char], from: usize) -> usize {
        let mut at = from;
        while let Some(n) = self.prefix_at(chars, at) {
            at += n;
        }
        at
    }

    pub fn words(&self) -> impl Iterator<Item = &[char]> {
        self.0.iter().map(Vec::as_slice)
    }

    /// Whether `word` is in the list.
    pub fn has(&self, word: &[char]) -> bool {
        self.0.iter().any(|w| w[..] == *word)
    }

    /// Whether any word of the list occurs in `chars`.
    pub fn occurs_in(&self, chars: &[char]) -> bool {
        self.0.iter().any(|w| find_word(chars, w, 0).is_some())
    }
}

/// First occurrence of `word` in `chars` at or after `from`, respecting Latin word edges.
pub(crate) fn find_word(chars: &[char], word: &[char], from: usize) -> Option<usize> {
    if word.is_empty() || word.len() > chars.len() {
        return None;
    }
    (from..=chars.len() - word.len())
        .find(|&i| chars[i..i + word.len()] == *word && word_edges_ok(chars, i, i + word.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_width_case_punctuation_spaces() {
        assert_eq!(basic("ＰＫＵ　计算机！"), "pku计算机");
        assert_eq!(basic("北大 ， 清华。"), "北大,清华");
        assert_eq!(basic("Machine  Learning方向"), "machine learning方向");
        assert_eq!(basic("机器 学习"), "机器学习");
        assert_eq!(basic("北大、清华/复旦"), "北大和清华和复旦");
        assert_eq!(basic("4.5分"), "4.5分");
        assert_eq!(basic("few-shot"), "few shot");
        assert_eq!(basic("Xi'an Jiaotong"), "xi an jiaotong");
        assert_eq!(basic("“北大”……"), "北大");
        assert_eq!(basic("c++方向"), "c++方向");
    }
}
