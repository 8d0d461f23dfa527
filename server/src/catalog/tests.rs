//! The catalog's tests: names, aliases and pairs resolved as students say them.

use super::*;

fn school(id: i64, name: &str, popularity: i64, aliases: &[&str]) -> SchoolEntry {
    SchoolEntry {
        id,
        name: name.into(),
        city: String::new(),
        tier: "985".into(),
        popularity,
        aliases: aliases.iter().map(|a| a.to_string()).collect(),
    }
}

fn major(id: i64, name: &str, aliases: &[&str]) -> MajorEntry {
    MajorEntry {
        id,
        name: name.into(),
        category: "工学".into(),
        aliases: aliases.iter().map(|a| a.to_string()).collect(),
    }
}

fn catalog() -> Catalog {
    let schools = vec![
        school(1, "北京大学", 100, &["北大", "PKU"]),
        school(2, "上海交通大学", 90, &["上交", "交大", "SJTU"]),
        school(3, "西安交通大学", 80, &["西交", "交大"]),
        school(4, "北京交通大学", 70, &["北交", "交大"]),
        school(5, "北京航空航天大学", 85, &["北航"]),
    ];
    let majors = vec![
        major(1, "计算机科学与技术", &["计算机", "CS", "计科"]),
        major(2, "软件工程", &["软工", "软件"]),
        major(3, "电子信息工程", &["电子", "电子信息"]),
        major(4, "电子科学与技术", &["电子"]),
        major(5, "法学", &["法律"]),
        major(6, "航空宇航科学与技术", &["飞行器设计与工程"]),
        major(7, "材料科学与工程", &["材料"]),
        major(8, "材料科学", &[]),
    ];
    let offered = [
        ((1, 1), 10),
        ((1, 2), 5),
        ((2, 1), 8),
        ((2, 3), 4),
        ((3, 4), 3),
    ]
    .into_iter()
    .collect();
    Catalog::new(schools, majors, offered)
}

#[test]
fn normalization_folds_width_case_and_spaces() {
    assert_eq!(normalize(" ＰＫＵ "), "pku");
    assert_eq!(normalize("北京 大学"), "北京大学");
    assert_eq!(normalize("S J T U"), "sjtu");
}

#[test]
fn aliases_resolve_to_canonical_names() {
    let c = catalog();
    assert_eq!(c.resolve_school("北大").found().unwrap().name, "北京大学");
    assert_eq!(c.resolve_school("pku").found().unwrap().name, "北京大学");
    assert_eq!(
        c.resolve_school("北京大学").found().unwrap().name,
        "北京大学"
    );
    assert_eq!(
        c.resolve_school("北京大学的").found().unwrap().name,
        "北京大学"
    );
    assert_eq!(
        c.resolve_major("计算机系").found().unwrap().name,
        "计算机科学与技术"
    );
    assert_eq!(
        c.resolve_major("软工专业").found().unwrap().name,
        "软件工程"
    );
    assert_eq!(
        c.resolve_major("cs").found().unwrap().name,
        "计算机科学与技术"
    );
}

#[test]
fn english_names_come_from_the_catalog_data() {
    let c = catalog();
    assert_eq!(
        c.resolve_school("Peking University").found().unwrap().name,
        "北京大学"
    );
    assert_eq!(
        c.resolve_major("Software Engineering")
            .found()
            .unwrap()
            .name,
        "软件工程"
    );
    // And by the names they had before.
    assert_eq!(
        c.resolve_school("北京航空学院").found().unwrap().name,
        "北京航空航天大学"
    );
    // Listed once, whatever the database already holds.
    let pku = c.resolve_school("北大").found().unwrap();
    assert_eq!(
        pku.aliases
            .iter()
            .filter(|a| a.eq_ignore_ascii_case("pku"))
            .count(),
        1
    );
}

#[test]
fn ambiguous_aliases_list_every_candidate_most_popular_first() {
    let c = catalog();
    match c.resolve_school("交大") {
        Resolution::Ambiguous(list) => {
            let names: Vec<_> = list.iter().map(|s| s.name.as_str()).collect();
            assert_eq!(names, vec!["上海交通大学", "西安交通大学", "北京交通大学"]);
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
}

#[test]
fn names_inside_longer_text_and_name_beginnings_resolve() {
    let c = catalog();
    assert_eq!(
        c.resolve_school("我想考北京航空航天大学")
            .found()
            .unwrap()
            .name,
        "北京航空航天大学"
    );
    assert_eq!(
        c.resolve_school("北京航空").found().unwrap().name,
        "北京航空航天大学"
    );
    assert_eq!(
        c.resolve_school("想考北大的").found().unwrap().name,
        "北京大学"
    );
    assert_eq!(
        c.resolve_major("魔法学"),
        Resolution::Unknown,
        "魔法学 is not 法学"
    );
    assert_eq!(c.resolve_school("北大青鸟"), Resolution::Unknown);
    assert!(matches!(c.resolve_school("北京"), Resolution::Ambiguous(_)));
    assert_eq!(c.resolve_school("哈佛大学"), Resolution::Unknown);
    assert_eq!(c.resolve_school("  "), Resolution::Unknown);
}

#[test]
fn an_ambiguous_major_is_settled_by_what_the_school_offers() {
    let c = catalog();
    assert!(matches!(c.resolve_major("电子"), Resolution::Ambiguous(_)));
    assert_eq!(
        c.resolve_major_at(2, "电子").found().unwrap().name,
        "电子信息工程"
    );
    assert_eq!(
        c.resolve_major_at(3, "电子").found().unwrap().name,
        "电子科学与技术"
    );
}

#[test]
fn offered_majors_and_counts() {
    let c = catalog();
    let names: Vec<_> = c.majors_of(1).iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, vec!["计算机科学与技术", "软件工程"]);
    assert_eq!(c.advisor_count(1, 1), 10);
    assert_eq!(c.advisor_count(3, 1), 0);
    assert_eq!(c.school_advisor_count(1), 15);
}

#[test]
fn a_major_is_found_by_its_name_without_a_generic_ending() {
    let c = catalog();
    let name = |said: &str| c.resolve_major(said).found().map(|m| m.name.clone());
    assert_eq!(name("飞行器设计").as_deref(), Some("航空宇航科学与技术"));
    assert_eq!(name("计算机科学").as_deref(), Some("计算机科学与技术"));
    assert_eq!(name("电子科学").as_deref(), Some("电子科学与技术"));
    // Another major's name stays that major's; two letters are no name.
    assert_eq!(name("材料科学").as_deref(), Some("材料科学"));
}
