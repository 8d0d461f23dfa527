//! A word list searched in one pass over the text: an Aho–Corasick
//! automaton (the `aho-corasick` crate) with the leftmost-longest match at
//! each place, so a longer word wins over a word inside it ("垃圾分类" over
//! "垃圾"). Searching costs O(text + matches) whatever the number of words;
//! the quadratic "every word × every place × every exception" loop it
//! replaces kept a CPU busy for 40 s on a 70,000-character text.

use aho_corasick::{AhoCorasick, MatchKind};

/// Words, each with a tag saying what it is (a kind, an index, …).
pub struct WordSet<T> {
    automaton: AhoCorasick,
    tags: Vec<T>,
    words: Vec<String>,
}

/// One match: byte range in the searched text, the word and its tag.
#[derive(Clone, Copy, Debug)]
pub struct Hit<'a, T> {
    pub start: usize,
    pub end: usize,
    pub word: &'a str,
    pub tag: &'a T,
}

impl<T> WordSet<T> {
    /// Builds the automaton; empty words are left out.
    pub fn new(words: impl IntoIterator<Item = (String, T)>) -> WordSet<T> {
        let (words, tags): (Vec<String>, Vec<T>) =
            words.into_iter().filter(|(w, _)| !w.is_empty()).unzip();
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(&words)
            .expect("a word list always builds");
        WordSet {
            automaton,
            tags,
            words,
        }
    }

    /// Non-overlapping matches, left to right, the longest at each place.
    /// A word that begins or ends with an ASCII letter or digit must not
    /// run on into an ASCII letter there ("sb" is not found in "usb", "qq"
    /// is found in "qq123").
    pub fn find<'a>(&'a self, text: &'a str) -> impl Iterator<Item = Hit<'a, T>> + 'a {
        self.automaton.find_iter(text).filter_map(move |m| {
            let word = self.words[m.pattern().as_usize()].as_str();
            let glued_before = word.starts_with(|c: char| c.is_ascii_alphanumeric())
                && text[..m.start()]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_alphabetic());
            let glued_after = word.ends_with(|c: char| c.is_ascii_alphanumeric())
                && text[m.end()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic());
            (!glued_before && !glued_after).then(|| Hit {
                start: m.start(),
                end: m.end(),
                word,
                tag: &self.tags[m.pattern().as_usize()],
            })
        })
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_wins_and_ascii_words_need_their_own_boundaries() {
        let set = WordSet::new([
            ("垃圾".to_string(), 1),
            ("垃圾分类".to_string(), 0),
            ("sb".to_string(), 1),
        ]);
        let tags = |t: &str| set.find(t).map(|h| *h.tag).collect::<Vec<_>>();
        assert_eq!(tags("垃圾分类做得好"), [0]);
        assert_eq!(tags("真垃圾"), [1]);
        assert_eq!(tags("usb接口"), Vec::<i32>::new());
        assert_eq!(tags("这个sb老师"), [1]);
    }
}
