//! Situations: judgements a student makes by telling what happened, with
//! no word of judgement ("凌晨一点半老板在群里@我", "项目结题报告全是我写").
//!
//! A situation is not a sentence but a few things that happen together: a
//! time of rest and the advisor reaching a student; a duty that is not the
//! student's and the student made to do it; a promise and the years it
//! has waited. Each is a small table of slots (`server/lexicons/
//! situations.txt`), every slot a list of words; a sentence that holds a
//! word of every slot is the situation, and judges the topic the table
//! names. A negator just before a slot's word turns it, to what
//! `<name>.turned` says ("从不在周末找人": the advisor leaves the students
//! their rest, praise), or to nothing. A slot's word negated by the writer
//! ("我没看过他的论文") is the writer's doing, not the advisor's: it fills
//! no slot.
//!
//! Topics are named by their key in the file; a feature maps them to its
//! own ([`Situations::find`] takes the mapping).

use std::sync::OnceLock;

use super::super::lexfile;

const LEXICON: &str = include_str!("../../../lexicons/situations.txt");

/// One situation: its slots, and the topic and value it judges.
#[derive(Debug)]
struct Situation {
    slots: Vec<Vec<Vec<char>>>,
    topic: String,
    value: i8,
    /// What it judges turned by a negator; `None`: nothing ("从来不让我们
    /// 报销差旅" is no praise of the relationship).
    turned: Option<i8>,
}

/// Words that turn a situation beside the judgement words' negators
/// ("很少在周末找人": seldom is not at all, for a situation).
const TURNS: [&str; 1] = ["很少"];

/// Whether `before` (the characters just before a slot's word) ends with a
/// negator: the judgement words' own (`opinion.txt`, "不怎么催") or
/// [`TURNS`], right before the word or before 在 ("从不在周末找人").
fn turned_by(before: &str) -> bool {
    let before_zai = before.strip_suffix('在');
    let ends = |t: &str| before.ends_with(t) || before_zai.is_some_and(|b| b.ends_with(t));
    super::words::negators().iter().any(|t| ends(t)) || TURNS.iter().any(|t| ends(t))
}

fn table() -> &'static [Situation] {
    static T: OnceLock<Vec<Situation>> = OnceLock::new();
    T.get_or_init(|| {
        let mut out: Vec<(String, Situation)> = Vec::new();
        for e in lexfile::parse("situations.txt", LEXICON) {
            let (name, part) = e
                .key
                .rsplit_once('.')
                .unwrap_or_else(|| panic!("situations.txt: key {} has no slot", e.key));
            let at = match out.iter().position(|(n, _)| n == name) {
                Some(i) => i,
                None => {
                    out.push((
                        name.to_string(),
                        Situation {
                            slots: Vec::new(),
                            topic: String::new(),
                            value: 0,
                            turned: None,
                        },
                    ));
                    out.len() - 1
                }
            };
            let s = &mut out[at].1;
            if part == "turned" {
                s.turned = Some(e.terms[0].trim().parse().expect("situations.txt: a value"));
            } else if part == "judges" {
                let [topic, value] = e.terms[0].split_whitespace().collect::<Vec<_>>()[..] else {
                    panic!("situations.txt: {}: expected `topic value`", e.key);
                };
                s.topic = topic.to_string();
                s.value = value.parse().expect("situations.txt: a value −2…2");
            } else {
                s.slots.push(
                    e.terms
                        .iter()
                        .map(|t| super::super::fold::fold(t).chars().collect())
                        .collect(),
                );
            }
        }
        out.into_iter().map(|(_, s)| s).collect()
    })
}

/// Where `word` first occurs in `chars`.
fn find(chars: &[char], word: &[char]) -> Option<usize> {
    (0..chars.len().saturating_sub(word.len() - 1)).find(|i| chars[*i..].starts_with(word))
}

/// Whether the word at `i` is negated by the writer themselves ("我没看过
/// 他的论文", "我还没问过"): the writer's own doing, no situation of the
/// advisor's. "我导" is the advisor.
fn writers_own(chars: &[char], i: usize) -> bool {
    let negated = chars
        .get(i)
        .is_some_and(|c| matches!(c, '没' | '不' | '从'));
    let before = &chars[i.saturating_sub(3)..i];
    negated
        && before
            .iter()
            .enumerate()
            .any(|(k, c)| *c == '我' && before.get(k + 1) != Some(&'导'))
}

/// The situations `chars` (one sentence, folded) tells: (topic key, value).
pub fn find_in(chars: &[char]) -> Vec<(&'static str, i8)> {
    let mut out = Vec::new();
    for s in table() {
        let mut turned = false;
        let all = s.slots.iter().all(|slot| {
            let at = slot
                .iter()
                .filter_map(|w| find(chars, w).map(|i| (i, w.len())))
                .filter(|(i, _)| !writers_own(chars, *i))
                .min();
            if let Some((i, _)) = at {
                let before: String = chars[i.saturating_sub(5)..i].iter().collect();
                turned |= turned_by(&before);
                // "从来不把学生当劳动力": the negator before 把 and its object.
                let wider: String = chars[i.saturating_sub(8)..i].iter().collect();
                turned |= wider.contains("不把") || wider.contains("没把");
            }
            at.is_some()
        });
        if all && !s.slots.is_empty() {
            match (turned, s.turned) {
                (false, _) => out.push((s.topic.as_str(), s.value)),
                (true, Some(v)) => out.push((s.topic.as_str(), v)),
                (true, None) => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> Vec<(&'static str, i8)> {
        find_in(&crate::text::fold::fold(s).chars().collect::<Vec<_>>())
    }

    #[test]
    fn a_situation_is_every_slot_in_one_sentence() {
        assert_eq!(f("凌晨一点半老板在群里@我"), [("relationship", -1)]);
        assert_eq!(f("老板从不在周末找人"), [("relationship", 1)]);
        assert!(f("凌晨一点半").is_empty());
        // The writer not reading is no neglect of the advisor's.
        assert_eq!(
            f("稿子他一个字都没看"),
            [("academic", -1), ("academic", -2)]
        );
        assert!(f("我没看过他的论文").is_empty());
        // Every negator of the judgement words turns it.
        assert_eq!(f("他也不怎么催，过年还发红包"), [("relationship", 1)]);
    }
}
