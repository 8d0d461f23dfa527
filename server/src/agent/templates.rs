//! Reply templates of the embedded planner, read from
//! `prompts/embedded/replies.txt` (no reply text lives in Rust code).

use std::collections::HashMap;

const REPLIES: &str = include_str!("../../../prompts/embedded/replies.txt");
const CASUAL: &str = include_str!("../../../prompts/embedded/casual.txt");

#[derive(Debug)]
pub struct Templates {
    variants: HashMap<String, Vec<String>>,
}

impl Templates {
    /// The templates shipped with the binary.
    pub fn load() -> Templates {
        Templates::parse(REPLIES)
    }

    /// The casual persona's replies (`prompts/embedded/casual.txt`).
    pub fn casual() -> Templates {
        Templates::parse(CASUAL)
    }

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
        let mut out = list[turn as usize % list.len()].clone();
        for (name, value) in vars {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
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
    }

    #[test]
    fn shipped_templates_fit_the_voice_limit_with_typical_values() {
        let t = Templates::load();
        let vars = [
            ("school", "北京航空航天大学"),
            ("major", "计算机科学与技术"),
            ("school_short", "北航"),
            ("major_short", "计算机系"),
            ("name", "欧阳明远"),
            ("title", "教授"),
            ("direction", "机器学习"),
            ("rating", "4.5"),
            ("tags", "大家说他温和、负责"),
            ("count", "48"),
            ("average", "4.5"),
            ("level", "很好"),
            ("reason", "主要研究机器学习，学生评价温和"),
            ("second", "李四副教授"),
            ("said", "交大"),
            ("what", "温和"),
            ("a", "欧阳明远"),
            ("b", "司马相如"),
            ("lead_a", "师生关系更好"),
            ("lead_b", "学术水平更高"),
            ("advisors", "142"),
            ("reviews", "1234"),
            ("most", "欧阳明远"),
            ("next", "你希望导师是什么风格呢？"),
        ];
        for key in t.keys() {
            for (i, _) in t.variants(key).iter().enumerate() {
                let text = t.render(key, i as u32, &vars);
                assert!(!text.contains('{'), "{key}: unfilled placeholder in {text}");
                assert!(
                    super::super::voice::len(&text) <= super::super::voice::MAX_CHARS,
                    "{key}: {text} is {} characters",
                    super::super::voice::len(&text)
                );
            }
        }
    }

    #[test]
    fn the_seed_replies_are_there_word_for_word() {
        let t = Templates::load();
        assert_eq!(
            t.render("ask_major", 0, &[("school", "北京大学")]),
            "好的，北京大学。你想考哪个专业呢？"
        );
        assert_eq!(
            t.render("ask_school", 0, &[("major", "计算机")]),
            "计算机专业，请问是哪个学校的呢？"
        );
        assert_eq!(
            t.render("greeting", 0, &[]),
            "你好！我是导师推荐助手。请告诉我你想考哪个学校的哪个专业？"
        );
        assert_eq!(
            t.render("no_list", 0, &[]),
            "目前还没有导师列表，请先告诉我你的学校和专业。"
        );
        assert_eq!(
            t.render("want_exam", 0, &[]),
            "好的，请问你想考哪个学校的哪个专业呢？"
        );
        assert_eq!(
            t.render("data_error", 0, &[]),
            "抱歉，数据加载失败了，请稍后再试。"
        );
    }
}
