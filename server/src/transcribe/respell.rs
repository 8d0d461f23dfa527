//! The site's own words, put back where a recognizer wrote a homophone.
//!
//! A recognizer writes a sound with whatever characters its sense of
//! Chinese makes likeliest, and that sense knows nothing of this site: it
//! heard 学长想咨询一下 as 学长想资讯一下, 想考华科 as 向考华科, 老师的主页
//! as 老师的主业. The names are matched by sound where they are read
//! (`agent::nlu::heard`); the words the understanding keys on (想考, 咨询,
//! 主页: the cues of `lexicons/cues.txt` and `lexicons/speech_acts.txt`;
//! 头一个, 倒数: the positions of a ranking in `lexicons/references.txt`)
//! are matched as written, so a homophone of one reads as nothing. Here,
//! in a transcript only (what a student types is what they meant), a
//! stretch that reads, character by character, with the same toneless
//! syllables as one of those words, with at least one character its own
//! (two homophones alone are as likely a name: 风翔 is no 方向), and is
//! not itself one of them, is written as that word. The question's 吗,
//! one character, is put back by where it stands: the last of a sentence
//! (`question_particle`).

use std::sync::OnceLock;

use crate::text::lexfile;
use crate::text::sound::{SoundIndex, MAX_SYLLABLES};
use crate::text::trie::Trie;

const CUES: &str = include_str!("../../lexicons/cues.txt");
const ARTIFACTS: &str = include_str!("../../lexicons/transcript_artifacts.txt");
const SPEECH_ACTS: &str = include_str!("../../lexicons/speech_acts.txt");
const REFERENCES: &str = include_str!("../../lexicons/references.txt");

/// The words, by sound: every term of two to six Han characters.
struct Words {
    index: SoundIndex<String>,
    /// The same words as written.
    written: Trie<()>,
}

fn words() -> &'static Words {
    static WORDS: OnceLock<Words> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut index = SoundIndex::new();
        let mut written = Trie::new();
        let terms = lexfile::parse("cues.txt", CUES)
            .into_iter()
            .chain(lexfile::parse("speech_acts.txt", SPEECH_ACTS))
            .chain(
                lexfile::parse("references.txt", REFERENCES)
                    .into_iter()
                    .filter(|e| e.key.starts_with("ordinal.") || e.key.starts_with("from_end")),
            )
            .flat_map(|e| e.terms);
        for t in terms {
            let n = t.chars().count();
            if (2..=6).contains(&n) && t.chars().all(crate::text::names::is_han) {
                written.insert(&t.chars().collect::<Vec<_>>(), ());
                index.insert(&t, t.clone());
            }
        }
        Words { index, written }
    })
}

/// `text` with every homophone of a site word written as the word (see
/// the module doc). Where two overlap, the longer, then the one with more
/// characters its own, wins; and none is put over a site word already
/// written (老师的 is no 老是的) nor over a name, which `is_name` tells
/// (北航的 is no 北行的).
pub fn respell(text: &str, is_name: impl Fn(&[char]) -> bool) -> String {
    let words = words();
    let mut chars: Vec<char> = text.chars().collect();
    let mut written = vec![false; chars.len()];
    for start in 0..chars.len() {
        // The longest site word from here covers every shorter one.
        let word = words.written.longest(&chars, start).map_or(0, |(n, _)| n);
        let name = (start + 2..=(start + MAX_SYLLABLES).min(chars.len()))
            .filter(|&end| is_name(&chars[start..end]))
            .last()
            .map_or(0, |end| end - start);
        let end = start + word.max(name);
        written[start..end].iter_mut().for_each(|w| *w = true);
    }
    // Two homophones alone are as likely a name: one character must be
    // the word's own. A word may hold a site word written already (头一个
    // holds 一个 in "投一个") but changes none of its characters.
    let mut found: Vec<(usize, usize, usize, String)> = words
        .index
        .homophones(&chars, |_| true)
        .into_iter()
        .filter(|h| h.same >= 1)
        // A digit is the number as written ("第2个"), not a homophone.
        .filter(|h| !chars[h.start..h.end].iter().any(char::is_ascii_digit))
        .filter(|h| {
            h.value
                .chars()
                .enumerate()
                .all(|(i, c)| chars[h.start + i] == c || !written[h.start + i])
        })
        .map(|h| (h.start, h.end, h.same, h.value))
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(b.2.cmp(&a.2)));
    let mut upto = 0;
    for (start, end, _, word) in found {
        if start < upto {
            continue;
        }
        for (i, c) in word.chars().enumerate() {
            chars[start + i] = c;
        }
        upto = end;
    }
    question_particle(&mut chars);
    a_not_a(&mut chars);
    chars.into_iter().collect()
}

/// What a recognizer writes for one character (`<key>.heard`), and the
/// words that hold those characters themselves (`<key>.words`).
struct Homophones {
    heard: Vec<char>,
    words: Vec<Vec<char>>,
}

impl Homophones {
    fn load(key: &str) -> Homophones {
        let entries = lexfile::parse("transcript_artifacts.txt", ARTIFACTS);
        let terms = |suffix: &str| -> Vec<String> {
            let key = format!("{key}.{suffix}");
            entries
                .iter()
                .filter(|e| e.key == key)
                .flat_map(|e| e.terms.clone())
                .collect()
        };
        Homophones {
            heard: terms("heard")
                .iter()
                .filter_map(|t| t.chars().next())
                .collect(),
            words: terms("words").iter().map(|t| t.chars().collect()).collect(),
        }
    }

    /// Whether `chars[i]` is one of the heard characters and no word of
    /// `words` ends there.
    fn stands_for_it(&self, chars: &[char], i: usize) -> bool {
        self.heard.contains(&chars[i])
            && !self
                .words
                .iter()
                .any(|w| w.len() <= i + 1 && chars[i + 1 - w.len()..=i] == w[..])
    }
}

/// What a recognizer writes for 吗 (`ma.*`).
fn particles() -> &'static Homophones {
    static LISTS: OnceLock<Homophones> = OnceLock::new();
    LISTS.get_or_init(|| Homophones::load("ma"))
}

/// What a recognizer writes for the 不 of A不A (`bu.*`).
fn negators() -> &'static Homophones {
    static LISTS: OnceLock<Homophones> = OnceLock::new();
    LISTS.get_or_init(|| Homophones::load("bu"))
}

/// "严博严格" → "严不严格", "紧步紧" → "紧不紧": a homophone of 不 between two
/// of the same Han character, the A不A of a yes-no question, unless it
/// makes a word with the character before it ("全部全是").
fn a_not_a(chars: &mut [char]) {
    let heard = negators();
    for i in 1..chars.len().saturating_sub(1) {
        let a = chars[i - 1];
        if a == chars[i + 1] && crate::text::names::is_han(a) && heard.stands_for_it(chars, i) {
            chars[i] = '不';
        }
    }
}

/// "严格的老师买。" → "严格的老师吗。": a homophone of 吗 as the last
/// character of a sentence, after a Han character, where the two do not
/// make a word of their own ("我想买").
fn question_particle(chars: &mut [char]) {
    let heard = particles();
    for i in 1..chars.len() {
        let last = chars.get(i + 1).is_none_or(|&c| {
            crate::text::clauses::ends_sentence(c) || crate::text::clauses::ends_clause(c)
        });
        if last && crate::text::names::is_han(chars[i - 1]) && heard.stands_for_it(chars, i) {
            chars[i] = '吗';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::respell as respell_with;

    fn respell(text: &str) -> String {
        respell_with(text, |w| {
            w == ['北', '航'] || w.iter().collect::<String>() == "北京航的天空大学"
        })
    }

    #[test]
    fn a_homophone_of_a_site_word_is_written_as_the_word() {
        assert_eq!(
            respell("学长想资讯一下清华的环境工程"),
            "学长想咨询一下清华的环境工程"
        );
        assert_eq!(
            respell("本科在武汉读的向考华科的软件"),
            "本科在武汉读的想考华科的软件"
        );
        assert_eq!(respell("点开严风翔老师的主业"), "点开严风翔老师的主页");
        assert_eq!(respell("我是想资讯一下北大"), "我是想咨询一下北大");
        // A ranking's positions are the site's words too.
        assert_eq!(respell("投一个老师,跟我讲讲他"), "头一个老师,跟我讲讲他");
    }

    #[test]
    fn the_question_s_ma_is_put_back_at_the_end_of_a_sentence() {
        assert_eq!(
            respell("吴露敏老师是严格的老师买。"),
            "吴露敏老师是严格的老师吗。"
        );
        assert_eq!(respell("经费充足满"), "经费充足吗");
        assert_eq!(respell("有温和的导师嘛，谢谢"), "有温和的导师吗，谢谢");
        assert_eq!(
            respell("最后一个老师经费充足骂。"),
            "最后一个老师经费充足吗。"
        );
        // Words of their own, and the characters inside a sentence, stay.
        for text in [
            "我想买",
            "对补助不满。",
            "买了个电脑",
            "马老师怎么样",
            "导师姓马，人很好",
            "我妈，想让我考北大",
            "他动不动就骂",
            "组会上经常挨骂。",
        ] {
            assert_eq!(respell(text), text);
        }
    }

    #[test]
    fn the_not_of_a_yes_no_question_is_put_back() {
        assert_eq!(respell("第2个老师严博严格"), "第2个老师严不严格");
        assert_eq!(
            respell("田宏斌老师平时逼得紧步紧"),
            "田宏斌老师平时逼得紧不紧"
        );
        for text in ["全部全是学生干的", "一步一步来", "好不好"] {
            assert_eq!(respell(text), text);
        }
    }

    #[test]
    fn words_as_written_and_near_misses_stay() {
        for text in [
            "我想考北京大学计算机",
            "打开第二个老师的主页",
            "快考华科的软件",
            "你好",
            // A name is never respelled (北航的 would read as 行的), a long
            // one included.
            "北航的航空航天怎么样",
            "北京航的天空大学",
        ] {
            assert_eq!(respell(text), text);
        }
    }
}
