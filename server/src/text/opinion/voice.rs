//! Whose voice a clause is in, beside someone else's words.
//!
//! An applicant writes what they heard and what they saw in one breath:
//! "听说劳务费挺多的，就是设备比较老旧" is all hearsay, "但我进组这一年没见过
//! 他发火" is the writer's own. The speech acts tell where someone else's
//! words start (`speech_act`); these words tell where the writer's own
//! voice comes back (`own`: 我, 面试, 进组, 实际 …), and when the writer
//! confirms what was said (`confirm`: 确实, 是真的), from
//! `server/lexicons/voice.txt`.

use std::sync::OnceLock;

use super::super::lexfile;

const LEXICON: &str = include_str!("../../../lexicons/voice.txt");

struct Lists {
    own: Vec<String>,
    confirm: Vec<String>,
}

fn lists() -> &'static Lists {
    static L: OnceLock<Lists> = OnceLock::new();
    L.get_or_init(|| {
        let mut l = Lists {
            own: Vec::new(),
            confirm: Vec::new(),
        };
        for e in lexfile::parse("voice.txt", LEXICON) {
            match e.key.as_str() {
                "own" => l.own.extend(e.terms),
                "confirm" => l.confirm.extend(e.terms),
                k => panic!("voice.txt: unknown key {k}"),
            }
        }
        l
    })
}

fn holds(chars: &[char], words: &[String]) -> bool {
    let text: String = chars.iter().collect();
    words.iter().any(|w| text.contains(w.as_str()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_writer_s_voice_and_a_confirmation() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert!(own(&c("但我进组这一年没见过他发火")));
        assert!(!own(&c("就是实验室设备比较老旧")));
        assert!(confirms(&c("我进组后发现确实")));
    }
}
