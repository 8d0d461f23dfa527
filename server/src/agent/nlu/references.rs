//! Advisors the student points at, in order of mention:
//! - words of references.txt found by the trie: pronouns (他, 这位老师,
//!   刚才那个…), ordinals without 第 (榜首, 老二) and from-the-end words
//!   (最后一个);
//! - structures read here: 第N[个|位|名] (Arabic or Chinese N), 倒数第N,
//!   前N个 (→ the first N), N号, bare 这个/那个 right before an ask cue
//!   ("这个怎么样"), and a surname + title ("张老师") or 姓 + surname
//!   ("姓钱的那个老师"): the one known name with that surname, or the
//!   surname alone when several have it;
//! - names from `known_names`, matched in the token pass.
//!
//! 第N is an advisor only when what follows allows it: a person noun
//! (导师, 老师…) always; a non-person noun (志愿, 学历, 年, 次, 学校…, also
//! after 的: "第一名的学校") never; otherwise with a classifier (第一个) yes,
//! and without one only before 的/和/呢/an ask cue/the clause end
//! ("排第一的", "第一和第三"); a bare 第N that is a whole clause before
//! another, with the next or the one before said ("第一，我想考北大；第二，
//! …"), numbers the student's points.
//! A pronoun after another reference in the same sentence points back at it
//! and is not repeated; one before a wish ("他想报山大", said by a parent)
//! is the applicant, no advisor, and so is one the speaker does something
//! for after naming the one they ask for ("我女儿…我帮她了解一下").

use super::lexicon::{Cue, Lexicons, Tag};
use super::tokens::Text;
use super::types::Reference;
use crate::text::numbers::{self as numerals, ORDINAL_MARK};
use crate::text::utterance::DE;

/// The largest N read in 前N个.
const RANGE_MAX: u32 = 10;
/// The largest N read in N号.
const NUMBER_MAX: u32 = 30;

fn starts_ask_cue(text: &Text, pos: usize) -> bool {
    text.token_at(pos).is_some_and(|t| {
        text.tokens[t].cues().any(|c| {
            matches!(
                c,
                Cue::AskAbout
                    | Cue::AskReviews
                    | Cue::OpenDetail
                    | Cue::OpenDetailRef
                    | Cue::Choose
                    | Cue::Compare
                    | Cue::CompareWeak
                    | Cue::Difference
                    | Cue::Recommend
            )
        })
    })
}

/// Whether what follows an ordinal/number at `q` lets it name an advisor.
/// `classified` says whether a classifier was already read.
fn follow_ok(text: &Text, lex: &Lexicons, q: usize, classified: bool) -> bool {
    let l = &lex.lists;
    let c = &text.chars;
    let mut r = q;
    if c.get(r) == Some(&DE) {
        r += 1;
    }
    if l.person_noun.prefix_at(c, r).is_some() {
        return true;
    }
    // "第三个点开": 点 starts the cue 点开, not the noun 点 ("第三点").
    if l.non_person_noun.prefix_at(c, r).is_some() && !starts_ask_cue(text, r) {
        return false;
    }
    classified
        || text.at_clause_end(q)
        || l.ordinal_follow.prefix_at(c, q).is_some()
        || starts_ask_cue(text, q)
}

/// Reads an optional classifier at `q`: the position after it and whether one was there.
/// After 第N a syllable near one in sound is the classifier a recognizer
/// misheard (第一根 for 第一个: the unstressed measure word loses or gains
/// its nasal), unless it is a noun that makes 第N no advisor.
fn classifier(text: &Text, lex: &Lexicons, q: usize) -> (usize, bool) {
    let c = &text.chars;
    match lex.lists.classifier.prefix_at(c, q) {
        Some(len) => (q + len, true),
        None if c.get(q).is_some_and(|&h| heard_classifier(lex, h))
            && lex.lists.non_person_noun.prefix_at(c, q).is_none() =>
        {
            (q + 1, true)
        }
        None => (q, false),
    }
}

/// Whether `heard` sounds near a one-character classifier (根 for 个).
fn heard_classifier(lex: &Lexicons, heard: char) -> bool {
    crate::text::names::is_han(heard)
        && lex
            .lists
            .classifier
            .words()
            .any(|w| w.len() == 1 && crate::text::sound::sounds_as(&[heard], w).is_some())
}

/// 第N[个|位|名] (or 倒数第N) said at `p`, its 第 at `mark`: the reference and
/// the characters it took from `p`.
fn ordinal_at(
    text: &Text,
    lex: &Lexicons,
    p: usize,
    mark: usize,
) -> Option<(Vec<Reference>, usize)> {
    let c = &text.chars;
    let (n, len) = numerals::parse_number(c, mark + 1)?;
    let (q, classified) = classifier(text, lex, mark + 1 + len);
    if n == 0 || !follow_ok(text, lex, q, classified) {
        return None;
    }
    // "第一，…；第二，…" numbers the student's points, not advisors (倒数
    // numbers none: "倒数第一那个，点开看看"); with neither the next point
    // nor the one before said ("第一，点进去看看") it is the advisor.
    let (cs, ce) = text.clause(p);
    let point = |range: std::ops::Range<usize>, m: u32| {
        range.into_iter().any(|i| {
            c[i] == ORDINAL_MARK && numerals::parse_number(c, i + 1).is_some_and(|(k, _)| k == m)
        })
    };
    let numbered = point(q..c.len(), n + 1) || (n > 1 && point(0..p, n - 1));
    if !classified && mark == p && cs == p && ce == q && ce < text.chars.len() && numbered {
        return None;
    }
    let idx = (n - 1) as usize;
    let r = if mark > p {
        Reference::FromEnd(idx)
    } else {
        Reference::Ordinal(idx)
    };
    Some((vec![r], q - p))
}

/// Whether position `p` may start a structural reference (not inside a value).
fn free(text: &Text, p: usize) -> bool {
    !text.in_strong(p)
}

/// Structural references found at `p`: (references, characters consumed).
fn structural_at(
    text: &Text,
    lex: &Lexicons,
    p: usize,
    names: &[Vec<char>],
    known: &[String],
) -> Option<(Vec<Reference>, usize)> {
    let c = &text.chars;
    if !free(text, p) {
        return None;
    }
    // "到属第二个", "到处第二个": 倒数 as a recognizer may write it, by its
    // sound. The 第 after it places the word, so a near sound will do
    // (处 for 数), as for the 姓 of a surname.
    let from_end = lex.lists.from_end_prefix.prefix_at(c, p).or_else(|| {
        lex.lists.from_end_prefix.words().find_map(|w| {
            let end = p + w.len();
            (c.get(end) == Some(&ORDINAL_MARK)
                && crate::text::sound::sounds_as(&c[p..end], w).is_some())
            .then_some(w.len())
        })
    });
    let mark = p + from_end.unwrap_or(0);
    if c.get(mark) == Some(&ORDINAL_MARK) {
        return ordinal_at(text, lex, p, mark);
    }
    if let Some(len) = lex.lists.range_prefix.prefix_at(c, p) {
        if let Some((n, nlen)) = numerals::parse_number(c, p + len) {
            let (q, classified) = classifier(text, lex, p + len + nlen);
            if classified && (2..=RANGE_MAX).contains(&n) && follow_ok(text, lex, q, true) {
                let refs = (0..n as usize).map(Reference::Ordinal).collect();
                return Some((refs, q - p));
            }
        }
    }
    if let Some((n, len)) = numerals::parse_number(c, p) {
        let after_digit = p > 0 && (c[p - 1].is_ascii_digit() || numerals::is_cn_numeral(c[p - 1]));
        let date = p > 0 && lex.lists.date_word.suffix_at(c, p, 0).is_some();
        if let Some(slen) = lex.lists.number_suffix.prefix_at(c, p + len) {
            let q = p + len + slen;
            if !after_digit
                && !date
                && c.get(p.wrapping_sub(1)) != Some(&ORDINAL_MARK)
                && (1..=NUMBER_MAX).contains(&n)
                && follow_ok(text, lex, q, false)
            {
                return Some((vec![Reference::Ordinal((n - 1) as usize)], q - p));
            }
        }
    }
    if let Some(len) = lex
        .lists
        .pronoun_bare
        .prefix_at(c, p)
        .filter(|_| text.is_raw(p))
    {
        let mut q = p + len;
        if c.get(q) == Some(&DE) {
            q += 1;
        }
        if starts_ask_cue(text, q) {
            return Some((vec![Reference::Pronoun], len));
        }
    }
    if let Some((name, len)) = by_surname(text, lex, p, names, known) {
        return Some((vec![Reference::Name(name)], len));
    }
    if let Some(len) = lex.lists.person_noun.prefix_at(c, p) {
        // A title only: "张人" is no way to name 张三.
        if len > 1 {
            if let Some(name) = surname_match(text, p, names, known) {
                return Some((vec![Reference::Name(name)], len));
            }
        }
    }
    None
}

/// Whether a person is named at `q`, right after a surname: 的, a
/// determiner ("…的那个"), then a person noun ("姓钱的那个老师"); when
/// `loose`, also 的 or a title alone, an ask cue or the clause's end
/// ("姓王的怎么样", "打开姓王的").
fn person_follows(text: &Text, lex: &Lexicons, q: usize, loose: bool) -> bool {
    let l = &lex.lists;
    let c = &text.chars;
    let de = c.get(q) == Some(&DE);
    let mut r = q + usize::from(de);
    if let Some(len) = l.determiner.prefix_at(c, r) {
        r += len;
    }
    if l.person_noun.prefix_at(c, r).is_some() {
        return de || loose;
    }
    loose && (de || starts_ask_cue(text, q) || text.at_clause_end(q))
}

/// "姓钱的那个老师", "那个姓叶的": the one known name whose surname is
/// said after 姓 (or the surname, when several have it), with the
/// characters it took. A recognizer writes 姓 and the surname in other
/// characters (信业 for 姓叶, 清潜 for 姓钱), since 姓 is a syllable heard as
/// many; then only in the full frame (…的[那个]老师) and with the surname a
/// homophone of the name's.
fn by_surname(
    text: &Text,
    lex: &Lexicons,
    p: usize,
    names: &[Vec<char>],
    known: &[String],
) -> Option<(String, usize)> {
    use crate::text::sound::sounds_as;
    let c = &text.chars;
    let marks = &lex.lists.surname_mark;
    let heard_mark = || {
        marks
            .words()
            .find(|w| {
                c.get(p..p + w.len())
                    .is_some_and(|h| sounds_as(h, w).is_some())
            })
            .map(<[char]>::len)
    };
    let (mark, said) = match marks.prefix_at(c, p) {
        Some(len) => (len, true),
        None => (heard_mark()?, false),
    };
    let start = p + mark;
    for len in [2usize, 1] {
        let end = start + len;
        // After 姓 itself a surname that is also a word of one character
        // (钱, "money"; 严, "strict") is the surname.
        let one_char_word = |q: usize| {
            text.token_at(q)
                .is_some_and(|t| text.tokens[t].end - text.tokens[t].start == 1)
        };
        let free = |q: usize| text.is_raw(q) || (said && q >= start && one_char_word(q));
        if end > c.len() || !(p..end).all(free) || !person_follows(text, lex, end, said) {
            continue;
        }
        let heard = &c[start..end];
        let with = |same: &dyn Fn(&[char]) -> bool| -> Vec<usize> {
            (0..names.len())
                .filter(|&i| names[i].len() > len && same(&names[i][..len]))
                .collect()
        };
        let mut hits = with(&|s| s == heard);
        if hits.is_empty() {
            hits = with(&|s| sounds_as(heard, s) == Some(true));
        }
        if let Some(named) = named_by_surname(&hits, len, names, known) {
            return Some((named, end - p));
        }
    }
    None
}

/// "张老师": the one known name whose surname stands right before `p`, or
/// the surname itself when several known names have it (the resolve step
/// asks which of them: `agent::targets`).
fn surname_match(text: &Text, p: usize, names: &[Vec<char>], known: &[String]) -> Option<String> {
    for sl in [2usize, 1] {
        if p < sl || !(p - sl..p).all(|q| text.is_raw(q)) {
            continue;
        }
        let surname = &text.chars[p - sl..p];
        let hits: Vec<usize> = (0..names.len())
            .filter(|&i| names[i].len() > sl && names[i].starts_with(surname))
            .collect();
        if let Some(named) = named_by_surname(&hits, sl, names, known) {
            return Some(named);
        }
    }
    None
}

/// Of the known names `hits` sharing a surname of `len` characters, the
/// one it names, or the surname when it names several.
fn named_by_surname(
    hits: &[usize],
    len: usize,
    names: &[Vec<char>],
    known: &[String],
) -> Option<String> {
    match hits {
        [] => None,
        [one] => Some(known[*one].clone()),
        [first, rest @ ..] => {
            let surname = &names[*first][..len];
            rest.iter()
                .all(|&i| &names[i][..len] == surname)
                .then(|| surname.iter().collect())
        }
    }
}

/// A reference word of three characters or more written in homophones at
/// `p`, as a recognizer writes 最后那位 when it hears a question in it
/// (最后哪位): one character replaced by a homophone, over no strong
/// token. One only: the readings of every character of a longer stretch
/// meet those of some word by chance (之间能合 for 之前那个).
fn heard_at(text: &Text, lex: &Lexicons, p: usize) -> Option<(Reference, usize)> {
    let c = &text.chars;
    let words = lex.reference_words.get(c.get(p)?)?;
    words.iter().find_map(|(word, tag)| {
        let end = p + word.len();
        let heard = c.get(p..end)?;
        // The classifier it ends on may be only near in sound (最后纳根 for
        // 最后那个), beside the one homophone.
        let last = word.len() - 1;
        let near_classifier = heard[last] != word[last]
            && lex.lists.classifier.prefix_at(word, last).is_some()
            && heard_classifier(lex, heard[last]);
        let (heard, word) = if near_classifier {
            (&heard[..last], &word[..last])
        } else {
            (heard, &word[..])
        };
        let replaced = heard.iter().zip(word).filter(|(h, w)| h != w).count();
        if replaced > 1
            || (replaced == 0 && !near_classifier)
            || (p..end).any(|q| text.in_strong(q))
            || !crate::text::sound::reads_as(heard, word)
        {
            return None;
        }
        let r = match *tag {
            Tag::Pronoun => Reference::Pronoun,
            Tag::FromEnd(n) => Reference::FromEnd(n),
            Tag::Ordinal(n) => Reference::Ordinal(n),
            Tag::Middle => Reference::Middle,
            _ => return None,
        };
        Some((r, word.len()))
    })
}

/// What `find` read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Found {
    /// References in order of mention, repeats and anaphoric pronouns removed.
    pub refs: Vec<Reference>,
    /// Where every reference was said, repeats included.
    pub positions: Vec<usize>,
    /// Several advisors were named and the student settled on one (see
    /// [`settle`]): the others are no longer meant, so the sentence names
    /// no pair.
    pub settled: bool,
    /// Where the references meant begin, after a correction (0: all).
    pub from: usize,
}

/// Of several advisors named, the one the student settles on, as the
/// student weighs them aloud: those named after the last correction
/// (`after`: "唐婧怡老师算了，打开第五位", "第一个看着不错还是看第四个吧"),
/// else the one named again where another was named too ("刘涛岩和高晨军，
/// 高晨军老师经费怎么样"). Returns `None` when it kept them all, else
/// where those it kept begin when a correction placed them (0 when the one
/// named again was kept).
fn settle(found: &mut Vec<(usize, usize, Reference)>, after: Option<usize>) -> Option<usize> {
    let meant = |r: &Reference| *r != Reference::Pronoun;
    if let Some(after) = after {
        let later = found.iter().any(|(p, _, r)| *p >= after && meant(r));
        let earlier = found.iter().any(|(p, _, r)| *p < after && meant(r));
        if later && earlier {
            found.retain(|(p, _, _)| *p >= after);
            return Some(after);
        }
    }
    let last = found
        .iter()
        .rev()
        .find(|(_, _, r)| meant(r))
        .map(|f| f.2.clone())?;
    let again = found.iter().filter(|(_, _, r)| *r == last).count() >= 2
        && found.iter().any(|(_, _, r)| meant(r) && *r != last);
    if !again {
        return None;
    }
    found.retain(|(_, _, r)| *r == last);
    Some(0)
}

/// Where the clause ends of an advisor the student says is not meant
/// ("不是秦老师"), when another is named in a clause after it.
fn replaced_at(text: &Text, lex: &Lexicons, found: &[(usize, usize, Reference)]) -> Option<usize> {
    let meant = |r: &Reference| *r != Reference::Pronoun;
    found.iter().find_map(|(p, _, r)| {
        let (cs, ce) = text.clause(*p);
        // The negator before the name, or opening its clause ("不是秦老师":
        // a surname and a title are read as no token).
        let opens = text.token_at(cs).is_some_and(|t| {
            text.tokens[t].has_cue(super::lexicon::Cue::Negator) && text.tokens[t].end <= *p
        });
        let negated =
            meant(r) && (opens || super::negation::negator_before(text, lex, *p).is_some());
        let another = found.iter().any(|(q, _, s)| *q > ce && meant(s) && s != r);
        (negated && another).then_some(ce)
    })
}

/// Every reference, in order of mention (see the module doc).
pub(crate) fn find(
    text: &Text,
    lex: &Lexicons,
    known: &[String],
    names: &[Vec<char>],
    corrected_at: Option<usize>,
) -> Found {
    // (start, end, reference)
    let mut found: Vec<(usize, usize, Reference)> = Vec::new();
    let mut p = 0;
    while p < text.chars.len() {
        if let Some(t) = text.token_at(p) {
            let tok = &text.tokens[t];
            // "最后一个点进去": 点 starts the cue 点进去, not the noun 点.
            let next_is_thing = lex
                .lists
                .non_person_noun
                .prefix_at(&text.chars, tok.end)
                .is_some()
                && !starts_ask_cue(text, tok.end);
            let ends_in_classifier = lex
                .lists
                .classifier
                .suffix_at(&text.chars, tok.end, tok.start)
                .is_some();
            // "我儿子…他想报山大", "我女儿…我帮她先了解一下": the one the
            // speaker asks for, not an advisor.
            let applicant = || {
                lex.lists.wish.prefix_at(&text.chars, tok.end).is_some()
                    || lex
                        .lists
                        .benefactive
                        .suffix_at(&text.chars, p, 0)
                        .is_some_and(|b| lex.lists.asked_for.occurs_in(&text.chars[..p - b]))
            };
            for tag in &tok.tags {
                let r = match *tag {
                    Tag::Pronoun if !(ends_in_classifier && next_is_thing || applicant()) => {
                        Some(Reference::Pronoun)
                    }
                    Tag::Ordinal(n) if !next_is_thing => Some(Reference::Ordinal(n)),
                    Tag::FromEnd(n) if !next_is_thing => Some(Reference::FromEnd(n)),
                    Tag::Middle if !next_is_thing => Some(Reference::Middle),
                    Tag::Name(i) => Some(Reference::Name(known[i].clone())),
                    _ => None,
                };
                if let Some(r) = r {
                    found.push((p, tok.end, r));
                }
            }
            if tok.is_strong() {
                // "排第一的", "排名第二的": the block word ends in 第, whose
                // number is still a position in the list.
                let last = tok.end - 1;
                if tok.end > tok.start + 1 && text.chars[last] == ORDINAL_MARK {
                    if let Some((refs, len)) = ordinal_at(text, lex, last, last) {
                        found.extend(refs.into_iter().map(|r| (p, last + len, r)));
                        p = last + len.max(1);
                        continue;
                    }
                }
                p = tok.end;
                continue;
            }
        }
        if let Some((r, len)) = heard_at(text, lex, p) {
            found.push((p, p + len, r));
            p += len;
            continue;
        }
        if let Some((refs, len)) = structural_at(text, lex, p, names, known) {
            found.extend(refs.into_iter().map(|r| (p, p + len, r)));
            p += len.max(1);
            continue;
        }
        p += 1;
    }
    // "不是秦老师，是李晨帆老师": an advisor said after a negator, another
    // named in a later clause — the later one is meant, as after 不对.
    let corrected_at = corrected_at.or_else(|| replaced_at(text, lex, &found));
    let settled = settle(&mut found, corrected_at);
    let mut out = Found {
        settled: settled.is_some(),
        from: settled.unwrap_or(0),
        ..Found::default()
    };
    for (i, &(pos, end, ref r)) in found.iter().enumerate() {
        out.positions.push(pos);
        let repeat = out.refs.contains(r);
        let anaphora = *r == Reference::Pronoun && !out.refs.is_empty();
        // A demonstrative said right before the advisor it points at is
        // that advisor's determiner, not someone else: "那位第四个老师",
        // "这位张三老师".
        let determiner = *r == Reference::Pronoun
            && found
                .get(i + 1)
                .is_some_and(|(next, _, n)| *next == end && *n != Reference::Pronoun);
        if !repeat && !anaphora && !determiner {
            out.refs.push(r.clone());
        }
    }
    out
}
