//! Majors by the work they lead to (`major_work.txt`): a student who does
//! not know a field's name describes what it does ("浙大做芯片的那个专业",
//! "我想学盖房子修桥的那种专业", "以后想当记者，人大这个专业"). Read only
//! when the message names no major (`slots`); one major described fills it,
//! several become chips, a negated wish ("不想写代码") describes none
//! (the caller says which are negated: `nlu::negation`).

use crate::text::lexfile;
use crate::text::utterance::{find_word, WordList};

const LEXICON: &str = include_str!("../../../lexicons/major_work.txt");

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct MajorsByWork {
    /// (index into the lexicon's majors, the words of its work).
    work: Vec<(usize, WordList)>,
    /// Words that speak of a field ("专业").
    field: WordList,
}

/// A major a message describes by its work: its index, and the words that
/// described it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Described {
    pub major: usize,
    pub said: String,
}

impl MajorsByWork {
    /// The lexicon for `majors` (the catalog's canonical names): a major
    /// the catalog does not hold is skipped.
    pub(crate) fn load(majors: &[String]) -> MajorsByWork {
        let mut out = MajorsByWork::default();
        for e in lexfile::parse("major_work.txt", LEXICON) {
            if e.key == "field" {
                out.field = WordList::from_terms(&e.terms);
            } else if let Some(m) = majors.iter().position(|name| *name == e.key) {
                out.work.push((m, WordList::from_terms(&e.terms)));
            }
        }
        out
    }

    /// Whether `chars` speaks of a field ("那个专业").
    pub(crate) fn speaks_of_a_field(&self, chars: &[char]) -> bool {
        self.field.occurs_in(chars)
    }

    /// The majors whose work `chars` describes, in the lexicon's order,
    /// each once; `inside(start, end)` says a span lies inside a longer
    /// word of the message's own ("翻译" inside the direction "机器翻译"),
    /// `negated(start)` that a wish starting there is negated ("不想写代码").
    pub(crate) fn described(
        &self,
        chars: &[char],
        inside: impl Fn(usize, usize) -> bool,
        negated: impl Fn(usize) -> bool,
    ) -> Vec<Described> {
        let mut out: Vec<Described> = Vec::new();
        for (major, words) in &self.work {
            let found = words.words().find_map(|w| {
                let mut from = 0;
                while let Some(at) = find_word(chars, w, from) {
                    let end = at + w.len();
                    if !negated(at) && !inside(at, end) {
                        return Some(w.iter().collect::<String>());
                    }
                    from = at + 1;
                }
                None
            });
            if let Some(said) = found {
                if !out.iter().any(|d| d.major == *major) {
                    out.push(Described {
                        major: *major,
                        said,
                    });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::utterance::chars;

    fn majors() -> Vec<String> {
        [
            "计算机科学与技术",
            "软件工程",
            "电子信息工程",
            "土木工程",
            "外国语言文学",
        ]
        .map(String::from)
        .to_vec()
    }

    fn described(text: &str) -> Vec<(String, String)> {
        let lex = MajorsByWork::load(&majors());
        let names = majors();
        let chars = chars(text);
        // The caller's negation, as simple as a test needs.
        let negated = |at: usize| chars[..at].contains(&'不');
        lex.described(&chars, |_, _| false, negated)
            .into_iter()
            .map(|d| (names[d.major].clone(), d.said))
            .collect()
    }

    #[test]
    fn a_field_is_found_by_what_it_builds_or_does() {
        assert_eq!(
            described("浙大做芯片的那个专业"),
            [("电子信息工程".to_string(), "做芯片".to_string())]
        );
        assert_eq!(
            described("我想学盖房子修桥的那种专业"),
            [("土木工程".to_string(), "盖房子".to_string())]
        );
        // Work two fields do: both, for the student to choose.
        let both: Vec<String> = described("以后想写代码")
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        assert_eq!(both, ["计算机科学与技术", "软件工程"]);
        // Not wanted, or inside a word of the message's own.
        assert!(described("不想写代码").is_empty());
        let lex = MajorsByWork::load(&majors());
        assert!(lex
            .described(&chars("想写代码生成器"), |s, e| s >= 1 && e <= 7, |_| false)
            .is_empty());
        assert!(lex.speaks_of_a_field(&chars("那个专业的导师")));
        assert!(!lex.speaks_of_a_field(&chars("北大的导师")));
    }
}
