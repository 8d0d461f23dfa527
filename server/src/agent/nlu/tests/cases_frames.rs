//! Slots read from the frame around a name: a school heard where a major
//! stands, and a major read across the start of another's name.

use super::super::{analyze, Slot};
use super::fixture::lexicons;

#[test]
fn a_major_where_a_school_stands_that_sounds_like_one_is_read_or_asked_about() {
    let lex = lexicons();
    // 华工 (a school) written as 化工 (a major) before 的 and a major.
    // Before a major read, the frame decides: no one studies 计算机 of 化工.
    let a = analyze("我想考化工的计算机", lex, &[]);
    assert_eq!(a.school, Some(Slot::One("华南理工大学".into())));
    assert_eq!(a.major, Some(Slot::One("计算机科学与技术".into())));
    // A choice settled on keeps its last major and reads its owner.
    let a = analyze("不去北邮了，还是考化工的计算机", lex, &[]);
    assert_eq!(a.school, Some(Slot::One("华南理工大学".into())));
    assert_eq!(a.major, Some(Slot::One("计算机科学与技术".into())));
    // Two majors weighed are still two majors.
    let a = analyze("化工还是计算机", lex, &[]);
    assert_eq!(a.school, None);
    // Two majors side by side are only two majors.
    let a = analyze("化工和计算机哪个好", lex, &[]);
    assert_eq!(a.school, None);
    // The major after 的 written in homophones (馆科 for 管科) is heard
    // as the major, and the frame decides the same.
    let a = analyze("我想考化工的馆科", lex, &[]);
    assert_eq!(a.school, Some(Slot::One("华南理工大学".into())));
    assert_eq!(a.major, Some(Slot::One("管理科学与工程".into())));
    // Only near one (广可): the school is asked about, no major filled.
    let a = analyze("我想考化工的广可", lex, &[]);
    assert!(matches!(a.school, Some(Slot::Heard { .. })), "{a:?}");
    assert_eq!(a.major, None);
    // Words near a major elsewhere in the message (林床 for 临床), the
    // one major read sounding like a school: asked about, not filled.
    let a = analyze("红系的林床，广州那个化工", lex, &[]);
    assert!(matches!(a.school, Some(Slot::Heard { .. })), "{a:?}");
    assert_eq!(a.major, None);
    // Typed, with nothing near a major besides it, it is the major.
    let a = analyze("我想考化工，导师温和一点", lex, &[]);
    assert_eq!(a.major, Some(Slot::One("化学工程与技术".into())));
}

#[test]
fn an_alias_said_beside_one_of_its_entries_is_that_entry() {
    let lex = lexicons();
    let one = |n: &str| Some(Slot::One(n.into()));
    for said in [
        "西南交大和交大的土木",
        "交大，西南交大的土木",
        "西南交大、西南交大的土木",
    ] {
        assert_eq!(
            analyze(said, lex, &[]).school,
            one("西南交通大学"),
            "{said}"
        );
    }
    // Alone, or beside another school, 交大 still names several.
    assert!(matches!(
        analyze("交大的土木", lex, &[]).school,
        Some(Slot::Ambiguous { .. })
    ));
    assert!(!matches!(
        analyze("交大和北大", lex, &[]).school,
        Some(Slot::One(_))
    ));
}

#[test]
fn a_major_read_across_the_start_of_one_named_again_is_that_one() {
    let lex = lexicons();
    // 通信 read, 信息安全 overlapping it and named again (网络安全).
    let a = analyze("北邮，我想学通信息安全那块，网络安全", lex, &[]);
    assert_eq!(a.major, Some(Slot::One("网络空间安全".into())));
    // Not named again, it is as read.
    let a = analyze("北邮，我想学通信", lex, &[]);
    assert_eq!(a.major, Some(Slot::One("通信工程".into())));
}
