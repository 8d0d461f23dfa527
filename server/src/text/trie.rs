//! A character trie with leftmost-longest lookup: the one matcher every
//! lexicon goes through, so that "计算机视觉" is read as one direction and
//! never as the major "计算机" plus something. Latin terms only match as whole
//! words ("ml" does not match inside "html"), Chinese terms anywhere.

use std::collections::HashMap;

/// Whether `c` belongs to a Latin word (letters and digits).
pub(crate) fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
}

/// Whether a term found at `chars[start..end]` respects Latin word edges.
pub(crate) fn word_edges_ok(chars: &[char], start: usize, end: usize) -> bool {
    let starts_latin = is_word_char(chars[start]);
    let ends_latin = is_word_char(chars[end - 1]);
    let glued_before = starts_latin && start > 0 && is_word_char(chars[start - 1]);
    let glued_after = ends_latin && end < chars.len() && is_word_char(chars[end]);
    !glued_before && !glued_after
}

/// Terms (as characters) mapped to one or more values of type `T`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Trie<T> {
    edges: HashMap<(u32, char), u32>,
    /// For each node, the index into `items` when a term ends there.
    ends: Vec<Option<u32>>,
    items: Vec<Vec<T>>,
}

impl<T: Copy + PartialEq> Trie<T> {
    pub fn new() -> Self {
        Trie {
            edges: HashMap::new(),
            ends: vec![None],
            items: Vec::new(),
        }
    }

    /// Adds `value` to `term` (a term may carry several values; duplicates are ignored).
    pub fn insert(&mut self, term: &[char], value: T) {
        if term.is_empty() {
            return;
        }
        let mut node = 0u32;
        for &c in term {
            node = match self.edges.get(&(node, c)) {
                Some(&next) => next,
                None => {
                    let id = self.ends.len() as u32;
                    self.ends.push(None);
                    self.edges.insert((node, c), id);
                    id
                }
            };
        }
        let slot = match self.ends[node as usize] {
            Some(s) => s,
            None => {
                let s = self.items.len() as u32;
                self.items.push(Vec::new());
                self.ends[node as usize] = Some(s);
                s
            }
        };
        let values = &mut self.items[slot as usize];
        if !values.contains(&value) {
            values.push(value);
        }
    }

    /// The longest term starting at `chars[i]`: (length, values).
    pub fn longest(&self, chars: &[char], i: usize) -> Option<(usize, &[T])> {
        if i >= chars.len() {
            return None;
        }
        let mut node = 0u32;
        let mut best = None;
        for (j, &c) in chars.iter().enumerate().skip(i) {
            let Some(&next) = self.edges.get(&(node, c)) else {
                break;
            };
            node = next;
            if let Some(slot) = self.ends[node as usize] {
                if word_edges_ok(chars, i, j + 1) {
                    best = Some((j + 1 - i, &self.items[slot as usize][..]));
                }
            }
        }
        best
    }

    /// The values of exactly `term`.
    pub fn get(&self, term: &[char]) -> Option<&[T]> {
        let mut node = 0u32;
        for &c in term {
            node = *self.edges.get(&(node, c))?;
        }
        self.ends[node as usize].map(|s| &self.items[s as usize][..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn longest_match_and_word_edges() {
        let mut t = Trie::new();
        t.insert(&chars("计算机"), 1);
        t.insert(&chars("计算机视觉"), 2);
        t.insert(&chars("ml"), 3);
        t.insert(&chars("计算机"), 1);
        let text = chars("计算机视觉");
        assert_eq!(t.longest(&text, 0), Some((5, &[2][..])));
        let text = chars("计算机系");
        assert_eq!(t.longest(&text, 0), Some((3, &[1][..])));
        assert_eq!(t.longest(&chars("html"), 2), None);
        assert_eq!(t.longest(&chars("mlp"), 0), None);
        assert_eq!(t.longest(&chars("做ml的"), 1), Some((2, &[3][..])));
        assert_eq!(t.get(&chars("计算机")), Some(&[1][..]));
        assert_eq!(t.get(&chars("计算")), None);
    }
}
