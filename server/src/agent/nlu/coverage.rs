//! What code did not understand of a message: the fragments no lexicon word,
//! name or reference covers and that are not grammar (the `function` words
//! of cues.txt, the person nouns, classifiers and lead words of the lexicon
//! files). A turn whose message leaves no fragment was understood by code
//! whole, and a language model has nothing to add to it: it is not asked.
//! A message that leaves one ("我想多学东西", "西电的网安",
//! "复试一般考什么") is where a model may rescue the turn.
//!
//! Single characters are not counted: a stray 荐 or 东 left between two
//! tokens is a split of a word code did read, and a model call for it costs
//! seconds for nothing.

use super::faq::FaqEntry;
use super::lexicon::Lexicons;
use super::tokens::Text;
use crate::text::utterance::{find_word, SEP};

/// The shortest fragment (in characters) that counts as not understood.
const MIN_FRAGMENT: usize = 2;

/// The fragments of `t` that code did not understand, in order. `faq`: the
/// FAQ entry that answers the message, whose words code read.
pub(crate) fn unexplained(t: &Text, lex: &Lexicons, faq: Option<&FaqEntry>) -> Vec<String> {
    // The words of the FAQ entry that answers are read too.
    let mut read = vec![false; t.chars.len()];
    for word in faq.into_iter().flat_map(FaqEntry::trigger_words) {
        let mut from = 0;
        while let Some(at) = find_word(&t.chars, word, from) {
            read[at..at + word.len()].iter_mut().for_each(|r| *r = true);
            from = at + word.len();
        }
    }
    let raw = |i: usize| t.is_raw(i) && !read[i];
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.chars.len() {
        if !raw(i) || t.chars[i] == SEP {
            i += 1;
            continue;
        }
        let start = i;
        while i < t.chars.len() && raw(i) && t.chars[i] != SEP {
            i += 1;
        }
        out.extend(content(&t.chars[start..i], lex));
    }
    out
}

/// The content fragments of one uncovered run. Grammar words of two or
/// more characters and ordinal numbers ("第3个") are set aside wherever they
/// stand; a one-character grammar word only at the edge of what is left
/// (的, 了, 想…), because inside a word it is part of it: 上 is grammar in
/// "考上" but not in "晚上".
fn content(run: &[char], lex: &Lexicons) -> Vec<String> {
    let l = &lex.lists;
    let grammar = [
        &l.function,
        &l.person_noun,
        &l.classifier,
        &l.from_end_prefix,
        &l.pronoun_bare,
        &l.polite,
        &l.lead,
        &l.question,
    ];
    let longest =
        |chars: &[char], i: usize| grammar.iter().filter_map(|w| w.prefix_at(chars, i)).max();
    let mut pieces: Vec<Vec<char>> = vec![Vec::new()];
    let mut i = 0;
    while i < run.len() {
        let ordinal = run[i] == '第' && run.get(i + 1).is_some_and(char::is_ascii_digit);
        match longest(run, i) {
            Some(len) if len >= 2 || ordinal => {
                pieces.push(Vec::new());
                i += len;
                while ordinal && i < run.len() && run[i].is_ascii_digit() {
                    i += 1;
                }
            }
            _ if run[i].is_whitespace() => {
                pieces.push(Vec::new());
                i += 1;
            }
            _ => {
                pieces.last_mut().expect("never empty").push(run[i]);
                i += 1;
            }
        }
    }
    pieces
        .into_iter()
        .map(|p| trim_edges(&p, &longest))
        .filter(|text| {
            let cjk = text.chars().filter(|c| !c.is_ascii()).count();
            let latin = text.chars().filter(char::is_ascii_alphanumeric).count();
            cjk >= MIN_FRAGMENT || latin >= MIN_FRAGMENT || (cjk > 0 && latin > 0)
        })
        .collect()
}

/// `piece` without the one-character grammar words at either end.
fn trim_edges(piece: &[char], longest: &dyn Fn(&[char], usize) -> Option<usize>) -> String {
    let (mut s, mut e) = (0, piece.len());
    while s < e && longest(&piece[s..e], 0) == Some(1) {
        s += 1;
    }
    while s < e && longest(&piece[e - 1..e], 0) == Some(1) {
        e -= 1;
    }
    piece[s..e].iter().collect()
}

#[cfg(test)]
mod tests {
    use super::super::analyze;
    use super::super::tests::fixture::{lexicons, names};

    fn unexplained(text: &str) -> Vec<String> {
        analyze(text, lexicons(), &names()).unexplained
    }

    #[test]
    fn what_code_reads_whole_leaves_nothing() {
        for text in [
            "我想考北京大学计算机系，想做机器学习，导师温和一点",
            "我希望导师温和一点",
            "第一个导师怎么样？",
            "倒数第一个呢",
            "他的详细信息给我看看",
            "帮我推荐几个导师",
            "不要太严格的导师",
            "什么是985",
            "好的谢谢你",
            "我是27考研的，想考北京大学计算机的专硕",
            "北京大学计算机系，打算直博",
            "我想考霍格沃茨大学",
            "喜欢理论型的",
            "可以",
        ] {
            assert_eq!(unexplained(text), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn what_code_did_not_read_is_left() {
        for (text, left) in [
            ("好纠结，不知道该选谁", "纠结"),
            ("周末想出去放松一下", "周末想出去放松"),
            ("唉，备考压力好大，晚上都睡不着", "晚上都睡"),
            ("同济土木", "同济土木"),
            ("我想考华科的材料", "材料"),
            ("导师严格一点没关系，我想多学东西", "东西"),
        ] {
            let got = unexplained(text);
            assert!(got.iter().any(|f| f == left), "{text}: {got:?}");
        }
    }

    #[test]
    fn a_grammar_character_inside_a_word_is_part_of_it() {
        // 上 and 都 are grammar in "考上" and "都行", not in "晚上".
        assert!(unexplained("晚上都睡不着")
            .iter()
            .any(|f| f.contains("晚上")));
        assert_eq!(unexplained("我想考上北京大学"), Vec::<String>::new());
    }
}
