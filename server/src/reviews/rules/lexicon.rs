//! The review-rules word lists, read once from
//! `server/lexicons/review_rules.txt` and `surnames.txt` into Aho–Corasick
//! sets: one lexicon feeds the insult, private-life/hearsay and
//! student-name rules, so it is parsed in one place (an unknown key in the
//! file is a bug and panics here, at first use).

use std::collections::HashSet;
use std::sync::OnceLock;

use crate::text::lexfile;
use crate::text::words::WordSet;

const LEXICON: &str = include_str!("../../../lexicons/review_rules.txt");
const SURNAMES: &str = include_str!("../../../lexicons/surnames.txt");

/// What a word of the insult list is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Insult {
    Word,
    Innocent,
}

/// What a word of the private-life lists is (see the lexicon's header).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Private {
    Life,
    Innocent,
    Family,
    Relation,
    /// 和 / 跟 / 与: a relation word after it in the clause is private.
    With,
    /// 关系: a relation word right after it is private.
    Relationship,
    /// 住在 / 家在: an address follows, or it is hearsay about the home.
    LivesAt,
    HearsayMark,
    /// 听: "听师兄说" is hearsay when 说 follows within a few characters.
    Listen,
    /// Family, health, home: private when it comes as hearsay.
    HeardPrivately,
    Accusation,
    AccusationNot,
    ClauseEnd,
    SentenceEnd,
}

pub(super) struct Words {
    pub(super) insults: WordSet<Insult>,
    pub(super) private: WordSet<Private>,
    pub(super) dwelling: Vec<String>,
    pub(super) titles: WordSet<()>,
    pub(super) not_name: Vec<String>,
    pub(super) surnames: HashSet<String>,
}

pub(super) fn words() -> &'static Words {
    static WORDS: OnceLock<Words> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut insults = Vec::new();
        let mut private = Vec::new();
        let mut dwelling = Vec::new();
        let mut titles = Vec::new();
        let mut not_name = Vec::new();
        for e in lexfile::parse("review_rules.txt", LEXICON) {
            let tag = match e.key.as_str() {
                "insult" => {
                    insults.extend(e.terms.into_iter().map(|t| (t, Insult::Word)));
                    continue;
                }
                k if k.starts_with("variant ") => {
                    insults.extend(e.terms.into_iter().map(|t| (t, Insult::Word)));
                    continue;
                }
                "insult_not" => {
                    insults.extend(e.terms.into_iter().map(|t| (t, Insult::Innocent)));
                    continue;
                }
                "dwelling" => {
                    dwelling = e.terms;
                    continue;
                }
                "student_title" => {
                    titles.extend(e.terms.into_iter().map(|t| (t, ())));
                    continue;
                }
                "not_name" => {
                    not_name = e.terms;
                    continue;
                }
                "private_life" => Private::Life,
                "private_not" => Private::Innocent,
                "family" => Private::Family,
                "relation" => Private::Relation,
                "hearsay" => Private::HearsayMark,
                "hearsay_private" => Private::HeardPrivately,
                "accusation" => Private::Accusation,
                "accusation_not" => Private::AccusationNot,
                other => panic!("review_rules.txt: unknown key {other}"),
            };
            private.extend(e.terms.into_iter().map(|t| (t, tag)));
        }
        for (w, tag) in [
            ("和", Private::With),
            ("跟", Private::With),
            ("与", Private::With),
            ("关系", Private::Relationship),
            ("住在", Private::LivesAt),
            ("家在", Private::LivesAt),
            ("家就在", Private::LivesAt),
            ("听", Private::Listen),
        ] {
            private.push((w.to_string(), tag));
        }
        for c in [",", ":", "、"] {
            private.push((c.to_string(), Private::ClauseEnd));
        }
        for c in ["。", "!", "?", ";", "\n", "…"] {
            private.push((c.to_string(), Private::SentenceEnd));
        }
        let surnames = SURNAMES
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .map(str::to_string)
            .collect();
        Words {
            insults: WordSet::new(insults),
            private: WordSet::new(private),
            dwelling,
            titles: WordSet::new(titles),
            not_name,
            surnames,
        }
    })
}
