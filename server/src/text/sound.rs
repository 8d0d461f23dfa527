//! Names found by how they sound, and by how they are typed without an
//! input method.
//!
//! A recognizer hears 北京大学 as 北京大雪 or 背景大学, 浙江 as 浙将, 人工智能 as
//! 人工只能; a student typing without an IME writes "beida jisuanji" or
//! "bjdx". None of these is in any list of names, and no list could hold
//! them all: they are near a name *by sound*. So a name is kept here as its
//! syllables, each reduced to what a listener can tell apart — toneless
//! pinyin, with the confusions Mandarin speakers and recognizers make merged
//! (zh/z, ch/c, sh/s, n/l, f/h, an/ang, en/eng, in/ing) — and a stretch of
//! text is compared with it syllable by syllable, with a small edit
//! distance (a character replaced, dropped or added).
//!
//! The index never decides alone: [`SoundIndex::find`] returns every name
//! close enough with its distance, and the caller fills a field only from a
//! unique, clearly best match; two close ones are offered as a choice. How
//! close is close enough depends on the length of the name (a two-syllable
//! name must sound the same and share a character; a long one may lose a
//! character), which is what keeps a word like 心里 from becoming 心理学.
//!
//! Typed pinyin is matched exactly, not by sound: the words of a Latin
//! stretch ("beijing daxue", "bei da") joined and looked up among the
//! names' toneless spellings, and a word without vowels among their
//! initials where the initials name one entry only ("bjdx", "jsj").

use std::collections::HashMap;

use pinyin::{ToPinyin, ToPinyinMulti};

/// What the index holds for one character position of a name or a text:
/// the sounds of each of its readings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Syllable {
    ch: char,
    /// Toneless readings, as hashes.
    plain: Vec<u64>,
    /// The same after the merges (`fuzzy`), as hashes.
    fuzzy: Vec<u64>,
    /// The merged final alone, for a near miss of the initial.
    finals: Vec<u64>,
}

fn is_han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

/// FNV-1a: a fixed hash, so sounds compare as numbers.
fn hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A toneless syllable split into initial and final ("zhang" → "zh", "ang").
fn split(s: &str) -> (&str, &str) {
    for two in ["zh", "ch", "sh"] {
        if let Some(rest) = s.strip_prefix(two) {
            return (two, rest);
        }
    }
    match s.chars().next() {
        Some(c) if "bpmfdtnlgkhjqxrzcsyw".contains(c) => s.split_at(1),
        _ => ("", s),
    }
}

/// Pairs of initials told apart only by breath (b/p, d/t, g/k, j/q, z/c,
/// zh/ch): a recognizer swaps them often, a listener rarely; a near miss.
fn aspirated_pair(a: &str, b: &str) -> bool {
    const PAIRS: [(&str, &str); 6] = [
        ("b", "p"),
        ("d", "t"),
        ("g", "k"),
        ("j", "q"),
        ("z", "c"),
        ("zh", "ch"),
    ];
    PAIRS
        .iter()
        .any(|&(x, y)| (a == x && b == y) || (a == y && b == x))
}

/// One toneless syllable with the merges applied: zh/ch/sh → z/c/s,
/// n → l, f → h, and -ang/-eng/-ing (with -iang, -uang) → -an/-en/-in.
pub fn fuzzy(syllable: &str) -> String {
    let (initial, fin) = split(syllable);
    let initial = match initial {
        "zh" => "z",
        "ch" => "c",
        "sh" => "s",
        "n" => "l",
        "f" => "h",
        other => other,
    };
    match fin.strip_suffix("ng") {
        Some(stem) if stem.ends_with('a') || stem.ends_with('e') || stem.ends_with('i') => {
            format!("{initial}{stem}n")
        }
        _ => format!("{initial}{fin}"),
    }
}

/// The toneless readings of a character: every reading when `all`, else
/// the common one; nothing for a character that is not Han.
fn readings(c: char, all: bool) -> Vec<String> {
    if !is_han(c) {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    if let Some(p) = c.to_pinyin() {
        out.push(p.plain().to_string());
    }
    if all {
        if let Some(multi) = c.to_pinyin_multi() {
            for p in multi {
                let s = p.plain().to_string();
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

fn syllable(c: char, all: bool) -> Syllable {
    let mut s = Syllable {
        ch: c,
        ..Syllable::default()
    };
    for r in readings(c, all) {
        let f = fuzzy(&r);
        let (_, fin) = split(&f);
        for (list, h) in [
            (&mut s.plain, hash(&r)),
            (&mut s.fuzzy, hash(&f)),
            (&mut s.finals, hash(fin)),
        ] {
            if !list.contains(&h) {
                list.push(h);
            }
        }
    }
    s
}

/// The cost of hearing `heard` where the name has `want`: 0 for the same
/// character, then the same toneless reading (a tone or a homophone), the
/// same sound after the merges, a near miss (the same final with an
/// aspirated-pair initial), else a whole edit.
fn substitution(want: &Syllable, heard: &Syllable, near: &[(u64, u64)]) -> f32 {
    let meets = |a: &[u64], b: &[u64]| a.iter().any(|x| b.contains(x));
    if want.ch == heard.ch {
        0.0
    } else if meets(&want.plain, &heard.plain) {
        SAME_READING
    } else if meets(&want.fuzzy, &heard.fuzzy) {
        SAME_SOUND
    } else if meets(&want.finals, &heard.finals)
        && near
            .iter()
            .any(|&(a, b)| want.fuzzy.contains(&a) && heard.fuzzy.contains(&b))
    {
        NEAR_SOUND
    } else {
        1.0
    }
}

/// Costs of [`substitution`] (a dropped or added character costs 1).
const SAME_READING: f32 = 0.1;
const SAME_SOUND: f32 = 0.3;
const NEAR_SOUND: f32 = 0.6;

/// How far a stretch may be from a name of `n` syllables and still be that
/// name: nothing but homophones for two syllables, one near miss for
/// three, one edit for four to seven, two beyond.
pub fn tolerance(n: usize) -> f32 {
    match n {
        0 | 1 => 0.0,
        2 => SAME_SOUND + 0.05,
        3 => NEAR_SOUND + SAME_READING + 0.05,
        4..=7 => 1.25,
        _ => 2.05,
    }
}

/// One name the index holds.
#[derive(Clone, Debug, PartialEq)]
struct Entry<T> {
    value: T,
    syllables: Vec<Syllable>,
    group: u8,
}

/// A stretch of the text that sounds like (or is typed as) a name.
#[derive(Clone, Debug, PartialEq)]
pub struct Match<T> {
    /// Character positions `[start, end)` in the text given to `find`.
    pub start: usize,
    pub end: usize,
    pub value: T,
    /// The edit distance by sound (0 for typed pinyin or initials).
    pub distance: f32,
    /// Characters of the stretch that are the name's own.
    pub same_chars: usize,
    /// Syllables of the name.
    pub len: usize,
    pub how: How,
    /// Within the name's [`tolerance`]; a name of four or more syllables
    /// is also reported a little beyond it, not close, to be asked about.
    pub close: bool,
}

/// How a match was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// Han characters that sound like the name.
    Sound,
    /// Latin words that spell its toneless pinyin.
    Pinyin,
    /// A Latin word of its initials.
    Initials,
}

/// Names by sound, by typed pinyin and by initials.
#[derive(Clone, Debug, PartialEq)]
pub struct SoundIndex<T> {
    entries: Vec<Entry<T>>,
    /// Merged sound → entries holding it, so a text is compared only with
    /// names it shares a syllable with.
    by_sound: HashMap<u64, Vec<u32>>,
    by_pinyin: HashMap<String, Vec<u32>>,
    by_initials: HashMap<String, Vec<u32>>,
    near: Vec<(u64, u64)>,
    /// How many names of each group hold each character, and how many
    /// names each group has: a character in many names of its kind (大 and
    /// 学 in schools) says little about which one was meant.
    char_names: HashMap<(u8, char), u32>,
    group_names: HashMap<u8, u32>,
}

impl<T> Default for SoundIndex<T> {
    fn default() -> Self {
        SoundIndex {
            entries: Vec::new(),
            by_sound: HashMap::new(),
            by_pinyin: HashMap::new(),
            by_initials: HashMap::new(),
            near: Vec::new(),
            char_names: HashMap::new(),
            group_names: HashMap::new(),
        }
    }
}

/// How far beyond its tolerance a long name is still reported (not
/// close): about one more edit.
const ASK_SLACK: f32 = 0.8;

/// The distance up to which a name of `n` syllables is reported at all.
fn reach(n: usize) -> f32 {
    if n >= 4 {
        tolerance(n) + ASK_SLACK
    } else {
        tolerance(n)
    }
}

/// The longest name (in syllables) the sound index holds; longer ones are
/// typed or said with their short names.
const MAX_SYLLABLES: usize = 12;
/// The most Latin words one pinyin name is typed as ("bei jing da xue").
const MAX_WORDS: usize = 8;

impl<T: Clone + PartialEq> SoundIndex<T> {
    pub fn new() -> Self {
        SoundIndex::default()
    }

    /// Indexes `name` (Han characters; anything else in it is skipped for
    /// sound, and a name without Han characters is not indexed) as `value`.
    pub fn insert(&mut self, name: &str, value: T) {
        self.insert_in(name, value, 0);
    }

    /// [`insert`](Self::insert) among the names of one `group` (schools,
    /// majors…): which characters are common is judged within it.
    pub fn insert_in(&mut self, name: &str, value: T, group: u8) {
        let chars: Vec<char> = name.chars().filter(|&c| is_han(c)).collect();
        if chars.len() < 2 || chars.len() > MAX_SYLLABLES || chars.len() != name.chars().count() {
            return;
        }
        let syllables: Vec<Syllable> = chars.iter().map(|&c| syllable(c, true)).collect();
        if syllables.iter().any(|s| s.plain.is_empty()) {
            return;
        }
        if self
            .entries
            .iter()
            .any(|e| e.value == value && e.syllables == syllables)
        {
            return;
        }
        let id = self.entries.len() as u32;
        for s in &syllables {
            for &h in &s.fuzzy {
                let list = self.by_sound.entry(h).or_default();
                if list.last() != Some(&id) {
                    list.push(id);
                }
            }
        }
        // Typed: the common reading of every character, and the first
        // character in each of its readings (重庆 chongqing / zhongqing).
        let common: Vec<String> = chars
            .iter()
            .map(|&c| readings(c, false).remove(0))
            .collect();
        let rest: String = common[1..].concat();
        let initials_rest: String = common[1..]
            .iter()
            .filter_map(|s| s.chars().next())
            .collect();
        for first in readings(chars[0], true) {
            let spelled = format!("{first}{rest}");
            let list = self.by_pinyin.entry(spelled).or_default();
            if !list.contains(&id) {
                list.push(id);
            }
            if let Some(f) = first.chars().next() {
                let list = self
                    .by_initials
                    .entry(format!("{f}{initials_rest}"))
                    .or_default();
                if !list.contains(&id) {
                    list.push(id);
                }
            }
        }
        let mut distinct_chars = chars.clone();
        distinct_chars.sort_unstable();
        distinct_chars.dedup();
        for c in distinct_chars {
            *self.char_names.entry((group, c)).or_default() += 1;
        }
        *self.group_names.entry(group).or_default() += 1;
        self.entries.push(Entry {
            value,
            syllables,
            group,
        });
        if self.near.is_empty() {
            self.near = near_pairs();
        }
    }

    /// Whether `c` stands in so many names of `group` (a quarter, and at
    /// least three: 大 and 学 among schools) that hearing it tells little.
    fn generic(&self, group: u8, c: char) -> bool {
        let n = self.char_names.get(&(group, c)).copied().unwrap_or(0);
        let all = self.group_names.get(&group).copied().unwrap_or(0);
        n >= 3 && n * 4 >= all
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every stretch of `text` that sounds like, or is typed as, a name of
    /// the index, within the name's [`tolerance`] (and, not close, a little
    /// beyond for long names); `free(i)` says whether
    /// character `i` may be part of one (the caller excludes what it has
    /// already read). A stretch is reported once per name, at its closest.
    pub fn find(&self, text: &[char], free: impl Fn(usize) -> bool) -> Vec<Match<T>> {
        let mut out: Vec<Match<T>> = Vec::new();
        if self.entries.is_empty() {
            return out;
        }
        self.find_sounds(text, &free, &mut out);
        self.find_typed(text, &free, &mut out);
        out
    }

    /// Han stretches: names that share a sound with the stretch, aligned
    /// to it with an edit distance.
    fn find_sounds(&self, text: &[char], free: &impl Fn(usize) -> bool, out: &mut Vec<Match<T>>) {
        let mut i = 0;
        while i < text.len() {
            if !(is_han(text[i]) && free(i)) {
                i += 1;
                continue;
            }
            let start = i;
            while i < text.len() && is_han(text[i]) && free(i) {
                i += 1;
            }
            if i - start < 2 {
                continue;
            }
            // A text is heard in its characters' common readings (a
            // recognizer writes a sound with the character that usually
            // has it); a name is kept in every reading of its characters.
            let heard: Vec<Syllable> = text[start..i].iter().map(|&c| syllable(c, false)).collect();
            // Names sharing at least one sound with the stretch, with how
            // many of their syllables they share.
            let mut shared: HashMap<u32, usize> = HashMap::new();
            let mut seen: Vec<u64> = Vec::new();
            for s in &heard {
                for h in &s.fuzzy {
                    if seen.contains(h) {
                        continue;
                    }
                    seen.push(*h);
                    for id in self.by_sound.get(h).into_iter().flatten() {
                        *shared.entry(*id).or_default() += 1;
                    }
                }
            }
            let mut ids: Vec<u32> = shared
                .into_iter()
                .filter(|&(id, n)| {
                    let len = self.entries[id as usize].syllables.len();
                    // At most `tolerance` whole edits: the rest must be heard.
                    n + reach(len).floor() as usize + 1 >= len
                })
                .map(|(id, _)| id)
                .collect();
            ids.sort_unstable();
            for id in ids {
                let e = &self.entries[id as usize];
                let distinct: Vec<bool> = e
                    .syllables
                    .iter()
                    .map(|s| !self.generic(e.group, s.ch))
                    .collect();
                let Some(a) = align(&e.syllables, &distinct, &heard, &self.near) else {
                    continue;
                };
                let len = e.syllables.len();
                let close = a.distance <= tolerance(len);
                // What tells a name from the others must be heard: one of
                // its distinctive syllables for a close match; to be asked
                // about, all of them but one (two at least) and the name's
                // own last character ("…大学", "…工程").
                let wanted = distinct.iter().filter(|&&d| d).count();
                // …and on the whole the distinctive part heard at least as
                // a near sound: a name whose own syllables were replaced
                // or dropped and only 大学 kept is some other school.
                let heard_enough = a.distinct_cost <= wanted as f32 / 2.0
                    && if close {
                        // Half the characters as written: a recognizer
                        // mishears a syllable or two, not the whole name.
                        (wanted == 0 || a.heard_distinct >= 1) && a.same * 2 >= len
                    } else {
                        a.heard_distinct >= wanted.saturating_sub(1).max(2)
                            && text[start + a.end - 1] == e.syllables[len - 1].ch
                    };
                // The stretch written as the name itself: the exact pass saw
                // it and read it as something else (a cue, a longer word).
                let verbatim = a.same == len && a.end - a.start == len;
                if a.distance <= reach(len) && a.same > 0 && heard_enough && !verbatim {
                    out.push(Match {
                        start: start + a.start,
                        end: start + a.end,
                        value: e.value.clone(),
                        distance: a.distance,
                        same_chars: a.same,
                        len,
                        how: How::Sound,
                        close,
                    });
                }
            }
        }
    }

    /// Latin stretches: words joined into a toneless spelling, or one
    /// word of initials.
    fn find_typed(&self, text: &[char], free: &impl Fn(usize) -> bool, out: &mut Vec<Match<T>>) {
        // Latin words (start, end) in order, with whether a separator
        // other than a space stands before the next.
        let mut words: Vec<(usize, usize)> = Vec::new();
        let mut i = 0;
        while i < text.len() {
            if !(text[i].is_ascii_alphabetic() && free(i)) {
                i += 1;
                continue;
            }
            let start = i;
            while i < text.len() && text[i].is_ascii_alphabetic() && free(i) {
                i += 1;
            }
            words.push((start, i));
        }
        let joined = |a: usize, b: usize| -> bool {
            // Words joined only across spaces.
            text[words[a].1..words[b].0].iter().all(|&c| c == ' ')
        };
        for a in 0..words.len() {
            let mut spelled = String::new();
            for b in a..words.len().min(a + MAX_WORDS) {
                if b > a && !joined(b - 1, b) {
                    break;
                }
                spelled.extend(
                    text[words[b].0..words[b].1]
                        .iter()
                        .map(|c| c.to_ascii_lowercase()),
                );
                for id in self.by_pinyin.get(&spelled).into_iter().flatten() {
                    let e = &self.entries[*id as usize];
                    out.push(Match {
                        start: words[a].0,
                        end: words[b].1,
                        value: e.value.clone(),
                        distance: 0.0,
                        same_chars: 0,
                        len: e.syllables.len(),
                        how: How::Pinyin,
                        close: true,
                    });
                }
            }
            let word: String = text[words[a].0..words[a].1]
                .iter()
                .map(|c| c.to_ascii_lowercase())
                .collect();
            if word.len() >= 2 && !word.contains(['a', 'e', 'i', 'o', 'u', 'v']) {
                if let Some(ids) = self.by_initials.get(&word) {
                    for id in ids {
                        let e = &self.entries[*id as usize];
                        out.push(Match {
                            start: words[a].0,
                            end: words[a].1,
                            value: e.value.clone(),
                            distance: 0.0,
                            same_chars: 0,
                            len: e.syllables.len(),
                            how: How::Initials,
                            close: true,
                        });
                    }
                }
            }
        }
    }
}

/// The merged sounds that are near misses of each other (an
/// aspirated-pair initial with the same final): (want, heard) hashes.
fn near_pairs() -> Vec<(u64, u64)> {
    const FINALS: &[&str] = &[
        "a", "o", "e", "i", "u", "ai", "ei", "ao", "ou", "an", "en", "in", "un", "ong", "ia", "ie",
        "iao", "iu", "ian", "iong", "ua", "uo", "uai", "ui", "uan", "ue", "er",
    ];
    const PAIRS: [(&str, &str); 5] = [("b", "p"), ("d", "t"), ("g", "k"), ("j", "q"), ("z", "c")];
    let mut out = Vec::new();
    for &(x, y) in &PAIRS {
        debug_assert!(aspirated_pair(x, y));
        for f in FINALS {
            let (a, b) = (hash(&format!("{x}{f}")), hash(&format!("{y}{f}")));
            out.push((a, b));
            out.push((b, a));
        }
    }
    out
}

/// The stretch of `heard` closest to `want`: (start, end, distance,
/// characters the same), with `want` matched whole and the stretch free
/// to start and end anywhere (a semi-global edit distance). Ties go to the
/// stretch with more of the name's own characters, then the shorter.
fn align(
    want: &[Syllable],
    distinct: &[bool],
    heard: &[Syllable],
    near: &[(u64, u64)],
) -> Option<Aligned> {
    let (n, m) = (want.len(), heard.len());
    if n == 0 || m == 0 {
        return None;
    }
    let better = |a: &Aligned, b: &Aligned| {
        a.distance
            .partial_cmp(&b.distance)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(b.same.cmp(&a.same))
    };
    let fresh = |start: usize, distance: f32| Aligned {
        start,
        end: start,
        distance,
        same: 0,
        heard_distinct: 0,
        distinct_cost: 0.0,
    };
    let mut prev: Vec<Aligned> = (0..=m).map(|j| fresh(j, 0.0)).collect();
    let mut cur = prev.clone();
    for i in 1..=n {
        cur[0] = fresh(0, i as f32);
        for j in 1..=m {
            let sub = substitution(&want[i - 1], &heard[j - 1], near);
            let p = &prev[j - 1];
            let diag = Aligned {
                distance: p.distance + sub,
                same: p.same + usize::from(sub == 0.0),
                heard_distinct: p.heard_distinct + usize::from(sub < 1.0 && distinct[i - 1]),
                distinct_cost: p.distinct_cost + if distinct[i - 1] { sub } else { 0.0 },
                ..p.clone()
            };
            let up = Aligned {
                distance: prev[j].distance + 1.0,
                distinct_cost: prev[j].distinct_cost + if distinct[i - 1] { 1.0 } else { 0.0 },
                ..prev[j].clone()
            };
            let left = Aligned {
                distance: cur[j - 1].distance + 1.0,
                ..cur[j - 1].clone()
            };
            cur[j] = [diag, up, left]
                .into_iter()
                .min_by(better)
                .unwrap_or_else(|| fresh(0, f32::MAX));
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev.into_iter()
        .enumerate()
        .skip(1)
        .map(|(end, a)| Aligned { end, ..a })
        .filter(|a| a.end > a.start)
        .min_by(|a, b| better(a, b).then((a.end - a.start).cmp(&(b.end - b.start))))
}

/// The closest stretch `align` found.
#[derive(Clone, Debug)]
struct Aligned {
    start: usize,
    end: usize,
    distance: f32,
    /// Characters of the stretch that are the name's own.
    same: usize,
    /// The name's distinctive syllables (not 大, 学 and the like) heard.
    heard_distinct: usize,
    /// The part of `distance` spent on distinctive syllables.
    distinct_cost: f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(names: &[&str]) -> SoundIndex<String> {
        let mut ix = SoundIndex::new();
        for n in names {
            ix.insert(n, n.to_string());
        }
        ix
    }

    fn heard(ix: &SoundIndex<String>, text: &str) -> Vec<(String, String, f32)> {
        let chars: Vec<char> = text.chars().collect();
        ix.find(&chars, |_| true)
            .into_iter()
            .filter(|m| m.close)
            .map(|m| (chars[m.start..m.end].iter().collect(), m.value, m.distance))
            .collect()
    }

    fn best(ix: &SoundIndex<String>, text: &str) -> Option<String> {
        let mut all = heard(ix, text);
        all.sort_by(|a, b| a.2.partial_cmp(&b.2).unwrap());
        all.into_iter().next().map(|(_, v, _)| v)
    }

    const NAMES: &[&str] = &[
        "北京大学",
        "浙江大学",
        "复旦大学",
        "南京大学",
        "哈尔滨工业大学",
        "中国科学技术大学",
        "华中科技大学",
        "计算机科学与技术",
        "计算机",
        "人工智能",
        "心理学",
        "心理",
        "金融",
        "经济学",
        "软件工程",
    ];

    #[test]
    fn the_merges_are_the_ones_speakers_make() {
        assert_eq!(fuzzy("zhang"), "zan");
        assert_eq!(fuzzy("chuang"), "cuan");
        assert_eq!(fuzzy("shi"), "si");
        assert_eq!(fuzzy("nan"), "lan");
        assert_eq!(fuzzy("fu"), "hu");
        assert_eq!(fuzzy("qing"), "qin");
        assert_eq!(fuzzy("sheng"), "sen");
        assert_eq!(fuzzy("xiang"), "xian");
        assert_eq!(fuzzy("dong"), "dong");
        assert_eq!(fuzzy("er"), "er");
    }

    #[test]
    fn homophones_and_near_sounds_find_the_name() {
        let ix = index(NAMES);
        assert_eq!(best(&ix, "我想考北京大雪").as_deref(), Some("北京大学"));
        assert_eq!(best(&ix, "浙将大学").as_deref(), Some("浙江大学"));
        assert_eq!(best(&ix, "复单大学").as_deref(), Some("复旦大学"));
        assert_eq!(best(&ix, "兰京大学").as_deref(), Some("南京大学"));
        assert_eq!(
            best(&ix, "哈尔冰工业大学").as_deref(),
            Some("哈尔滨工业大学")
        );
        assert_eq!(best(&ix, "人工只能").as_deref(), Some("人工智能"));
        assert_eq!(best(&ix, "计算鸡").as_deref(), Some("计算机"));
        assert_eq!(best(&ix, "经齐学").as_deref(), Some("经济学"));
        assert_eq!(best(&ix, "软建工程").as_deref(), Some("软件工程"));
    }

    #[test]
    fn a_dropped_character_is_one_edit_on_a_long_name() {
        let ix = index(NAMES);
        assert_eq!(
            best(&ix, "中国科技大学").as_deref(),
            Some("中国科学技术大学")
        );
        let h = heard(&ix, "中国科技大学");
        assert!(
            !h.iter().any(|(_, v, _)| v == "华中科技大学"),
            "{h:?}: 中国 is not 华中"
        );
    }

    #[test]
    fn a_long_name_a_little_too_far_is_reported_not_close() {
        let ix = index(NAMES);
        let chars: Vec<char> = "中国科技大学".chars().collect();
        let far: Vec<Match<String>> = ix
            .find(&chars, |_| true)
            .into_iter()
            .filter(|m| m.value == "华中科技大学")
            .collect();
        assert!(!far.is_empty() && far.iter().all(|m| !m.close), "{far:?}");
    }

    #[test]
    fn short_names_need_the_same_sound_and_a_shared_character() {
        let ix = index(NAMES);
        // 负担 sounds like 复旦 but shares no character with any name.
        assert_eq!(best(&ix, "学习负担重"), None);
        // 金容 is 金融 misheard.
        let h = heard(&ix, "复旦大学金容");
        assert!(
            h.iter().any(|(s, v, _)| s == "金容" && v == "金融"),
            "{h:?}"
        );
        // Unrelated words stay unread.
        assert_eq!(best(&ix, "导师温和一点"), None);
        assert_eq!(best(&ix, "第一个导师怎么样"), None);
    }

    #[test]
    fn typed_pinyin_and_initials_find_the_name() {
        let mut ix = index(NAMES);
        ix.insert("北大", "北京大学".to_string());
        ix.insert("法学", "法学".to_string());
        let found = |t: &str| {
            let chars: Vec<char> = t.chars().collect();
            ix.find(&chars, |_| true)
                .into_iter()
                .map(|m| (m.value, m.how))
                .collect::<Vec<_>>()
        };
        assert!(found("beida jisuanji").contains(&("北京大学".into(), How::Pinyin)));
        assert!(found("beida jisuanji").contains(&("计算机".into(), How::Pinyin)));
        assert!(found("bei jing da xue").contains(&("北京大学".into(), How::Pinyin)));
        assert!(found("Beijing Daxue faxue").contains(&("法学".into(), How::Pinyin)));
        assert!(found("bjdx").contains(&("北京大学".into(), How::Initials)));
        // Words with vowels are never read as initials; English stays English.
        assert!(found("hello world").is_empty());
        // Words are joined only across spaces, not punctuation.
        assert!(!found("bei,jing da xue").contains(&("北京大学".into(), How::Pinyin)));
    }

    #[test]
    fn the_stretch_reported_is_the_name_heard() {
        let ix = index(NAMES);
        let h = heard(&ix, "我想考北京大雪计算机系");
        assert!(
            h.iter().any(|(s, v, _)| s == "北京大雪" && v == "北京大学"),
            "{h:?}"
        );
    }

    #[test]
    fn characters_the_caller_has_read_are_left_alone() {
        let ix = index(NAMES);
        let chars: Vec<char> = "北京大雪".chars().collect();
        assert!(ix.find(&chars, |i| i != 2).is_empty());
    }
}
