//! Reader for the plain-text lexicon format shared by every file in
//! `server/lexicons/`: `key: term | term | …`, one concept per line, `#`
//! comments, blank lines ignored, and a key that appears on several lines
//! collects all their terms. Files are compiled in, so a malformed line is a
//! programming error and panics with its file and line number.

/// One key with all its terms, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub key: String,
    pub terms: Vec<String>,
}

/// Parses `src` (named `file` in panic messages); keys keep the order of
/// their first appearance, terms the order they were written in.
pub(crate) fn parse(file: &str, src: &str) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for (no, raw) in src.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, rest)) = line.split_once(':') else {
            panic!(
                "{file}:{}: expected `key: term | term`, got {line:?}",
                no + 1
            );
        };
        let key = key.trim();
        if key.is_empty() {
            panic!("{file}:{}: empty key", no + 1);
        }
        let terms = rest
            .split('|')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string);
        match entries.iter_mut().find(|e| e.key == key) {
            Some(e) => e.terms.extend(terms),
            None => entries.push(Entry {
                key: key.to_string(),
                terms: terms.collect(),
            }),
        }
    }
    entries
}

/// The terms of each of `keys`, in that order, for a file whose every key
/// is one of them: what a lexicon's loader reads its lists with, instead
/// of matching each key by hand. A key not among them is a programming
/// error and panics with the file's name.
pub(crate) fn keyed<const N: usize>(file: &str, src: &str, keys: [&str; N]) -> [Vec<String>; N] {
    let mut lists: [Vec<String>; N] = std::array::from_fn(|_| Vec::new());
    for e in parse(file, src) {
        match keys.iter().position(|k| *k == e.key) {
            Some(i) => lists[i].extend(e.terms),
            None => panic!("{file}: unknown key {}", e.key),
        }
    }
    lists
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_keys_terms_comments_and_repeats() {
        let src = "# header\n\na: x | y\nb: z\n  a: w |  | v  \n";
        let e = parse("t", src);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].key, "a");
        assert_eq!(e[0].terms, ["x", "y", "w", "v"]);
        assert_eq!(e[1].terms, ["z"]);
    }

    #[test]
    fn keyed_lists_follow_the_keys_given() {
        let [b, a] = keyed("t", "a: x | y\nb: z\na: w\n", ["b", "a"]);
        assert_eq!(b, ["z"]);
        assert_eq!(a, ["x", "y", "w"]);
    }

    #[test]
    #[should_panic(expected = "t: unknown key c")]
    fn keyed_rejects_a_key_not_asked_for() {
        keyed("t", "c: x", ["a"]);
    }

    #[test]
    #[should_panic(expected = "t:1")]
    fn rejects_line_without_colon() {
        parse("t", "no colon here");
    }
}
