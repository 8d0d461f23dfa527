//! Separable verbs (离合词) joined: "老板发了很大的火" read as the 发火 the
//! lexicons hold, "从没红过一次脸" as 从没红脸, "吵了一架" as 吵架.
//!
//! Chinese puts aspect (了, 过), a measure ("一顿", "三天") or a modifier
//! ("很大的") between the verb and the object of these words, so a word
//! list that holds the word finds nothing, and lexicons had grown spelled-out
//! variants ("发过火", "发过一次火", "红过一次脸") one example at a time. The
//! words and what may stand between their halves are data
//! (`lexicons/separable.txt`); only a run made wholly of those (and digits)
//! joins, so "开始讨论会议" stays as written. What stood between is dropped:
//! how big the anger was is not a stronger judgement than 发火 itself.

use std::sync::OnceLock;

use super::lexfile;
use super::utterance::WordList;

const LEXICON: &str = include_str!("../../lexicons/separable.txt");

/// The longest run of characters allowed between a verb and its object.
const MAX_BETWEEN: usize = 6;

struct Separable {
    /// (verb, object) of each word.
    words: Vec<(char, Vec<char>)>,
    /// What may stand between.
    between: WordList,
}

fn lexicon() -> &'static Separable {
    static LEX: OnceLock<Separable> = OnceLock::new();
    LEX.get_or_init(|| {
        let [words, between] = lexfile::keyed("separable.txt", LEXICON, ["word", "between"]);
        let words = words
            .iter()
            .map(|w| {
                let mut chars = w.chars();
                let verb = chars.next().expect("separable.txt: an empty word");
                let object: Vec<char> = chars.collect();
                assert!(!object.is_empty(), "separable.txt: {w} has no object");
                (verb, object)
            })
            .collect();
        Separable {
            words,
            between: WordList::from_terms(&between),
        }
    })
}

/// Whether `run` is made wholly of what may stand between a verb and its
/// object (and digits).
fn only_between(lex: &Separable, run: &[char]) -> bool {
    let mut at = 0;
    while at < run.len() {
        let next = lex.between.skip_run(run, at);
        let next = next
            + run[next..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
        if next == at {
            return false;
        }
        at = next;
    }
    true
}

/// `chars` with every separable verb said apart joined, or `None` when
/// there is none.
pub fn joined(chars: &[char]) -> Option<Vec<char>> {
    let lex = lexicon();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let mut changed = false;
    let mut i = 0;
    'chars: while i < chars.len() {
        let c = chars[i];
        for (verb, object) in &lex.words {
            if *verb != c {
                continue;
            }
            let last = (i + 1 + MAX_BETWEEN).min(chars.len());
            for gap in 1..=last.saturating_sub(i + 1) {
                let at = i + 1 + gap;
                if chars[at..].starts_with(object) && only_between(lex, &chars[i + 1..at]) {
                    out.push(c);
                    out.extend_from_slice(object);
                    i = at + object.len();
                    changed = true;
                    continue 'chars;
                }
            }
        }
        out.push(c);
        i += 1;
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::joined;

    fn join(s: &str) -> String {
        let chars: Vec<char> = s.chars().collect();
        joined(&chars).map_or_else(|| s.to_string(), |j| j.into_iter().collect())
    }

    #[test]
    fn a_verb_and_its_object_said_apart_are_one_word() {
        assert_eq!(join("老板又发了很大的火"), "老板又发火");
        assert_eq!(join("从没红过一次脸"), "从没红脸");
        assert_eq!(join("上周吵了一架"), "上周吵架");
        assert_eq!(join("请了3天假"), "请假");
        assert_eq!(join("冲师弟发了一通脾气"), "冲师弟发脾气");
        assert_eq!(join("帮了我们不少忙"), "帮了我们不少忙");
    }

    #[test]
    fn words_already_joined_or_apart_by_other_words_stay() {
        assert_eq!(joined(&"老板发火了".chars().collect::<Vec<_>>()), None);
        assert_eq!(joined(&"开始讨论会议".chars().collect::<Vec<_>>()), None);
        assert_eq!(joined(&"生活气息".chars().collect::<Vec<_>>()), None);
    }
}
