//! The words a recording is recognized with: the school and major names
//! (and the short names students say: 北大, 浙大, 计科), the form's
//! vocabulary, and the names on the student's page — so that 贾宏伟 comes
//! out as the advisor on screen, not as a homophone. The template is
//! `prompts/transcribe/vocabulary.txt`; this module fills it within
//! [`MAX_CHARS`], the most particular words last, since a recognizer keeps
//! the end of a long prompt.
//!
//! The page context is the browser's word: only names the catalog knows
//! and short runs of Han characters get in, so a page cannot stuff the
//! prompt.

use app::protocol::{PageContext, UserForm};

use crate::catalog::Catalog;
use crate::text::lexfile;

const TEMPLATE: &str = include_str!("../../../prompts/transcribe/vocabulary.txt");
const DIRECTIONS: &str = include_str!("../../lexicons/directions.txt");

/// The longest prompt, in characters: about 200 of Whisper's tokens for
/// Chinese text, under the 224 it keeps.
pub const MAX_CHARS: usize = 160;
/// Schools named in full (with their short name) when the student has
/// chosen none, by popularity; after them, as many more by their short
/// name alone as fit in [`SCHOOL_CHARS`]: students say 华科 and 西电, and
/// a short name is what a recognizer most often writes as some other word.
const SCHOOLS: usize = 3;
/// The characters the school line may take on a page with no school.
const SCHOOL_CHARS: usize = 80;
/// Other schools named once one is chosen.
const OTHER_SCHOOLS: usize = 4;
/// Majors named.
const MAJORS: usize = 5;
/// Research directions named (the lexicon's first, its most asked).
const DIRECTIONS_NAMED: usize = 4;
/// The form's words besides the directions.
const FORM_WORDS: &str = "导师温和、严格、放养，经费";
/// Advisors on the page named at most.
const ADVISORS: usize = 10;

/// The prompt for a recording made on `page` with `form` filled so far.
pub fn build(catalog: &Catalog, page: Option<&PageContext>, form: Option<&UserForm>) -> String {
    let school = page
        .and_then(|p| p.ranking_filters.as_ref().map(|f| f.school.as_str()))
        .into_iter()
        .chain(form.and_then(|f| f.school.as_deref()))
        .find_map(|s| catalog.resolve_school(s).found());
    let major = page
        .and_then(|p| p.ranking_filters.as_ref().map(|f| f.major.as_str()))
        .into_iter()
        .chain(form.and_then(|f| f.major.as_deref()))
        .find_map(|m| catalog.resolve_major(m).found());

    // The catalog lists schools most popular first.
    let others = catalog
        .schools()
        .iter()
        .filter(|s| Some(s.id) != school.map(|x| x.id));
    let schools = if school.is_some() {
        join(others.take(OTHER_SCHOOLS).map(named_with_alias))
    } else {
        let mut items: Vec<String> = Vec::new();
        let mut used = 0;
        for (i, s) in others.enumerate() {
            let item = if i < SCHOOLS {
                named_with_alias(s)
            } else {
                match short_name(s) {
                    Some(alias) => alias.to_string(),
                    None => continue,
                }
            };
            let cost = item.chars().count() + 1;
            if used + cost > SCHOOL_CHARS {
                break;
            }
            used += cost;
            items.push(item);
        }
        join(items.into_iter())
    };

    let majors: Vec<String> = match school {
        Some(s) => catalog
            .majors_of(s.id)
            .into_iter()
            .map(|m| m.name.clone())
            .collect(),
        None => catalog.majors().iter().map(|m| m.name.clone()).collect(),
    };
    let majors = join(
        majors
            .into_iter()
            .filter(|m| Some(m.as_str()) != major.map(|x| x.name.as_str()))
            .take(MAJORS),
    );

    let form_words = form_words().to_string();

    let mut here: Vec<String> = Vec::new();
    if let Some(s) = school {
        here.push(named_with_alias(s));
    }
    if let Some(m) = major {
        here.push(m.name.clone());
    }
    if let Some(p) = page {
        let advisors = p
            .visible_advisors
            .iter()
            .map(|a| a.name.as_str())
            .chain(p.selected_advisor.as_ref().map(|a| a.name.as_str()))
            .filter(|n| is_name(n))
            .take(ADVISORS)
            .map(|n| format!("{n}老师"));
        here.extend(advisors);
    }
    let page = join(here.into_iter());

    fill(&[
        ("schools", schools),
        ("majors", majors),
        ("form", form_words),
        ("page", page),
    ])
}

/// The prompt for hearing a recording once more
/// (`agent::nlu::readings::listen_for`): the names the first listening
/// read and those its unread words came near, and nothing else, so that
/// these are what the recognizer weighs the sound against.
pub fn again(schools: &[String], majors: &[String]) -> String {
    fill(&[
        ("schools", join(schools.iter().cloned())),
        ("majors", join(majors.iter().cloned())),
        ("form", String::new()),
        ("page", String::new()),
    ])
}

/// The form's words: the lexicon's first directions, then [`FORM_WORDS`]
/// (the same for every recording, read once).
fn form_words() -> &'static str {
    static WORDS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let directions = lexfile::parse("directions.txt", DIRECTIONS)
            .into_iter()
            .map(|e| e.key)
            .take(DIRECTIONS_NAMED);
        join(directions.chain(std::iter::once(FORM_WORDS.to_string())))
    })
}

/// `北京大学、北大`: the name and the first short alias students say.
fn named_with_alias(s: &crate::catalog::SchoolEntry) -> String {
    match short_name(s) {
        Some(alias) => format!("{}、{alias}", s.name),
        None => s.name.clone(),
    }
}

/// The first short alias in Han characters (北大, 华科), if any.
fn short_name(s: &crate::catalog::SchoolEntry) -> Option<&str> {
    s.aliases
        .iter()
        .find(|a| a.chars().count() <= 4 && is_han(a))
        .map(String::as_str)
}

fn join(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join("、")
}

fn is_han(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| ('\u{4e00}'..='\u{9fff}').contains(&c) || c == '·')
}

/// A person's name as a page may show it: two to six Han characters.
fn is_name(s: &str) -> bool {
    (2..=6).contains(&s.chars().count()) && is_han(s)
}

/// The template's lines with their placeholders filled; a line whose
/// placeholder is empty is left out. Lines are then dropped from the first
/// (the least particular) until the prompt fits [`MAX_CHARS`]; a last line
/// too long on its own keeps its end.
fn fill(values: &[(&str, String)]) -> String {
    let lines: Vec<String> = TEMPLATE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|line| {
            let mut out = line.to_string();
            for (name, value) in values {
                let slot = format!("{{{name}}}");
                if out.contains(&slot) {
                    if value.is_empty() {
                        return None;
                    }
                    out = out.replace(&slot, value);
                }
            }
            Some(out)
        })
        .collect();
    let mut start = 0;
    let total = |from: usize| {
        lines[from..]
            .iter()
            .map(|l| l.chars().count())
            .sum::<usize>()
    };
    while start + 1 < lines.len() && total(start) > MAX_CHARS {
        start += 1;
    }
    let prompt: String = lines[start..].concat();
    let n = prompt.chars().count();
    if n > MAX_CHARS {
        prompt.chars().skip(n - MAX_CHARS).collect()
    } else {
        prompt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::protocol::{PageKind, RankingFilters, SelectedAdvisor, VisibleAdvisor};

    fn catalog() -> Catalog {
        use crate::catalog::{MajorEntry, SchoolEntry};
        let school = |id: i64, name: &str, popularity: i64, aliases: &[&str]| SchoolEntry {
            id,
            name: name.into(),
            city: String::new(),
            tier: "985".into(),
            popularity,
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
        };
        let major = |id: i64, name: &str, aliases: &[&str]| MajorEntry {
            id,
            name: name.into(),
            category: "工学".into(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
        };
        let schools = vec![
            school(1, "北京大学", 100, &["PKU", "北大"]),
            school(2, "浙江大学", 90, &["浙大"]),
            school(3, "复旦大学", 80, &[]),
            school(4, "华中科技大学", 70, &["华科", "HUST"]),
            school(5, "北京航空航天大学", 60, &["北航"]),
            school(6, "南开大学", 50, &[]),
        ];
        let majors = vec![
            major(1, "计算机科学与技术", &["计算机", "计科"]),
            major(2, "软件工程", &["软工"]),
            major(3, "数学", &[]),
        ];
        let offered = [((1, 1), 10), ((1, 2), 5), ((2, 1), 8), ((3, 3), 4)]
            .into_iter()
            .collect();
        Catalog::new(schools, majors, offered)
    }

    fn advisor(name: &str) -> VisibleAdvisor {
        VisibleAdvisor {
            id: "1".into(),
            name: name.into(),
            title: String::new(),
            rating: 4.0,
            rank: 1,
        }
    }

    #[test]
    fn without_a_page_it_names_schools_majors_and_the_forms_words() {
        let p = build(&catalog(), None, None);
        // Nearest the recording: the schools, the words most misheard;
        // the most asked in full, then more by the short names students
        // say (a school with none is left to its full-named peers).
        assert!(p.ends_with("复旦大学、华科、北航。"), "{p}");
        assert!(!p.contains("南开"), "{p}");
        assert!(p.chars().count() <= MAX_CHARS, "{p}");
        assert!(p.contains("北京大学"), "{p}");
        assert!(p.contains("计算机"), "{p}");
        assert!(p.contains("温和") && p.contains("机器学习"), "{p}");
        assert!(!p.contains('{'), "{p}");
    }

    #[test]
    fn the_pages_school_and_advisors_come_last() {
        let page = PageContext {
            current_page: PageKind::Ranking,
            visible_advisors: vec![advisor("贾宏伟"), advisor("欧阳明"), advisor("<script>")],
            selected_advisor: Some(SelectedAdvisor {
                id: "9".into(),
                name: "司马静".into(),
            }),
            ranking_filters: Some(RankingFilters {
                school: "北大".into(),
                major: "计算机".into(),
            }),
        };
        let p = build(&catalog(), Some(&page), None);
        assert!(p.chars().count() <= MAX_CHARS, "{p}");
        assert!(p.ends_with("司马静老师。"), "{p}");
        assert!(p.contains("贾宏伟老师、欧阳明老师"), "{p}");
        assert!(!p.contains("script"), "{p}");
        let here = p.rfind("北京大学").unwrap();
        assert!(here > p.find("专业").unwrap_or(0), "{p}");
    }

    #[test]
    fn a_page_full_of_names_still_fits() {
        let names: Vec<VisibleAdvisor> = (0..50)
            .map(|i| advisor(&format!("张{}", "三".repeat(1 + i % 5))))
            .collect();
        let page = PageContext {
            visible_advisors: names,
            ..PageContext::default()
        };
        let p = build(&catalog(), Some(&page), None);
        assert!(p.chars().count() <= MAX_CHARS, "{p}");
        assert!(p.ends_with("老师。"), "{p}");
    }
}
