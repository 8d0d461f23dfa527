//! Normalisation, the first step of every analysis, so that the rules see one
//! spelling: full-width ASCII becomes half-width, Latin is lower-cased,
//! punctuation becomes a clause separator (","), "、" and "/" become "和",
//! spaces go except between two Latin words, filler words go (嗯, 呃, 就是说,
//! a final 呢 …) and "第一" becomes "第1". Fillers are looked up against the
//! lexicon trie first, so a filler inside a longer known word ("哈" in
//! "哈尔滨工业大学") is never dropped.
//!
//! Before anything is folded, a run of capitals a recognizer wrote for a
//! spelled abbreviation ("BKU" for PKU, "U.S.C.B." for USTC) is written as
//! the one abbreviation it sounds like, letter by letter (`text::sound`):
//! folding loses the capitals that tell it from a word.
//!
//! The first stage, [`basic`] (width, case, punctuation, spaces), is the
//! spelling every lexicon term is stored in, so it lives below the lexicons
//! in `words`; this module adds what needs them (fillers, numerals) and so
//! sits above `lexicon`.

use super::lexicon::{Cue, Filler, Lexicons, Tag};
use crate::text::numbers::{self as numerals, ORDINAL_MARK};
use crate::text::utterance::{basic, DE, SEP};

/// Normalised text plus what normalisation noticed on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Normalized {
    pub text: String,
    /// The raw text had a question mark, or began a clause with a
    /// question's opener ("请问", fillers.txt's `ask_initial`).
    pub question_mark: bool,
    /// A clause-final 呢 was dropped ("第二个呢").
    pub follow_up: bool,
}

/// How much nearer than any other abbreviation the one a run of capitals
/// is written as must sound.
const LETTERS_MARGIN: f32 = 0.25;

/// `text` with each run of capitals that sounds like one abbreviation of
/// the lexicons, and no other about as near, written as that abbreviation.
fn abbreviations_spelled<'a>(text: &'a str, lex: &Lexicons) -> std::borrow::Cow<'a, str> {
    if !text.chars().any(|c| c.is_ascii_uppercase()) {
        return text.into();
    }
    let chars: Vec<char> = text.chars().collect();
    let heard = lex.sound.abbreviations_heard(&chars);
    let mut runs: Vec<(usize, usize, &[u8])> = Vec::new();
    for h in &heard {
        let rivals = heard.iter().any(|o| {
            o.start == h.start && o.value != h.value && o.distance <= h.distance + LETTERS_MARGIN
        });
        let nearest = heard
            .iter()
            .filter(|o| o.start == h.start)
            .all(|o| o.distance >= h.distance);
        if h.distance > 0.0 && nearest && !rivals && !runs.iter().any(|r| r.0 == h.start) {
            runs.push((h.start, h.end, h.letters));
        }
    }
    if runs.is_empty() {
        return text.into();
    }
    runs.sort_unstable_by_key(|r| r.0);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end, letters) in runs {
        out.extend(&chars[at..start]);
        out.extend(letters.iter().map(|&b| b as char));
        at = end;
    }
    out.extend(&chars[at..]);
    out.into()
}

/// Whether the soft filler ("那个"/"这个") that ends before `after` should be
/// dropped: it stays when a noun of references.txt or an ask/open cue follows.
fn soft_filler_drops(chars: &[char], after: usize, lex: &Lexicons) -> bool {
    if after >= chars.len() || chars[after] == SEP {
        return true;
    }
    let l = &lex.lists;
    if chars[after] == DE
        || l.person_noun.prefix_at(chars, after).is_some()
        || l.non_person_noun.prefix_at(chars, after).is_some()
        || l.classifier.prefix_at(chars, after).is_some()
    {
        return false;
    }
    let asks = lex.trie.longest(chars, after).is_some_and(|(_, tags)| {
        tags.iter().any(|t| {
            matches!(
                t,
                Tag::Cue(Cue::AskAbout | Cue::AskReviews | Cue::OpenDetail | Cue::OpenDetailRef)
            )
        })
    });
    !asks
}

/// Whether only fillers stand between `from` and the end of its clause.
fn only_fillers_to_clause_end(chars: &[char], mut from: usize, lex: &Lexicons) -> bool {
    while from < chars.len() && chars[from] != SEP {
        match lex.fillers.longest(chars, from) {
            Some((len, kinds))
                if kinds
                    .iter()
                    .any(|k| matches!(k, Filler::Always | Filler::ClauseFinal)) =>
            {
                from += len
            }
            _ => return false,
        }
    }
    true
}

/// Full normalisation of one utterance (see the module doc).
pub(crate) fn normalize(text: &str, lex: &Lexicons) -> Normalized {
    let mut question_mark = text.contains('?') || text.contains('？');
    let text = abbreviations_spelled(text, lex);
    let chars: Vec<char> = basic(&text).chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let mut follow_up = false;
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == SEP {
            if !out.is_empty() && out.last() != Some(&SEP) {
                out.push(SEP);
            }
            i += 1;
            continue;
        }
        let main = lex.trie.longest(&chars, i).map_or(0, |(len, _)| len);
        if let Some((len, kinds)) = lex.fillers.longest(&chars, i) {
            let after = i + len;
            let at_start = out.is_empty() || out.last() == Some(&SEP);
            let drop = len > main
                && kinds.iter().any(|k| match k {
                    Filler::Always => true,
                    Filler::ClauseInitial | Filler::AskInitial => at_start,
                    Filler::ClauseFinal => only_fillers_to_clause_end(&chars, after, lex),
                    Filler::Soft => soft_filler_drops(&chars, after, lex),
                });
            if drop {
                if chars[i] == '呢' && kinds.contains(&Filler::ClauseFinal) {
                    follow_up = true;
                }
                question_mark |= kinds.contains(&Filler::AskInitial);
                i = after;
                continue;
            }
        }
        if out.last() == Some(&ORDINAL_MARK) && numerals::is_cn_numeral(chars[i]) {
            if let Some((value, len)) = numerals::parse_cn(&chars, i) {
                // A numeral cut short by another digit ("第二一科": 第二医科
                // as a recognizer wrote it) is no number said: the
                // characters are some name's, and stay as heard.
                let cut = chars
                    .get(i + len)
                    .is_some_and(|&c| numerals::cn_digit(c).is_some());
                if len >= main && !cut {
                    out.extend(value.to_string().chars());
                    i += len;
                    continue;
                }
            }
        }
        let take = main.max(1);
        out.extend_from_slice(&chars[i..i + take]);
        i += take;
    }
    while out.last() == Some(&SEP) {
        out.pop();
    }
    Normalized {
        text: out.into_iter().collect(),
        question_mark,
        follow_up,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture::lexicons;
    use super::*;

    #[test]
    fn fillers_numerals_and_protected_words() {
        let lex = lexicons();
        let n = |s: &str| normalize(s, lex).text;
        assert_eq!(n("嗯，那个，我想考北大啊"), "我想考北大");
        assert_eq!(n("呃 就是说 然后 想做CV"), "想做cv");
        assert_eq!(n("第一个导师怎么样"), "第1个导师怎么样");
        assert_eq!(n("第十一位"), "第11位");
        assert_eq!(n("倒数第二个"), "倒数第2个");
        assert_eq!(n("那个导师怎么样"), "那个导师怎么样");
        assert_eq!(n("这个怎么样"), "这个怎么样");
        assert_eq!(n("哈尔滨工业大学"), "哈尔滨工业大学");
        assert_eq!(n("他的学生评价呢？"), "他的学生评价");
        assert_eq!(n("你能干嘛"), "你能干嘛");
        assert_eq!(n("第一性原理"), "第一性原理");
        assert_eq!(n("上海第二一科大学"), "上海第二一科大学");
        assert!(normalize("第二个呢", lex).follow_up);
        assert!(normalize("985是什么？", lex).question_mark);
    }
}
