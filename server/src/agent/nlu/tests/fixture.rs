//! The test catalog: a realistic school and major list (with the aliases
//! students use and the deliberately ambiguous 交大/华师), built into one
//! shared `Lexicons`, plus the advisor names a page would show.

use std::sync::OnceLock;

use super::super::{Lexicons, NameSet};

pub(crate) fn schools() -> Vec<NameSet> {
    SCHOOLS
        .iter()
        .map(|(name, aliases, _)| NameSet::new(name, aliases))
        .collect()
}

pub(crate) fn majors() -> Vec<NameSet> {
    vec![
        NameSet::new("计算机科学与技术", &["计算机", "CS", "计科", "计算机系"]),
        NameSet::new("软件工程", &["软工", "软件"]),
        NameSet::new("人工智能", &["AI", "智能科学与技术"]),
        NameSet::new("电子信息工程", &["电子", "电子信息", "电子工程", "EE"]),
        NameSet::new("通信工程", &["通信", "信息与通信工程"]),
        NameSet::new("金融学", &["金融"]),
        NameSet::new("法学", &["法律", "法硕"]),
        NameSet::new("临床医学", &["临床"]),
        NameSet::new("数学", &["应用数学", "数学与应用数学", "数学系"]),
        NameSet::new("物理学", &["物理", "物理系"]),
        NameSet::new("网络空间安全", &["网安", "信息安全", "网络安全"]),
        NameSet::new("经济学", &["经济", "应用经济学"]),
        NameSet::new("机械工程", &["机械"]),
        NameSet::new("环境科学与工程", &["环境", "环境工程"]),
        NameSet::new("工商管理", &["管理", "工管", "MBA"]),
        NameSet::new("管理科学与工程", &["管科", "管理科学", "管理"]),
        NameSet::new("统计学", &["统计"]),
        NameSet::new("化学工程与技术", &["化工"]),
        NameSet::new("自动化", &["控制", "控制工程"]),
        NameSet::new("电气工程", &["电气", "电气工程及其自动化"]),
    ]
}

/// The city of each of [`schools`], in order.
pub(crate) fn cities() -> Vec<String> {
    SCHOOLS
        .iter()
        .map(|(_, _, city)| city.to_string())
        .collect()
}

/// The schools: name, aliases, city.
#[rustfmt::skip]
const SCHOOLS: [(&str, &[&str], &str); 23] = [
    ("北京大学", &["北大", "PKU", "燕园"], "北京"),
    ("清华大学", &["清华", "THU"], "北京"),
    ("上海交通大学", &["上交", "上海交大", "SJTU", "交大", "上海第二医科大学"], "上海"),
    ("西安交通大学", &["西交", "西安交大", "XJTU", "交大"], "西安"),
    ("北京交通大学", &["北交", "BJTU", "交大"], "北京"),
    ("西南交通大学", &["西南交大", "SWJTU", "交大"], "成都"),
    ("浙江大学", &["浙大", "ZJU"], "杭州"),
    ("复旦大学", &["复旦", "Fudan"], "上海"),
    ("电子科技大学", &["成电", "电子科大", "UESTC"], "成都"),
    ("西安电子科技大学", &["西电", "西军电", "XIDIAN"], "西安"),
    ("华东师范大学", &["华师", "华东师大", "ECNU"], "上海"),
    ("华中师范大学", &["华师", "华中师大", "CCNU"], "武汉"),
    ("中山大学", &["中大", "SYSU"], "广州"),
    ("南京大学", &["南大", "NJU"], "南京"),
    ("中国科学技术大学", &["中科大", "科大", "USTC"], "合肥"),
    ("哈尔滨工业大学", &["哈工大", "HIT"], "哈尔滨"),
    ("北京航空航天大学", &["北航", "BUAA", "北京航空学院"], "北京"),
    ("中国人民大学", &["人大", "人民大学", "RUC"], "北京"),
    ("北京邮电大学", &["北邮", "BUPT"], "北京"),
    ("武汉大学", &["武大", "WHU"], "武汉"),
    ("华中科技大学", &["华科", "华中大", "HUST"], "武汉"),
    ("华南理工大学", &["华工", "华南理工", "SCUT"], "广州"),
    ("大连理工大学", &["大工", "大连理工", "DUT"], "大连"),
];

/// Advisor names "on the page".
pub(crate) fn names() -> Vec<String> {
    ["张三", "李四", "王五", "欧阳明", "赵六"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// The shared test lexicons (built once).
pub(crate) fn lexicons() -> &'static Lexicons {
    static LEX: OnceLock<Lexicons> = OnceLock::new();
    LEX.get_or_init(|| Lexicons::new(&schools(), &majors()).with_cities(cities()))
}
