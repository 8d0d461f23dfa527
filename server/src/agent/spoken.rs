//! A chip answered in words: the student looks at the chips under the last
//! question and says which one — "第二个", "最后那个", "西安那个", "选上海的"
//! — instead of clicking. Code reads it as the click it stands for, so the
//! answer takes the same path as a click (the `chip` step).
//!
//! Only the chips of the last turn count (`memory.pending`), and only when
//! the message is an answer to them: a bare position ("第二个", "第二个吧"),
//! or words that occur in exactly one option and in no other ("西安" in
//! 西安交通大学 but not in 上海交通大学). A message that names a value of the
//! field itself, or points at an advisor ("第二个导师"), is understood as
//! usual.

use std::sync::OnceLock;

use serde_json::Value;

use app::protocol::{OptionClick, ToolCall};

use super::nlu::{Analysis, Reference};
use super::tools::PRESENT_OPTIONS;
use crate::text::lexfile;

const LEXICON: &str = include_str!("../../lexicons/chip_answers.txt");

/// The words of `chip_answers.txt`, longest first.
struct Words {
    fillers: Vec<String>,
    advisor: Vec<String>,
    position: Vec<String>,
}

fn words() -> &'static Words {
    static WORDS: OnceLock<Words> = OnceLock::new();
    WORDS.get_or_init(|| {
        let [mut fillers, mut advisor, mut position] = lexfile::keyed(
            "chip_answers.txt",
            LEXICON,
            ["filler", "advisor", "position"],
        );
        for list in [&mut fillers, &mut advisor, &mut position] {
            list.sort_by_key(|t| std::cmp::Reverse(t.chars().count()));
        }
        Words {
            fillers,
            advisor,
            position,
        }
    })
}

/// The click the message stands for, if it answers the pending chips.
pub fn answer(
    pending: Option<&ToolCall>,
    analysis: &Analysis,
    normalized: &str,
) -> Option<OptionClick> {
    let call = pending.filter(|c| c.tool == PRESENT_OPTIONS)?;
    let field = call.params.get("target_field")?.as_str()?.to_string();
    let options: Vec<String> = call
        .params
        .get("options")?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    // A value the student names, or negates ("我不想做机器学习"), is
    // understood as usual, not as a chip.
    if options.is_empty()
        || field == "general"
        || names_field(analysis, &field)
        || !analysis.rejected.is_empty()
    {
        return None;
    }
    let text: String = normalized
        .chars()
        .filter(|c| !c.is_whitespace() && !"，。？！?!,.、~～".contains(*c))
        .collect();
    if text.is_empty() || words().advisor.iter().any(|w| text.contains(w.as_str())) {
        return None;
    }
    let chosen = by_position(analysis, &text, options.len())
        .map(|i| options[i].clone())
        .or_else(|| by_words(&text, &options))?;
    Some(OptionClick {
        target_field: field,
        values: vec![chosen],
    })
}

/// The message named a value of the field itself: that is understood as
/// usual, not as a chip.
fn names_field(a: &Analysis, field: &str) -> bool {
    use super::nlu::Slot;
    let one = |s: &Option<Slot>| matches!(s, Some(Slot::One(_)));
    match field {
        "school" => one(&a.school),
        "major" => one(&a.major),
        "research_direction" => a.research_direction.is_some(),
        "personality" => a.personality.is_some(),
        "research_style" => a.research_style.is_some(),
        "funding" => a.funding.is_some(),
        "degree_type" => a.degree_type.is_some(),
        "enrollment_year" => a.enrollment_year.is_some(),
        _ => false,
    }
}

/// "第二个", "最后一个": a bare position among `n` chips.
fn by_position(a: &Analysis, text: &str, n: usize) -> Option<usize> {
    let [reference] = a.references.as_slice() else {
        return None;
    };
    let i = match reference {
        Reference::Ordinal(i) if *i < n => *i,
        Reference::FromEnd(i) if *i < n => n - 1 - i,
        Reference::Middle if !n.is_multiple_of(2) => n / 2,
        _ => return None,
    };
    // Nothing but the position and filler words.
    let rest = strip_position(text);
    strip_fillers(&rest).is_empty().then_some(i)
}

/// The text without its position words ("第2个", "最后一个", "倒数第1").
fn strip_position(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '第' {
            let mut j = i + 1;
            while j < chars.len()
                && (chars[j].is_ascii_digit() || "一二三四五六七八九十两".contains(chars[j]))
            {
                j += 1;
            }
            if j > i + 1 {
                i = j;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    for w in &words().position {
        out = out.replace(w.as_str(), "");
    }
    out
}

fn strip_fillers(text: &str) -> String {
    let mut out = text.to_string();
    for f in &words().fillers {
        out = out.replace(f.as_str(), "");
    }
    out
}

/// "西安那个": the words left after the fillers occur in one option only.
fn by_words(text: &str, options: &[String]) -> Option<String> {
    let core = strip_fillers(text);
    let n = core.chars().count();
    if !(1..=8).contains(&n) {
        return None;
    }
    let matching: Vec<&String> = options
        .iter()
        .filter(|o| o.contains(core.as_str()))
        .collect();
    match matching.as_slice() {
        [only] => Some((*only).clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn chips(field: &str, options: &[&str]) -> ToolCall {
        ToolCall {
            tool: PRESENT_OPTIONS.into(),
            params: json!({"question": "哪一所？", "options": options, "target_field": field}),
            result: None,
        }
    }

    fn said(pending: &ToolCall, text: &str, references: Vec<Reference>) -> Option<String> {
        let a = Analysis {
            references,
            ..Analysis::default()
        };
        answer(Some(pending), &a, text).map(|c| c.values[0].clone())
    }

    #[test]
    fn a_position_or_distinctive_words_pick_a_chip() {
        let c = chips("school", &["上海交通大学", "西安交通大学"]);
        assert_eq!(
            said(&c, "西安那个", vec![]).as_deref(),
            Some("西安交通大学")
        );
        assert_eq!(
            said(&c, "选上海的吧", vec![]).as_deref(),
            Some("上海交通大学")
        );
        assert_eq!(
            said(&c, "第二个", vec![Reference::Ordinal(1)]).as_deref(),
            Some("西安交通大学")
        );
        assert_eq!(
            said(&c, "最后一个吧", vec![Reference::FromEnd(0)]).as_deref(),
            Some("西安交通大学")
        );
        // Words both options share, or none, answer nothing.
        assert_eq!(said(&c, "交通大学", vec![]), None);
        assert_eq!(said(&c, "北京那个", vec![]), None);
        assert_eq!(
            said(&c, "先看西安的吧", vec![]).as_deref(),
            Some("西安交通大学")
        );
        // More than a choice of the chips: understood as usual.
        let d = chips("research_direction", &["机器学习", "计算机视觉"]);
        assert_eq!(said(&d, "不想做机器学习", vec![]), None);
        // A position about an advisor is not a chip.
        assert_eq!(
            said(&c, "第二个导师怎么样", vec![Reference::Ordinal(1)]),
            None
        );
        // A position beyond the chips, or with other words, is not an answer.
        assert_eq!(said(&c, "第五个", vec![Reference::Ordinal(4)]), None);
        assert_eq!(
            said(&c, "第二个学校的计算机怎么样", vec![Reference::Ordinal(1)]),
            None
        );
    }

    #[test]
    fn no_pending_chips_no_answer() {
        let a = Analysis::default();
        assert!(answer(None, &a, "第二个").is_none());
    }
}
