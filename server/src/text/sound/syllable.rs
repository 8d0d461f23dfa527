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
    /// The merged final alone, for a near miss of the initial.
    pub(super) finals: Vec<u64>,
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

/// Pairs of initials told apart only by breath (b/p, d/t, g/k, j/q, z/c,
/// zh/ch): a recognizer swaps them often, a listener rarely; a near miss.
pub(super) fn aspirated_pair(a: &str, b: &str) -> bool {
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
pub(super) fn substitution(want: &Syllable, heard: &Syllable, near: &[(u64, u64)]) -> f32 {
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

/// The merged sounds that are near misses of each other (an
/// aspirated-pair initial with the same final): (want, heard) hashes.
pub(super) fn near_pairs() -> Vec<(u64, u64)> {
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
