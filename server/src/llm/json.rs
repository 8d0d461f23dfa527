//! JSON inside a model's text: models put their structured answer in a
//! code fence, after a sentence of prose, or next to it. The agent's output
//! reader, the voice cleaner and the review coach's router all look for the
//! first balanced object the same way, with strings and escapes respected.

use serde_json::{Map, Value};

/// The first balanced JSON object in `text` (strings and escapes respected),
/// ignoring fences before it and anything after it.
pub fn json_object(text: &str) -> Option<Map<String, Value>> {
    let start = text.find('{')?;
    let len = object_len(&text[start..])?;
    match serde_json::from_str::<Value>(&text[start..start + len]) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// The byte length of the balanced `{…}` that `text` opens with (strings
/// and escapes respected); `None` when it is not closed.
pub fn object_len(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => depth += 1,
            '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}
