//! Schools, majors and research directions named in the sentence, plus what
//! the student rejected.
//!
//! - Each school/major token gives a `Slot`: one canonical name, or
//!   `Ambiguous` when the alias names several ("交大"). An ambiguous alias
//!   right after words that start exactly one candidate's name is resolved
//!   ("北京交大" → 北京交通大学).
//! - A negated value goes to `rejected`; a kept value fills the slot. With
//!   several kept values the first wins, or the last when the sentence is a
//!   correction ("我想考北大，算了还是清华吧").
//! - The direction is the lexicon direction, else the student's own words
//!   (patterns.rs).
//! - Two or more values offered as alternatives ("北大或者清华都行", "清华考
//!   不上就考北航") make `Slot::Either`: the student is asked which first.
//! - A value named again after another ("同济土木和东南土木，东南的导师怎么
//!   样", "天大和华工，选华工吧") is the one the student settled on; an
//!   ambiguous alias said beside one of its entries named alone ("西南交大，
//!   交大的土木") is that entry, said twice.
//! - `replaced` says a value was rejected and another of the same kind named,
//!   or rejected through 不是 — both make the sentence a correction.

use super::lexicon::{Cue, Lexicons, Tag};
use super::negation;
use super::patterns;
use super::tokens::{Kind, Text};
use super::types::Slot;
use crate::text::sound::SAME_READING;
use crate::text::utterance::DE;

/// How many characters before an ambiguous alias may disambiguate it.
const QUALIFIER_MAX: usize = 4;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Slots {
    pub school: Option<Slot>,
    pub major: Option<Slot>,
    pub direction: Option<String>,
    /// (position, canonical value)
    pub rejected: Vec<(usize, String)>,
    pub replaced: bool,
}

fn slot_for(text: &Text, start: usize, end: usize, cands: &[usize], names: &[String]) -> Slot {
    if text
        .tokens
        .iter()
        .any(|t| t.start == start && t.tags.contains(&Tag::Heard))
    {
        return Slot::Heard {
            said: text.string(start, end),
            candidates: cands.iter().map(|&c| names[c].clone()).collect(),
        };
    }
    if cands.len() == 1 {
        return Slot::One(names[cands[0]].clone());
    }
    // "北京交大", "上海的交大": the words just before may name the city.
    let before = if start > 0 && text.chars[start - 1] == DE && text.is_raw(start - 1) {
        start - 1
    } else {
        start
    };
    for k in (2..=QUALIFIER_MAX).rev() {
        if before < k || !(before - k..before).all(|p| text.is_raw(p)) {
            continue;
        }
        let qualifier: String = text.chars[before - k..before].iter().collect();
        let hits: Vec<usize> = cands
            .iter()
            .copied()
            .filter(|&c| names[c].starts_with(&qualifier))
            .collect();
        if hits.len() == 1 {
            return Slot::One(names[hits[0]].clone());
        }
    }
    Slot::Ambiguous {
        said: text.string(start, end),
        candidates: cands.iter().map(|&c| names[c].clone()).collect(),
    }
}

/// Two or more distinct entries kept in a sentence that offers them as
/// alternatives ("或者", "都行", "考不上就"): [`Slot::Either`].
fn either(kept: &[Slot], alternatives: bool) -> Option<Slot> {
    if !alternatives || kept.len() < 2 {
        return None;
    }
    let names: Vec<String> = kept
        .iter()
        .filter_map(|s| match s {
            Slot::One(name) => Some(name.clone()),
            _ => None,
        })
        .collect();
    (names.len() == kept.len()).then_some(Slot::Either(names))
}

/// The value named last when it was named before and another was named
/// too ("A和B，B", "B、A，B"): the student came back to it, so it is the
/// one meant.
fn named_again(said: &[Slot]) -> Option<Slot> {
    let (last, earlier) = said.split_last()?;
    (earlier.contains(last) && earlier.iter().any(|s| s != last)).then(|| last.clone())
}

/// An alias naming several entries, or a name heard near several, said
/// beside one of them named alone ("西南交大，嗯，交大的土木", "交大，西南交大",
/// "合肥那个科大，中科大"): the student said the same entry twice, once in
/// short or misheard, so the alias is that entry. `kept` and
/// `spans` go together, one span for each value kept.
fn same_one_said_short(said: &mut [Slot], kept: &mut Vec<Slot>, spans: &mut Vec<(usize, usize)>) {
    let ones: Vec<String> = said
        .iter()
        .filter_map(|s| match s {
            Slot::One(name) => Some(name.clone()),
            _ => None,
        })
        .collect();
    let named = |slot: &Slot| match slot {
        Slot::Ambiguous { candidates, .. } | Slot::Heard { candidates, .. } => {
            let hits: Vec<&String> = candidates.iter().filter(|c| ones.contains(c)).collect();
            match hits.as_slice() {
                [one] => Some(Slot::One((*one).clone())),
                _ => None,
            }
        }
        _ => None,
    };
    for slot in said.iter_mut() {
        if let Some(one) = named(slot) {
            *slot = one;
        }
    }
    let mut i = 0;
    while i < kept.len() {
        if named(&kept[i]).is_some() {
            kept.remove(i);
            spans.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Of two or more values of one kind, the last one that opens a clause
/// after a restatement ("中大那个土木，就是重庆大学"): the student said it
/// again, in full, after a short name or one misheard.
fn restated(text: &Text, lex: &Lexicons, kept: &[Slot], spans: &[(usize, usize)]) -> Option<Slot> {
    if kept.len() < 2 || kept.len() != spans.len() {
        return None;
    }
    kept.iter()
        .zip(spans)
        .rev()
        .find(|(slot, &(start, _))| {
            let (cs, _) = text.clause(start);
            cs < start
                && matches!(slot, Slot::One(_))
                && lex.lists.restatement.has(&text.chars[cs..start])
        })
        .map(|(slot, _)| slot.clone())
}

/// Whether `end` (where one name stops) meets `start` (where another
/// begins), directly or across 的 ("北大的计算机", "南京大学软件工程").
fn meets(text: &Text, end: usize, start: usize) -> bool {
    end == start || (end + 1 == start && text.chars[end] == DE)
}

/// Of several names of one kind, the only one that meets a name of the
/// other kind, `at` giving where each stands as the meeting sees it: the
/// major said right after the school ("想跨考北大的计算机"; 本科学数学的 is
/// background), the school said right before the major ("同济不错，但我想考
/// 吉大的法学"). None when fewer than two were named, or not exactly one
/// stands there.
fn the_one_that_meets(
    named: &[Slot],
    at: &[usize],
    stands: impl Fn(usize) -> bool,
) -> Option<Slot> {
    if named.len() < 2 || named.len() != at.len() {
        return None;
    }
    let hits: Vec<&Slot> = named
        .iter()
        .zip(at)
        .filter(|(_, &p)| stands(p))
        .map(|(n, _)| n)
        .collect();
    match hits.as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
}

/// A major read where its last characters begin another major's name
/// ("救生物理，量子物理": 生物 read, 物理 overlapping it) when that other
/// major is named elsewhere in the message: the characters were the other
/// one's, a recognizer's 救 for 就是 having made the first. Dropped from
/// `kept`, with its span.
fn overlapped(text: &Text, lex: &Lexicons, kept: &mut Vec<Slot>, spans: &mut Vec<(usize, usize)>) {
    let over = |&(start, end): &(usize, usize)| -> Vec<Slot> {
        (start + 1..end)
            .filter_map(|k| {
                lex.trie
                    .longest(&text.chars, k)
                    .filter(|(len, _)| k + len > end)
            })
            .flat_map(|(_, tags)| tags.iter())
            .filter_map(|t| match t {
                Tag::Major(m) => Some(Slot::One(lex.majors[*m].clone())),
                _ => None,
            })
            .collect()
    };
    let mut i = 0;
    while i < kept.len() {
        let other = over(&spans[i]);
        if other.iter().any(|o| *o != kept[i] && kept.contains(o)) {
            kept.remove(i);
            spans.remove(i);
        } else {
            i += 1;
        }
    }
}

/// "统计的管科": a major standing where a school stands (before 的 and
/// another major, or before 的 and words that come near a major by sound,
/// "统计的馆科") that sounds just like a school (同济) is a recognizer's
/// spelling of the school. Before a major read, the frame decides: no one
/// studies 管科 *of* 统计, so one school that sounds the same throughout is
/// the school said. Otherwise (the major after it only near by sound, or
/// several schools, or one only near) it is as likely the major: the
/// school is asked about ([`Slot::Heard`]), never silently chosen.
fn school_heard_as_a_major(
    text: &Text,
    lex: &Lexicons,
    majors: &[Slot],
    spans: &[(usize, usize)],
) -> Option<(Slot, Option<Slot>)> {
    let sounds_like_a_school = |(start, end): (usize, usize), owns_a_major: bool| -> Option<Slot> {
        let heard: Vec<(String, bool)> = lex
            .sound
            .find(&text.chars, |i| (start..end).contains(&i))
            .into_iter()
            .filter(|h| h.close && h.start == start && h.end == end)
            .filter_map(|h| match h.value {
                Tag::School(i) => Some((
                    lex.schools[i].clone(),
                    h.distance <= SAME_READING * h.len as f32 + f32::EPSILON,
                )),
                _ => None,
            })
            .collect();
        match &heard[..] {
            [(school, true)] if owns_a_major => Some(Slot::One(school.clone())),
            [] => None,
            _ => Some(Slot::Heard {
                said: text.string(start, end),
                candidates: heard.into_iter().map(|(s, _)| s).collect(),
            }),
        }
    };
    // Named as a school ("学校是统计，专业是土木"): the frame decides as
    // the major after 的 does; the other major said, if any, is the major.
    let framed = spans
        .iter()
        .enumerate()
        .rev()
        .find_map(|(k, &(start, end))| {
            let school = text
                .tokens
                .iter()
                .any(|t| t.end == start && t.has_cue(Cue::IntroSchool))
                .then(|| sounds_like_a_school((start, end), true))
                .flatten()?;
            let other = majors
                .iter()
                .enumerate()
                .rev()
                .find(|&(j, m)| j != k && *m != majors[k])
                .map(|(_, m)| m.clone());
            Some((school, other))
        });
    if framed.is_some() {
        return framed;
    }
    // The last pair first: of "还是考统计的土木" the major settled on is the last.
    let before_another = spans
        .windows(2)
        .zip(majors.windows(2))
        .rev()
        .find_map(|(w, m)| {
            meets(text, w[0].1, w[1].0)
                .then(|| sounds_like_a_school(w[0], true))
                .flatten()
                .map(|school| (school, Some(m[1].clone())))
        });
    before_another.or_else(|| {
        // The major after 的 not read, but its words near one by sound.
        let &(start, end) = spans.last()?;
        let after = end + 1;
        let raw = |i: usize| text.is_raw(after + i);
        let unread =
            text.chars.get(end) == Some(&DE) && text.chars.len() >= after + 2 && raw(0) && raw(1);
        let near = unread
            && !lex
                .sound
                .nearest(&text.chars[after..], raw, super::lexicon::MAJOR_SOUNDS, 1)
                .is_empty();
        // Or anywhere else in the message ("红系的林床，上海那个统计": 同济
        // said twice, 临床 heard 林床): words near a major by sound beside
        // the one major read make that major as likely the school.
        let elsewhere = || {
            !lex.sound
                .nearest(
                    &text.chars,
                    |i| text.is_raw(i) && !(start..end).contains(&i),
                    super::lexicon::MAJOR_SOUNDS,
                    1,
                )
                .is_empty()
        };
        let near = near || (spans.len() == 1 && elsewhere());
        near.then(|| sounds_like_a_school((start, end), false))
            .flatten()
            .map(|school| (school, None))
    })
}

/// Reads the school, major and direction slots (see the module doc).
pub(crate) fn extract(text: &Text, lex: &Lexicons, neg: &[bool], prefer_last: bool) -> Slots {
    let mut out = Slots::default();
    let mut kept: [Vec<Slot>; 2] = [Vec::new(), Vec::new()];
    // The spans of the majors kept, in order, and where each school ends.
    let mut major_spans: Vec<(usize, usize)> = Vec::new();
    let mut school_ends: Vec<usize> = Vec::new();
    // The spans of the schools kept, in order.
    let mut school_spans: Vec<(usize, usize)> = Vec::new();
    let mut dropped = [false; 2];
    // Every value kept, repeats included, in the order said, and where
    // every major said starts ("武大法学…中山的法学": both schools meet one).
    let mut said: [Vec<Slot>; 2] = [Vec::new(), Vec::new()];
    let mut every_major_start: Vec<usize> = Vec::new();
    let mut directions: Vec<String> = Vec::new();
    // Majors whose names were said as a direction ("人工智能方向").
    let mut direction_majors: Vec<usize> = Vec::new();
    let mut dropped_direction = false;
    for (i, t) in text.tokens.iter().enumerate() {
        let (which, cands, names) = match t.kind(lex) {
            Some(Kind::School) => (0, t.schools(), &lex.schools),
            Some(Kind::Major) => (1, t.majors(), &lex.majors),
            Some(Kind::Direction) => {
                let name = lex.directions[t.direction().unwrap_or(0)].clone();
                if neg[i] {
                    out.rejected.push((t.start, name));
                    dropped_direction = true;
                    out.replaced |= negation::replaced(text, lex, i);
                } else {
                    if !directions.contains(&name) {
                        directions.push(name);
                    }
                    // The words' own tags, before the roles chose the
                    // direction.
                    let words = lex
                        .trie
                        .longest(&text.chars, t.start)
                        .filter(|&(len, _)| len == t.end - t.start);
                    for tag in words.map_or(&[][..], |(_, tags)| tags) {
                        if let Tag::Major(m) = *tag {
                            if !direction_majors.contains(&m) {
                                direction_majors.push(m);
                            }
                        }
                    }
                }
                continue;
            }
            _ => continue,
        };
        let slot = slot_for(text, t.start, t.end, &cands, names);
        let slot = if which == 0 {
            super::cities::qualify(text, lex, t.start, t.end, slot)
        } else {
            slot
        };
        if neg[i] {
            if let Slot::One(name) = slot {
                out.rejected.push((t.start, name));
                dropped[which] = true;
                out.replaced |= negation::replaced(text, lex, i);
            }
        } else {
            if which == 1 {
                every_major_start.push(t.start);
            }
            said[which].push(slot.clone());
            if !kept[which].contains(&slot) {
                kept[which].push(slot);
                if which == 1 {
                    major_spans.push((t.start, t.end));
                } else {
                    school_spans.push((t.start, t.end));
                }
            }
        }
        if which == 0 {
            school_ends.push(t.end);
        }
    }
    for which in 0..2 {
        let spans = if which == 0 {
            &mut school_spans
        } else {
            &mut major_spans
        };
        same_one_said_short(&mut said[which], &mut kept[which], spans);
    }
    overlapped(text, lex, &mut kept[1], &mut major_spans);
    let pick = |v: &[Slot]| {
        if prefer_last {
            v.last().cloned()
        } else {
            v.first().cloned()
        }
    };
    let alternatives = !prefer_last && text.tokens.iter().any(|t| t.has_cue(Cue::Alternative));
    // Two schools said side by side ("清华浙大的电气", "北大、清华") offer
    // both as much as "或者" does: neither is chosen for the student.
    let major_starts: Vec<usize> = major_spans.iter().map(|&(s, _)| s).collect();
    let side_by_side = school_spans.windows(2).any(|w| text.joined(w[0].1, w[1].0));
    out.school = named_again(&said[0])
        .or_else(|| either(&kept[0], alternatives || (!prefer_last && side_by_side)))
        .or_else(|| restated(text, lex, &kept[0], &school_spans))
        .or_else(|| {
            (!prefer_last)
                .then(|| {
                    let ends: Vec<usize> = school_spans.iter().map(|&(_, e)| e).collect();
                    the_one_that_meets(&kept[0], &ends, |e| {
                        every_major_start.iter().any(|&m| meets(text, e, m))
                    })
                })
                .flatten()
        })
        // Two schools and nothing that tells which ("北大还是清华", "北邮太
        // 减了，人大吧" as a recognizer wrote it): the student is asked, the
        // first is not filled for them.
        .or_else(|| either(&kept[0], !prefer_last))
        .or_else(|| pick(&kept[0]));
    out.major = named_again(&said[1])
        .or_else(|| either(&kept[1], alternatives))
        .or_else(|| restated(text, lex, &kept[1], &major_spans))
        .or_else(|| {
            (!prefer_last)
                .then(|| {
                    the_one_that_meets(&kept[1], &major_starts, |m| {
                        school_ends.iter().any(|&e| meets(text, e, m))
                    })
                })
                .flatten()
        })
        .or_else(|| pick(&kept[1]));
    // A school and no major said, but a direction that is a major's name
    // ("浙大，人工智能方向哪个老师好"): a first request for that field; it
    // is the major too. (Without a school it may be a direction added to a
    // form whose major is set: "我想做人工智能".)
    if out.major.is_none() && kept[1].is_empty() && !kept[0].is_empty() {
        if let [m] = direction_majors[..] {
            out.major = Some(Slot::One(lex.majors[m].clone()));
        }
    }
    // No major said (or one only heard near by sound) but one described by
    // its work ("浙大做芯片的那个专业", "我想学盖房子修桥的那种专业", "飞机设计
    // 那种", near 飞行器设计 by sound), beside a school or a field named: the
    // one major whose work it is, or the several as chips (`major_work`).
    // Words said as the lexicon has them weigh more than a name only near.
    let by_work = &lex.majors_by_work;
    let only_heard = matches!(out.major, None | Some(Slot::Heard { .. }))
        && kept[1].iter().all(|s| matches!(s, Slot::Heard { .. }));
    if only_heard && (!kept[0].is_empty() || by_work.speaks_of_a_field(&text.chars)) {
        // Not inside a longer word of the message ("翻译" in 机器翻译).
        let inside = |s: usize, e: usize| {
            text.tokens
                .iter()
                .any(|t| t.start <= s && e <= t.end && t.end - t.start > e - s)
        };
        // Not wished for ("不想写代码", "别给我那种天天写代码的").
        let negated = |at: usize| negation::negator_before(text, lex, at).is_some();
        match &by_work.described(&text.chars, inside, negated)[..] {
            [] => {}
            [one] => out.major = Some(Slot::One(lex.majors[one.major].clone())),
            several => {
                out.major = Some(Slot::Ambiguous {
                    said: several[0].said.clone(),
                    candidates: several
                        .iter()
                        .map(|d| lex.majors[d.major].clone())
                        .collect(),
                })
            }
        }
    }
    if out.school.is_none() {
        // A choice settled on (还是…) keeps its last major: a school heard in
        // the major before it is read only when that major is its owner.
        let found = school_heard_as_a_major(text, lex, &kept[1], &major_spans)
            .filter(|(_, major)| !prefer_last || (major.is_some() && *major == out.major));
        if let Some((school, major)) = found {
            out.school = Some(school);
            out.major = major;
        }
    }
    out.replaced |= (0..2).any(|k| dropped[k] && !kept[k].is_empty());
    out.replaced |= dropped_direction && !directions.is_empty();
    out.direction = if prefer_last {
        directions.last().cloned()
    } else {
        directions.first().cloned()
    };
    if out.direction.is_none() {
        out.direction = patterns::own_direction(text, lex, |pos| {
            negation::negator_before(text, lex, pos).is_some()
        })
        .map(|own| lex.concept_direction(&own).map_or(own, str::to_string));
    }
    out
}
