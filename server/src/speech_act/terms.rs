//! A word list of the lexicons, matched on chars: the one primitive the
//! speech-act rules are written in (does a clause start, end with, contain,
//! or consist only of such words). Here so the matching can change without
//! touching any rule.

use crate::text::fold::compact as fold;

/// A list of terms, longest first, matched on chars.
#[derive(Debug, Default)]
pub(super) struct Terms(Vec<Vec<char>>);

impl Terms {
    pub(super) fn new(terms: &[String]) -> Terms {
        let mut list: Vec<Vec<char>> = terms
            .iter()
            .map(|t| fold(t).chars().collect::<Vec<char>>())
            .filter(|t| !t.is_empty())
            .collect();
        list.sort_by_key(|t| std::cmp::Reverse(t.len()));
        list.dedup();
        Terms(list)
    }

    /// The longest term `s` ends with.
    pub(super) fn suffix(&self, s: &[char]) -> Option<usize> {
        self.0.iter().find(|t| s.ends_with(t)).map(Vec::len)
    }

    /// The longest term `s` starts with.
    pub(super) fn prefix(&self, s: &[char]) -> Option<usize> {
        self.0.iter().find(|t| s.starts_with(t)).map(Vec::len)
    }

    /// Whether a term occurs anywhere in `s`.
    pub(super) fn within(&self, s: &[char]) -> bool {
        self.0
            .iter()
            .any(|t| s.windows(t.len()).any(|w| w == t.as_slice()))
    }

    /// Whether a term occurs in `s` other than right after a term of
    /// `not_after`.
    pub(super) fn within_unless_after(&self, s: &[char], not_after: &Terms) -> bool {
        self.0.iter().any(|t| {
            (0..s.len().saturating_sub(t.len() - 1))
                .any(|p| s[p..].starts_with(t) && not_after.suffix(&s[..p]).is_none())
        })
    }

    /// Whether `s` is nothing but terms of `self` and of `others`.
    pub(super) fn covers(&self, s: &[char], others: &[&Terms]) -> bool {
        let mut p = 0;
        'outer: while p < s.len() {
            let best = std::iter::once(self)
                .chain(others.iter().copied())
                .filter_map(|list| list.prefix(&s[p..]))
                .max();
            match best {
                Some(len) => {
                    p += len;
                    continue 'outer;
                }
                None => return false,
            }
        }
        true
    }
}
