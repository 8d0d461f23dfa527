//! One character as it sounds: its toneless readings, the same with the
//! merges speakers and recognizers make, and what hearing one syllable for
//! another costs.

/// What the index holds for one character position of a name or a text:
/// the sounds of each of its readings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Syllable {
    pub(super) ch: char,
    /// Toneless readings, as hashes.
    pub(super) plain: Vec<u64>,
    /// The same after the merges (`fuzzy`), as hashes.
    pub(super) fuzzy: Vec<u64>,
    /// The merged sound with an aspirated initial written as its plain
    /// twin (p → b, t → d…): two syllables that differ only by breath
    /// share it, so a near miss is one comparison, not a table scan.
    pub(super) unaspirated: Vec<u64>,
}

pub(super) use crate::text::names::is_han;

/// FNV-1a: a fixed hash, so sounds compare as numbers.
pub(super) fn hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A toneless syllable split into initial and final ("zhang" → "zh", "ang").
pub(super) fn split(s: &str) -> (&str, &str) {
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

/// Pairs of initials told apart only by breath (b/p, d/t, g/k, j/q, z/c;
/// zh/ch are already z/c after the merges): a recognizer swaps them often,
/// a listener rarely; a near miss. The plain twin of an initial, if it has
/// one.
fn unaspirated(initial: &str) -> Option<&'static str> {
    match initial {
        "b" | "p" => Some("b"),
        "d" | "t" => Some("d"),
        "g" | "k" => Some("g"),
        "j" | "q" => Some("j"),
        "z" | "c" => Some("z"),
        _ => None,
    }
}

/// The finals a near miss of the initial is counted on: every merged
/// final a paired initial stands before.
const NEAR_FINALS: &[&str] = &[
    "a", "o", "e", "i", "u", "ai", "ei", "ao", "ou", "an", "en", "in", "un", "ong", "ia", "ie",
    "iao", "iu", "ian", "iong", "ua", "uo", "uai", "ui", "uan", "ue", "er",
];

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
pub(super) fn readings(c: char, all: bool) -> Vec<String> {
    if is_han(c) {
        crate::text::names::readings(c, all)
    } else {
        Vec::new()
    }
}

pub(super) fn syllable(c: char, all: bool) -> Syllable {
    let mut s = Syllable {
        ch: c,
        ..Syllable::default()
    };
    let push = |list: &mut Vec<u64>, h: u64| {
        if !list.contains(&h) {
            list.push(h);
        }
    };
    for r in readings(c, all) {
        let f = fuzzy(&r);
        let (initial, fin) = split(&f);
        push(&mut s.plain, hash(&r));
        push(&mut s.fuzzy, hash(&f));
        if let Some(twin) = unaspirated(initial).filter(|_| NEAR_FINALS.contains(&fin)) {
            push(&mut s.unaspirated, hash(&format!("{twin}{fin}")));
        }
    }
    s
}

/// The cost of hearing `heard` where the name has `want`: 0 for the same
/// character, then the same toneless reading (a tone or a homophone), the
/// same sound after the merges, a near miss (the same final with an
/// aspirated-pair initial), else a whole edit.
pub(super) fn substitution(want: &Syllable, heard: &Syllable) -> f32 {
    let meets = |a: &[u64], b: &[u64]| a.iter().any(|x| b.contains(x));
    if want.ch == heard.ch {
        0.0
    } else if meets(&want.plain, &heard.plain) {
        SAME_READING
    } else if meets(&want.fuzzy, &heard.fuzzy) {
        SAME_SOUND
    } else if meets(&want.unaspirated, &heard.unaspirated) {
        NEAR_SOUND
    } else {
        1.0
    }
}

/// Costs of [`substitution`] (a dropped or added character costs 1).
pub(super) const SAME_READING: f32 = 0.1;
pub(super) const SAME_SOUND: f32 = 0.3;
pub(super) const NEAR_SOUND: f32 = 0.6;

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
