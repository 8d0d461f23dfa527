//! The rows a dataset writer takes: schools, majors, advisors and reviews,
//! referencing each other by index. The demo generator and the scale
//! benchmark fill them; `store::dataset` writes them.

/// Everything a dataset holds: rows reference each other by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DemoData {
    pub schools: Vec<SchoolSeed>,
    pub majors: Vec<MajorSeed>,
    pub advisors: Vec<AdvisorSeed>,
    pub reviews: Vec<ReviewSeed>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchoolSeed {
    /// Canonical name: "北京大学".
    pub name: &'static str,
    /// "北大", "PKU", "pku" … (never the canonical name itself).
    pub aliases: &'static [&'static str],
    pub city: &'static str,
    /// "985" | "211" | "双一流" | "科研院所".
    pub tier: &'static str,
    /// Higher = shown first among popular schools.
    pub popularity: i64,
    /// Indices into [`DemoData::majors`] that this school offers, ascending.
    pub majors: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MajorSeed {
    /// Canonical name: "计算机科学与技术".
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    /// 工学 / 理学 / 经济学 / 法学 / 医学 / 管理学 / 文学 / 教育学.
    pub category: &'static str,
    /// Research directions of the field.
    pub directions: &'static [&'static str],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdvisorSeed {
    /// Fictional Chinese name, 2–3 characters.
    pub name: String,
    /// 教授 / 副教授 / 研究员 / 讲师.
    pub title: &'static str,
    /// Index into [`DemoData::schools`].
    pub school: usize,
    /// Index into [`DemoData::majors`].
    pub major: usize,
    /// 1–3 directions from the major's list, most important first.
    pub directions: Vec<String>,
    /// 40–120 characters, built from templates.
    pub bio: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewSeed {
    /// Index into [`DemoData::advisors`].
    pub advisor: usize,
    pub academic: u8,
    pub funding: u8,
    pub relationship: u8,
    pub prospects: u8,
    pub overall: u8,
    /// 0–3 distinct tags from the site's tag list, in the order of that table.
    pub tags: Vec<&'static str>,
    /// 20–300 characters of review text.
    pub text: String,
    /// "在读" | "已毕业" | "了解".
    pub relation: &'static str,
    /// "YYYY-MM-DD", between 2019-01-01 and 2026-10-31.
    pub created_at: String,
    /// 是否推荐报考, when the writer answered.
    pub recommend: Option<bool>,
}
