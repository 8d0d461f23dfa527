//! Lexicon hygiene: the files load, hold what the spec asks for, and no term
//! carries two meanings the rules cannot tell apart.

use super::super::lexicon::{Cue, Tag};
use super::fixture::lexicons;
use crate::text::lexfile;
use crate::text::utterance::basic;

#[test]
fn directions_are_many_and_short() {
    let lex = lexicons();
    let d = lex.directions();
    assert!(d.len() >= 80, "only {} directions", d.len());
    for name in &d {
        assert!(
            name.chars().count() <= 12,
            "{name} is longer than 12 characters"
        );
    }
    let mut sorted = d.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), d.len(), "duplicate canonical direction");
    for must in [
        "机器学习",
        "计算机视觉",
        "自然语言处理",
        "大模型",
        "集成电路",
        "知识产权",
        "肿瘤",
        "新能源",
    ] {
        assert!(d.contains(&must), "missing {must}");
    }
}

#[test]
fn faq_entries_are_complete_and_short() {
    let lex = lexicons();
    let ids = lex.faq_ids();
    assert!(ids.len() >= 24, "only {} FAQ entries", ids.len());
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len(), "duplicate FAQ id");
    for id in &ids {
        let answer = lex.faq_answer(id).unwrap_or_default();
        let n = answer.chars().count();
        assert!((10..=50).contains(&n), "{id}: answer has {n} characters");
    }
    assert_eq!(lex.faq_answer("no-such-id"), None);
    for must in [
        "985",
        "211",
        "double_first_class",
        "self_line_34",
        "academic_vs_professional",
        "tuimian",
        "adjustment",
        "retest",
        "rating_formula",
    ] {
        assert!(ids.contains(&must), "missing FAQ {must}");
    }
}

#[test]
fn preference_values_are_the_canonical_ones() {
    let lex = lexicons();
    for (_, value) in &lex.prefs {
        assert!(
            [
                "温和",
                "严格",
                "放养",
                "负责",
                "理论型",
                "工程型",
                "产业型",
                "充足",
                "一般",
                "紧张"
            ]
            .contains(&value.as_str()),
            "unexpected preference value {value}"
        );
    }
    assert!(!lex.opposites.is_empty());
}

/// Whether a term's tags form a combination the rules resolve.
fn resolvable(tags: &[Tag]) -> bool {
    let kinds: Vec<u8> = tags
        .iter()
        .map(|t| match t {
            Tag::School(_) => 0,
            Tag::Major(_) => 1,
            Tag::Direction(_) => 2,
            Tag::Pref(_) => 3,
            Tag::FundingTopic => 4,
            Tag::Pronoun => 5,
            Tag::Ordinal(_) | Tag::FromEnd(_) | Tag::Middle => 6,
            Tag::Cue(_) => 7,
            Tag::Block => 8,
            Tag::Name(_) => 9,
            Tag::Heard => 10,
        })
        .collect();
    let same = kinds.windows(2).all(|w| w[0] == w[1]);
    let has = |k: u8| kinds.contains(&k);
    let only = |ks: &[u8]| kinds.iter().all(|k| ks.contains(k));
    let cue_pair_ok = tags.iter().all(|t| {
        matches!(
            t,
            Tag::Cue(Cue::Negator | Cue::Replace | Cue::NegatorAfter)
                | Tag::Block
                | Tag::Cue(Cue::Pair)
                // Read by slots.rs only when two or more schools (or majors)
                // are kept; coordination and skipping read it their way.
                | Tag::Cue(Cue::Alternative)
        ) || !matches!(t, Tag::Cue(_))
    });
    // "或者", "都行": coordination or skipping as usual, and an offer of
    // alternatives when slots.rs keeps two or more schools or majors.
    let alternative = tags.len() == 2
        && tags.contains(&Tag::Cue(Cue::Alternative))
        && tags
            .iter()
            .any(|t| matches!(t, Tag::Cue(Cue::Coord | Cue::Skip)));
    if same {
        return kinds.first() != Some(&7) || cue_pair_ok || alternative || tags.len() == 1;
    }
    (only(&[1, 2])) // major or direction: roles.rs
        || (only(&[0, 1])) // school or major: roles.rs
        || (only(&[2, 7]) && tags.contains(&Tag::Cue(Cue::Recommend))) // 推荐
        // 统计: the major where a major stands, else the request (roles.rs)
        || (only(&[1, 7]) && tags.iter().filter(|t| matches!(t, Tag::Cue(_))).count() == 1)
        || (only(&[7, 8]) && has(8) && tags.contains(&Tag::Cue(Cue::Pair))) // 他俩
}

#[test]
fn no_term_has_two_meanings_the_rules_cannot_resolve() {
    let lex = lexicons();
    let files: [(&str, &str); 5] = [
        (
            "directions.txt",
            include_str!("../../../../lexicons/directions.txt"),
        ),
        (
            "preferences.txt",
            include_str!("../../../../lexicons/preferences.txt"),
        ),
        ("cues.txt", include_str!("../../../../lexicons/cues.txt")),
        (
            "references.txt",
            include_str!("../../../../lexicons/references.txt"),
        ),
        (
            "fillers.txt",
            include_str!("../../../../lexicons/fillers.txt"),
        ),
    ];
    let mut bad = Vec::new();
    for (file, src) in files {
        for e in lexfile::parse(file, src) {
            for term in std::iter::once(&e.key).chain(&e.terms) {
                let chars: Vec<char> = basic(term).chars().collect();
                if let Some(tags) = lex.trie.get(&chars) {
                    if !resolvable(tags) {
                        bad.push(format!("{file}: {term} → {tags:?}"));
                    }
                }
            }
        }
    }
    bad.sort();
    bad.dedup();
    assert!(bad.is_empty(), "ambiguous terms:\n{}", bad.join("\n"));
}

#[test]
fn every_lexicon_term_normalises_to_itself() {
    for (file, src) in [
        (
            "directions.txt",
            include_str!("../../../../lexicons/directions.txt"),
        ),
        (
            "preferences.txt",
            include_str!("../../../../lexicons/preferences.txt"),
        ),
        ("cues.txt", include_str!("../../../../lexicons/cues.txt")),
        (
            "references.txt",
            include_str!("../../../../lexicons/references.txt"),
        ),
    ] {
        for e in lexfile::parse(file, src) {
            for t in &e.terms {
                let n = basic(t);
                assert!(!n.contains(','), "{file}: term {t:?} contains punctuation");
                assert!(!n.is_empty(), "{file}: empty term");
            }
        }
    }
}
