//! The spoken reply's limits: at most 50 characters, two or
//! three short sentences, nothing a speech engine would read out as symbols.

use crate::text::clauses::{ends_spoken_clause, ends_spoken_sentence};

/// The longest `voice_response`, in characters.
pub const MAX_CHARS: usize = 50;

/// Fits a reply into [`MAX_CHARS`]: whole sentences if they fit, else whole
/// clauses closed with "。", else a hard cut with "…". Markdown and code
/// symbols a model might emit are removed first.
pub fn fit(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .filter(|c| !matches!(c, '*' | '#' | '`' | '_' | '>' | '|'))
        .map(|c| {
            if c == '\n' || c == '\r' || c == '\t' {
                ' '
            } else {
                c
            }
        })
        .collect();
    let cleaned = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    let chars: Vec<char> = cleaned.chars().collect();
    if chars.len() <= MAX_CHARS {
        return cleaned;
    }
    let window = &chars[..MAX_CHARS];
    if let Some(end) = window.iter().rposition(|&c| ends_spoken_sentence(c)) {
        if end >= 8 {
            return window[..=end].iter().collect();
        }
    }
    if let Some(end) = window[..MAX_CHARS - 1]
        .iter()
        .rposition(|&c| ends_spoken_clause(c))
    {
        if end >= 8 {
            let mut out: String = window[..end].iter().collect();
            out.push('。');
            return out;
        }
    }
    let mut out: String = chars[..MAX_CHARS - 1].iter().collect();
    out.push('…');
    out
}

/// What a planner said, without anything internal: code fences and JSON
/// objects, the history's annotations ("（已执行：present_options）") and tool
/// names (`tools`, also run together as "presentoptions"). Small models echo
/// what their prompt shows; none of it is for the student's ears.
pub fn clean(text: &str, tools: &[String]) -> String {
    let mut out = without_blocks(text);
    out = without_internal_asides(&out, tools);
    for tool in tools {
        for spelling in [tool.clone(), tool.replace('_', "")] {
            out = remove_ascii_ci(&out, &spelling);
        }
    }
    let out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    out.trim_matches(|c: char| c.is_whitespace() || matches!(c, '：' | ':' | '，' | ','))
        .to_string()
}

/// `text` without fenced blocks and balanced `{…}` objects (an unclosed one
/// runs to the end).
fn without_blocks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let fence = rest.find("```");
        let brace = rest.find('{');
        let start = match (fence, brace) {
            (Some(f), Some(b)) => f.min(b),
            (Some(f), None) => f,
            (None, Some(b)) => b,
            (None, None) => {
                out.push_str(rest);
                break;
            }
        };
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let end = if let Some(fenced) = tail.strip_prefix("```") {
            fenced.find("```").map(|e| e + 6)
        } else {
            crate::llm::json::object_len(tail)
        };
        rest = end.map_or("", |e| &tail[e..]);
    }
    out
}

/// Parenthesised asides that are the system's, not speech: those saying what
/// was executed, or naming a tool, or made only of ASCII identifiers.
fn without_internal_asides(text: &str, tools: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let open = rest.char_indices().find(|(_, c)| matches!(c, '（' | '('));
        let Some((start, open_char)) = open else {
            out.push_str(rest);
            break;
        };
        let close_char = if open_char == '（' { '）' } else { ')' };
        let after = &rest[start + open_char.len_utf8()..];
        let Some(len) = after.find([close_char, '）', ')']) else {
            out.push_str(rest);
            break;
        };
        let inside = &after[..len];
        let lower = inside.to_ascii_lowercase();
        let internal = inside.contains("已执行")
            || inside.contains("执行：")
            || tools
                .iter()
                .any(|t| lower.contains(t.as_str()) || lower.contains(&t.replace('_', "")))
            || (!inside.trim().is_empty()
                && inside
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_、,， :：".contains(c)));
        out.push_str(&rest[..start]);
        if !internal {
            out.push_str(&rest[start..start + open_char.len_utf8() + len]);
        }
        let closing = after[len..].chars().next().map_or(0, char::len_utf8);
        if internal {
            rest = &after[len + closing..];
        } else {
            out.push_str(&after[len..len + closing]);
            rest = &after[len + closing..];
        }
    }
    out
}

/// `text` without `word` in any ASCII case.
fn remove_ascii_ci(text: &str, word: &str) -> String {
    if word.is_empty() {
        return text.to_string();
    }
    let lower = text.to_ascii_lowercase();
    let word = word.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (i, _) in lower.match_indices(&word) {
        if i >= last {
            out.push_str(&text[last..i]);
            last = i + word.len();
        }
    }
    out.push_str(&text[last..]);
    out
}

/// Number of characters as the limit counts them.
pub fn len(text: &str) -> usize {
    text.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_replies_pass_unchanged() {
        assert_eq!(
            fit("好的，北京大学计算机系。正在为你筛选导师…"),
            "好的，北京大学计算机系。正在为你筛选导师…"
        );
    }

    #[test]
    fn long_replies_keep_whole_sentences() {
        let long = "张三教授是机器学习方向的，发表了很多论文。学生评价平均四点五分，大家都说他温和又负责。他的组里经费也比较充足，推荐你重点考虑。";
        let out = fit(long);
        assert!(len(&out) <= MAX_CHARS, "{out}");
        assert!(out.ends_with('。'));
        assert!(long.starts_with(&out));
    }

    #[test]
    fn one_long_sentence_is_cut_at_a_clause() {
        let long = "这位导师的研究方向包括机器学习、深度学习、计算机视觉、自然语言处理、强化学习、推荐系统和数据挖掘等很多领域";
        let out = fit(long);
        assert!(len(&out) <= MAX_CHARS);
        assert!(out.ends_with('。'));
    }

    #[test]
    fn no_punctuation_at_all_is_cut_hard() {
        let long = "啊".repeat(80);
        let out = fit(&long);
        assert_eq!(len(&out), MAX_CHARS);
        assert!(out.ends_with('…'));
    }

    #[test]
    fn nothing_internal_is_spoken() {
        let tools = vec!["present_options".to_string(), "update_form".to_string()];
        assert_eq!(
            clean("好的，已为你更新。（已执行：presentoptions）", &tools),
            "好的，已为你更新。"
        );
        assert_eq!(
            clean("好的。(已执行：update_form、present_options)", &tools),
            "好的。"
        );
        assert_eq!(
            clean(
                "好的，我来查一下。\n```json\n{\"tool\": \"update_form\", \"params\": {\"school\": \"北京大学\"}}\n```",
                &tools
            ),
            "好的，我来查一下。"
        );
        assert_eq!(clean("调用 update_form 更新表单", &tools), "调用 更新表单");
        assert_eq!(clean("{\"voice_response\": \"好", &tools), "");
        // Ordinary asides stay.
        assert_eq!(
            clean("张三（机器学习方向）评价很好", &tools),
            "张三（机器学习方向）评价很好"
        );
    }

    #[test]
    fn markdown_is_not_read_aloud() {
        assert_eq!(fit("**推荐**：张三\n`教授`"), "推荐：张三 教授");
    }
}
