//! Whose voice a clause is in, beside someone else's words.
//!
//! An applicant writes what they heard and what they saw in one breath:
//! "听说劳务费挺多的，就是设备比较老旧" is all hearsay, "但我进组这一年没见过
//! 他发火" is the writer's own. The speech acts tell where someone else's
//! words start (`speech_act`); these words tell where the writer's own
//! voice comes back (`own`: 我, 面试, 进组, 实际 …), and when the writer
//! confirms what was said (`confirm`: 确实, 是真的), from
//! `server/lexicons/voice.txt`.
//!
//! The advisor's own words, quoted ("老板还说“不急，再打磨打磨”", "问就是
//! “最近忙”", "面试时老师说“论文我都会亲自改”"), are someone else's words,
//! as hearsay is: they count when the writer says nothing of their own. A
//! question in them ("说“能中就不错了，还想报销？”") is his, and asks the
//! writer nothing: it does not make the writer's sentence a question
//! ([`advisor_questions_stated`]).

use std::sync::OnceLock;

use super::super::lexfile;
use super::holds;
use crate::text::clauses::QUOTES;

const LEXICON: &str = include_str!("../../../lexicons/voice.txt");

struct Lists {
    own: Vec<String>,
    confirm: Vec<String>,
    quoting: Vec<String>,
    others: Vec<String>,
    third: Vec<String>,
    of_writer: Vec<String>,
    doubt: Vec<String>,
}

fn lists() -> &'static Lists {
    static L: OnceLock<Lists> = OnceLock::new();
    L.get_or_init(|| {
        let [own, confirm, quoting, others, third, of_writer, doubt] = lexfile::keyed(
            "voice.txt",
            LEXICON,
            [
                "own",
                "confirm",
                "quoting",
                "others",
                "third",
                "of_writer",
                "doubt",
            ],
        );
        Lists {
            own,
            confirm,
            quoting,
            others,
            third,
            of_writer,
            doubt,
        }
    })
}

/// Whether `chars` (a clause, folded) is in the writer's own voice: it
/// speaks of the writer or what they saw ("但我觉得…", "面试时感觉…"). A
/// clause after someone else's words without it goes on with theirs.
pub fn own(chars: &[char]) -> bool {
    holds(chars, &lists().own)
}

/// Whether `chars` (a clause, folded) confirms what was said before it
/// ("确实如此", "是真的").
pub fn confirms(chars: &[char]) -> bool {
    holds(chars, &lists().confirm)
}

/// Whether `chars` (a clause, folded) asks whether what was said before it
/// is true ("是真的吗"): the report is left unsaid, as a question is.
pub fn doubts(chars: &[char]) -> bool {
    holds(chars, &lists().doubt)
}

/// Whether `before` (the start of a clause, folded, up to a word) has
/// someone other than the writer as its subject ("老板根本"), so what the
/// word says — not knowing — is theirs ("老板根本不知道我在做啥").
pub fn theirs(before: &[char]) -> bool {
    !before.contains(&'我') && holds(before, &lists().third)
}

/// Where in `chars` (a clause, folded) the advisor's judgement of the
/// writer starts ("老板还嫌我进度慢": at 嫌我): what follows is said of the
/// writer, so the clause judges the advisor only before it. `None` when
/// the clause holds no such words.
pub fn of_writer(chars: &[char]) -> Option<usize> {
    let text: String = chars.iter().collect();
    let at = lists()
        .of_writer
        .iter()
        .filter_map(|w| text.find(w.as_str()))
        .min()?;
    let n = text[..at].chars().count();
    // "从不骂学生", "没怪我": the advisor not doing it judges him.
    let negated = chars[n.saturating_sub(2)..n]
        .iter()
        .any(|c| matches!(c, '不' | '没' | '别'));
    (!negated).then_some(n)
}

/// Marks that end the stretch a quotation's speaker is named in.
const BREAKS: &str = "，,。！!？?；;\n";

/// `message` with the questions and exclamations inside the quotations
/// that are the advisor's own words stated instead ("？" → "，"): a
/// quotation right after a word of quoting (`quoting`: 说, 原话：, 问就是),
/// whose stretch since the last break names no one else who speaks
/// (`others`). What he said stays to be read, as someone else's words.
pub fn advisor_questions_stated(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
    let l = lists();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        out.push(c);
        i += 1;
        let Some((_, close)) = QUOTES.iter().find(|(o, _)| *o == c) else {
            continue;
        };
        let Some(len) = chars[i..].iter().position(|x| x == close) else {
            continue;
        };
        let start = chars[..i - 1]
            .iter()
            .rposition(|x| BREAKS.contains(*x))
            .map_or(0, |b| b + 1);
        let before: String = chars[start..i - 1].iter().collect();
        let intro = before.trim_end_matches([':', '：', ' ']);
        let quoting = l.quoting.iter().any(|w| intro.ends_with(w.as_str()));
        let others = l.others.iter().any(|w| before.contains(w.as_str()));
        if quoting && !others {
            for q in &chars[i..i + len] {
                out.push(if matches!(q, '？' | '?' | '！' | '!') {
                    '，'
                } else {
                    *q
                });
            }
            out.push(*close);
            i += len + 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_writer_s_voice_and_a_confirmation() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert!(own(&c("但我进组这一年没见过他发火")));
        assert!(!own(&c("就是实验室设备比较老旧")));
        assert!(confirms(&c("我进组后发现确实")));
        assert!(theirs(&c("老板根本")));
        assert!(!theirs(&c("他的情况我")));
        assert_eq!(of_writer(&c("老板还嫌我进度慢")), Some(3));
        assert_eq!(of_writer(&c("老板人很好")), None);
        assert_eq!(of_writer(&c("导师从不骂学生")), None);
    }

    #[test]
    fn the_advisor_s_quoted_questions_ask_the_writer_nothing() {
        assert_eq!(
            advisor_questions_stated("说“能中就不错了，还想报销？”学术上也就那样"),
            "说“能中就不错了，还想报销，”学术上也就那样"
        );
        let hearsay = "师兄原话：“你真想来？”";
        assert_eq!(advisor_questions_stated(hearsay), hearsay);
    }
}
