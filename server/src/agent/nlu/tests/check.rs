//! The table runner: an utterance and the fields it must produce. Fields not
//! listed must stay empty; all failures of a table are reported together.

use super::super::{analyze, Act, Analysis, Reference, Slot};
use super::fixture::{lexicons, names};

/// One expected field.
#[derive(Debug, Clone, Copy)]
pub(crate) enum E {
    School(&'static str),
    /// Ambiguous school: what was said and the candidates.
    SchoolAmb(&'static str, &'static [&'static str]),
    /// Schools offered as alternatives ("北大或者清华都行").
    SchoolEither(&'static [&'static str]),
    /// Fields put off ("学校再说").
    Postponed(&'static [&'static str]),
    Major(&'static str),
    MajorAmb(&'static str, &'static [&'static str]),
    UnknownSchool(&'static str),
    UnknownMajor(&'static str),
    Dir(&'static str),
    Pers(&'static str),
    Style(&'static str),
    Fund(&'static str),
    Rej(&'static [&'static str]),
    Corr,
    Refs(&'static [R]),
    Act(Act),
    /// FAQ id (implies Act::Faq).
    FaqId(&'static str),
    FollowUp,
    /// "这两个" / "他俩".
    Pair,
}

/// An expected reference.
#[derive(Debug, Clone, Copy)]
pub(crate) enum R {
    Ord(usize),
    End(usize),
    Mid,
    Pro,
    Name(&'static str),
}

fn slot(s: &str) -> Option<Slot> {
    Some(Slot::One(s.to_string()))
}

fn amb(said: &str, c: &[&str]) -> Option<Slot> {
    Some(Slot::Ambiguous {
        said: said.to_string(),
        candidates: c.iter().map(|s| s.to_string()).collect(),
    })
}

fn expected(actual: &Analysis, es: &[E]) -> Analysis {
    let mut x = Analysis {
        normalized: actual.normalized.clone(),
        follow_up: actual.follow_up,
        // What code did not read has tables of its own (coverage.rs).
        unexplained: actual.unexplained.clone(),
        // Where the advisors meant begin is the references' own detail
        // (cases_heard.rs checks it where it matters).
        references_from: actual.references_from,
        ..Analysis::default()
    };
    for e in es {
        let s = |v: &str| Some(v.to_string());
        match *e {
            E::Pair => x.pair = true,
            E::School(v) => x.school = slot(v),
            E::SchoolAmb(said, c) => x.school = amb(said, c),
            E::SchoolEither(c) => {
                x.school = Some(Slot::Either(c.iter().map(|s| s.to_string()).collect()))
            }
            E::Postponed(fields) => x.postponed = fields.to_vec(),
            E::Major(v) => x.major = slot(v),
            E::MajorAmb(said, c) => x.major = amb(said, c),
            E::UnknownSchool(v) => x.unknown_school = s(v),
            E::UnknownMajor(v) => x.unknown_major = s(v),
            E::Dir(v) => x.research_direction = s(v),
            E::Pers(v) => x.personality = s(v),
            E::Style(v) => x.research_style = s(v),
            E::Fund(v) => x.funding = s(v),
            E::Rej(v) => x.rejected = v.iter().map(|r| r.to_string()).collect(),
            E::Corr => x.correction = true,
            E::Refs(rs) => {
                x.references = rs
                    .iter()
                    .map(|r| match *r {
                        R::Ord(n) => Reference::Ordinal(n),
                        R::End(n) => Reference::FromEnd(n),
                        R::Mid => Reference::Middle,
                        R::Pro => Reference::Pronoun,
                        R::Name(n) => Reference::Name(n.to_string()),
                    })
                    .collect()
            }
            E::Act(a) => x.act = a,
            E::FaqId(id) => {
                x.faq = s(id);
                x.act = Act::Faq;
            }
            E::FollowUp => x.follow_up = true,
        }
    }
    x
}

/// Runs a table; panics listing every failing case.
pub(crate) fn run(table: &[(&str, &[E])]) {
    let lex = lexicons();
    let known = names();
    let mut failures = Vec::new();
    for (utt, es) in table {
        let actual = analyze(utt, lex, &known);
        let want = expected(&actual, es);
        if actual != want {
            failures.push(format!("{utt:?}\n   got:  {actual:?}\n   want: {want:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        table.len(),
        failures.join("\n")
    );
}
