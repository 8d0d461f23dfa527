//! Reply templates: keyed blocks of variants in a text file (`[key]`, one
//! variant a line, `#` comments), a variant chosen by the turn number and
//! `{name}` placeholders filled. The agent's replies, the casual persona's
//! and the review coach's lines are all such files under `prompts/`, so no
//! reply text lives in Rust code; the model prompts use [`fill`] alone.

use std::collections::HashMap;

/// `template` with each `{name}` replaced by its value (trimmed).
pub fn fill(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = template.trim().to_string();
    for (k, v) in vars {
        out = out.replace(&format!("{{{k}}}"), v);
    }
    out
}

#[derive(Debug)]
pub struct Templates {
    variants: HashMap<String, Vec<String>>,
}

impl Templates {
    pub fn parse(text: &str) -> Templates {
        let mut variants: HashMap<String, Vec<String>> = HashMap::new();
        let mut key: Option<String> = None;
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(k) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                key = Some(k.trim().to_string());
                continue;
            }
            if let Some(k) = &key {
                variants
                    .entry(k.clone())
                    .or_default()
                    .push(line.to_string());
            }
        }
        Templates { variants }
    }

    pub fn has(&self, key: &str) -> bool {
        self.variants.contains_key(key)
    }

    /// Fills the template `key` (variant chosen by `turn`) with `vars`.
    pub fn render(&self, key: &str, turn: u32, vars: &[(&str, &str)]) -> String {
        let Some(list) = self.variants.get(key).filter(|l| !l.is_empty()) else {
            tracing::error!(key, "missing reply template");
            return String::from("好的。");
        };
        fill(&list[turn as usize % list.len()], vars)
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.variants.keys().map(String::as_str)
    }

    /// Every variant of a key (for tests).
    pub fn variants(&self, key: &str) -> &[String] {
        self.variants.get(key).map(Vec::as_slice).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_and_variants_rotate() {
        let t = Templates::parse("[a]\n你好{name}\n再见{name}\n");
        assert_eq!(t.render("a", 0, &[("name", "张三")]), "你好张三");
        assert_eq!(t.render("a", 1, &[("name", "张三")]), "再见张三");
        assert_eq!(t.render("a", 2, &[("name", "张三")]), "你好张三");
        assert_eq!(t.render("missing", 0, &[]), "好的。");
    }
}
