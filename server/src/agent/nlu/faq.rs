//! The FAQ: general questions about the postgraduate exam and this site
//! (`prompts/embedded/faq.txt`, format in its header). An entry matches when
//! all words of one of its trigger groups appear in the normalised sentence;
//! the group word "?" requires the sentence to be a question (a question mark,
//! a final 呢, or a `question` word of cues.txt), so "我想考985的学校" is not a
//! FAQ question while "985是什么意思" is. A `not:` word vetoes its entry; a
//! `not:` line before the first entry vetoes them all.
//! The longest matched group wins; ties go to the entry written first.
//!
//! Parsing and matching need only `words` (spelling, word lists), so this
//! module sits below `lexicon`, which holds the parsed entries.

use crate::text::utterance::{chars, find_word, WordList};

/// The group word that stands for "the sentence is a question".
const QUESTION_MARK: &str = "?";

#[derive(Debug, Clone, PartialEq, Eq)]
struct Group {
    words: Vec<Vec<char>>,
    question: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FaqEntry {
    pub id: String,
    groups: Vec<Group>,
    not: Vec<Vec<char>>,
    pub answer: String,
}

fn words(s: &str, sep: char) -> impl Iterator<Item = &str> {
    s.split(sep).map(str::trim).filter(|w| !w.is_empty())
}

impl FaqEntry {
    /// Every trigger word of the entry, normalised (for lookups by overlap).
    pub(crate) fn words(&self) -> Vec<String> {
        self.groups
            .iter()
            .flat_map(|g| g.words.iter().map(|w| w.iter().collect::<String>()))
            .collect()
    }

    /// Every trigger word of the entry as characters (what code read of a
    /// message this entry answers).
    pub(crate) fn trigger_words(&self) -> impl Iterator<Item = &[char]> {
        self.groups
            .iter()
            .flat_map(|g| g.words.iter().map(Vec::as_slice))
    }
}

/// Parses the FAQ file; a malformed entry is a programming error and panics.
pub(crate) fn parse(src: &str) -> Vec<FaqEntry> {
    let mut out = Vec::new();
    let mut cur: Option<FaqEntry> = None;
    let mut vetoes: Vec<Vec<char>> = Vec::new();
    let finish = |cur: Option<FaqEntry>, out: &mut Vec<FaqEntry>| {
        if let Some(e) = cur {
            assert!(
                !e.groups.is_empty(),
                "faq.txt: entry {} has no `when:` groups",
                e.id
            );
            assert!(
                !e.answer.is_empty(),
                "faq.txt: entry {} has no `answer:`",
                e.id
            );
            out.push(e);
        }
    };
    for (no, raw) in src.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            panic!("faq.txt:{}: expected `key: value`", no + 1);
        };
        let value = value.trim();
        match key.trim() {
            "id" => {
                finish(cur.take(), &mut out);
                cur = Some(FaqEntry {
                    id: value.to_string(),
                    groups: Vec::new(),
                    not: Vec::new(),
                    answer: String::new(),
                });
            }
            "not" if cur.is_none() => vetoes.extend(words(value, '|').map(chars)),
            k => {
                let Some(e) = cur.as_mut() else {
                    panic!("faq.txt:{}: `{k}:` before any `id:`", no + 1);
                };
                match k {
                    "when" => {
                        for g in words(value, '|') {
                            let all: Vec<&str> = words(g, '+').collect();
                            e.groups.push(Group {
                                question: all.contains(&QUESTION_MARK),
                                words: all
                                    .iter()
                                    .filter(|w| **w != QUESTION_MARK)
                                    .map(|w| chars(w))
                                    .collect(),
                            });
                        }
                    }
                    "not" => e.not.extend(words(value, '|').map(chars)),
                    "answer" => e.answer = value.to_string(),
                    _ => panic!("faq.txt:{}: unknown key {k:?}", no + 1),
                }
            }
        }
    }
    finish(cur, &mut out);
    for e in &mut out {
        e.not.extend(vetoes.iter().cloned());
    }
    out
}

/// The 不 of an A-not-A question ("考不考", "好不好"): grammar, not vocabulary.
const A_NOT_A: char = '不';

/// Whether the sentence is a question: a question mark or final 呢
/// (`marked`), a `question` word, or an A-not-A form ("考不考", "好不好").
pub(crate) fn is_question(chars: &[char], marked: bool, question_words: &WordList) -> bool {
    marked
        || question_words.occurs_in(chars)
        || chars
            .windows(3)
            .any(|w| w[1] == A_NOT_A && w[0] == w[2] && !w[0].is_ascii())
}

/// The best matching entry for the normalised `chars`.
pub(crate) fn best<'a>(
    entries: &'a [FaqEntry],
    chars: &[char],
    is_question: bool,
) -> Option<&'a FaqEntry> {
    let mut best: Option<(usize, &FaqEntry)> = None;
    for e in entries {
        if e.not.iter().any(|w| find_word(chars, w, 0).is_some()) {
            continue;
        }
        let score = e
            .groups
            .iter()
            .filter(|g| {
                (!g.question || is_question)
                    && g.words.iter().all(|w| find_word(chars, w, 0).is_some())
            })
            .map(|g| g.words.iter().map(Vec::len).sum::<usize>())
            .max();
        if let Some(score) = score {
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, e));
            }
        }
    }
    best.map(|(_, e)| e)
}
