//! Latin abbreviations heard letter by letter.
//!
//! A student says "PKU" or "BUPT" one letter at a time, and a recognizer
//! writes back "BKU", "VUPG" or "U.S.C.B.": the letters' *names* were
//! heard, and the names of English letters rhyme in a few families (B, C,
//! D, E, G, P, T, V and Z all end in "ee"; F, L, M, N, S and X start with
//! "e"; A, H, J and K end in "ay"), which is where a listener — human or
//! model — trades one for another. So an abbreviation is compared with a
//! run of capitals by an edit distance in which a letter traded within
//! its family costs half an edit, and any other edit a whole one.
//!
//! Only runs written in capitals are read this way (a recognizer writes a
//! spelled abbreviation so; a lowercase word is a word), only of three
//! letters or more (two letters leave too little to tell "EE" from "CE"),
//! and the caller fills a field from one only when no other abbreviation
//! is about as close.

/// The families of letters whose English names rhyme.
const FAMILIES: [&[u8]; 5] = [b"BCDEGPTVZ", b"FLMNSX", b"AHJK", b"IY", b"QUW"];

/// The cost of a letter traded for one of its family.
const NEAR: f32 = 0.5;

fn family(c: u8) -> Option<usize> {
    FAMILIES.iter().position(|f| f.contains(&c))
}

fn substitution(a: u8, b: u8) -> f32 {
    if a == b {
        0.0
    } else if family(a).is_some() && family(a) == family(b) {
        NEAR
    } else {
        1.0
    }
}

/// The fewest letters an abbreviation read by its letters has, and the
/// most.
pub(super) const MIN_LETTERS: usize = 3;
pub(super) const MAX_LETTERS: usize = 6;

/// The letters of `name` in capitals when it is one Latin word an
/// abbreviation may be (three to six letters).
pub(super) fn abbreviation(name: &str) -> Option<Vec<u8>> {
    let n = name.len();
    ((MIN_LETTERS..=MAX_LETTERS).contains(&n) && name.bytes().all(|b| b.is_ascii_alphabetic()))
        .then(|| name.bytes().map(|b| b.to_ascii_uppercase()).collect())
}

/// The edit distance by letter sound between `heard` and `abbr`.
pub(super) fn distance(heard: &[u8], abbr: &[u8]) -> f32 {
    let mut row: Vec<f32> = (0..=abbr.len()).map(|j| j as f32).collect();
    for (i, &h) in heard.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = (i + 1) as f32;
        for (j, &a) in abbr.iter().enumerate() {
            let best = (diagonal + substitution(h, a))
                .min(row[j] + 1.0)
                .min(row[j + 1] + 1.0);
            diagonal = row[j + 1];
            row[j + 1] = best;
        }
    }
    row[abbr.len()]
}

/// How far an abbreviation of `len` letters may be heard: one letter of
/// three traded within its family, two of four or more (or one lost).
pub(super) fn tolerance(len: usize) -> f32 {
    if len <= MIN_LETTERS {
        NEAR
    } else {
        2.0 * NEAR
    }
}

/// The runs of capitals in `text`, as `(start, end,
/// letters)`: a word of three to six capitals ("BKU"), or single capitals
/// joined by dots, hyphens or spaces ("U.S.C.B.", "B K U"). Words of two
/// capitals stay apart ("AI EE" is two words, not an abbreviation).
/// A word with a lowercase letter is no run, nor part of one.
pub(super) fn capital_runs(text: &[char]) -> Vec<(usize, usize, Vec<u8>)> {
    // Latin words (start, end, all capitals).
    let words: Vec<(usize, usize, bool)> = super::latin_words(text, |_| true)
        .into_iter()
        .map(|(s, e)| (s, e, text[s..e].iter().all(|c| c.is_ascii_uppercase())))
        .collect();
    let joins = |from: usize, to: usize| {
        to - from <= 2 && text[from..to].iter().all(|c| matches!(c, '.' | '-' | ' '))
    };
    let letters = |s: usize, e: usize| -> Vec<u8> { text[s..e].iter().map(|&c| c as u8).collect() };
    let mut runs = Vec::new();
    let mut w = 0;
    while w < words.len() {
        let (start, end, capitals) = words[w];
        w += 1;
        if !capitals {
            continue;
        }
        if end - start > 1 {
            if (MIN_LETTERS..=MAX_LETTERS).contains(&(end - start)) {
                runs.push((start, end, letters(start, end)));
            }
            continue;
        }
        // Letters spelled apart: join while the next is one letter too.
        let mut spelled = letters(start, end);
        let mut last = end;
        while w < words.len()
            && words[w].2
            && words[w].1 - words[w].0 == 1
            && joins(last, words[w].0)
        {
            spelled.extend(letters(words[w].0, words[w].1));
            last = words[w].1;
            w += 1;
        }
        if (MIN_LETTERS..=MAX_LETTERS).contains(&spelled.len()) {
            runs.push((start, last, spelled));
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(s: &str) -> Vec<String> {
        let chars: Vec<char> = s.chars().collect();
        capital_runs(&chars)
            .into_iter()
            .map(|(_, _, l)| String::from_utf8(l).unwrap())
            .collect()
    }

    #[test]
    fn letters_of_one_family_are_near_and_others_far() {
        assert_eq!(distance(b"BKU", b"PKU"), 0.5);
        assert_eq!(distance(b"VUPG", b"BUPT"), 1.0);
        assert_eq!(distance(b"USCB", b"USTC"), 1.0);
        assert_eq!(distance(b"PKU", b"PKU"), 0.0);
        assert!(distance(b"RUC", b"PKU") > tolerance(3));
        assert!(distance(b"VUPG", b"BUAA") > tolerance(4));
        // A letter lost costs a whole edit.
        assert_eq!(distance(b"UESC", b"UESTC"), 1.0);
    }

    #[test]
    fn capitals_are_read_as_written_or_spelled_apart() {
        assert_eq!(runs("BKU的金融"), ["BKU"]);
        assert_eq!(runs("我想考U.S.C.B.的物理"), ["USCB"]);
        assert_eq!(runs("B K U computer science"), ["BKU"]);
        // Lowercase words and long capitals are no abbreviation heard.
        assert!(runs("Peking University").is_empty());
        assert!(runs("bku").is_empty());
        assert!(runs("UNIVERSITY").is_empty());
        // Two letters are too few.
        assert!(runs("EE").is_empty());
        assert!(runs("AI EE").is_empty());
        assert_eq!(abbreviation("sjtu").as_deref(), Some(&b"SJTU"[..]));
        assert_eq!(abbreviation("peking university"), None);
    }
}
