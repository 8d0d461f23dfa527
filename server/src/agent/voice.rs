//! The spoken reply's limits (seed 000 §2.2): at most 50 characters, two or
//! three short sentences, nothing a speech engine would read out as symbols.

/// The longest `voice_response`, in characters.
pub const MAX_CHARS: usize = 50;

const SENTENCE_END: &[char] = &['。', '！', '？', '!', '?', '…'];
const CLAUSE_END: &[char] = &['，', '、', '；', ',', ';', '：'];

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
    if let Some(end) = window.iter().rposition(|c| SENTENCE_END.contains(c)) {
        if end >= 8 {
            return window[..=end].iter().collect();
        }
    }
    if let Some(end) = window[..MAX_CHARS - 1]
        .iter()
        .rposition(|c| CLAUSE_END.contains(c))
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
    fn markdown_is_not_read_aloud() {
        assert_eq!(fit("**推荐**：张三\n`教授`"), "推荐：张三 教授");
    }
}
