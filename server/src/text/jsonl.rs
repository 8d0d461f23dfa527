//! JSON Lines, as the evaluation sets are written (`server/evals/*.jsonl`):
//! one value a line; blank lines and `//` comment lines skipped; an error
//! names its line. The agent's, the coach's and the posting rules' sets all
//! read through it.

/// Every line of `text` as a `T`, or the first line that is not one.
pub fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<Vec<T>, String> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with("//"))
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}
