//! How alike two texts are: the Jaccard similarity of their character
//! bigrams, for "nearly the same review again" (the posting rule and the
//! repeated-text flag).

use std::collections::HashSet;

/// Character bigrams, spaces left out.
fn bigrams(text: &str) -> HashSet<(char, char)> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    chars.windows(2).map(|w| (w[0], w[1])).collect()
}

/// Jaccard similarity of the texts' character bigrams (1 for two texts
/// with none).
pub fn jaccard(a: &str, b: &str) -> f64 {
    let (a, b) = (bigrams(a), bigrams(b));
    let union = a.union(&b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(&b).count() as f64 / union as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearly_the_same_text_is_similar_and_another_is_not() {
        let a = "导师学术水平很高，每周组会都会认真指导，经费一般但够用。";
        assert!(
            jaccard(
                a,
                "导师学术水平很高，每周组会都会认真指导，经费一般但够用！"
            ) >= 0.8
        );
        assert!(jaccard(a, "老师很少管学生，经费紧张，毕业去向一般，不太推荐。") < 0.3);
    }
}
