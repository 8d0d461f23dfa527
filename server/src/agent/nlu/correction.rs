//! Whether the student replaces an earlier value. Explicit cues come from
//! cues.txt (`correction`: 算了, 改成, 换成, 不对 …); 还是 counts when it
//! opens its clause (after nothing but `still_lead` words: "算了还是复旦",
//! "我觉得还是清华") or when its clause ends in a `still_final` word such as
//! 吧 ("那还是北大吧"), so the
//! question "北大还是清华" is not a correction. A negator that is a clause of
//! its own ("北交的土木，不是，西南交大的土木") takes back what came before:
//! it negates nothing after it, and the sentence is a correction.
//! Rejections that replace a value ("不是北大，是清华") are added by the
//! caller from slots.rs.

use super::lexicon::{Cue, Lexicons};
use super::tokens::Text;

/// Whether 还是 at token `t` starts a correction.
fn still_corrects(text: &Text, lex: &Lexicons, t: usize) -> bool {
    let tok = &text.tokens[t];
    let (cs, ce) = text.clause(tok.start);
    if ce > tok.end
        && lex
            .lists
            .still_final
            .suffix_at(&text.chars, ce, tok.end)
            .is_some()
    {
        return true;
    }
    let mut p = cs;
    while p < tok.start {
        if let Some(c) = text.token_at(p) {
            if text.tokens[c].has_cue(Cue::Correction) && text.tokens[c].end <= tok.start {
                p = text.tokens[c].end;
                continue;
            }
        }
        match lex.lists.still_lead.prefix_at(&text.chars[..tok.start], p) {
            Some(len) => p += len,
            None => return false,
        }
    }
    tok.end < ce
}

/// Whether token `t` is a negator standing as a clause of its own (不是,
/// 不 between pauses): "no", said of what came before.
fn lone_negator(text: &Text, t: usize) -> bool {
    let tok = &text.tokens[t];
    tok.has_cue(Cue::Negator) && text.clause(tok.start) == (tok.start, tok.end)
}

/// Explicit correction cues, lone negators and the 还是 pattern (not negated).
pub(crate) fn explicit(text: &Text, lex: &Lexicons, neg: &[bool]) -> bool {
    text.tokens.iter().enumerate().any(|(i, t)| {
        !neg[i]
            && (t.has_cue(Cue::Correction)
                || lone_negator(text, i)
                || (t.has_cue(Cue::Still) && still_corrects(text, lex, i)))
    })
}

/// Where the last explicit correction (a cue such as 不对, or a lone
/// negator) ends: what the student said before it may be what they took
/// back, so a name of a kind read only before it is still to be listened
/// for after it.
pub(crate) fn last_marker_end(text: &Text) -> Option<usize> {
    (0..text.tokens.len())
        .filter(|&i| text.tokens[i].has_cue(Cue::Correction) || lone_negator(text, i))
        .map(|i| text.tokens[i].end)
        .max()
}
