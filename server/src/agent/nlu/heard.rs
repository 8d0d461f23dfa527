//! Names the exact pass missed, found by sound or as typed pinyin
//! (`text::sound`), turned into tokens so every rule after the scan
//! (negation, slots, references) reads them like any other name.
//!
//! It only fills what the exact pass left empty: a school when no school
//! was read, a major when no major was, and so on (after the last
//! correction, when there is one: "复旦，不对，是同机的自动化" took 复旦
//! back); the characters of what was read stay as they are. Of the names
//! found:
//! - one clearly closest (and, for a name of three syllables or fewer,
//!   said where a name stands: next to a school or a major, before
//!   专业/系/大学, or alone in its clause, so that 心里 never becomes 心理学
//!   nor 计算时 计算机) becomes the name's token;
//! - several about as close, or one that is near but not close, become a
//!   token marked [`Tag::Heard`], which the slots read as a question to
//!   the student (`Slot::Heard`), never as a silent guess;
//! - typed pinyin naming several entries ("jiaoda") is ambiguous the way
//!   the alias 交大 is.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::text::sound::{How, Match, SoundIndex};

use super::lexicon::{Cue, Lexicons, Tag};
use super::tokens::Text;
use crate::text::utterance::{DE, SEP, SHI};

/// How much closer than the next name the best must be to be taken alone.
const MARGIN: f32 = 0.25;

/// The kinds of name this step fills, in the order their tags are read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    School,
    Major,
    Direction,
    Name,
}

fn kind(tag: &Tag) -> Option<Kind> {
    match tag {
        Tag::School(_) => Some(Kind::School),
        Tag::Major(_) => Some(Kind::Major),
        Tag::Direction(_) => Some(Kind::Direction),
        Tag::Name(_) => Some(Kind::Name),
        _ => None,
    }
}

/// The names indexes kept, by their list of names.
type Kept = HashMap<Vec<Vec<char>>, Arc<SoundIndex<Tag>>>;

/// The sound index of the caller's advisor names (those on the page and in
/// the session). Building one costs more than reading a message with it
/// (each name's syllables, spellings and initials), and the same page's
/// names come back turn after turn and student after student (a ranking's
/// first page), so the last few hundred lists are kept.
pub(crate) fn names_index(names: &[Vec<char>]) -> Arc<SoundIndex<Tag>> {
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    const KEEP: usize = 256;
    let kept = KEPT.get_or_init(Default::default);
    if let Some(ix) = kept.lock().unwrap_or_else(|e| e.into_inner()).get(names) {
        return ix.clone();
    }
    let mut ix = SoundIndex::new();
    for (i, n) in names.iter().enumerate() {
        ix.insert(&n.iter().collect::<String>(), Tag::Name(i));
    }
    let ix = Arc::new(ix);
    let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() >= KEEP {
        kept.clear();
    }
    kept.insert(names.to_vec(), ix.clone());
    ix
}

/// Whether the short name at `[start, end)` stands where a name stands:
/// next to a school or a major, before 专业/系/大学 or before the advisors
/// asked for ("…有什么导师"), or, when `alone` may do (some of its
/// characters are written as the name's), alone in its clause or right
/// after the verb of a request (学, 考, 读).
fn anchored(
    text: &Text,
    lex: &Lexicons,
    start: usize,
    end: usize,
    found: &[(usize, usize)],
    alone: bool,
) -> bool {
    let l = &lex.lists;
    let (cs, ce) = text.clause(start);
    // Alone, or alone but for the 吧 that settles on it ("软功吧") or the
    // 的 a speaker pauses after ("上彩的，呃，…").
    let settled = |e: usize| {
        e == ce
            || (e + 1 == ce && text.chars[e] == DE)
            || l.still_final.prefix_at(&text.chars, e) == Some(ce - e)
    };
    if alone && cs == start && settled(end) {
        return true;
    }
    // The replacement after a "no" ("不是金融，是金计学"): 是 opens its
    // clause, and the clause before it turned something down.
    let replaces = alone && cs > 0 && start == cs + 1 && text.chars[cs] == SHI && {
        let (ps, pe) = text.clause(cs - 1);
        text.tokens
            .iter()
            .any(|t| t.start >= ps && t.end <= pe && t.has_cue(Cue::Negator))
    };
    if replaces {
        return true;
    }
    // Past a 的 or a joining word: "西交的电气", "西安交大和电气", and the
    // 还是 of a choice ("计算机还是软功"); past the words of a speaker
    // finding the next name too ("上材就是外语").
    let mut before = start;
    if let Some(n) = l.hesitation.suffix_at(&text.chars, before, cs) {
        before -= n;
    }
    // Right after the verb of a request ("学机卸的", "考北打"), with one of
    // its characters written as the name's: where the subject is named.
    if alone
        && text
            .tokens
            .iter()
            .any(|t| t.end == before && t.has_cue(Cue::IntroMajor))
    {
        return true;
    }
    if before > 0 && text.chars[before - 1] == DE {
        before -= 1;
    } else if let Some(t) = text
        .tokens
        .iter()
        .find(|t| t.end == before && (t.has_cue(Cue::Coord) || t.has_cue(Cue::Still)))
    {
        before = t.start;
    }
    let mut after = l.hesitation.skip_run(&text.chars, end);
    if after < text.chars.len() && text.chars[after] == DE {
        after += 1;
    } else if let Some(t) = text
        .token_at(after)
        .map(|t| &text.tokens[t])
        .filter(|t| t.has_cue(Cue::Coord))
    {
        after = t.end;
    }
    let place = |pos: usize| {
        text.cover.get(pos).copied().flatten().is_some_and(|t| {
            text.tokens[t]
                .tags
                .iter()
                .any(|t| matches!(t, Tag::School(_) | Tag::Major(_)))
        }) || found.iter().any(|&(s, e)| pos >= s && pos < e)
    };
    let link = l.advisors_link.skip_run(&text.chars, end);
    (before > 0 && place(before - 1))
        || place(after)
        || [&l.school_suffix, &l.major_suffix, &l.major_suffix_weak]
            .iter()
            .any(|list| list.prefix_at(&text.chars, end).is_some())
        || (link > end && l.advisor_noun.prefix_at(&text.chars, link).is_some())
}

/// Whether a match may stand: typed and long names anywhere, a school,
/// major or direction of three syllables or fewer (an advisor's of two)
/// only where such a name stands.
fn standing(
    text: &Text,
    lex: &Lexicons,
    m: &Match<Tag>,
    k: Kind,
    spans: &[(usize, usize)],
) -> bool {
    if m.how != How::Sound {
        return true;
    }
    if k == Kind::Direction && !(m.close && m.distance < 1.0 && m.len >= 4) {
        // A research direction may be new words of the student's own
        // (生物医学成像 is not 医学影像): only one that sounds the same
        // throughout is taken.
        return false;
    }
    // Three syllables are short too: 计算时 is a word of its own, 计算鸡
    // after a school is 计算机. An advisor's name of three is not.
    // A name heard with none of its characters written (习教 for 西交)
    // stands only next to another name or its suffix: alone it is
    // likelier some other word.
    let written = m.same_chars > 0;
    let short = m.len <= 2 || (k != Kind::Name && m.len <= 3);
    if !short && written {
        return true;
    }
    // An advisor of the page heard with the same syllables and one of the
    // characters written as theirs ("韩路" for 韩璐): a name, wherever it
    // stands.
    if k == Kind::Name && written && m.same_reading() {
        return true;
    }
    anchored(text, lex, m.start, m.end, spans, written)
        || (k == Kind::Name
            && lex
                .lists
                .person_noun
                .prefix_at(&text.chars, m.end)
                .is_some())
}

/// Whether `m` ends its clause and only lead words (我, 想, 考, 看看 …) stand
/// before it there, one of them asking for something (想考, 看看; not 我在):
/// the object of the student's request.
fn ends_a_request(text: &Text, lex: &Lexicons, m: &Match<Tag>) -> bool {
    let (cs, ce) = text.clause(m.start);
    if ce != m.end || cs == m.start {
        return false;
    }
    let before = &text.chars[cs..m.start];
    let l = &lex.lists;
    if !(l.wish.occurs_in(before) || l.ask_for.occurs_in(before)) {
        return false;
    }
    l.lead.skip_run(before, 0) == before.len()
}

/// Whether `m`, a school or a major of four syllables or more heard close,
/// holds whole every token it overlaps, none of them an advisor or a
/// reference: then it is the better reading of those characters.
fn covers_what_was_read(text: &Text, m: &Match<Tag>) -> bool {
    if !(m.close && m.len >= 4 && matches!(m.value, Tag::School(_) | Tag::Major(_))) {
        return false;
    }
    text.tokens
        .iter()
        .filter(|t| t.start < m.end && m.start < t.end)
        .all(|t| {
            t.start >= m.start
                && t.end <= m.end
                && !t.has(|g| {
                    matches!(
                        g,
                        Tag::Name(_)
                            | Tag::Pronoun
                            | Tag::Ordinal(_)
                            | Tag::FromEnd(_)
                            | Tag::Middle
                    )
                })
        })
}

/// A school or a major of four syllables or more heard whole and close
/// over a shorter one of its kind the exact pass read inside it
/// ("电器工程及其自动化" holds the major 自动化): the whole name is the
/// better reading, when only one name is that close there.
fn read_whole_names(text: &mut Text, matches: &[Match<Tag>]) {
    let mut better: Vec<(usize, usize, Tag)> = Vec::new();
    for m in matches {
        let Some(k) = kind(&m.value) else { continue };
        // …and a different one: 复旦数血 is 复旦 and 数学, not 复旦大学
        // heard over 数血.
        // The name's own part beyond the one read must be heard, at least
        // half of it: 电器工程及 is 电气工程及其 with a character lost, but
        // 想考 before a 电子科技大学 read whole is no 西安.
        let holds_shorter = text.tokens.iter().any(|t| {
            t.start >= m.start
                && t.end <= m.end
                && t.end - t.start < m.end - m.start
                && t.tags.iter().any(|g| kind(g) == Some(k) && *g != m.value)
                && m.distance <= m.len.saturating_sub(t.end - t.start) as f32 / 2.0
        });
        // A rival is another name about as close over as much of the
        // text: a shorter one heard inside this one explains fewer of its
        // characters (电器工程 is near 电子工程 too, but 电器工程及自动化
        // is 电气工程及其自动化).
        let rivals = matches.iter().any(|o| {
            o.value != m.value
                && kind(&o.value) == Some(k)
                && o.start < m.end
                && m.start < o.end
                && o.end - o.start >= m.end - m.start
                && o.distance <= m.distance + MARGIN
        });
        // Or one heard whole where nothing was read, beside a name of its
        // kind read elsewhere ("同济，老师好，我想考级临大学的法学": the
        // recognizer wrote 同济 for a filler); the slots then choose
        // between them as between any two said.
        let elsewhere = m.close
            && m.len >= 4
            && text
                .tokens
                .iter()
                .any(|t| t.tags.iter().any(|g| kind(g) == Some(k)))
            && (m.start..m.end).all(|i| !text.in_strong(i))
            && !text.tokens.iter().any(|t| {
                t.start < m.end && m.start < t.end && t.tags.iter().any(|g| kind(g).is_some())
            });
        // Or the same name's short form read inside it, which the rest of
        // the stretch would otherwise take for a school of its own
        // ("似川大学": 川大 read, the whole 四川大学 heard with 四 written 似),
        // heard with no character wholly off (复旦数血 is 复旦 and 数学).
        let same_inside = m.distance < 1.0
            && text.tokens.iter().any(|t| {
                t.start >= m.start
                    && t.end <= m.end
                    && t.end - t.start < m.end - m.start
                    && t.tags.contains(&m.value)
            });
        if m.how == How::Sound
            && matches!(k, Kind::School | Kind::Major)
            && (holds_shorter || elsewhere || same_inside)
            && !rivals
            && (elsewhere || covers_what_was_read(text, m))
        {
            better.push((m.start, m.end, m.value));
        }
    }
    for (start, end, tag) in better {
        text.insert_token(start, end, vec![tag]);
    }
}

/// A short name read exactly where a longer one of its kind is heard
/// close over it and the characters beside it, which nothing explains
/// ("西岸浙大" is 浙大 written, and 西安交大 heard whole with one syllable
/// off): the two are rivals, and the student is asked between them rather
/// than given the one written. Only where the name read covers at most
/// half of the stretch: 电子科技大学 read whole beside two stray
/// characters stays what it is.
fn doubt_short_names(text: &mut Text, matches: &[Match<Tag>]) {
    let mut doubted: Vec<(usize, usize, Vec<Tag>)> = Vec::new();
    for m in matches {
        let Some(k) = kind(&m.value) else { continue };
        if !(m.how == How::Sound
            && m.close
            && m.len >= 4
            && matches!(k, Kind::School | Kind::Major))
        {
            continue;
        }
        let inside: Vec<&super::tokens::Token> = text
            .tokens
            .iter()
            .filter(|t| t.start < m.end && m.start < t.end)
            .collect();
        let [t] = inside[..] else { continue };
        let read: Vec<Tag> = t
            .tags
            .iter()
            .copied()
            .filter(|g| kind(g) == Some(k) && *g != m.value)
            .collect();
        if read.is_empty()
            || t.start < m.start
            || t.end > m.end
            || (t.end - t.start) * 2 > m.end - m.start
            || (m.start..m.end).any(|i| text.chars[i] == SEP)
        {
            continue;
        }
        let mut tags = read;
        tags.push(m.value);
        tags.push(Tag::Heard);
        doubted.push((m.start, m.end, tags));
    }
    for (start, end, tags) in doubted {
        text.insert_token(start, end, tags);
    }
}

/// A school or a major heard close, where such a name stands, in words
/// still unread, beside one of its kind read or heard already ("北历和北航
/// 都行，先看北历的控制工程": 北历 is 北理; "本来想考青华…现在想去同进"): a
/// second name said, which the slots weigh as any two (asked about, or the
/// one settled on), never hidden behind the first.
fn said_again(text: &mut Text, lex: &Lexicons, heard: &[Match<Tag>]) {
    let free = |i: usize| text.chars[i] != SEP && !text.in_strong(i) && text.token_at(i).is_none();
    let mut found: Vec<(usize, usize, Tag)> = Vec::new();
    for m in heard {
        let Some(k) = kind(&m.value) else { continue };
        if !matches!(k, Kind::School | Kind::Major)
            || m.how != How::Sound
            || !m.close
            || !(m.start..m.end).all(free)
            || !standing(text, lex, m, k, &[])
            || found.iter().any(|&(s, e, _)| m.start < e && s < m.end)
        {
            continue;
        }
        found.push((m.start, m.end, m.value));
    }
    for (start, end, tag) in found {
        text.insert_token(start, end, vec![tag]);
    }
}

/// Adds the names heard (see the module doc) to `text`.
pub(crate) fn add(text: &mut Text, lex: &Lexicons, names: &SoundIndex<Tag>) {
    // Schools and majors are looked for across what was read too: a long
    // name heard whole may hold a shorter one the exact pass took
    // (西安电子科技大雪 holds the major alias 电子). Positions are the
    // text's characters, which no token changes.
    let heard: Vec<Match<Tag>> = lex.sound.find(&text.chars, |i| text.chars[i] != SEP);
    read_whole_names(text, &heard);
    doubt_short_names(text, &heard);
    // A name read only before a correction ("复旦，不对，是同机的…") may be
    // the one taken back: its kind is still missing after the correction.
    let after = super::correction::read(text, lex, &[])
        .last_end
        .unwrap_or(0);
    let present = |k: Kind| {
        text.tokens
            .iter()
            .any(|t| t.start >= after && t.tags.iter().any(|g| kind(g) == Some(k)))
    };
    let missing: Vec<Kind> = [Kind::School, Kind::Major, Kind::Direction, Kind::Name]
        .into_iter()
        .filter(|&k| !present(k))
        .collect();
    if missing.is_empty() {
        said_again(text, lex, &heard);
        return;
    }
    let free = |i: usize| text.chars[i] != SEP && !text.in_strong(i);
    let mut matches = heard.clone();
    matches.retain(|m| (m.start..m.end).all(free) || covers_what_was_read(text, m));
    if missing.contains(&Kind::Name) && !names.is_empty() {
        // A preference of one character may be a surname heard in its
        // homophone (严晖永 for 阎晖永: 严 is "strict"): an advisor's name
        // on the page, heard whole, may take it.
        let one_char_preference = |i: usize| {
            text.token_at(i).is_some_and(|t| {
                let t = &text.tokens[t];
                t.end - t.start == 1 && t.tags.iter().any(|g| matches!(g, Tag::Pref(_)))
            })
        };
        matches.extend(names.find(&text.chars, |i| free(i) || one_char_preference(i)));
    }
    matches.retain(|m| kind(&m.value).is_some_and(|k| missing.contains(&k)));
    // A kind read before the correction is listened for only after it: the
    // name taken back is not heard again as a name like it ("华东师大的教育
    // 学，不是，是心理学" keeps 华东师大, not 华中师大 heard over it).
    let read_before = |k: Kind| {
        text.tokens
            .iter()
            .any(|t| t.end <= after && t.tags.iter().any(|g| kind(g) == Some(k)))
    };
    matches.retain(|m| m.start >= after || kind(&m.value).is_none_or(|k| !read_before(k)));
    // Close ones first, then the closest; at equal distance the longer
    // stretch, then more of the name's own characters.
    matches.sort_by(|a, b| {
        b.close
            .cmp(&a.close)
            .then(
                a.distance
                    .partial_cmp(&b.distance)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
            .then((b.end - b.start).cmp(&(a.end - a.start)))
            .then(b.same_chars.cmp(&a.same_chars))
    });
    // A name heard whole explains its characters better than a shorter
    // one heard inside it (复单大学: 复旦大学, not the alias 山大 in 单大).
    let dominated = |m: &Match<Tag>| {
        matches.iter().any(|b| {
            b.close
                && b.len > m.len
                && b.start <= m.start
                && m.end <= b.end
                && (b.end - b.start) > (m.end - m.start)
        })
    };
    let candidates: Vec<&Match<Tag>> = matches.iter().filter(|m| !dominated(m)).collect();
    // The kind with the fewest stretches chooses first: "renda tongji"
    // spells a school twice (人大, 同济) and a major once (统计), so the
    // major takes tongji and the school renda.
    let mut missing = missing;
    missing.sort_by_key(|&k| {
        let mut spans: Vec<(usize, usize)> = candidates
            .iter()
            .filter(|m| kind(&m.value) == Some(k))
            .map(|m| (m.start, m.end))
            .collect();
        spans.sort_unstable();
        spans.dedup();
        spans.len()
    });
    let mut taken: Vec<(usize, usize, Vec<Tag>)> = Vec::new();
    // Twice: a short name may stand only next to a name of another kind
    // taken after it ("习教的电器": the major anchors the school).
    let mut done: Vec<Kind> = Vec::new();
    for k in missing.iter().chain(missing.iter()).copied() {
        if done.contains(&k) {
            continue;
        }
        let spans: Vec<(usize, usize)> = taken.iter().map(|&(s, e, _)| (s, e)).collect();
        // A name of another kind heard close beside it anchors a short
        // name as one taken does: "习教的电器" is 西交 and 电气 together.
        let beside: Vec<(usize, usize)> = candidates
            .iter()
            .filter(|m| m.close && kind(&m.value).is_some_and(|o| o != k && o != Kind::Name))
            .map(|m| (m.start, m.end))
            .chain(spans.iter().copied())
            .collect();
        let of_kind: Vec<&Match<Tag>> = candidates
            .iter()
            .copied()
            .filter(|m| kind(&m.value) == Some(k))
            .filter(|m| !spans.iter().any(|&(s, e)| m.start < e && s < m.end))
            .filter(|m| standing(text, lex, m, k, &beside))
            .collect();
        let asked = of_kind.is_empty();
        let of_kind = if asked {
            // None stands as a name, but one may be what the student asked
            // for in words they did not write: the last words of a request
            // ("我想看看杀大") are asked about, never filled.
            candidates
                .iter()
                .copied()
                .filter(|m| kind(&m.value) == Some(k) && matches!(k, Kind::School | Kind::Major))
                .filter(|m| !spans.iter().any(|&(s, e)| m.start < e && s < m.end))
                .filter(|m| m.how == How::Sound && m.close && ends_a_request(text, lex, m))
                .collect()
        } else {
            of_kind
        };
        let Some(best) = of_kind.first() else {
            continue;
        };
        // Every name found over the same stretch about as close as the best.
        let mut tags: Vec<Tag> = Vec::new();
        for m in &of_kind {
            let overlaps = m.start < best.end && best.start < m.end;
            if overlaps
                && m.close == best.close
                && m.distance <= best.distance + MARGIN
                && !tags.contains(&m.value)
            {
                tags.push(m.value);
            }
        }
        if best.how == How::Initials && tags.len() > 1 {
            // Initials are read only where they name one entry.
            continue;
        }
        if best.how == How::Sound && (tags.len() > 1 || !best.close || asked) {
            // A direction or a person heard unclearly is not worth a
            // question: the words around it are read as they are.
            if matches!(k, Kind::Name | Kind::Direction) {
                continue;
            }
            tags.push(Tag::Heard);
        }
        taken.push((best.start, best.end, tags));
        done.push(k);
    }
    for (start, end, tags) in taken {
        text.insert_token(start, end, tags);
    }
    // Names of a kind read already (or just heard), heard again in what
    // is left.
    said_again(text, lex, &heard);
}
