//! Negation: which tokens a negator (不/不要/别/不想要/不是…) applies to.
//!
//! A value (school, major, direction, preference) is negated when, reading
//! backwards within its clause, a negator is reached across nothing but gap
//! words (太, 很, 那么, 的, 找, 考 … see `negation_gap`; a city) and transparent words
//! (request cues, intro cues, pronouns, money words), at most
//! `NEGATION_REACH` characters away: "不要太严格", "不想找太push的",
//! "别给我推荐北大的". A value joined by 和/或 to a negated value of the same
//! kind is negated too ("不要北大和清华"; not the same name said again,
//! which is a speaker starting over), and so is a major right after a
//! negated school ("不是北大计算机"). Anything else stops the reading:
//! in "不是北大是清华" the second 是 shields 清华.
//!
//! A negator said after the values ("北大和清华都不想去", "push的不要",
//! `negator.after`) negates every value just before it in the clause.
//!
//! A request cue (推荐, 怎么样 …) is negated only when no value after it in
//! the clause took the negation: "不用推荐了" negates the request, "别给我推荐
//! 太严格的" negates 严格 and keeps the request.

use super::lexicon::{Cue, Lexicons, Tag};
use super::tokens::{Kind, Text};
use crate::text::utterance::DE;

/// How many characters may stand between a negator and what it negates.
const NEGATION_REACH: usize = 8;

fn transparent(text: &Text, t: usize) -> bool {
    let tok = &text.tokens[t];
    tok.is_act_cue()
        || tok.has_cue(Cue::IntroMajor)
        || tok.has_cue(Cue::IntroDirection)
        || tok.has(|t| matches!(t, Tag::Pronoun | Tag::FundingTopic))
}

/// The negator token that negates whatever starts at `pos`, if any.
pub(crate) fn negator_before(text: &Text, lex: &Lexicons, pos: usize) -> Option<usize> {
    let (cs, _) = text.clause(pos);
    let mut p = pos;
    let mut skipped = 0;
    while p > cs && skipped <= NEGATION_REACH {
        if let Some(t) = text.cover[p - 1] {
            let tok = &text.tokens[t];
            if tok.end != p {
                return None;
            }
            if tok.has_cue(Cue::Negator) {
                return Some(t);
            }
            let gap_word = lex.lists.negation_gap.has(&text.chars[tok.start..tok.end]);
            if transparent(text, t) || gap_word {
                skipped += tok.len();
                p = tok.start;
                continue;
            }
            return None;
        }
        // A gap word, or the city a school's short name is said with ("不是
        // 武汉那个华师"): what it names is still what is turned down.
        let len = [&lex.lists.negation_gap, &lex.city_words]
            .iter()
            .find_map(|list| list.suffix_at(&text.chars, p, cs))
            .filter(|&len| (p - len..p).all(|q| text.is_raw(q)))?;
        skipped += len;
        p -= len;
    }
    None
}

/// Whether only coordinators and gap words stand between `a` and `b`.
fn coordinated(text: &Text, lex: &Lexicons, a: usize, b: usize) -> bool {
    let mut p = a;
    let mut saw_coord = false;
    while p < b {
        if let Some(t) = text.cover[p] {
            if text.tokens[t].has_cue(Cue::Coord) {
                saw_coord = true;
                p = text.tokens[t].end;
                continue;
            }
            return false;
        }
        match lex.lists.negation_gap.prefix_at(&text.chars[..b], p) {
            Some(len) => p += len,
            None => return false,
        }
    }
    saw_coord
}

/// Values negated by a negator said after them ("北大和清华都不想去"):
/// reading back from the negator over gap words and coordinators. Only a
/// negator that ends its clause (but for polite words) looks back, so in
/// "温和的不要太严格的" 不要 negates 严格, not 温和.
fn negate_before(text: &Text, lex: &Lexicons, cue: usize, neg: &mut [bool]) {
    let (cs, ce) = text.clause(text.tokens[cue].start);
    if lex
        .lists
        .polite
        .skip_run(&text.chars[..ce], text.tokens[cue].end)
        < ce
    {
        return;
    }
    let mut p = text.tokens[cue].start;
    while p > cs {
        if let Some(t) = text.cover[p - 1] {
            let tok = &text.tokens[t];
            if tok.kind(lex).is_some() {
                neg[t] = true;
            } else if !tok.has_cue(Cue::Coord)
                && !lex.lists.negation_gap.has(&text.chars[tok.start..tok.end])
            {
                return;
            }
            p = tok.start;
            continue;
        }
        match lex.lists.negation_gap.suffix_at(&text.chars, p, cs) {
            Some(len) => p -= len,
            None => return,
        }
    }
}

/// For every token, whether it is negated (see the module doc).
pub(crate) fn negated_tokens(text: &Text, lex: &Lexicons) -> Vec<bool> {
    let toks = &text.tokens;
    let mut neg = vec![false; toks.len()];
    let mut last_value: Option<usize> = None;
    for i in 0..toks.len() {
        let Some(kind) = toks[i].kind(lex) else {
            continue;
        };
        let direct = negator_before(text, lex, toks[i].start).is_some();
        let joined = last_value.is_some_and(|j| {
            let same_clause = text.clause_index(toks[j].start) == text.clause_index(toks[i].start);
            // "上财金融、金融的导师": the same name said again is a speaker
            // starting over, not a list of two, and keeps its own reading.
            let again =
                text.chars[toks[j].start..toks[j].end] == text.chars[toks[i].start..toks[i].end];
            let coordinated = toks[j].kind(lex) == Some(kind)
                && !again
                && coordinated(text, lex, toks[j].end, toks[i].start);
            // "不是北大(的)计算机": a school and its major are one phrase.
            let school_major = toks[j].kind(lex) == Some(Kind::School)
                && kind == Kind::Major
                && text.chars[toks[j].end..toks[i].start]
                    .iter()
                    .all(|&c| c == DE);
            neg[j] && same_clause && (coordinated || school_major)
        });
        neg[i] = direct || joined;
        last_value = Some(i);
    }
    for (i, t) in toks.iter().enumerate() {
        if t.has_cue(Cue::NegatorAfter) {
            negate_before(text, lex, i, &mut neg);
        }
    }
    for i in 0..toks.len() {
        if !toks[i].is_act_cue() || negator_before(text, lex, toks[i].start).is_none() {
            continue;
        }
        let (_, ce) = text.clause(toks[i].start);
        let value_took_it = (i + 1..toks.len())
            .take_while(|&j| toks[j].end <= ce)
            .any(|j| toks[j].kind(lex).is_some() && neg[j]);
        neg[i] = !value_took_it;
    }
    neg
}

/// Whether token `t` is negated by a replacing negator ("不是北大" → rejects
/// 北大 in favour of another value; see `negator.replace` in cues.txt).
pub(crate) fn replaced(text: &Text, lex: &Lexicons, t: usize) -> bool {
    negator_before(text, lex, text.tokens[t].start)
        .is_some_and(|n| text.tokens[n].has_cue(Cue::Replace))
}
