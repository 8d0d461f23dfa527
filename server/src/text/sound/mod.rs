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
//! distance (a character replaced, dropped or added). A syllable that is
//! not the same sound may still be a near miss, which costs less than an
//! edit: an initial traded for one made the same way at the same place
//! (b/p, j/q/x, z/c/s…), or a final with a glide or a closing -i more or
//! less (化/坏, 先/辛).
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
//! A Latin abbreviation ("PKU") is also kept by its letters, and a run of
//! capitals a recognizer wrote for it ("BKU") compared with it by how the
//! letters' names sound ([`letters`]).

use std::sync::OnceLock;

use rustc_hash::FxHashMap as HashMap;

mod align;
mod letters;
mod near;
mod syllable;

use align::align;
pub use near::{Homophone, Near};
pub use syllable::{fuzzy, tolerance, SAME_READING};
use syllable::{readings, sounded, syllable, Syllable, NEAR_SOUND};

/// Whether `heard` reads, character by character, in the toneless readings
/// of `word` (到属 for 倒数): a short word of the site's written by a
/// recognizer in other characters. Same length, every character sharing a
/// reading.
pub fn reads_as(heard: &[char], word: &[char]) -> bool {
    heard.len() == word.len()
        && heard.iter().zip(word).all(|(&h, &w)| {
            let theirs = readings(w, true);
            readings(h, true).iter().any(|r| theirs.contains(r))
        })
}

/// How close `heard` sounds to `word`, character by character (same
/// length): `Some(true)` when every character is the word's own or a
/// homophone, `Some(false)` when some are only near (the merges Mandarin
/// speakers and recognizers make, or an initial or final close to it:
/// 信 or 清 for 姓), `None` otherwise. For a short word the caller has
/// already placed by its frame ("…的老师"), where the index's tolerance
/// for a name said anywhere would be too strict.
pub fn sounds_as(heard: &[char], word: &[char]) -> Option<bool> {
    if heard.len() != word.len() || heard.is_empty() {
        return None;
    }
    let mut exact = true;
    for (&h, &w) in heard.iter().zip(word) {
        let cost = syllable::substitution(&syllable(w, true), &syllable(h, true));
        if cost > NEAR_SOUND {
            return None;
        }
        exact &= cost <= SAME_READING;
    }
    Some(exact)
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

/// Whether a stretch of `chars` characters heard for a name of `len`
/// syllables, `same` of them written as the name's, at `distance`, is the
/// name's own reading throughout: every other character a homophone.
fn same_reading(chars: usize, len: usize, same: usize, distance: f32) -> bool {
    chars == len && distance <= SAME_READING * (len - same) as f32 + 1e-4
}

impl<T> Match<T> {
    /// Heard with the name's own reading throughout, whatever few
    /// characters are written as the name ("韩路" for 韩璐).
    pub fn same_reading(&self) -> bool {
        same_reading(
            self.end - self.start,
            self.len,
            self.same_chars,
            self.distance,
        )
    }
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

/// A run of capitals that sounds, letter by letter, like an abbreviation
/// of the index ([`SoundIndex::abbreviations_heard`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Spelled<'a, T> {
    /// Character positions `[start, end)` in the text given.
    pub start: usize,
    pub end: usize,
    /// The abbreviation, in capitals.
    pub letters: &'a [u8],
    pub value: &'a T,
    /// The edit distance by letter sound.
    pub distance: f32,
}

/// The runs `[start, end)` of two Han characters (or digits, read as their
/// numerals) or more of `text` where `free(i)`: where a name may be heard.
fn han_runs(text: &[char], free: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if !(sounded(text[i]) && free(i)) {
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len() && sounded(text[i]) && free(i) {
            i += 1;
        }
        if i - start >= 2 {
            runs.push((start, i));
        }
    }
    runs
}

/// The Latin words `[start, end)` of `text` where `free(i)`, in order.
fn latin_words(text: &[char], free: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut words = Vec::new();
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
    words
}

/// Names by sound, by typed pinyin and by initials.
#[derive(Clone, Debug, PartialEq)]
pub struct SoundIndex<T> {
    entries: Vec<Entry<T>>,
    by_pinyin: HashMap<String, Vec<u32>>,
    by_initials: HashMap<String, Vec<u32>>,
    /// Abbreviations, by their letters in capitals.
    letters: Vec<(Vec<u8>, T)>,
    /// How many names of each group hold each character, and how many
    /// names each group has: a character in many names of its kind (大 and
    /// 学 in schools) says little about which one was meant.
    char_names: HashMap<(u8, char), u32>,
    group_names: HashMap<u8, u32>,
    /// What the counts above say of the entries, worked out on the first
    /// search after the last insert (every insert may change it).
    derived: OnceLock<Derived>,
}

/// Which syllables of each entry are distinctive, and where each sound
/// stands in the entries.
#[derive(Clone, Debug, Default, PartialEq)]
struct Derived {
    /// Per entry, a bit per syllable: not [`generic`](SoundIndex::generic).
    distinct_bits: Vec<u16>,
    /// Merged sound → (entry, syllable) holding it, so a text is compared
    /// only with names it shares a syllable with, and knows which.
    by_sound: HashMap<u64, Vec<(u32, u8)>>,
    /// The same by near-miss key (see [`Syllable::near_keys`]).
    by_near: HashMap<u64, Vec<(u32, u8)>>,
}

impl<T> Default for SoundIndex<T> {
    fn default() -> Self {
        SoundIndex {
            entries: Vec::new(),
            by_pinyin: HashMap::default(),
            by_initials: HashMap::default(),
            letters: Vec::new(),
            char_names: HashMap::default(),
            group_names: HashMap::default(),
            derived: OnceLock::new(),
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
pub const MAX_SYLLABLES: usize = 12;
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
        if let Some(abbr) = letters::abbreviation(name) {
            if !self.letters.iter().any(|(a, v)| *a == abbr && *v == value) {
                self.letters.push((abbr, value));
            }
            return;
        }
        let chars: Vec<char> = name.chars().filter(|&c| sounded(c)).collect();
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
        self.derived = OnceLock::new();
        self.entries.push(Entry {
            value,
            syllables,
            group,
        });
    }

    /// Whether `c` stands in so many names of `group` (a quarter, and at
    /// least three: 大 and 学 among schools) that hearing it tells little.
    fn generic(&self, group: u8, c: char) -> bool {
        let n = self.char_names.get(&(group, c)).copied().unwrap_or(0);
        let all = self.group_names.get(&group).copied().unwrap_or(0);
        n >= 3 && n * 4 >= all
    }

    /// [`Derived`], worked out if an insert came since.
    fn derived(&self) -> &Derived {
        self.derived.get_or_init(|| {
            let mut d = Derived::default();
            for (id, e) in self.entries.iter().enumerate() {
                let mut bits = 0u16;
                for (at, s) in e.syllables.iter().enumerate() {
                    bits |= u16::from(!self.generic(e.group, s.ch)) << at;
                    let at = (id as u32, at as u8);
                    for &h in &s.fuzzy {
                        let list = d.by_sound.entry(h).or_default();
                        if !list.contains(&at) {
                            list.push(at);
                        }
                    }
                    for &h in s.near_keys() {
                        let list = d.by_near.entry(h).or_default();
                        if !list.contains(&at) {
                            list.push(at);
                        }
                    }
                }
                d.distinct_bits.push(bits);
            }
            d
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len() + self.letters.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.letters.is_empty()
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
        let derived = self.derived();
        for (start, i) in han_runs(text, free) {
            // A text is heard in its characters' common readings (a
            // recognizer writes a sound with the character that usually
            // has it); a name is kept in every reading of its characters.
            let heard: Vec<Syllable> = text[start..i].iter().map(|&c| syllable(c, false)).collect();
            // Which syllables of which names are heard somewhere in the
            // stretch: as their own merged sound, or only as a near miss.
            // A name with none of its sounds heard is never within reach.
            let mut bits: Vec<(u16, u16)> = vec![(0, 0); self.entries.len()];
            let mut ids: Vec<u32> = Vec::new();
            let mut sounds: Vec<u64> = heard.iter().flat_map(|s| s.fuzzy.iter().copied()).collect();
            sounds.sort_unstable();
            sounds.dedup();
            for (id, at) in sounds
                .iter()
                .filter_map(|h| derived.by_sound.get(h))
                .flatten()
            {
                let b = &mut bits[*id as usize];
                if b.0 == 0 {
                    ids.push(*id);
                }
                b.0 |= 1 << at;
            }
            let mut near_heard: Vec<u64> =
                heard.iter().flat_map(|s| s.near_keys().copied()).collect();
            near_heard.sort_unstable();
            near_heard.dedup();
            for (id, at) in near_heard
                .iter()
                .filter_map(|h| derived.by_near.get(h))
                .flatten()
            {
                bits[*id as usize].1 |= 1 << at;
            }
            ids.sort_unstable();
            let stretch = &text[start..i];
            for id in ids {
                let e = &self.entries[id as usize];
                let len = e.syllables.len();
                let (own_sound, near) = bits[id as usize];
                let near = near & !own_sound;
                let heard_bits = own_sound | near;
                // What the alignment costs at least: a syllable heard
                // nowhere in the stretch, not even as a near miss, is an
                // edit; one heard only as a near miss costs that much.
                let floor = NEAR_SOUND * near.count_ones() as f32
                    + (len as u32 - heard_bits.count_ones()) as f32;
                let distinct_bits = derived.distinct_bits[id as usize];
                let wanted = distinct_bits.count_ones() as usize;
                let own_heard = (heard_bits & distinct_bits).count_ones() as usize;
                // What every way below of taking a name asks, checked
                // before the alignment: within reach; one distinctive
                // syllable heard; and, for a name that cannot be close, what
                // being asked about needs (see `heard_enough`).
                let may_be_close = floor <= tolerance(len) + 1e-4;
                let may_be_asked = own_heard >= wanted.saturating_sub(1).max(2)
                    && stretch.contains(&e.syllables[len - 1].ch);
                if floor > reach(len) + 1e-4
                    || !(wanted == 0 || own_heard >= 1)
                    || !(may_be_close || may_be_asked)
                {
                    continue;
                }
                let Some(a) = align(&e.syllables, distinct_bits, &heard, reach(len) + 1e-4) else {
                    continue;
                };
                let close = a.distance <= tolerance(len);
                // What tells a name from the others must be heard: one of
                // its distinctive syllables for a close match; to be asked
                // about, all of them but one (two at least) and the name's
                // own last character ("…大学", "…工程").
                // …and on the whole the distinctive part heard at least as
                // a near sound: a name whose own syllables were replaced
                // or dropped and only 大学 kept is some other school.
                let heard_enough = a.distinct_cost <= wanted as f32 / 2.0
                    && if close {
                        // Half the characters as written: a recognizer
                        // mishears a syllable or two, not the whole name.
                        (wanted == 0 || a.heard_distinct >= 1) && a.same * 2 >= len
                        // A name told apart by two syllables or fewer (清华
                        // in 清华大学, 心理 in 心理学) keeps each of them, at
                        // least as a near miss: 成清大学 and 成华大学 are
                        // some other school, not 清华 with a syllable lost.
                        && (wanted > 2 || a.distinct_cost < 1.0)
                    } else {
                        a.heard_distinct >= wanted.saturating_sub(1).max(2)
                            && text[start + a.end - 1] == e.syllables[len - 1].ch
                    };
                // The stretch written as the name itself: the exact pass saw
                // it and read it as something else (a cue, a longer word).
                let verbatim = a.same == len && a.end - a.start == len;
                // Every syllable the name's own reading, whatever few are
                // written as the name: a recognizer writing a name's sound
                // in other characters (习教 for 西交, 好陈松 for 郝晨松: a
                // person's name is written in its common homophones more
                // often than not). Reported close; one with no character of
                // its own the caller takes only where a name stands.
                let homophones = same_reading(a.end - a.start, len, a.same, a.distance);
                if a.distance <= reach(len)
                    && !verbatim
                    && (homophones || (a.same > 0 && heard_enough))
                {
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

    /// Entry `id` typed over `[start, end)`: exact, so at distance 0.
    fn typed(&self, id: u32, start: usize, end: usize, how: How) -> Match<T> {
        let e = &self.entries[id as usize];
        Match {
            start,
            end,
            value: e.value.clone(),
            distance: 0.0,
            same_chars: 0,
            len: e.syllables.len(),
            how,
            close: true,
        }
    }

    /// Every run of capitals in `text` (as written: case is what tells a
    /// spelled abbreviation from a word, so before any folding) within an
    /// abbreviation's [`letters::tolerance`], its own letters more or less
    /// one, with each abbreviation it is near.
    pub fn abbreviations_heard(&self, text: &[char]) -> Vec<Spelled<'_, T>> {
        let mut out = Vec::new();
        if self.letters.is_empty() {
            return out;
        }
        for (start, end, heard) in letters::capital_runs(text) {
            for (abbr, value) in &self.letters {
                if heard.len().abs_diff(abbr.len()) > 1 {
                    continue;
                }
                let distance = letters::distance(&heard, abbr);
                if distance <= letters::tolerance(abbr.len()) {
                    out.push(Spelled {
                        start,
                        end,
                        letters: abbr,
                        value,
                        distance,
                    });
                }
            }
        }
        out
    }

    /// Latin stretches: words joined into a toneless spelling, or one
    /// word of initials.
    fn find_typed(&self, text: &[char], free: &impl Fn(usize) -> bool, out: &mut Vec<Match<T>>) {
        // Latin words (start, end) in order, with whether a separator
        // other than a space stands before the next.
        let words = latin_words(text, free);
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
                    out.push(self.typed(*id, words[a].0, words[b].1, How::Pinyin));
                }
            }
            let word: String = text[words[a].0..words[a].1]
                .iter()
                .map(|c| c.to_ascii_lowercase())
                .collect();
            if word.len() >= 2 && !word.contains(['a', 'e', 'i', 'o', 'u', 'v']) {
                if let Some(ids) = self.by_initials.get(&word) {
                    for id in ids {
                        out.push(self.typed(*id, words[a].0, words[a].1, How::Initials));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
