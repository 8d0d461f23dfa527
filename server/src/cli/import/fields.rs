//! The rules of each value, whatever the catalog holds: what a name may be
//! written with, the titles of the site, how directions are separated, the
//! lengths, the characters no field may hold. A rule of the site's data
//! changes here and nowhere else.

use super::csv::{BIO, COLUMNS_ZH};
use super::shown;

/// The titles of the site (the demo's, the agent's words for people).
pub const TITLES: [&str; 4] = ["教授", "副教授", "研究员", "讲师"];
pub const MAX_NAME: usize = 20;
pub const MAX_DIRECTIONS: usize = 8;
pub const MAX_DIRECTION: usize = 30;
pub const MAX_BIO: usize = 2000;
/// What separates directions inside their field.
const DIRECTION_SEPARATORS: &[char] = &['、', ';', '；', ',', '，'];

/// One reason per field (in `COLUMNS` order) that holds a control
/// character; the bio may hold line breaks.
pub(super) fn control_characters(fields: &[&str; 6]) -> Vec<String> {
    let mut reasons = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let allowed = |c: char| i == BIO && matches!(c, '\n' | '\r');
        if f.chars().any(|c| c.is_control() && !allowed(c)) {
            reasons.push(format!("{}含有控制字符", COLUMNS_ZH[i]));
        }
    }
    reasons
}

/// A Chinese character (the CJK ideograph blocks, 〇).
fn is_han(c: char) -> bool {
    matches!(c,
        '\u{3007}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{3134F}')
}

/// A Latin letter, with or without accents (Basic Latin to Latin Extended-B).
fn is_latin(c: char) -> bool {
    c.is_ascii_alphabetic() || (('\u{C0}'..='\u{24F}').contains(&c) && c.is_alphabetic())
}

/// A name, spaces collapsed and `・` read as `·`; or why not.
pub(super) fn check_name(raw: &str) -> Result<String, String> {
    let name = raw
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('・', "·");
    if name.is_empty() {
        return Err("姓名不能为空".to_string());
    }
    let len = name.chars().count();
    if len > MAX_NAME {
        return Err(format!(
            "姓名「{}」有 {len} 个字，最多 {MAX_NAME} 个字",
            shown(&name)
        ));
    }
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let between_latin =
            || i > 0 && i + 1 < chars.len() && is_latin(chars[i - 1]) && is_latin(chars[i + 1]);
        let ok =
            is_han(c) || is_latin(c) || c == '·' || (matches!(c, ' ' | '-') && between_latin());
        if !ok {
            return Err(format!(
                "姓名「{}」里有「{c}」：只能用汉字、拉丁字母和 ·",
                shown(&name)
            ));
        }
    }
    if !chars.iter().any(|c| is_han(*c) || is_latin(*c)) {
        return Err(format!("姓名「{}」里没有字", shown(&name)));
    }
    Ok(name)
}

/// One of [`TITLES`] exactly; or why not.
pub(super) fn check_title(title: &str) -> Result<(), String> {
    if TITLES.contains(&title) {
        Ok(())
    } else if title.is_empty() {
        Err(format!("职称不能为空（应为 {} 之一）", TITLES.join("、")))
    } else {
        Err(format!(
            "职称「{}」不是网站的职称（应为 {} 之一）",
            shown(title),
            TITLES.join("、")
        ))
    }
}

/// The directions of a field, in order, repeats dropped; or why not.
pub(super) fn check_directions(raw: &str) -> Result<Vec<String>, Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for d in raw.split(DIRECTION_SEPARATORS).map(str::trim) {
        if !d.is_empty() && !out.iter().any(|o| o == d) {
            out.push(d.to_string());
        }
    }
    let mut reasons = Vec::new();
    if out.len() > MAX_DIRECTIONS {
        reasons.push(format!(
            "研究方向有 {} 个，最多 {MAX_DIRECTIONS} 个",
            out.len()
        ));
    }
    for d in &out {
        let len = d.chars().count();
        if len > MAX_DIRECTION {
            reasons.push(format!(
                "研究方向「{}」有 {len} 个字，最多 {MAX_DIRECTION} 个字",
                shown(d)
            ));
        }
    }
    if reasons.is_empty() {
        Ok(out)
    } else {
        Err(reasons)
    }
}

/// The bio with its line ends made `\n`; or why not.
pub(super) fn check_bio(raw: &str) -> Result<String, String> {
    let bio = raw.replace("\r\n", "\n").replace('\r', "\n");
    let bio_len = bio.chars().count();
    if bio_len > MAX_BIO {
        return Err(format!("简介有 {bio_len} 个字，最多 {MAX_BIO} 个字"));
    }
    Ok(bio)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{catalog, reasons, HEADER};
    use super::super::plan;
    use super::*;

    #[test]
    fn lengths_are_counted_in_characters() {
        let long_name = "欧".repeat(21);
        let long_direction = "向".repeat(31);
        let long_bio = "简".repeat(2001);
        let text = format!(
            "{HEADER}{long_name},教授,北大,计算机,,\n\
             甲乙,教授,北大,计算机,{long_direction},\n\
             丙丁,教授,北大,计算机,,{long_bio}\n\
             {},教授,北大,计算机,{},{}\n",
            "欧".repeat(20),
            "向".repeat(30),
            "简".repeat(2000)
        );
        let plan = plan(&text, &catalog());
        let r = reasons(&plan);
        assert_eq!(r.len(), 3, "{r:?}");
        assert!(r[0].starts_with("第 2 行：姓名「") && r[0].contains("有 21 个字"));
        assert!(r[1].contains("有 31 个字，最多 30 个字"));
        assert!(r[2].contains("简介有 2001 个字"));
        assert_eq!(plan.rows.len(), 1);
    }

    #[test]
    fn names_allow_latin_words_and_the_middle_dot_only() {
        assert_eq!(
            check_name(" 张  三 ").unwrap_err(),
            "姓名「张 三」里有「 」：只能用汉字、拉丁字母和 ·"
        );
        assert_eq!(check_name("Jean  Dupont").unwrap(), "Jean Dupont");
        assert!(check_name("·").is_err());
        assert!(check_name("-Jean").is_err());
        assert!(check_name("张三<script>").is_err());
        assert_eq!(check_name("𠀀三").unwrap(), "𠀀三");
    }
}
