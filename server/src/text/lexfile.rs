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
    #[should_panic(expected = "t:1")]
    fn rejects_line_without_colon() {
        parse("t", "no colon here");
    }
}
