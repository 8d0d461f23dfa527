//! Irony: praise set in quotation marks, and praise a clause's last words
//! say is meant the other way.
//!
//! A student who writes 我们老板真是"太关心"我们了, 导师很"民主", or
//! 非常"放心" means the opposite of the word they quote; quotation marks
//! around praise are how written Chinese says so. Quotes that follow a
//! verb of saying or naming are someone's words or a name instead
//! (他说"年轻人不要太看重钱", 我们叫他"暴君", 是"神仙导师"): they are not
//! turned.
//!
//! A clause can also say so in words: "照这样能按时毕业就有鬼了", "他会给
//! 推荐信才怪" (`opposite` in `server/lexicons/irony.txt`); and a question
//! can be asked to say what is so, not to learn it ("为啥别人组都有劳务费，
//! 我们组从来不发？？": `rhetorical`), or a denial asked back to affirm it
//! ("这不是压榨是啥": `affirmed`).
//!
//! A sentence can say so with the mark that closes it: the 微笑 face and its
//! kin ("…关心到每天晚上十一点要拍工位照片打卡🙂", `sarcastic`) are how chat
//! says praise is meant the other way. The whole sentence before the mark is
//! turned, not only its last clause: the praise is usually at its start.

use std::sync::OnceLock;

use super::super::lexfile;
use super::holds;
use crate::text::clauses::QUOTES;

const LEXICON: &str = include_str!("../../../lexicons/irony.txt");

struct Lists {
    affirming: Vec<String>,
    opposite: Vec<String>,
    rhetorical: Vec<String>,
    sarcastic: Vec<String>,
}

fn lists() -> &'static Lists {
    static L: OnceLock<Lists> = OnceLock::new();
    L.get_or_init(|| {
        let [affirming, opposite, rhetorical, sarcastic] = lexfile::keyed(
            "irony.txt",
            LEXICON,
            ["affirming", "opposite", "rhetorical", "sarcastic"],
        );
        Lists {
            affirming,
            opposite,
            rhetorical,
            sarcastic,
        }
    })
}

/// Whether `chars` (a clause, folded) says it means the opposite of what it
/// says ("能按时毕业就有鬼了").
pub fn says_opposite(chars: &[char]) -> bool {
    holds(chars, &lists().opposite)
}

/// Whether `chars` (a clause, folded) makes its question rhetorical: it
/// asks why, to say what is so ("为啥…我们组从来不发？？").
pub fn rhetorical(chars: &[char]) -> bool {
    holds(chars, &lists().rhetorical)
}

/// A clause that denies to affirm ("这不是压榨是啥"), read as what it
/// affirms ("这压榨"): the last 不是 before a closing word of `affirming`
/// and that word taken out. `None` for any other clause.
pub fn affirmed(chars: &[char]) -> Option<Vec<char>> {
    let text: String = chars.iter().collect();
    let tail = lists()
        .affirming
        .iter()
        .filter(|w| text.ends_with(w.as_str()))
        .max_by_key(|w| w.len())?;
    let body: Vec<char> = text[..text.len() - tail.len()].chars().collect();
    let at = body.windows(2).rposition(|w| w == ['不', '是'])?;
    (at + 2 < body.len()).then(|| [&body[..at], &body[at + 2..]].concat())
}

/// The sentences of `message` (folded) that a sarcastic mark closes, from
/// the end of the sentence before (or the mark before) up to the mark, the
/// mark included. A contrast inside the sentence starts it again: what was
/// granted before "但" is meant ("钱是真不少，但天天让我们干杂活🙃": the money
/// is no irony).
pub fn sarcastic(message: &str) -> Vec<String> {
    use super::super::clauses::{connective_at, ends_clause, Link};
    let folded = super::super::fold::fold(message);
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let mut clause_start = true;
    while i < folded.len() {
        let rest = &folded[i..];
        if std::mem::take(&mut clause_start) {
            let head: Vec<char> = rest.chars().take(8).collect();
            if matches!(connective_at(&head), Some((_, Link::Contrast))) {
                start = i;
            }
        }
        if let Some(m) = lists()
            .sarcastic
            .iter()
            .find(|m| rest.starts_with(m.as_str()))
        {
            i += m.len();
            // The mark stays: a mark written in letters ("[微笑]") is part of
            // the clause it closes, one drawn (🙂) is not.
            out.push(folded[start..i].to_string());
            start = i;
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        i += c.len_utf8();
        if super::super::clauses::ends_sentence(c) {
            start = i;
        }
        clause_start = ends_clause(c) || super::super::clauses::ends_sentence(c);
    }
    out
}

/// What may stand right before a quotation that is words or a name.
const INTRODUCED: [char; 9] = ['说', '叫', '称', '是', '为', '道', '问', ':', '：'];

/// The contents (folded, without spaces) of the short quotations in
/// `message` that are the writer's own words set in quotation marks.
pub fn quoted(message: &str) -> Vec<String> {
    let chars: Vec<char> = super::super::fold::fold(message)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let Some((_, close)) = QUOTES.iter().find(|(o, _)| *o == chars[i]) else {
            i += 1;
            continue;
        };
        let Some(len) = chars[i + 1..].iter().position(|c| c == close) else {
            break;
        };
        let inner: String = chars[i + 1..i + 1 + len].iter().collect();
        // "真是"太关心"": 是 after an adverb stresses, it does not name.
        let stressed = i > 1 && chars[i - 1] == '是' && "真就可还算".contains(chars[i - 2]);
        // "叫他"暴君"": a name given to someone.
        let named = i > 1 && "叫称喊".contains(chars[i - 2]);
        let introduced = (i > 0 && INTRODUCED.contains(&chars[i - 1]) && !stressed) || named;
        if !introduced && (1..=6).contains(&len) {
            out.push(inner);
        }
        i += len + 2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::quoted;

    #[test]
    fn praise_in_quotes_is_the_writer_s_own_unless_introduced() {
        assert_eq!(quoted("我们老板真是\"太关心\"我们了"), ["太关心"]);
        assert_eq!(quoted("导师很“民主”：论文你自己写"), ["民主"]);
        assert_eq!(quoted("课题组经费'非常充裕' 那为什么"), ["非常充裕"]);
        assert!(quoted("我们私下叫他\"暴君\"").is_empty());
        assert!(quoted("都说他是“神仙导师”").is_empty());
    }

    #[test]
    fn a_clause_can_say_it_means_the_opposite() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert!(super::says_opposite(&c("照这样能按时毕业就有鬼了")));
        assert!(!super::says_opposite(&c("能按时毕业")));
        assert!(super::rhetorical(&c("为啥别人组都有劳务费")));
    }

    #[test]
    fn a_denial_asked_back_affirms_what_it_denies() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(super::affirmed(&c("这不是压榨是啥")), Some(c("这压榨")));
        assert_eq!(super::affirmed(&c("不是PUA又是什么")), Some(c("PUA")));
        assert_eq!(super::affirmed(&c("这是什么")), None);
        assert_eq!(super::affirmed(&c("不是是什么")), None);
    }

    #[test]
    fn a_sarcastic_mark_turns_the_sentence_it_closes() {
        assert_eq!(
            super::sarcastic("组会一周一回。老板可太关心学生了，关心到打卡🙂 麻了"),
            ["老板可太关心学生了,关心到打卡🙂"]
        );
        assert!(super::sarcastic("老师人很好😊").is_empty());
        // What a contrast granted before it is meant.
        assert_eq!(
            super::sarcastic("钱是真不少，但天天让我们干杂活🙃"),
            ["但天天让我们干杂活🙃"]
        );
        // Chat apps' own codes for the face, as they are pasted.
        assert_eq!(super::sarcastic("画饼yyds[微笑]"), ["画饼yyds[微笑]"]);
    }
}
