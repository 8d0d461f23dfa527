//! Names the lexicon does not know, read from the shape of the sentence:
//! - an unknown school: words ending in 大学/师大/… ("我想考霍格沃茨大学");
//! - an unknown major: words before 专业 or a final 系 ("魔法学专业");
//! - a research direction in the student's own words, when no lexicon
//!   direction was named: "做X" / "研究X" / "搞X" / "X方向" / "X领域" /
//!   "对X感兴趣", X being 2–12 characters that are not another slot.
//!
//! A known name that is only the tail of a longer unknown name ("东北大学"
//! ends in the alias 北大, "魔法学专业" holds the major 法学) gives way to it.
//!
//! A candidate is read backwards (or forwards) from its anchor up to the
//! clause edge, a strong token (school, major, direction, reference, name) or
//! a longer cue word; one-character cue words (考, 学, 做) and preference
//! words inside it are swallowed, then lead words (我, 想, 考…) are trimmed
//! from the front and the rest is checked against the stop lists.

use super::lexicon::{Cue, Lexicons, Tag};
use super::tokens::Text;
use crate::text::utterance::DE;

/// Unknown school and major found in the sentence.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Unknown {
    pub school: Option<String>,
    pub major: Option<String>,
}

const SCHOOL_NAME_MAX: usize = 10;
const MAJOR_NAME_MAX: usize = 8;
const DIRECTION_MAX: usize = 12;
/// Latin words up to this length are written in capitals (acronyms).
const ACRONYM_MAX: usize = 5;

/// Whether token `t` may be swallowed into a name read from raw text: a
/// preference word ("自由" in "自由大学"), a blocking word, a token whose
/// meaning was released (no tags left), or a one-character cue (考, 学, 做).
fn swallowable(text: &Text, t: usize) -> bool {
    let tok = &text.tokens[t];
    if tok
        .tags
        .iter()
        .all(|t| matches!(t, Tag::Pref(_) | Tag::Block))
    {
        return true;
    }
    tok.len() == 1
        && tok.cues().all(|c| {
            matches!(
                c,
                Cue::IntroMajor | Cue::IntroDirection | Cue::InterestOpen | Cue::SuffixMajor
            )
        })
        && tok.cues().count() == tok.tags.len()
}

/// Start of the name that ends at `end`, read backwards.
fn back_scan(text: &Text, end: usize) -> usize {
    let (cs, _) = text.clause(end.saturating_sub(1));
    let mut s = end;
    while s > cs {
        if let Some(t) = text.cover[s - 1] {
            if swallowable(text, t) && text.tokens[t].start >= cs {
                s = text.tokens[t].start;
                continue;
            }
            break;
        }
        if text.chars[s - 1] == DE {
            break;
        }
        s -= 1;
    }
    s
}

/// End of the words that start at `start`, read forwards (stops at 的, at a
/// strong token or at any word of the lexicon but a one-character cue or a
/// blocking word like 系统).
fn forward_scan(text: &Text, start: usize) -> usize {
    let (_, ce) = text.clause(start);
    let mut e = start;
    while e < ce {
        if let Some(t) = text.cover[e] {
            let tok = &text.tokens[t];
            let block = tok.tags.iter().all(|t| matches!(t, Tag::Block));
            if block || (tok.len() == 1 && swallowable(text, t) && !tok.has_cue(Cue::SuffixMajor)) {
                e = text.tokens[t].end;
                continue;
            }
            break;
        }
        if text.chars[e] == DE {
            break;
        }
        e += 1;
    }
    e
}

/// Strips lead words (我, 想, 考 …) from the front of `chars[s..e]`; a word
/// of the lexicon that starts there ("考古") is kept whole.
fn strip_lead(text: &Text, lex: &Lexicons, mut s: usize, e: usize) -> usize {
    while s < e {
        if text
            .token_at(s)
            .is_some_and(|t| text.tokens[t].tags.contains(&Tag::Block))
        {
            break;
        }
        match lex.lists.lead.prefix_at(&text.chars[..e], s) {
            Some(len) => s += len,
            None => break,
        }
    }
    s
}

fn plausible_name(lex: &Lexicons, name: &[char], max: usize) -> bool {
    name.len() >= 2
        && name.len() <= max
        && !name.contains(&DE)
        && !name.iter().all(|c| c.is_ascii_digit())
        && !lex.lists.name_stop.has(name)
        && !lex.lists.not_in_name.occurs_in(name)
}

/// Whether `chars[p..p+len]` is free for a suffix: raw, or covered by weak
/// tokens that start inside it ("学" of 大学 may be the cue word 学).
fn suffix_free(text: &Text, p: usize, len: usize) -> bool {
    (p..p + len).all(|q| match text.cover[q] {
        None => true,
        Some(t) => {
            let tok = &text.tokens[t];
            tok.tags.is_empty() || (tok.start >= p && !tok.is_strong())
        }
    })
}

/// Marks the preference tokens inside an accepted name as used up.
fn swallow(text: &mut Text, s: usize, e: usize) {
    for t in text.tokens.iter_mut() {
        if t.start >= s && t.end <= e && t.pref().is_some() {
            t.tags.clear();
        }
    }
}

/// Whether the school token `i` ends inside a school suffix ("北大" + "学"
/// in "东北大学") with only weak words after it.
fn ends_inside_school_suffix(text: &Text, lex: &Lexicons, i: usize) -> bool {
    let tok = &text.tokens[i];
    let name = &text.chars[tok.start..tok.end];
    lex.lists.school_suffix.words().any(|w| {
        (1..w.len()).any(|k| {
            let rest = &w[k..];
            name.ends_with(&w[..k])
                && text.chars.get(tok.end..tok.end + rest.len()) == Some(rest)
                && suffix_free(text, tok.end, rest.len())
        })
    })
}

/// Whether the major token `i` is followed by a major suffix ("法学" + "专业").
fn before_major_suffix(text: &Text, lex: &Lexicons, i: usize) -> bool {
    let end = text.tokens[i].end;
    lex.lists
        .major_suffix
        .prefix_at(&text.chars, end)
        .is_some_and(|len| suffix_free(text, end, len))
}

/// Known names that are only the tail of a longer unknown one ("东北大学"
/// ends in 北大 + 学, "魔法学专业" holds 法学): such a token loses its
/// meaning, so that `unknown_names` reads the whole name.
fn release_embedded(text: &mut Text, lex: &Lexicons) {
    for i in 0..text.tokens.len() {
        let tok = &text.tokens[i];
        let school = !tok.schools().is_empty();
        let major = !tok.majors().is_empty();
        let embedded = (school && ends_inside_school_suffix(text, lex, i))
            || (major && !school && before_major_suffix(text, lex, i));
        if !embedded {
            continue;
        }
        let start = tok.start;
        let s = strip_lead(text, lex, back_scan(text, start), start);
        let head = &text.chars[s..start];
        let plausible = !head.is_empty()
            && !head.contains(&DE)
            && !lex.lists.name_stop.has(head)
            && !lex.lists.not_in_name.occurs_in(head)
            && !head.iter().any(|c| c.is_ascii());
        if plausible {
            text.tokens[i].tags.clear();
        }
    }
}

/// The one school of the catalog `name` shortens word by word
/// (`text::names::abbreviates`: 哈尔滨工大), if only one.
fn abbreviated_school(lex: &Lexicons, name: &[char]) -> Option<usize> {
    let mut found = lex.schools.iter().enumerate().filter(|(_, full)| {
        crate::text::names::abbreviates(name, &full.chars().collect::<Vec<char>>())
    });
    let (i, _) = found.next()?;
    found.next().is_none().then_some(i)
}

/// The longest unread run after a school (and 的) that shortens the names of
/// exactly one major (`text::names::shortens`: "人大的应统" is 应用统计,
/// "中科大的生科" 生物科学), as written or else in homophones (a
/// recognizer's 声科), read as that major, when no major is named.
fn shortened_major(text: &mut Text, lex: &Lexicons) {
    if text.tokens.iter().any(|t| !t.majors().is_empty()) {
        return;
    }
    let schools: Vec<usize> = text
        .tokens
        .iter()
        .filter(|t| !t.schools().is_empty())
        .map(|t| t.end)
        .collect();
    for end in schools {
        let mut p = end;
        if text.chars.get(p) == Some(&DE) {
            p += 1;
        }
        let (_, ce) = text.clause(p.min(text.chars.len().saturating_sub(1)));
        let free = text
            .tokens
            .iter()
            .filter(|t| t.end > p)
            .map(|t| t.start)
            .min()
            .unwrap_or(ce)
            .min(ce);
        let run = (p..free)
            .take_while(|&i| crate::text::names::is_han(text.chars[i]))
            .count()
            .min(SHORT_MAJOR_MAX);
        // As written, else in homophones (声科 for 生科, 英统 for 应统).
        let homophone = |a: char, b: char| a == b || crate::text::sound::reads_as(&[a], &[b]);
        for exact in [true, false] {
            for len in (2..=run).rev() {
                let short = &text.chars[p..p + len];
                let mut found: Vec<usize> = lex
                    .major_names
                    .iter()
                    .filter(|(name, _)| {
                        if exact {
                            crate::text::names::shortens(short, name)
                        } else {
                            crate::text::names::shortens_by(short, name, homophone)
                        }
                    })
                    .map(|(_, i)| *i)
                    .collect();
                found.dedup();
                if let [i] = found[..] {
                    text.insert_token(p, p + len, vec![Tag::Major(i)]);
                    return;
                }
            }
        }
    }
}

/// The longest shortened major name read (汉语言 for 汉语言文学).
const SHORT_MAJOR_MAX: usize = 4;

/// Finds an unknown school and an unknown major; preference words inside
/// them ("自由大学", "生物医学工程专业") stop counting as preferences.
pub(crate) fn unknown_names(text: &mut Text, lex: &Lexicons) -> Unknown {
    release_embedded(text, lex);
    shortened_major(text, lex);
    let mut out = Unknown::default();
    let known_school = text.tokens.iter().any(|t| !t.schools().is_empty());
    let known_major = text.tokens.iter().any(|t| !t.majors().is_empty());
    let n = text.chars.len();
    let mut p = 0;
    while p < n {
        let strong = lex.lists.school_suffix.prefix_at(&text.chars, p);
        let weak = if known_school || known_major {
            None
        } else {
            lex.lists.school_suffix_weak.prefix_at(&text.chars, p)
        };
        if out.school.is_none() {
            if let Some(len) = strong.or(weak) {
                if suffix_free(text, p, len) {
                    let s = strip_lead(text, lex, back_scan(text, p), p);
                    if plausible_name(lex, &text.chars[s..p], SCHOOL_NAME_MAX)
                        && !super::roles::in_background(text, lex, s)
                    {
                        if let Some(i) = abbreviated_school(lex, &text.chars[s..p + len]) {
                            text.insert_token(s, p + len, vec![Tag::School(i)]);
                        } else {
                            out.school = Some(text.string(s, p + len));
                            swallow(text, s, p);
                        }
                    }
                }
            }
        }
        if out.major.is_none() {
            let strong = lex.lists.major_suffix.prefix_at(&text.chars, p);
            let weak = lex
                .lists
                .major_suffix_weak
                .prefix_at(&text.chars, p)
                .filter(|&len| {
                    let after = p + len;
                    text.at_clause_end(after)
                        || lex
                            .lists
                            .weak_follow
                            .prefix_at(&text.chars, after)
                            .is_some()
                });
            if let Some(len) = strong.or(weak) {
                if suffix_free(text, p, len) {
                    let s = strip_lead(text, lex, back_scan(text, p), p);
                    if plausible_name(lex, &text.chars[s..p], MAJOR_NAME_MAX)
                        && !super::roles::in_background(text, lex, s)
                    {
                        out.major = Some(text.string(s, p));
                        swallow(text, s, p);
                    }
                }
            }
        }
        p += 1;
    }
    out
}

/// Trims direction_trim words from both ends of `chars[s..e]`.
fn trim_direction(text: &Text, lex: &Lexicons, mut s: usize, mut e: usize) -> (usize, usize) {
    loop {
        let before = (s, e);
        if let Some(len) = lex.lists.direction_trim.prefix_at(&text.chars[..e], s) {
            s += len;
        }
        if s < e {
            if let Some(len) = lex.lists.direction_trim.suffix_at(&text.chars, e, s) {
                e -= len;
            }
        }
        if (s, e) == before || s >= e {
            return (s, e.max(s));
        }
    }
}

/// The direction as it is reported: trimmed, and a short Latin word written
/// as the acronym it is ("rag" → "RAG").
fn spell(d: &[char]) -> String {
    let s: String = d.iter().collect::<String>().trim().to_string();
    if s.len() <= ACRONYM_MAX && s.chars().all(|c| c.is_ascii_alphabetic()) {
        s.to_ascii_uppercase()
    } else {
        s
    }
}

fn plausible_direction(lex: &Lexicons, d: &[char]) -> bool {
    d.len() >= 2
        && d.len() <= DIRECTION_MAX
        && !lex.lists.direction_stop.has(d)
        && !lex.lists.not_in_name.occurs_in(d)
        && !d.iter().all(|c| c.is_ascii_digit() || *c == ' ')
}

/// A direction in the student's own words, with the position of its cue.
/// `negated(pos)` tells whether the cue at `pos` is negated.
pub(crate) fn own_direction(
    text: &Text,
    lex: &Lexicons,
    negated: impl Fn(usize) -> bool,
) -> Option<String> {
    let mut candidates: Vec<(usize, usize, usize)> = Vec::new();
    for (i, t) in text.tokens.iter().enumerate() {
        if t.has_cue(Cue::IntroDirection) && !negated(t.start) {
            candidates.push((t.start, t.end, forward_scan(text, t.end)));
        }
        if t.has_cue(Cue::SuffixDirection) {
            let mut end = t.start;
            if end > 0 && text.chars[end - 1] == DE && text.is_raw(end - 1) {
                end -= 1;
            }
            let s = back_scan(text, end);
            let s = strip_lead(text, lex, s, end);
            if !negated(s) {
                candidates.push((t.start, s, end));
            }
        }
        if t.has_cue(Cue::InterestOpen) && !negated(t.start) {
            let (_, ce) = text.clause(t.start);
            if let Some(close) = text.tokens[i + 1..]
                .iter()
                .take_while(|c| c.end <= ce)
                .find(|c| c.has_cue(Cue::InterestClose))
            {
                let inner_strong = (t.end..close.start).any(|p| text.in_strong(p));
                if !inner_strong {
                    candidates.push((t.start, t.end, close.start));
                }
            }
        }
    }
    candidates.sort();
    candidates.into_iter().find_map(|(_, s, e)| {
        let (s, e) = trim_direction(text, lex, s, e);
        let d = &text.chars[s..e];
        let free = (s..e).all(|p| !text.in_strong(p));
        (free && plausible_direction(lex, d)).then(|| spell(d))
    })
}
