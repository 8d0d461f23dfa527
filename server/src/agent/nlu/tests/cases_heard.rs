//! Names the exact pass missed, heard by sound or typed as pinyin
//! (`heard.rs`): what fills a field, what is asked about, what stays a word.

use super::super::{analyze, Reference, Slot};
use super::fixture::{lexicons, names};

fn one(name: &str) -> Option<Slot> {
    Some(Slot::One(name.to_string()))
}

#[test]
fn a_homophone_of_a_school_or_a_major_fills_the_slot() {
    let lex = lexicons();
    let a = analyze("我想考北京大雪计算机系", lex, &[]);
    assert_eq!(a.school, one("北京大学"));
    assert_eq!(a.major, one("计算机科学与技术"));
    let a = analyze("复单大学软建工程", lex, &[]);
    assert_eq!(a.school, one("复旦大学"));
    assert_eq!(a.major, one("软件工程"));
    let a = analyze("浙将大学人工只能", lex, &[]);
    assert_eq!(a.school, one("浙江大学"));
    assert_eq!(a.major, one("人工智能"));
}

#[test]
fn typed_pinyin_and_initials_fill_the_slots_in_any_order() {
    let lex = lexicons();
    for text in [
        "beida jisuanji",
        "jisuanji beida",
        "计算机 beida",
        "bjdx 计算机",
    ] {
        let a = analyze(text, lex, &[]);
        assert_eq!(a.school, one("北京大学"), "{text}");
        assert_eq!(a.major, one("计算机科学与技术"), "{text}");
    }
}

#[test]
fn common_words_that_sound_like_a_name_stay_words() {
    let lex = lexicons();
    for text in [
        "我心里想考北大",
        "哪个大学好",
        "上大学的时候学的计算机",
        "该导师的详细信息",
        "学习负担重不重",
        "我计算时间够不够",
    ] {
        let a = analyze(text, lex, &[]);
        assert!(
            !matches!(a.school, Some(Slot::Heard { .. }))
                && !matches!(a.major, Some(Slot::Heard { .. })),
            "{text}: {a:?}"
        );
        assert_ne!(a.major, one("心理学"), "{text}");
        assert_ne!(a.school, one("复旦大学"), "{text}");
    }
    assert_eq!(analyze("我计算时间够不够", lex, &[]).major, None);
}

#[test]
fn a_short_name_heard_in_other_characters_stands_only_beside_a_name() {
    let lex = lexicons();
    // 习教 is 西交 by sound alone: taken next to a major, exact or
    // heard itself (痛信 for 通信), never alone.
    let a = analyze("我想考习教的通信", lex, &[]);
    assert_eq!(a.school, one("西安交通大学"));
    assert_eq!(a.major, one("通信工程"));
    let a = analyze("我想考习教的痛信", lex, &[]);
    assert_eq!(a.school, one("西安交通大学"));
    assert_eq!(a.major, one("通信工程"));
    assert_eq!(analyze("我在习教", lex, &[]).school, None);
    // A short name written in part (南打 for 南大) stands before the
    // advisors asked for as it does before 专业.
    assert_eq!(
        analyze("请问南打有什么导师", lex, &[]).school,
        one("南京大学")
    );
    assert_eq!(analyze("请问现在有什么导师", lex, &[]).school, None);
}

#[test]
fn a_long_name_heard_whole_is_the_better_reading() {
    let lex = lexicons();
    // 管理 alone is 工商管理 or 管科; heard whole it is one of them.
    let a = analyze("我想考北大的管理科学与工城", lex, &[]);
    assert_eq!(a.major, one("管理科学与工程"));
    // 复旦 and 数学 said, not 复旦大学 heard over 数血.
    let a = analyze("复旦数血系", lex, &[]);
    assert_eq!(a.school, one("复旦大学"));
    assert_eq!(a.major, one("数学"));
    // A school heard whole beside one the recognizer wrote for a filler:
    // the one said right before the major stands.
    let a = analyze("清华，老师好，我想考哈尔冰工业大学的机械", lex, &[]);
    assert_eq!(a.school, one("哈尔滨工业大学"));
    assert_eq!(a.major, one("机械工程"));
    // A character dropped, and a shorter name (电子工程) about as near
    // a part of it: the whole name, not the 自动化 read inside it.
    let a = analyze("华工的电器工程及自动化", lex, &[]);
    assert_eq!(a.major, one("电气工程"));
    // A school read whole, and the words before it not heard as the
    // rest of a longer one.
    let a = analyze("向考电子科技大学网络空间安全", lex, &[]);
    assert_eq!(a.school, one("电子科技大学"));
}

#[test]
fn a_short_name_stands_beside_a_name_past_a_joining_word() {
    let lex = lexicons();
    let a = analyze("习教和通信", lex, &[]);
    assert_eq!(a.school, one("西安交通大学"));
    assert_eq!(a.major, one("通信工程"));
}

#[test]
fn two_schools_side_by_side_are_asked_about() {
    let lex = lexicons();
    let a = analyze("清华浙大的计算机", lex, &[]);
    assert_eq!(
        a.school,
        Some(Slot::Either(vec!["清华大学".into(), "浙江大学".into()]))
    );
}

#[test]
fn an_advisor_on_the_page_is_found_by_sound_where_a_person_is_meant() {
    let lex = lexicons();
    let page = names();
    // 张山 for 张三 (sh/s), 欧阳名 for 欧阳明.
    let a = analyze("张山老师怎么样", lex, &page);
    assert_eq!(a.references, vec![Reference::Name("张三".into())]);
    let a = analyze("欧阳名的学生评价", lex, &page);
    assert_eq!(a.references, vec![Reference::Name("欧阳明".into())]);
    // Not where no person is meant.
    assert!(analyze("张山很高", lex, &page).references.is_empty());
    // Written in homophones but one character, with the same syllables:
    // a name of the page wherever it stands (王伍 for 王五).
    for said in ["点一下那个王伍", "看看王伍"] {
        let a = analyze(said, lex, &page);
        assert_eq!(a.references, vec![Reference::Name("王五".into())], "{said}");
    }
    // A name written in its common homophones but one character.
    let a = analyze("欧杨鸣老师怎么样", lex, &page);
    assert_eq!(a.references, vec![Reference::Name("欧阳明".into())]);
}

#[test]
fn a_short_name_written_where_a_longer_one_is_heard_is_asked_about() {
    let lex = lexicons();
    // 西安交大 heard as 西岸浙大: 浙大 is written, but 西岸 before it
    // is the rest of 西安交大; the student is asked between them.
    let a = analyze("西岸浙大的电器", lex, &[]);
    match a.school {
        Some(Slot::Heard { candidates, .. }) => {
            assert!(candidates.contains(&"西安交通大学".to_string()));
            assert!(candidates.contains(&"浙江大学".to_string()));
        }
        other => panic!("asked about, not {other:?}"),
    }
    // A major right after the verb of a request, one character written
    // as its own ("学机卸的": 机械).
    assert_eq!(analyze("哈工大，学机卸的", lex, &[]).major, one("机械工程"));
    // A short name with nothing beside it that makes a longer one.
    assert_eq!(analyze("浙大的电气", lex, &[]).school, one("浙江大学"));
}

#[test]
fn a_name_heard_beside_one_of_its_kind_written_is_said_too() {
    let lex = lexicons();
    // 北交 written, 北交 again as 背交 next to the major: said twice, the
    // one settled on; 清华 alone is still 清华.
    let a = analyze("清华和北交都行，先看背交的计算机", lex, &[]);
    assert_eq!(a.school, one("北京交通大学"));
    assert_eq!(analyze("清华的计算机", lex, &[]).school, one("清华大学"));
}

#[test]
fn a_short_name_heard_unwritten_as_what_is_asked_for_is_asked_about() {
    let lex = lexicons();
    // 西交 heard as 习教, the last words of a request with no other name:
    // the student is asked whether they meant 西安交通大学, never given it.
    for said in ["我想看看习教", "那个我想考习教"] {
        match analyze(said, lex, &[]).school {
            Some(Slot::Heard { candidates, .. }) => {
                assert!(candidates.contains(&"西安交通大学".to_string()), "{said}")
            }
            other => panic!("{said}: asked about, not {other:?}"),
        }
    }
    // Words that only end a sentence are no name, nor is where the
    // student is now a request.
    for said in ["我想看看再说", "我想看看", "我在习教"] {
        let a = analyze(said, lex, &[]);
        assert!(a.school.is_none() && a.major.is_none(), "{said}: {a:?}");
    }
}

#[test]
fn an_advisor_named_by_surname_after_xing_also_as_a_recognizer_writes_it() {
    let lex = lexicons();
    let page = names();
    for said in [
        "那个姓王的老师怎么样",
        "姓欧阳的那个老师学生怎么说",
        "打开姓赵的",
        "姓李的怎么样",
    ] {
        let a = analyze(said, lex, &page);
        assert_eq!(a.references.len(), 1, "{said}");
    }
    // 姓 heard as 信 or 清, the surname in a homophone: only in the whole
    // frame, 的 and a person noun after it.
    let a = analyze("信汪的那个老师怎么样", lex, &page);
    assert_eq!(a.references, vec![Reference::Name("王五".into())]);
    let a = analyze("帮我打开清照的老师", lex, &page);
    assert_eq!(a.references, vec![Reference::Name("赵六".into())]);
    assert!(analyze("信照怎么样", lex, &page).references.is_empty());
    // A surname that is also a word of its own (钱, "money") after 姓.
    let qian = vec!["钱红".to_string(), "王五".to_string()];
    let a = analyze("姓钱的那个老师学生怎么说", lex, &qian);
    assert_eq!(a.references, vec![Reference::Name("钱红".into())]);
    // A surname two have is the surname (the agent asks which); one no
    // one on the page has names nobody.
    let two = vec!["王五".to_string(), "王丽".to_string()];
    let a = analyze("姓王的老师怎么样", lex, &two);
    assert_eq!(a.references, vec![Reference::Name("王".into())]);
    let a = analyze("王老师呢", lex, &two);
    assert_eq!(a.references, vec![Reference::Name("王".into())]);
    assert!(analyze("姓孙的老师怎么样", lex, &page)
        .references
        .is_empty());
    assert!(analyze("姓孙的老师怎么样", lex, &page)
        .references
        .is_empty());
}

#[test]
fn a_surname_heard_as_a_one_character_preference_is_still_the_name() {
    let lex = lexicons();
    let page = vec!["阎晖永".to_string(), "李四".to_string()];
    // 严 ("strict") for 阎: the name on the page, heard whole, takes it.
    let a = analyze("严晖永老师严格吗", lex, &page);
    assert_eq!(a.references, vec![Reference::Name("阎晖永".into())]);
    // Alone, 严 is still the wish.
    assert!(analyze("我想找个严的老师", lex, &page)
        .personality
        .is_some());
}

#[test]
fn a_school_that_sounds_like_a_major_right_after_a_school_is_the_major() {
    let lex = lexicons();
    let a = analyze("我要报大工华工，想找个经费多的", lex, &[]);
    assert_eq!(a.school, Some(Slot::One("大连理工大学".into())));
    assert_eq!(a.major, Some(Slot::One("化学工程与技术".into())));
    // After the verb of study too.
    let a = analyze("想去大连理工大学学华工", lex, &[]);
    assert_eq!(a.major, Some(Slot::One("化学工程与技术".into())));
    // Two schools listed with 都 stay two schools.
    assert!(matches!(
        analyze("大工华工都行", lex, &[]).school,
        Some(Slot::Either(_))
    ));
}

#[test]
fn a_correction_word_heard_as_a_clause_of_its_own_takes_back_what_came_before() {
    let lex = lexicons();
    // 不对 heard as 普对 (b for p), after a stray 啊 written 阿.
    for text in [
        "上交的计算机，阿普对，是上交的软件",
        "上交的计算机，普对，是上交的软件",
    ] {
        let a = analyze(text, lex, &[]);
        assert!(a.correction, "{text}");
        assert_eq!(a.major, one("软件工程"), "{text}");
    }
    // A yes, or a judgement, standing alone takes nothing back.
    for text in ["我想考北大，对，计算机", "北大计算机，不错，挺好的"] {
        let a = analyze(text, lex, &[]);
        assert!(!a.correction, "{text}");
        assert_eq!(a.major, one("计算机科学与技术"), "{text}");
    }
}

#[test]
fn names_as_a_recognizer_or_a_speaker_shortens_them() {
    let lex = lexicons();
    // A spelled abbreviation written in other capitals.
    let a = analyze("我想考BKU的金融", lex, &[]);
    assert_eq!(a.school, one("北京大学"));
    let a = analyze("U.S.C.B.的物理", lex, &[]);
    assert_eq!(a.school, one("中国科学技术大学"));
    // A school shortened word by word.
    let a = analyze("哈尔滨那个工大，材料专业", lex, &[]);
    assert_eq!(a.school, one("哈尔滨工业大学"));
    // (The school named as such, "学校是统计" for 同济, is held by the
    // speech set's stored transcript: this fixture has no 同济.)
    // A direction that is a major's name, beside a school and no major.
    let a = analyze("浙大，人工智能方向哪个老师好", lex, &[]);
    assert_eq!(a.major, one("人工智能"));
    let a = analyze("我想做人工智能", lex, &[]);
    assert_eq!(a.major, None);
}

#[test]
fn a_major_shortened_as_students_say_it_is_that_major() {
    let lex = lexicons();
    // Each word of a name (or of an alias) kept, cut to its first
    // character or left out: 应经 for 应用经济学 (an alias of 经济学), 智科
    // for 智能科学与技术 (one of 人工智能).
    let a = analyze("人大的应经，导师靠谱点", lex, &[]);
    assert_eq!(a.major, one("经济学"));
    let a = analyze("北邮的智科", lex, &[]);
    assert_eq!(a.major, one("人工智能"));
    // Written in homophones, as a recognizer writes it (智可 for 智科).
    let a = analyze("北邮的智可", lex, &[]);
    assert_eq!(a.major, one("人工智能"));
    // Only after a school, and only one major fitting.
    let a = analyze("北大的老师怎么样", lex, &[]);
    assert_eq!(a.major, None);
    let a = analyze("应经", lex, &[]);
    assert_eq!(a.major, None);
}

#[test]
fn a_name_said_by_someone_elses_history_is_still_the_wish() {
    let lex = lexicons();
    // "俺老舅就那毕业的": the uncle graduated there, the student wants it.
    let a = analyze("大连理工的机械，俺老舅那毕业的", lex, &[]);
    assert_eq!(a.school, one("大连理工大学"));
    assert_eq!(a.major, one("机械工程"));
    let a = analyze("我是北大毕业的，想考清华的计算机", lex, &[]);
    assert_eq!(a.school, one("清华大学"));
}

#[test]
fn a_school_before_a_pause_and_a_name_after_the_replacing_shi_stand() {
    let lex = lexicons();
    // The 的 a speaker pauses after: 华攻 for 华工.
    let a = analyze("华攻的，呃，不是金融，是经济学", lex, &[]);
    assert_eq!(a.school, one("华南理工大学"));
    assert_eq!(a.major, one("经济学"));
    // What follows the 是 that replaces a "no" is where a name stands:
    // 金蓉 for 金融.
    let a = analyze("复旦的，不是经济学，是金蓉", lex, &[]);
    assert_eq!(a.major, one("金融学"));
    // A word that only sounds like a name stays a word without that frame.
    assert_eq!(analyze("我心里的想法", lex, &[]).major, None);
}

#[test]
fn an_advisor_turned_down_before_another_is_named_is_not_meant() {
    let lex = lexicons();
    let page = names();
    let a = analyze("不是张老师，是欧阳明老师，帮我打开", lex, &page);
    assert_eq!(a.references, vec![Reference::Name("欧阳明".into())]);
    assert!(a.references_from > 0);
    // Turned down with nobody after: still the one talked about.
    let a = analyze("张三老师不是很凶吧", lex, &page);
    assert_eq!(a.references, vec![Reference::Name("张三".into())]);
}
