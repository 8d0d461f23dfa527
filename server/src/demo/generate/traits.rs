//! An advisor's latent traits: what their students would say about them on
//! average (levels of the four dimensions, personality, style, funding, the
//! habits tags speak of). Never published; every review of the advisor is
//! drawn around them, which is why scores, tags and text agree.

use super::rng::Rng;
use super::{school_factor, MajorSeed, SchoolSeed};

/// Personalities by how they treat students: warm, strict or hands-off.
/// Relationship fragments and habits (meetings, internships) follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Group {
    Warm,
    Strict,
    Free,
}

/// What students would say about an advisor on average; never published.
#[derive(Clone, Debug)]
pub(super) struct Traits {
    /// Latent academic, funding, relationship and prospects levels (1..5).
    pub(super) levels: [f64; 4],
    pub(super) personality: &'static str,
    pub(super) second: Option<&'static str>,
    pub(super) group: Group,
    pub(super) style: &'static str,
    /// 经费充足 / 经费一般 / 经费紧张.
    pub(super) funding_tag: &'static str,
    /// Pays a high allowance (补助高).
    pub(super) generous: bool,
    /// Holds many group meetings (组会多).
    pub(super) meetings: bool,
    /// Lets students intern freely (实习自由).
    pub(super) internship: bool,
}

/// (personality, weight, relationship effect, compatible second traits)
const PERSONALITIES: &[(&str, f64, f64, &[&str])] = &[
    ("温和", 14.0, 0.30, &["负责", "耐心", "平易近人", "放养"]),
    ("严格", 12.0, -0.20, &["负责", "要求高", "push"]),
    ("放养", 14.0, -0.15, &["温和", "平易近人"]),
    ("负责", 16.0, 0.35, &["温和", "严格", "耐心", "要求高"]),
    ("平易近人", 10.0, 0.30, &["温和", "负责", "放养"]),
    ("要求高", 10.0, -0.15, &["严格", "push", "负责"]),
    ("耐心", 8.0, 0.30, &["温和", "负责"]),
    ("push", 10.0, -0.50, &["要求高", "严格"]),
];

fn group_of(personality: &str) -> Group {
    match personality {
        "严格" | "要求高" | "push" => Group::Strict,
        "放养" => Group::Free,
        _ => Group::Warm,
    }
}

/// Style weights (理论型, 工程型, 产业型) by major category.
fn style_weights(category: &str) -> [f64; 3] {
    match category {
        "工学" => [20.0, 55.0, 25.0],
        "理学" => [65.0, 20.0, 15.0],
        "经济学" | "管理学" => [45.0, 5.0, 50.0],
        "医学" => [45.0, 25.0, 30.0],
        _ => [80.0, 0.0, 20.0],
    }
}

const STYLES: [&str; 3] = ["理论型", "工程型", "产业型"];

fn clamp_level(x: f64) -> f64 {
    x.clamp(1.2, 4.95)
}

/// The traits of a new advisor with `title` in `major` at `school`.
pub(super) fn draw_traits(
    rng: &mut Rng,
    school: &SchoolSeed,
    major: &MajorSeed,
    title: &str,
) -> Traits {
    let q = (3.55 + 0.7 * rng.normal()).clamp(1.4, 4.9);
    let title_bonus = match title {
        "教授" => 0.2,
        "研究员" => 0.1,
        "讲师" => -0.2,
        _ => 0.0,
    };
    let weights: Vec<f64> = PERSONALITIES.iter().map(|p| p.1).collect();
    let (personality, _, rel_effect, compatible) = PERSONALITIES[rng.weighted(&weights)];
    let second = if rng.chance(0.5) {
        Some(rng.pick(compatible))
    } else {
        None
    };
    let style = STYLES[rng.weighted(&style_weights(major.category))];
    let sf = school_factor(school);

    let academic = clamp_level(q + title_bonus + 0.45 * rng.normal());
    let funding = clamp_level(
        2.75 + 0.35 * (q - 3.55)
            + match title {
                "教授" | "研究员" => 0.4,
                "讲师" => -0.4,
                _ => 0.0,
            }
            + match style {
                "产业型" => 0.5,
                "工程型" => 0.35,
                _ => -0.15,
            }
            + match major.category {
                "工学" => 0.3,
                "医学" => 0.2,
                "文学" | "法学" | "教育学" => -0.4,
                _ => 0.0,
            }
            + 0.4 * sf
            + 0.6 * rng.normal(),
    );
    let relationship = clamp_level(q + rel_effect + 0.5 * rng.normal());
    let prospects = clamp_level(
        0.5 * q
            + 0.3 * academic
            + 0.2 * funding
            + if style == "产业型" { 0.3 } else { 0.0 }
            + 0.4 * (sf - 0.5)
            + 0.35 * rng.normal(),
    );
    let funding_tag = if funding >= 3.9 {
        "经费充足"
    } else if funding >= 2.7 {
        "经费一般"
    } else {
        "经费紧张"
    };
    let group = group_of(personality);
    let generous = funding >= 3.8 && rng.chance(0.6);
    let meetings = rng.chance(match group {
        Group::Strict => 0.6,
        Group::Warm => 0.2,
        Group::Free => 0.03,
    });
    let internship = rng.chance(match (group, style) {
        (Group::Free, _) => 0.75,
        (_, _) if personality == "push" => 0.05,
        (Group::Strict, "产业型") => 0.25,
        (_, "产业型") => 0.5,
        _ => 0.25,
    });
    Traits {
        levels: [academic, funding, relationship, prospects],
        personality,
        second,
        group,
        style,
        funding_tag,
        generous,
        meetings,
        internship,
    }
}
