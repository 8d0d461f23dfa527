//! What comes back from a recognizer, made into what goes in the text box:
//! simplified characters (Whisper writes traditional ones as often as not),
//! no spaces between Chinese characters, and none of the sentences
//! recognizers invent from silence (`lexicons/transcript_artifacts.txt`) or
//! copy from the prompt they were given.

use std::sync::OnceLock;

use crate::text::clauses::{ends_sentence, is_punctuation};
use crate::text::fold::{compact, simplified};
use crate::text::lexfile;
use crate::text::words::WordSet;

const ARTIFACTS: &str = include_str!("../../lexicons/transcript_artifacts.txt");
/// A transcript this long that the prompt contains word for word was read
/// from the prompt, not heard.
const ECHO_CHARS: usize = 10;

/// The artifact terms, compacted as the sentences they are looked for in.
fn artifacts() -> &'static WordSet<()> {
    static LIST: OnceLock<WordSet<()>> = OnceLock::new();
    LIST.get_or_init(|| {
        WordSet::new(
            lexfile::parse("transcript_artifacts.txt", ARTIFACTS)
                .into_iter()
                .filter(|e| e.key == "artifact")
                .flat_map(|e| e.terms)
                .map(|t| (compact(&t), ())),
        )
    })
}

/// The readings Whisper gives silence when told to hear English
/// (`silence.english`), folded, without punctuation or spaces.
fn english_silence() -> &'static Vec<String> {
    static LIST: OnceLock<Vec<String>> = OnceLock::new();
    LIST.get_or_init(|| {
        lexfile::parse("transcript_artifacts.txt", ARTIFACTS)
            .into_iter()
            .filter(|e| e.key == "silence.english")
            .flat_map(|e| e.terms)
            .map(|t| bare(&t))
            .collect()
    })
}

/// Whether a reading in English is what the recognizer writes for silence
/// ("You", "Thank you."): nothing a student said.
pub fn is_english_silence(text: &str) -> bool {
    let heard = bare(text);
    english_silence().contains(&heard)
}

/// The text without punctuation or spaces, folded: what is compared.
fn bare(s: &str) -> String {
    compact(s).chars().filter(|c| !is_punctuation(*c)).collect()
}

/// The transcript as the student should see it; empty when nothing was
/// heard.
pub fn clean(raw: &str, prompt: &str) -> String {
    let text: String = raw.chars().map(simplified).collect();
    let text = drop_spaces_between_han(text.trim());
    let kept: String = sentences(&text)
        .into_iter()
        .filter(|s| artifacts().find(&compact(s)).next().is_none())
        .collect();
    let kept = kept.trim().to_string();
    let heard = bare(&kept);
    if heard.is_empty()
        || (heard.chars().count() >= ECHO_CHARS && bare(prompt).contains(&heard))
        || listed_from(&kept, prompt)
    {
        return String::new();
    }
    kept
}

/// Items a transcript lists (between 、，。 and the like) that are each
/// words of the prompt, at least [`ECHO_ITEMS`] of them and
/// [`ECHO_CHARS`] characters in all, one said again: a recognizer reciting
/// its prompt in a loop ("北京大学、学习、深度学习、学习、深度学习"). A terse
/// request may list the prompt's words ("北京大学，计算机科学与技术，机器
/// 学习"), but says none twice.
fn listed_from(text: &str, prompt: &str) -> bool {
    let prompt = bare(prompt);
    let items: Vec<String> = text
        .split(is_punctuation)
        .map(bare)
        .filter(|i| !i.is_empty())
        .collect();
    let repeated = items
        .iter()
        .enumerate()
        .any(|(k, i)| items[..k].contains(i));
    repeated
        && items.len() >= ECHO_ITEMS
        && items.iter().map(|i| i.chars().count()).sum::<usize>() >= ECHO_CHARS
        && items.iter().all(|i| prompt.contains(i.as_str()))
}

/// The fewest items of a list recited from the prompt.
const ECHO_ITEMS: usize = 3;

fn is_han(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// `我 想 考 北大` → `我想考北大`; `考 PKU 的 CS` keeps the spaces next to Latin.
fn drop_spaces_between_han(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        if c.is_whitespace() {
            let before = out.chars().last();
            let after = chars[i + 1..].iter().find(|c| !c.is_whitespace()).copied();
            let han_or_punct = |c: Option<char>| {
                c.is_some_and(|c| is_han(c) || (!c.is_ascii() && is_punctuation(c)))
            };
            if han_or_punct(before) || han_or_punct(after) {
                continue;
            }
            if before.is_some_and(char::is_whitespace) {
                continue;
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// The text cut after each sentence mark, marks kept.
fn sentences(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in s.chars() {
        current.push(c);
        if ends_sentence(c) {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traditional_and_spaced_text_becomes_what_a_student_types() {
        assert_eq!(
            clean(" 我想考北京大學計算機系 ", ""),
            "我想考北京大学计算机系"
        );
        assert_eq!(clean("我 想 考 北大 的 CS 专业", ""), "我想考北大的CS专业");
        assert_eq!(
            clean("考 PKU 的 machine learning", ""),
            "考PKU的machine learning"
        );
    }

    #[test]
    fn subtitles_heard_in_silence_are_dropped() {
        assert_eq!(clean("字幕由Amara.org社区提供", ""), "");
        assert_eq!(clean("请不吝点赞 订阅 转发 打赏支持明镜与点点栏目", ""), "");
        assert_eq!(
            clean("第一个导师怎么样？谢谢观看。", ""),
            "第一个导师怎么样？"
        );
        assert_eq!(clean("。。", ""), "");
    }

    #[test]
    fn what_whisper_writes_for_silence_in_english_is_known() {
        assert!(super::is_english_silence(" You"));
        assert!(super::is_english_silence("Thank you."));
        assert!(!super::is_english_silence("Number 2."));
        assert!(!super::is_english_silence("Thank you, the first one."));
    }

    #[test]
    fn a_list_recited_from_the_prompt_is_not_speech() {
        let prompt =
            "考研选导师。人工智能、机器学习、深度学习、导师温和。北京大学、北大、浙江大学。";
        assert_eq!(
            clean("北京大学、学习、深度学习、学习、深度学习。", prompt),
            ""
        );
        // A request has words of its own.
        assert_eq!(
            clean("北京大学、深度学习、导师温和一点", prompt),
            "北京大学、深度学习、导师温和一点"
        );
        assert_eq!(clean("北大、浙大", prompt), "北大、浙大");
        assert_eq!(
            clean("北京大学，人工智能，机器学习", prompt),
            "北京大学，人工智能，机器学习"
        );
    }

    #[test]
    fn the_prompt_read_back_is_not_speech() {
        let prompt =
            "学校：北京大学（北大）、浙江大学（浙大）。研究方向、导师性格温和、严格、放养。";
        assert_eq!(clean("研究方向、导师性格温和、严格、放养", prompt), "");
        // A short name from the prompt is what the prompt is for.
        assert_eq!(clean("北京大学", prompt), "北京大学");
        assert_eq!(
            clean("我想考浙江大学，导师温和一点", prompt),
            "我想考浙江大学，导师温和一点"
        );
    }
}
