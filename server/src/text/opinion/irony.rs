//! Irony: praise set in quotation marks.
//!
//! A student who writes 我们老板真是"太关心"我们了, 导师很"民主", or
//! 非常"放心" means the opposite of the word they quote; quotation marks
//! around praise are how written Chinese says so. Quotes that follow a
//! verb of saying or naming are someone's words or a name instead
//! (他说"年轻人不要太看重钱", 我们叫他"暴君", 是"神仙导师"): they are not
//! turned.

/// Marks that open and close a quotation, in pairs.
const QUOTES: [(char, char); 5] = [
    ('"', '"'),
    ('“', '”'),
    ('「', '」'),
    ('『', '』'),
    ('‘', '’'),
];

/// What may stand right before a quotation that is words or a name.
const INTRODUCED: [char; 9] = ['说', '叫', '称', '是', '为', '道', '问', ':', '：'];

/// The contents (folded, without spaces) of the short quotations in
/// `message` that are the writer's own words set in quotation marks.
pub fn quoted(message: &str) -> Vec<String> {
    let chars: Vec<char> = super::super::fold::fold(message)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let Some((_, close)) = QUOTES.iter().find(|(o, _)| *o == chars[i]) else {
            i += 1;
            continue;
        };
        let Some(len) = chars[i + 1..].iter().position(|c| c == close) else {
            break;
        };
        let inner: String = chars[i + 1..i + 1 + len].iter().collect();
        // "真是"太关心"": 是 after an adverb stresses, it does not name.
        let stressed = i > 1 && chars[i - 1] == '是' && "真就可还算".contains(chars[i - 2]);
        // "叫他"暴君"": a name given to someone.
        let named = i > 1 && "叫称喊".contains(chars[i - 2]);
        let introduced = (i > 0 && INTRODUCED.contains(&chars[i - 1]) && !stressed) || named;
        if !introduced && (1..=6).contains(&len) {
            out.push(inner);
        }
        i += len + 2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::quoted;

    #[test]
    fn praise_in_quotes_is_the_writer_s_own_unless_introduced() {
        assert_eq!(quoted("我们老板真是\"太关心\"我们了"), ["太关心"]);
        assert_eq!(quoted("导师很“民主”：论文你自己写"), ["民主"]);
        assert!(quoted("我们私下叫他\"暴君\"").is_empty());
        assert!(quoted("都说他是“神仙导师”").is_empty());
    }
}
