//! The sound index's tests: the merges, what is found and what is not.

use super::*;

fn index(names: &[&str]) -> SoundIndex<String> {
    let mut ix = SoundIndex::new();
    for n in names {
        ix.insert(n, n.to_string());
    }
    ix
}

fn heard(ix: &SoundIndex<String>, text: &str) -> Vec<(String, String, f32)> {
    let chars: Vec<char> = text.chars().collect();
    ix.find(&chars, |_| true)
        .into_iter()
        .filter(|m| m.close)
        .map(|m| (chars[m.start..m.end].iter().collect(), m.value, m.distance))
        .collect()
}

fn best(ix: &SoundIndex<String>, text: &str) -> Option<String> {
    let mut all = heard(ix, text);
    all.sort_by(|a, b| a.2.partial_cmp(&b.2).unwrap());
    all.into_iter().next().map(|(_, v, _)| v)
}

const NAMES: &[&str] = &[
    "北京大学",
    "浙江大学",
    "复旦大学",
    "南京大学",
    "哈尔滨工业大学",
    "中国科学技术大学",
    "华中科技大学",
    "计算机科学与技术",
    "计算机",
    "人工智能",
    "心理学",
    "心理",
    "金融",
    "经济学",
    "软件工程",
];

#[test]
fn the_merges_are_the_ones_speakers_make() {
    assert_eq!(fuzzy("zhang"), "zan");
    assert_eq!(fuzzy("chuang"), "cuan");
    assert_eq!(fuzzy("shi"), "si");
    assert_eq!(fuzzy("nan"), "lan");
    assert_eq!(fuzzy("fu"), "hu");
    assert_eq!(fuzzy("qing"), "qin");
    assert_eq!(fuzzy("sheng"), "sen");
    assert_eq!(fuzzy("xiang"), "xian");
    assert_eq!(fuzzy("dong"), "dong");
    assert_eq!(fuzzy("er"), "er");
}

#[test]
fn homophones_and_near_sounds_find_the_name() {
    let ix = index(NAMES);
    assert_eq!(best(&ix, "我想考北京大雪").as_deref(), Some("北京大学"));
    assert_eq!(best(&ix, "浙将大学").as_deref(), Some("浙江大学"));
    assert_eq!(best(&ix, "复单大学").as_deref(), Some("复旦大学"));
    assert_eq!(best(&ix, "兰京大学").as_deref(), Some("南京大学"));
    assert_eq!(
        best(&ix, "哈尔冰工业大学").as_deref(),
        Some("哈尔滨工业大学")
    );
    assert_eq!(best(&ix, "人工只能").as_deref(), Some("人工智能"));
    assert_eq!(best(&ix, "计算鸡").as_deref(), Some("计算机"));
    assert_eq!(best(&ix, "经齐学").as_deref(), Some("经济学"));
    assert_eq!(best(&ix, "软建工程").as_deref(), Some("软件工程"));
}

#[test]
fn a_dropped_character_is_one_edit_on_a_long_name() {
    let ix = index(NAMES);
    assert_eq!(
        best(&ix, "中国科技大学").as_deref(),
        Some("中国科学技术大学")
    );
    let h = heard(&ix, "中国科技大学");
    assert!(
        !h.iter().any(|(_, v, _)| v == "华中科技大学"),
        "{h:?}: 中国 is not 华中"
    );
}

#[test]
fn a_long_name_a_little_too_far_is_reported_not_close() {
    let ix = index(NAMES);
    let chars: Vec<char> = "中国科技大学".chars().collect();
    let far: Vec<Match<String>> = ix
        .find(&chars, |_| true)
        .into_iter()
        .filter(|m| m.value == "华中科技大学")
        .collect();
    assert!(!far.is_empty() && far.iter().all(|m| !m.close), "{far:?}");
}

#[test]
fn short_names_need_the_same_sound_and_a_shared_character() {
    let ix = index(NAMES);
    // 负担 sounds like 复旦 but shares no character with any name.
    assert_eq!(best(&ix, "学习负担重"), None);
    // 金容 is 金融 misheard.
    let h = heard(&ix, "复旦大学金容");
    assert!(
        h.iter().any(|(s, v, _)| s == "金容" && v == "金融"),
        "{h:?}"
    );
    // Unrelated words stay unread.
    assert_eq!(best(&ix, "导师温和一点"), None);
    assert_eq!(best(&ix, "第一个导师怎么样"), None);
}

#[test]
fn typed_pinyin_and_initials_find_the_name() {
    let mut ix = index(NAMES);
    ix.insert("北大", "北京大学".to_string());
    ix.insert("法学", "法学".to_string());
    let found = |t: &str| {
        let chars: Vec<char> = t.chars().collect();
        ix.find(&chars, |_| true)
            .into_iter()
            .map(|m| (m.value, m.how))
            .collect::<Vec<_>>()
    };
    assert!(found("beida jisuanji").contains(&("北京大学".into(), How::Pinyin)));
    assert!(found("beida jisuanji").contains(&("计算机".into(), How::Pinyin)));
    assert!(found("bei jing da xue").contains(&("北京大学".into(), How::Pinyin)));
    assert!(found("Beijing Daxue faxue").contains(&("法学".into(), How::Pinyin)));
    assert!(found("bjdx").contains(&("北京大学".into(), How::Initials)));
    // Words with vowels are never read as initials; English stays English.
    assert!(found("hello world").is_empty());
    // Words are joined only across spaces, not punctuation.
    assert!(!found("bei,jing da xue").contains(&("北京大学".into(), How::Pinyin)));
}

#[test]
fn the_stretch_reported_is_the_name_heard() {
    let ix = index(NAMES);
    let h = heard(&ix, "我想考北京大雪计算机系");
    assert!(
        h.iter().any(|(s, v, _)| s == "北京大雪" && v == "北京大学"),
        "{h:?}"
    );
}

#[test]
fn characters_the_caller_has_read_are_left_alone() {
    let ix = index(NAMES);
    let chars: Vec<char> = "北京大雪".chars().collect();
    assert!(ix.find(&chars, |i| i != 2).is_empty());
}

#[test]
fn a_near_miss_is_a_traded_initial_or_a_worn_final() {
    let mut ix = index(NAMES);
    ix.insert("自动化", "自动化".to_string());
    ix.insert("大理工", "大连理工大学".to_string());
    // A fricative for its affricate at the same place: 清 (qing) for 心 (xin).
    assert_eq!(best(&ix, "清理学").as_deref(), Some("心理学"));
    // A closing -i added: 坏 (huai) for 化 (hua).
    assert_eq!(best(&ix, "自动坏").as_deref(), Some("自动化"));
    // A nasal for a stop is not a near miss: 那里工作 holds no school.
    assert_eq!(best(&ix, "那里工作"), None);
    // A near miss still needs half the name written as itself: 自懂坏
    // keeps only 自.
    assert_eq!(best(&ix, "自懂坏"), None);
    // A closing nasal added is near: 根 (gen) for 个 (ge).
    assert_eq!(sounds_as(&['根'], &['个']), Some(false));
}

#[test]
fn a_name_told_by_two_syllables_keeps_both() {
    let mut ix = index(NAMES);
    ix.insert("清华大学", "清华大学".to_string());
    // 大 and 学 are in most schools: 清华 tells this one apart, so losing
    // or replacing one of its two syllables is another school.
    assert_ne!(best(&ix, "成清大学").as_deref(), Some("清华大学"));
    assert_ne!(best(&ix, "成华大学").as_deref(), Some("清华大学"));
    // A near miss of one of them still is 清华.
    assert_eq!(best(&ix, "清花大学").as_deref(), Some("清华大学"));
}

#[test]
fn capitals_heard_for_an_abbreviation_are_found_by_letter_sound() {
    let mut ix: SoundIndex<String> = SoundIndex::new();
    for (abbr, name) in [
        ("pku", "北京大学"),
        ("bupt", "北京邮电大学"),
        ("buaa", "北京航空航天大学"),
    ] {
        ix.insert(abbr, name.to_string());
    }
    let found = |text: &str| -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        ix.abbreviations_heard(&chars)
            .into_iter()
            .map(|s| s.value.clone())
            .collect()
    };
    assert_eq!(found("BKU的金融"), ["北京大学"]);
    assert_eq!(found("VUPG的通信"), ["北京邮电大学"]);
    assert!(found("bku的金融").is_empty());
}
