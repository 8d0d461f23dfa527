//! The catalog part of the dataset: every school and major of
//! [`crate::demo::catalog_data`] with their aliases, and the majors each
//! school offers. The site needs it to work at all, with or without the demo
//! advisors.

use super::{DemoData, MajorSeed, SchoolSeed};
use crate::demo::catalog_data as data;

/// The catalog alone: every school and major with their aliases (and which
/// majors a school's demo advisors are drawn from), no advisors, no reviews.
/// What `DEMO_DATA=off` seeds, and the first part of [`super::generate`].
pub fn catalog() -> DemoData {
    let majors: Vec<MajorSeed> = data::MAJORS
        .iter()
        .map(|m| MajorSeed {
            name: m.name,
            aliases: m.aliases,
            category: m.category,
            directions: m.directions,
        })
        .collect();
    let schools: Vec<SchoolSeed> = data::SCHOOLS
        .iter()
        .map(|s| {
            let mut offered: Vec<usize> = s.majors.iter().map(|n| major_index(n)).collect();
            offered.sort_unstable();
            offered.dedup();
            SchoolSeed {
                name: s.name,
                aliases: s.aliases,
                city: s.city,
                tier: s.tier,
                popularity: s.popularity,
                majors: offered,
            }
        })
        .collect();
    DemoData {
        schools,
        majors,
        advisors: Vec::new(),
        reviews: Vec::new(),
    }
}

/// The position of a major in the table; panics on a name it lacks.
pub(in crate::demo) fn major_index(name: &str) -> usize {
    data::MAJORS
        .iter()
        .position(|m| m.name == name)
        .unwrap_or_else(|| panic!("school offers unknown major {name}"))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::generate;

    #[test]
    fn catalog_names_and_aliases() {
        let d = generate(42);
        let school_names: BTreeSet<&str> = d.schools.iter().map(|s| s.name).collect();
        let major_names: BTreeSet<&str> = d.majors.iter().map(|m| m.name).collect();
        assert_eq!(school_names.len(), d.schools.len());
        assert_eq!(major_names.len(), d.majors.len());
        let mut school_aliases: BTreeSet<&str> = BTreeSet::new();
        for s in &d.schools {
            let own: BTreeSet<_> = s.aliases.iter().collect();
            assert_eq!(own.len(), s.aliases.len(), "{}", s.name);
            for a in s.aliases {
                assert!(
                    !school_names.contains(a),
                    "school alias {a} is a school name"
                );
                assert!(!major_names.contains(a), "school alias {a} is a major name");
                school_aliases.insert(a);
            }
        }
        for m in &d.majors {
            let own: BTreeSet<_> = m.aliases.iter().collect();
            assert_eq!(own.len(), m.aliases.len(), "{}", m.name);
            for a in m.aliases {
                assert!(!major_names.contains(a), "major alias {a} is a major name");
                assert!(
                    !school_names.contains(a),
                    "major alias {a} is a school name"
                );
                assert!(
                    !school_aliases.contains(a),
                    "{a} is both a school and a major alias"
                );
            }
        }
        let schools_for = |alias: &str| -> Vec<&str> {
            d.schools
                .iter()
                .filter(|s| s.aliases.contains(&alias))
                .map(|s| s.name)
                .collect()
        };
        assert_eq!(
            schools_for("交大"),
            [
                "上海交通大学",
                "西安交通大学",
                "北京交通大学",
                "西南交通大学"
            ]
        );
        assert_eq!(schools_for("华师"), ["华东师范大学", "华中师范大学"]);

        let required_schools: &[(&str, &[&str])] = &[
            ("北京大学", &["北大", "PKU"]),
            ("清华大学", &["清华", "THU"]),
            ("中国科学院大学", &["国科大", "中科院大学", "UCAS"]),
            ("复旦大学", &["复旦"]),
            ("上海交通大学", &["上交", "上海交大", "SJTU", "交大"]),
            ("西安交通大学", &["西交", "西安交大", "交大"]),
            ("北京交通大学", &["北交", "北京交大", "交大"]),
            ("西南交通大学", &["西南交大", "交大"]),
            ("浙江大学", &["浙大", "ZJU"]),
            ("南京大学", &["南大", "NJU"]),
            ("中国科学技术大学", &["中科大", "科大", "USTC"]),
            ("哈尔滨工业大学", &["哈工大", "HIT"]),
            ("华中科技大学", &["华科", "华中大", "HUST"]),
            ("武汉大学", &["武大", "WHU"]),
            ("中山大学", &["中山", "中大", "SYSU"]),
            ("北京航空航天大学", &["北航", "BUAA"]),
            ("同济大学", &["同济"]),
            ("南开大学", &["南开"]),
            ("厦门大学", &["厦大"]),
            ("四川大学", &["川大"]),
            ("电子科技大学", &["成电", "电子科大", "UESTC"]),
            ("北京邮电大学", &["北邮", "BUPT"]),
            ("中国人民大学", &["人大", "人民大学"]),
            ("北京师范大学", &["北师大"]),
            ("华东师范大学", &["华师大", "华东师大", "华师"]),
            ("华中师范大学", &["华中师大", "华师"]),
            ("东南大学", &["东南"]),
            ("天津大学", &["天大"]),
            ("西安电子科技大学", &["西电"]),
            ("北京理工大学", &["北理工", "北理"]),
            ("华南理工大学", &["华工", "华南理工"]),
            ("山东大学", &["山大"]),
            ("吉林大学", &["吉大"]),
            ("中南大学", &["中南"]),
            ("大连理工大学", &["大工", "大连理工"]),
            ("重庆大学", &["重大"]),
        ];
        for (name, aliases) in required_schools {
            let s = d
                .schools
                .iter()
                .find(|s| s.name == *name)
                .unwrap_or_else(|| panic!("missing {name}"));
            for a in *aliases {
                assert!(s.aliases.contains(a), "{name} lacks alias {a}");
            }
        }
        let required_majors: &[(&str, &[&str])] = &[
            ("计算机科学与技术", &["计算机", "计科", "CS", "计算机系"]),
            ("软件工程", &["软工", "软件"]),
            ("人工智能", &["AI", "智能科学"]),
            ("电子信息工程", &["电子", "电子信息"]),
            ("通信工程", &["通信"]),
            ("自动化", &[]),
            ("控制科学与工程", &["控制"]),
            ("网络空间安全", &["网安", "信息安全"]),
            ("数学", &["数学与应用数学", "应用数学", "数学系"]),
            ("统计学", &["统计"]),
            ("物理学", &["物理"]),
            ("化学", &[]),
            ("生物学", &["生物", "生物科学"]),
            ("金融学", &["金融"]),
            ("经济学", &["经济"]),
            ("法学", &["法律"]),
            ("临床医学", &["临床"]),
            ("机械工程", &["机械"]),
            ("材料科学与工程", &["材料"]),
            ("土木工程", &["土木"]),
            ("电气工程", &["电气"]),
            ("环境科学与工程", &["环境"]),
            ("心理学", &["心理"]),
            ("新闻传播学", &["新传", "新闻"]),
            ("工商管理", &["管理", "工管"]),
        ];
        for (name, aliases) in required_majors {
            let m = d
                .majors
                .iter()
                .find(|m| m.name == *name)
                .unwrap_or_else(|| panic!("missing {name}"));
            for a in *aliases {
                assert!(m.aliases.contains(a), "{name} lacks alias {a}");
            }
        }
        let cs = d
            .majors
            .iter()
            .find(|m| m.name == "计算机科学与技术")
            .unwrap();
        for dir in [
            "机器学习",
            "深度学习",
            "计算机视觉",
            "自然语言处理",
            "信息安全",
        ] {
            assert!(cs.directions.contains(&dir));
        }
        let categories = [
            "工学",
            "理学",
            "经济学",
            "法学",
            "医学",
            "管理学",
            "文学",
            "教育学",
        ];
        assert!(d.majors.iter().all(|m| categories.contains(&m.category)));
    }
}
