//! One character as it sounds: its toneless readings, the same with the
//! merges speakers and recognizers make, and what hearing one syllable for
//! another costs.

use crate::text::numbers::numeral_of_digit;

/// What the index holds for one character position of a name or a text:
/// the sounds of each of its readings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Syllable {
    pub(super) ch: char,
    /// Toneless readings, as hashes.
    pub(super) plain: Vec<u64>,
    /// The same after the merges (`fuzzy`), as hashes.
    pub(super) fuzzy: Vec<u64>,
    /// Keys of a near miss (see [`Syllable::near_keys`]): two syllables share one
    /// of `by_place` when their initials are a pair a recognizer trades
    /// (see [`place`]) with the same final; one's `final_as_is` is in the other's
    /// `final_reduced` when, with the same initial, one final is the other
    /// with a glide or a closing -i or -o added (hua/huai, xin/xian, xia/xiao).
    pub(super) by_place: Vec<u64>,
    pub(super) final_as_is: Vec<u64>,
    pub(super) final_reduced: Vec<u64>,
    /// The initial of each reading, after the merges.
    pub(super) onset: Vec<u64>,
}

impl Syllable {
    /// Every near-miss key, for an index that needs a superset.
    pub(super) fn near_keys(&self) -> impl Iterator<Item = &u64> {
        self.by_place
            .iter()
            .chain(&self.final_as_is)
            .chain(&self.final_reduced)
    }
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

/// Initials a recognizer trades for each other: the same place in the
/// mouth and the same closure, told apart only by breath (b/p, d/t, g/k)
/// or by whether the closure is released into friction (j/q/x, z/c/s, and
/// zh/ch/sh, already z/c/s after the merges): 清 heard for 心, 顺 for 说.
/// Nasals and laterals are not among them (那 is not 大). An h, only
/// breath before the vowel (f merged into it), is traded for no initial at
/// all: after an open syllable a recognizer loses it (打开贺… heard as
/// 打开饿…) or hears one in a vowel's onset.
fn place(initial: &str) -> Option<&'static str> {
    match initial {
        "h" | "" => Some("breath"),
        "b" | "p" => Some("lips"),
        "d" | "t" => Some("teeth"),
        "g" | "k" => Some("back"),
        "j" | "q" | "x" => Some("palate"),
        "z" | "c" | "s" => Some("dental"),
        _ => None,
    }
}

/// A final with one of its edges worn off: the glide before the vowel
/// (hua → a, xian → an, shuo → o), a closing -i or -o (huai → hua, hui →
/// hu, lei → le; xiao → xia, gao → ga, lou → lo) or a closing nasal (gen →
/// ge, ban → ba; -ng is -n after the merges). A recognizer, or a speaker
/// in a hurry, drops or adds one (校门 for 厦门, 那根 for 那个).
fn reduced(fin: &str) -> Vec<String> {
    let mut out = Vec::new();
    let vowels = |s: &str| s.chars().any(|c| "aeiouv".contains(c));
    for glide in ["i", "u", "v"] {
        if let Some(rest) = fin.strip_prefix(glide) {
            if vowels(rest) {
                out.push(rest.to_string());
            }
        }
    }
    if let Some(rest) = fin.strip_suffix('i') {
        if vowels(rest) {
            out.push(rest.to_string());
        }
    }
    if let Some(rest) = fin.strip_suffix('n') {
        if vowels(rest) {
            out.push(rest.to_string());
        }
    }
    // The closing glide of ao, iao and ou (written o, u): not the o of uo.
    if fin.ends_with("ao") || fin == "ou" {
        out.push(fin[..fin.len() - 1].to_string());
    }
    out
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
    } else if let Some(numeral) = numeral_of_digit(c) {
        // A digit a recognizer wrote inside a name ("上海第2医科大学") was
        // said, and sounds, as its numeral.
        crate::text::names::readings(numeral, all)
    } else {
        Vec::new()
    }
}

/// Whether `c` is heard as a syllable: a Han character, or a digit read as
/// its numeral.
pub(super) fn sounded(c: char) -> bool {
    is_han(c) || numeral_of_digit(c).is_some()
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
        if let Some(place) = place(initial) {
            push(&mut s.by_place, hash(&format!("{place}|{fin}")));
        }
        push(&mut s.final_as_is, hash(&format!("{initial}|{fin}")));
        push(&mut s.onset, hash(initial));
        for less in reduced(fin) {
            push(&mut s.final_reduced, hash(&format!("{initial}|{less}")));
        }
    }
    s
}

/// The cost of hearing `heard` where the name has `want`: 0 for the same
/// character, then the same toneless reading (a tone or a homophone), the
/// same sound after the merges, a near miss (an initial made at the same
/// place, or a final with a glide, a closing -i or -o or a closing nasal
/// more or less), else a whole edit.
pub(super) fn substitution(want: &Syllable, heard: &Syllable) -> f32 {
    let meets = |a: &[u64], b: &[u64]| a.iter().any(|x| b.contains(x));
    if want.ch == heard.ch {
        0.0
    } else if meets(&want.plain, &heard.plain) {
        SAME_READING
    } else if meets(&want.fuzzy, &heard.fuzzy) {
        SAME_SOUND
    } else if meets(&want.by_place, &heard.by_place)
        || meets(&want.final_as_is, &heard.final_reduced)
        || meets(&want.final_reduced, &heard.final_as_is)
    {
        NEAR_SOUND
    } else {
        1.0
    }
}

/// Whether two syllables begin with the same initial (after the merges):
/// a recognizer that writes a wrong syllable more often keeps its onset
/// and loses the vowel (库 for 科, 城 for 床) than the other way round.
pub(super) fn same_onset(a: &Syllable, b: &Syllable) -> bool {
    a.onset.iter().any(|x| b.onset.contains(x))
}

/// Costs of [`substitution`] (a dropped or added character costs 1).
pub const SAME_READING: f32 = 0.1;
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
