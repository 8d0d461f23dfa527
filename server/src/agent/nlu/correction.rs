//! Whether the student replaces an earlier value. Explicit cues come from
//! cues.txt (`correction`: 算了, 改成, 换成, 不对 …); 还是 counts when it
//! opens its clause (after nothing but `still_lead` words: "算了还是复旦",
//! "我觉得还是清华") or when a `still_final` word such as 吧 follows it in
//! its clause ("那还是北大吧", "还是川大吧中文系"), so the question "北大还是
//! 清华" is not a correction. A negator that is a clause of
//! its own ("北交的土木，不是，西南交大的土木") takes back what came before:
//! it negates nothing after it, and the sentence is a correction. So does
//! a clause of its own that sounds near a correction cue, as a recognizer
//! writes one ("阿普对，是上交的软件": 不对 heard as 普对).
//! Rejections that replace a value ("不是北大，是清华") are added by the
//! caller from slots.rs.
//!
//! An option turned down for a reason, or a change of plan (cues.txt
//! `dismiss`: 太卷, 分太高, 不如, 现在想), corrects only between two
//! names of one kind ("北邮太卷了就人大吧" chooses 人大, "本来想考清华现在
//! 想去同济" 同济), or before words that come near a name of its kind by
//! sound (the replacement said, but not read); "北大太难了" alone takes
//! nothing back. A student who weighs options aloud settles on the last
//! one; the first is not silently kept.

use super::lexicon::{Cue, Lexicons, Tag};
use super::tokens::{Kind, Text};
use crate::text::utterance::{DE, SHI};

/// What a name stands for, for telling whether a dismissal has a name of
/// the same kind on each side: a school, a major, or an advisor meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Named {
    School,
    Major,
    Advisor,
}

fn named(text: &Text, lex: &Lexicons, t: usize) -> Option<Named> {
    let tok = &text.tokens[t];
    match tok.kind(lex) {
        Some(Kind::School) => Some(Named::School),
        Some(Kind::Major) => Some(Named::Major),
        _ if tok.has(|g| {
            matches!(
                g,
                Tag::Name(_) | Tag::Ordinal(_) | Tag::FromEnd(_) | Tag::Middle
            )
        }) =>
        {
            Some(Named::Advisor)
        }
        _ => None,
    }
}

/// Each dismissal of a name, `[start, end)`: the words of cues.txt
/// `dismiss` in the stretch from the name to the next of its kind ("北邮
/// 太卷了就人大吧"), or, where none is read after it, followed by words that
/// come near a name of its kind by sound (a recognizer's 穿大 for 川大 in
/// "复旦分太高了，还是穿大"): the replacement was said, only not read. They
/// judge the option turned down, so the preference words in them (卷) are
/// no wish of the student's.
fn dismissals(text: &Text, lex: &Lexicons) -> Vec<(usize, usize, Named)> {
    let names: Vec<(usize, Named)> = (0..text.tokens.len())
        .filter_map(|i| named(text, lex, i).map(|k| (i, k)))
        .collect();
    let words_in = |from: usize, to: usize| -> Vec<(usize, usize)> {
        (from..to)
            .filter_map(|p| {
                lex.lists
                    .dismiss
                    .prefix_at(&text.chars[..to], p)
                    .map(|l| (p, p + l))
            })
            .collect()
    };
    let mut spans = Vec::new();
    for (n, &(a, kind)) in names.iter().enumerate() {
        let from = text.tokens[a].end;
        if let Some(&(b, _)) = names[n + 1..].iter().find(|(_, k)| *k == kind) {
            spans.extend(
                words_in(from, text.tokens[b].start)
                    .into_iter()
                    .map(|(s, e)| (s, e, kind)),
            );
            continue;
        }
        let group = match kind {
            Named::School => super::lexicon::SCHOOL_SOUNDS,
            Named::Major => super::lexicon::MAJOR_SOUNDS,
            Named::Advisor => continue,
        };
        if let Some(&(start, end)) = words_in(from, text.chars.len()).last() {
            let near =
                lex.sound
                    .nearest(&text.chars[end..], |i| !text.in_strong(end + i), group, 1);
            if !near.is_empty() {
                spans.push((start, end, kind));
            }
        }
    }
    spans.sort_unstable_by_key(|&(s, e, _)| (s, e));
    spans.dedup();
    spans
}

/// Whether 还是 at token `t` starts a correction: it opens its clause, or
/// a settling word (吧) follows it in the clause, at its end or after the
/// name it settles on ("还是川大吧中文系", "还是最后那个吧打开看看").
fn still_corrects(text: &Text, lex: &Lexicons, t: usize) -> bool {
    let tok = &text.tokens[t];
    let (cs, ce) = text.clause(tok.start);
    if (tok.end + 1..=ce).any(|end| {
        lex.lists
            .still_final
            .suffix_at(&text.chars, end, tok.end)
            .is_some()
    }) {
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
/// 不 between pauses): "no", said of what came before. One character
/// that reads as nothing may stand before it ("啊不是", "哦不是"). A
/// recognizer may move the pause or drop it: a negator ending its clause
/// before one that opens with 是 ("通信工程不是，是电子信息工程"), or
/// followed at once by 是 or a word that sounds as it and then a name
/// ("教育学，不是世心理学"), is the same "no".
fn lone_negator(text: &Text, lex: &Lexicons, t: usize) -> bool {
    let tok = &text.tokens[t];
    if !tok.has_cue(Cue::Negator) {
        return false;
    }
    let (cs, ce) = text.clause(tok.start);
    let c = &text.chars;
    let is_shi = |i: usize| {
        c.get(i)
            .is_some_and(|ch| crate::text::sound::sounds_as(&[*ch], &[SHI]) == Some(true))
    };
    let alone =
        ce == tok.end && (cs == tok.start || (cs + 1 == tok.start && text.token_at(cs).is_none()));
    let before_shi_clause = ce == tok.end && ce < c.len() && c.get(ce + 1) == Some(&SHI);
    let shi_then_name = is_shi(tok.end)
        && text
            .token_at(tok.end + 1)
            .is_some_and(|n| named(text, lex, n).is_some_and(|k| k != Named::Advisor));
    alone || before_shi_clause || shi_then_name
}

/// Whether token `i` marks a correction: a cue such as 不对, a lone
/// negator, or 还是 settling. A cue before talk about a name ("我说的是老
/// 名字", cues.txt `name_talk`) explains a name said; it takes nothing back.
fn marks(text: &Text, lex: &Lexicons, i: usize) -> bool {
    let t = &text.tokens[i];
    let about_a_name = || {
        let after = lex.lists.hesitation.skip_run(&text.chars, t.end);
        let after = after + usize::from(text.chars.get(after) == Some(&DE));
        lex.lists.name_talk.prefix_at(&text.chars, after).is_some()
    };
    (t.has_cue(Cue::Correction) && !about_a_name())
        || lone_negator(text, lex, i)
        || (t.has_cue(Cue::Still) && still_corrects(text, lex, i))
}

/// Where each clause ends that is a correction cue as a recognizer may
/// write it, by its sound, with no name read in it ("上交的计算机，阿普对，是
/// 上交的软件": 不对 heard as 普对, after the 啊 before it). A clause of its
/// own between what was said and what follows places the word, as the 第
/// after 倒数 does, so a near sound will do (`text::sound::sounds_as`); at
/// most one stray character may stand before it.
fn heard_markers(text: &Text, lex: &Lexicons) -> Vec<usize> {
    let c = &text.chars;
    let mut ends = Vec::new();
    let mut p = 0;
    while p < c.len() {
        let (cs, ce) = text.clause(p);
        p = ce + 1;
        // No name read in it (a cue word may be: the 对 of 普对).
        let unread = (cs..ce).all(|i| {
            text.cover
                .get(i)
                .copied()
                .flatten()
                .is_none_or(|t| named(text, lex, t).is_none())
        });
        if cs == 0 || ce >= c.len() || !unread {
            continue;
        }
        let heard = lex.correction_words.iter().any(|w| {
            w.len() >= 2
                && (ce - cs == w.len() || ce - cs == w.len() + 1)
                && crate::text::sound::sounds_as(&c[ce - w.len()..ce], w).is_some()
        });
        if heard {
            ends.push(ce);
        }
    }
    ends
}

/// The corrections of one reading of a text, worked out once: every step
/// that needs them (the references, the preferences, what is taken back)
/// reads this.
#[derive(Debug, Default)]
pub(crate) struct Corrections {
    /// A marker ([`marks`]) not negated, or a dismissal.
    pub explicit: bool,
    /// Where the last marker or dismissal ends: what the student said
    /// before it may be what they took back, so a name of a kind read only
    /// before it is still to be listened for after it, and of the advisors
    /// meant on both sides of it, the ones after it stand.
    pub last_end: Option<usize>,
    /// Whether a marker (not only a dismissal) ends there.
    pub said_last: bool,
    pub dismissals: Vec<(usize, usize, Named)>,
}

impl Corrections {
    /// The kinds of name the last correction may have taken back: every
    /// kind after a cue or a negator ("复旦的计算机，不对…"), only the kind
    /// dismissed after a dismissal ("清华自动化…现在想去同济" changes the
    /// school, not the major). None without a correction.
    pub(crate) fn taken_back(&self) -> Option<(usize, Vec<Named>)> {
        let end = self.last_end?;
        if self.said_last {
            return Some((end, vec![Named::School, Named::Major, Named::Advisor]));
        }
        let kinds = self
            .dismissals
            .iter()
            .filter(|&&(_, e, _)| e == end)
            .map(|&(_, _, k)| k)
            .collect();
        Some((end, kinds))
    }
}

/// The corrections in `text` (`neg`: the negated tokens; a negated marker
/// still ends where what was taken back may start).
pub(crate) fn read(text: &Text, lex: &Lexicons, neg: &[bool]) -> Corrections {
    let marked: Vec<usize> = (0..text.tokens.len())
        .filter(|&i| marks(text, lex, i))
        .collect();
    let dismissals = dismissals(text, lex);
    let heard = heard_markers(text, lex);
    let said_end = marked
        .iter()
        .map(|&i| text.tokens[i].end)
        .chain(heard.iter().copied())
        .max();
    let last_end = said_end.max(dismissals.iter().map(|&(_, e, _)| e).max());
    Corrections {
        explicit: marked
            .iter()
            .any(|&i| !neg.get(i).copied().unwrap_or(false))
            || !heard.is_empty()
            || !dismissals.is_empty(),
        last_end,
        said_last: last_end.is_some() && said_end == last_end,
        dismissals,
    }
}
