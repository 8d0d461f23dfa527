//! The token stream: one leftmost-longest, non-overlapping pass of the
//! lexicon trie (plus the caller's advisor names) over the normalised text.
//! Everything later works on this stream and on the characters between
//! tokens, and asks it about clauses (stretches between separators).

use super::lexicon::{Cue, Lexicons, PrefSlot, Tag};
use crate::text::trie::word_edges_ok;
use crate::text::utterance::{DE, SEP};

/// A matched term: characters `start..end` and what they may mean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub start: usize,
    pub end: usize,
    pub tags: Vec<Tag>,
}

/// The broad kind of a content token, used to join coordinated items
/// ("北大和清华") and to compare neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    School,
    Major,
    Direction,
    Pref(PrefSlot),
}

impl Token {
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn has_cue(&self, cue: Cue) -> bool {
        self.tags.contains(&Tag::Cue(cue))
    }

    pub fn cues(&self) -> impl Iterator<Item = Cue> + '_ {
        self.tags.iter().filter_map(|t| match t {
            Tag::Cue(c) => Some(*c),
            _ => None,
        })
    }

    pub fn is_act_cue(&self) -> bool {
        self.cues().any(Cue::is_act)
    }

    pub fn schools(&self) -> Vec<usize> {
        self.tags
            .iter()
            .filter_map(|t| match t {
                Tag::School(i) => Some(*i),
                _ => None,
            })
            .collect()
    }

    pub fn majors(&self) -> Vec<usize> {
        self.tags
            .iter()
            .filter_map(|t| match t {
                Tag::Major(i) => Some(*i),
                _ => None,
            })
            .collect()
    }

    pub fn direction(&self) -> Option<usize> {
        self.tags.iter().find_map(|t| match t {
            Tag::Direction(i) => Some(*i),
            _ => None,
        })
    }

    pub fn pref(&self) -> Option<usize> {
        self.tags.iter().find_map(|t| match t {
            Tag::Pref(i) => Some(*i),
            _ => None,
        })
    }

    pub fn has(&self, pred: impl Fn(&Tag) -> bool) -> bool {
        self.tags.iter().any(pred)
    }

    /// What the token names, if it names a value a student can want or reject.
    pub fn kind(&self, lex: &Lexicons) -> Option<Kind> {
        self.tags.iter().find_map(|t| match t {
            Tag::School(_) => Some(Kind::School),
            Tag::Major(_) => Some(Kind::Major),
            Tag::Direction(_) => Some(Kind::Direction),
            Tag::Pref(i) => Some(Kind::Pref(lex.pref(*i).0)),
            _ => None,
        })
    }

    /// Content that other patterns must not swallow: names, values, references.
    pub fn is_strong(&self) -> bool {
        self.has(|t| {
            matches!(
                t,
                Tag::School(_)
                    | Tag::Major(_)
                    | Tag::Direction(_)
                    | Tag::Pref(_)
                    | Tag::Pronoun
                    | Tag::Ordinal(_)
                    | Tag::FromEnd(_)
                    | Tag::Middle
                    | Tag::Name(_)
            )
        })
    }
}

/// The normalised characters with their tokens.
#[derive(Debug, Clone)]
pub(crate) struct Text {
    pub chars: Vec<char>,
    pub tokens: Vec<Token>,
    /// For each character, the token covering it.
    pub cover: Vec<Option<usize>>,
}

impl Text {
    /// Scans `normalized` once, leftmost-longest; a known advisor name wins
    /// over a lexicon term of the same or shorter length.
    pub fn scan(normalized: &str, lex: &Lexicons, names: &[Vec<char>]) -> Text {
        let chars: Vec<char> = normalized.chars().collect();
        let mut tokens = Vec::new();
        let mut cover = vec![None; chars.len()];
        let mut i = 0;
        while i < chars.len() {
            if chars[i] == SEP {
                i += 1;
                continue;
            }
            let main = lex.trie.longest(&chars, i);
            let name = names
                .iter()
                .enumerate()
                .filter(|(_, n)| {
                    n.len() >= 2
                        && chars.get(i..i + n.len()) == Some(&n[..])
                        && word_edges_ok(&chars, i, i + n.len())
                })
                .max_by_key(|(_, n)| n.len());
            let (len, tags) = match (main, name) {
                (Some((ml, _)), Some((ni, n))) if n.len() >= ml => (n.len(), vec![Tag::Name(ni)]),
                (None, Some((ni, n))) => (n.len(), vec![Tag::Name(ni)]),
                (Some((ml, tags)), _) => (ml, tags.to_vec()),
                (None, None) => {
                    i += 1;
                    continue;
                }
            };
            // A word of 的 and what is had ("的信息", "的主页") yields to a
            // longer name that starts after the 的: in "北邮的信息安全" the
            // cue 的信息 stops inside the major 信息安全.
            if chars[i] == DE && !tags.iter().any(names_a_place) {
                let name_after = lex
                    .trie
                    .longest(&chars, i + 1)
                    .is_some_and(|(l, t)| l + 1 > len && t.iter().any(names_a_place));
                if name_after {
                    i += 1;
                    continue;
                }
            }
            for c in cover.iter_mut().skip(i).take(len) {
                *c = Some(tokens.len());
            }
            tokens.push(Token {
                start: i,
                end: i + len,
                tags,
            });
            i += len;
        }
        Text {
            chars,
            tokens,
            cover,
        }
    }

    /// Adds a token over `[start, end)`, replacing the tokens it overlaps
    /// (a name found after the exact pass, `heard`).
    pub fn insert_token(&mut self, start: usize, end: usize, tags: Vec<Tag>) {
        let end = end.min(self.chars.len());
        if start >= end {
            return;
        }
        self.tokens.retain(|t| t.end <= start || t.start >= end);
        let at = self.tokens.partition_point(|t| t.start < start);
        self.tokens.insert(at, Token { start, end, tags });
        self.cover = vec![None; self.chars.len()];
        for (i, t) in self.tokens.iter().enumerate() {
            for c in self.cover.iter_mut().take(t.end).skip(t.start) {
                *c = Some(i);
            }
        }
    }

    /// The clause around position `pos`: `[start, end)`, separators excluded.
    pub fn clause(&self, pos: usize) -> (usize, usize) {
        let pos = pos.min(self.chars.len());
        let start = self.chars[..pos]
            .iter()
            .rposition(|&c| c == SEP)
            .map_or(0, |p| p + 1);
        let end = self.chars[pos..]
            .iter()
            .position(|&c| c == SEP)
            .map_or(self.chars.len(), |p| pos + p);
        (start, end)
    }

    /// Index of the clause holding `pos` (0-based).
    pub fn clause_index(&self, pos: usize) -> usize {
        self.chars[..pos.min(self.chars.len())]
            .iter()
            .filter(|&&c| c == SEP)
            .count()
    }

    /// The token that starts exactly at `pos`.
    pub fn token_at(&self, pos: usize) -> Option<usize> {
        self.cover
            .get(pos)
            .copied()
            .flatten()
            .filter(|&t| self.tokens[t].start == pos)
    }

    /// Whether the character at `pos` is covered by no token.
    pub fn is_raw(&self, pos: usize) -> bool {
        self.cover.get(pos).is_some_and(Option::is_none)
    }

    /// Whether `pos` is covered by a strong token.
    pub fn in_strong(&self, pos: usize) -> bool {
        self.cover
            .get(pos)
            .copied()
            .flatten()
            .is_some_and(|t| self.tokens[t].is_strong())
    }

    /// Whether nothing but a joining word stands between `end` and `start`
    /// (a list mark 、 is one: normalisation writes it 和).
    pub fn joined(&self, end: usize, start: usize) -> bool {
        start == end
            || self
                .tokens
                .iter()
                .any(|t| t.start == end && t.end == start && t.has_cue(Cue::Coord))
    }

    pub fn string(&self, start: usize, end: usize) -> String {
        self.chars[start..end].iter().collect()
    }

    /// Whether position `pos` is the end of its clause.
    pub fn at_clause_end(&self, pos: usize) -> bool {
        pos >= self.chars.len() || self.chars[pos] == SEP
    }

    /// Token indices of the clause that holds `pos`.
    pub fn clause_tokens(&self, pos: usize) -> impl Iterator<Item = usize> + '_ {
        let (s, e) = self.clause(pos);
        (0..self.tokens.len())
            .filter(move |&i| self.tokens[i].start >= s && self.tokens[i].end <= e)
    }
}

/// Whether a tag names a school, a major or a research direction.
fn names_a_place(tag: &Tag) -> bool {
    matches!(tag, Tag::School(_) | Tag::Major(_) | Tag::Direction(_))
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture::lexicons;
    use super::*;

    #[test]
    fn one_pass_longest_match() {
        let lex = lexicons();
        let t = Text::scan("电子科技大学计算机视觉", lex, &[]);
        assert_eq!(t.tokens.len(), 2);
        assert!(matches!(t.tokens[0].tags[0], Tag::School(_)));
        assert!(matches!(t.tokens[1].tags[0], Tag::Direction(_)));
        let t = Text::scan("北京交通大学", lex, &[]);
        assert_eq!(t.tokens.len(), 1);
        assert_eq!(t.tokens[0].len(), 6);
    }

    #[test]
    fn names_beat_shorter_terms_and_clauses_split() {
        let lex = lexicons();
        let names = vec!["张三".chars().collect::<Vec<char>>()];
        let t = Text::scan("张三怎么样,他呢", lex, &names);
        assert_eq!(t.tokens[0].tags, vec![Tag::Name(0)]);
        assert_eq!(t.clause(1), (0, 5));
        assert_eq!(t.clause(7), (6, 8));
        assert_eq!(t.clause_index(7), 1);
    }

    #[test]
    fn a_word_ending_inside_a_longer_name_yields_to_it() {
        let lex = lexicons();
        // 的信息 (a cue) stops inside 信息安全 (a major).
        let t = Text::scan("北邮的信息安全", lex, &[]);
        assert!(t.tokens.iter().any(|t| t.start == 3 && t.end == 7));
    }
}
