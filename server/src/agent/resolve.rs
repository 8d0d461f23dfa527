//! Which advisors a message points at, decided once per turn before anything
//! plans: "第一个" and "倒数第二个" are positions in the list on screen (or in
//! the ranking this turn is about to show: "清华计算机排第一的是谁"), "他" is
//! whoever was talked about last (the page's own selection when the student
//! navigated there), a name is looked up on the page, in the conversation,
//! then in the database — the form's school and major first, then site-wide.
//!
//! Every later step reads these targets: the embedded planner's answers, the
//! review coach's subject, the facts a model is told. Resolving in one place
//! is what keeps "他" meaning the same advisor for all of them.

use app::protocol::{PageContext, SelectedAdvisor, UserForm};

use super::facts::Surnames;
use super::memory::Memory;
use super::nlu::{Analysis, Reference, Slot};
use crate::site::Site;

/// Which advisor a reference points to, or why it points nowhere.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    Found(SelectedAdvisor),
    /// "第一个" with no list on the page (seed 000 §6.3).
    NoList,
    /// "第九个" on a list of three.
    OutOfRange(usize),
    /// "他" with nobody selected or talked about.
    Unclear,
    NotFound(String),
    Ambiguous(String, Vec<SelectedAdvisor>),
}

/// The turn's references with their targets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resolved {
    /// Each reference of the message (and a name guessed from a bare
    /// question, see [`guess_name`]) with its target, in the message's order.
    pub targets: Vec<(Reference, Target)>,
    /// The advisor the turn is about: the first reference, else a guessed
    /// name; `None` when the message points at nobody.
    pub subject: Option<Reference>,
    /// The ranking this turn shows before the ordinals are read, when it is
    /// another one than the page shows.
    pub shown: Option<PageContext>,
}

impl Resolved {
    pub fn target(&self, reference: &Reference) -> Option<&Target> {
        self.targets
            .iter()
            .find(|(r, _)| r == reference)
            .map(|(_, t)| t)
    }

    /// The advisor the turn is about, if it resolved.
    pub fn subject_advisor(&self) -> Option<&SelectedAdvisor> {
        match self.target(self.subject.as_ref()?)? {
            Target::Found(a) => Some(a),
            _ => None,
        }
    }
}

/// Resolves a reference from what the page shows and what was said before;
/// `None` for a name neither holds (it needs the database).
pub fn resolve_on_page(
    reference: &Reference,
    page: &PageContext,
    memory: &Memory,
) -> Option<Target> {
    let visible = &page.visible_advisors;
    let pick = |i: usize| SelectedAdvisor {
        id: visible[i].id.clone(),
        name: visible[i].name.clone(),
    };
    Some(match reference {
        Reference::Ordinal(_) | Reference::FromEnd(_) if visible.is_empty() => Target::NoList,
        Reference::Ordinal(i) | Reference::FromEnd(i) if *i >= visible.len() => {
            Target::OutOfRange(visible.len())
        }
        Reference::Ordinal(i) => Target::Found(pick(*i)),
        Reference::FromEnd(i) => Target::Found(pick(visible.len() - 1 - i)),
        Reference::Pronoun => match (&memory.last_advisor, &page.selected_advisor) {
            (Some(a), _) | (None, Some(a)) => Target::Found(a.clone()),
            (None, None) if visible.len() == 1 => Target::Found(pick(0)),
            _ => Target::Unclear,
        },
        Reference::Name(name) => {
            if let Some(i) = visible.iter().position(|a| &a.name == name) {
                Target::Found(pick(i))
            } else if let Some(a) = page
                .selected_advisor
                .iter()
                .chain(memory.last_advisor.iter())
                .find(|a| &a.name == name)
            {
                Target::Found(a.clone())
            } else {
                return None;
            }
        }
    })
}

/// Words after a name that ask about the person ("王小明老师怎么样").
const NAME_TAILS: &[&str] = &[
    "老师",
    "导师",
    "教授",
    "副教授",
    "研究员",
    "讲师",
    "博导",
    "硕导",
    "怎么样",
    "如何",
    "好不好",
    "人怎么样",
    "靠谱吗",
    "的评价",
    "评价",
    "口碑",
    "的学生评价",
    "的详细信息",
    "的主页",
    "呢",
    "吗",
];

/// Words before a name that ask to find or look at the person ("帮我找一下
/// 王小明", "查查欧阳娜娜老师"): stripped from the front like the tails.
const NAME_LEADS: &[&str] = &[
    "请",
    "帮我",
    "帮忙",
    "麻烦",
    "你",
    "我想",
    "我要",
    "想",
    "找一下",
    "找找",
    "找",
    "搜一下",
    "搜搜",
    "搜索",
    "搜",
    "查一下",
    "查查",
    "查询",
    "查",
    "看一下",
    "看看",
    "了解一下",
    "了解",
    "介绍一下",
    "说说",
    "讲讲",
    "有没有",
    "一位",
    "一个",
];

/// Words that introduce a name ("一个叫王小明的老师", "名叫欧阳娜娜").
const NAME_INTRODUCERS: &[&str] = &["名叫", "叫做", "叫"];

/// `text` without the longest of `words` at its front (or end), repeatedly.
fn strip_all(mut rest: String, words: &[&str], front: bool) -> String {
    let mut words: Vec<&str> = words.to_vec();
    words.sort_by_key(|t| std::cmp::Reverse(t.chars().count()));
    loop {
        let before = rest.clone();
        for w in &words {
            let stripped = if front {
                rest.strip_prefix(w)
            } else {
                rest.strip_suffix(w)
            };
            if let Some(r) = stripped {
                rest = r.to_string();
            }
        }
        if rest == before {
            return rest;
        }
    }
}

/// `rest` is a plausible name: two to four Chinese characters starting with
/// a common surname.
fn plausible_name(rest: &str, surnames: &[String]) -> bool {
    let n = rest.chars().count();
    let cjk = rest.chars().all(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    cjk && (2..=4).contains(&n)
        && surnames
            .iter()
            .any(|s| rest.starts_with(s.as_str()) && rest.len() > s.len())
}

/// A name the catalog does not know, said as the subject of a question or
/// a search ("王小明怎么样", "帮我找一下王小明老师"), or introduced by 叫
/// ("有个叫王小明的老师吗"): two to four Chinese characters starting with a
/// common surname.
pub fn guess_name(text: &str, surnames: &[String]) -> Option<String> {
    let plain: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && !"，。？！?!,.、".contains(*c))
        .collect();
    // "叫X的老师": what follows 叫, up to 的 or a title.
    for intro in NAME_INTRODUCERS {
        if let Some((_, after)) = plain.split_once(intro) {
            let head: String = after.split('的').next().unwrap_or_default().to_string();
            let name = strip_all(head, NAME_TAILS, false);
            if plausible_name(&name, surnames) {
                return Some(name);
            }
        }
    }
    let rest = strip_all(strip_all(plain, NAME_LEADS, true), NAME_TAILS, false);
    plausible_name(&rest, surnames).then_some(rest)
}

/// What the resolve step reads.
pub struct Scene<'a> {
    pub message: &'a str,
    pub analysis: &'a Analysis,
    pub page: &'a PageContext,
    pub memory: &'a Memory,
    pub form: &'a UserForm,
}

/// Every reference of the message resolved (see the module comment).
pub async fn resolve(site: &Site, surnames: &Surnames, scene: &Scene<'_>) -> Resolved {
    let mut references = scene.analysis.references.clone();
    // "刚才那个张老师": a surname the conversation already gave a full name.
    for name in by_surname(scene, surnames) {
        if !references.contains(&name) {
            references.insert(0, name);
        }
    }
    let guessed = references
        .is_empty()
        .then(|| guess_name(scene.message, surnames.list()).map(Reference::Name))
        .flatten();
    references.extend(guessed);
    // A name says who more than a pronoun next to it ("之前说的那个张三，打开
    // 他的详细信息"): the named advisor is the subject.
    let subject = references
        .iter()
        .find(|r| matches!(r, Reference::Name(_)))
        .or(references.first())
        .cloned();
    let ordinal = matches!(subject, Some(Reference::Ordinal(_) | Reference::FromEnd(_)));
    let shown = if ordinal {
        shown_after(site, scene).await
    } else {
        None
    };
    let page = shown.as_ref().unwrap_or(scene.page);
    let mut targets = Vec::with_capacity(references.len() + 1);
    for reference in references {
        if targets.iter().any(|(r, _)| r == &reference) {
            continue;
        }
        let target = match resolve_on_page(&reference, page, scene.memory) {
            Some(t) => t,
            None => match &reference {
                Reference::Name(name) => by_name(site, name, scene.form).await,
                _ => Target::Unclear,
            },
        };
        targets.push((reference, target));
    }
    // "他" of a message that names nobody: whoever was talked about.
    if !targets.iter().any(|(r, _)| r == &Reference::Pronoun) {
        if let Some(t) = resolve_on_page(&Reference::Pronoun, page, scene.memory) {
            targets.push((Reference::Pronoun, t));
        }
    }
    Resolved {
        targets,
        subject,
        shown,
    }
}

/// Titles a surname may stand before ("张老师", "王教授").
const TITLES: &[&str] = &[
    "副教授",
    "教授",
    "老师",
    "导师",
    "博导",
    "硕导",
    "老板",
    "研究员",
];

/// "张老师" where the code's analysis found no name: the advisor with that
/// surname most recently talked about, else the one on the page (when only
/// one there has it).
fn by_surname(scene: &Scene<'_>, surnames: &Surnames) -> Vec<Reference> {
    let named: Vec<&String> = scene
        .analysis
        .references
        .iter()
        .filter_map(|r| match r {
            Reference::Name(n) => Some(n),
            _ => None,
        })
        .collect();
    let text: Vec<char> = scene.analysis.normalized.chars().collect();
    let mut out = Vec::new();
    for title in TITLES {
        let title: Vec<char> = title.chars().collect();
        for at in 0..text.len() {
            if !text[at..].starts_with(&title) {
                continue;
            }
            for len in [2usize, 1] {
                if at < len {
                    continue;
                }
                let surname: String = text[at - len..at].iter().collect();
                if !surnames.list().contains(&surname) {
                    continue;
                }
                // "张三老师": a full name before the title is the NLU's.
                if named.iter().any(|n| n.starts_with(&surname)) {
                    break;
                }
                let has = |a: &&SelectedAdvisor| {
                    a.name.starts_with(&surname) && a.name.chars().count() > len
                };
                let on_page: Vec<&SelectedAdvisor> = scene.page.selected_advisor.iter().collect();
                let visible: Vec<SelectedAdvisor> = scene
                    .page
                    .visible_advisors
                    .iter()
                    .map(|v| SelectedAdvisor {
                        id: v.id.clone(),
                        name: v.name.clone(),
                    })
                    .collect();
                let found = scene
                    .memory
                    .talked_about
                    .iter()
                    .find(has)
                    .or_else(|| on_page.into_iter().find(has))
                    .cloned()
                    .or_else(|| {
                        let hits: Vec<&SelectedAdvisor> = visible.iter().filter(has).collect();
                        match hits.as_slice() {
                            [only] => Some((*only).clone()),
                            _ => None,
                        }
                    });
                if let Some(a) = found {
                    let r = Reference::Name(a.name);
                    if !out.contains(&r) {
                        out.push(r);
                    }
                }
                break;
            }
        }
    }
    out
}

/// A name looked up in the database: within the form's school and major,
/// then site-wide.
async fn by_name(site: &Site, name: &str, form: &UserForm) -> Target {
    let catalog = site.catalog();
    let school = form
        .school
        .as_deref()
        .and_then(|s| catalog.resolve_school(s).found())
        .map(|s| s.id);
    let major = form
        .major
        .as_deref()
        .and_then(|m| catalog.resolve_major(m).found())
        .map(|m| m.id);
    let mut rows = site
        .advisors_named(name, school, major)
        .await
        .unwrap_or_default();
    if rows.is_empty() && school.is_some() {
        rows = site
            .advisors_named(name, None, None)
            .await
            .unwrap_or_default();
    }
    let mut found: Vec<SelectedAdvisor> = rows
        .iter()
        .map(|r| SelectedAdvisor {
            id: r.id.to_string(),
            name: r.name.clone(),
        })
        .collect();
    // Not by its exact spelling: the site's name search (traditional
    // characters, a middle dot, pinyin), whole names only.
    if found.is_empty() {
        if let Ok(results) = site.search(name, 10).await {
            found = results
                .advisors
                .into_iter()
                .filter(|a| a.matched == "exact")
                .map(|a| SelectedAdvisor {
                    id: a.id,
                    name: a.name,
                })
                .collect();
        }
    }
    match found.len() {
        0 => Target::NotFound(name.to_string()),
        1 => Target::Found(found[0].clone()),
        _ => Target::Ambiguous(name.to_string(), found),
    }
}

/// The ranking the message's school or major puts on screen this turn, when
/// it is another one than the page shows: "清华计算机排第一的是谁" counts in
/// 清华's list, not in the one the student is looking at.
async fn shown_after(site: &Site, scene: &Scene<'_>) -> Option<PageContext> {
    let named = |slot: &Option<Slot>| match slot {
        Some(Slot::One(v)) => Some(v.clone()),
        _ => None,
    };
    let school_now = named(&scene.analysis.school);
    let major_now = named(&scene.analysis.major);
    if school_now.is_none() && major_now.is_none() {
        return None;
    }
    let school = school_now.or_else(|| scene.form.school.clone())?;
    let major = major_now.or_else(|| scene.form.major.clone())?;
    let catalog = site.catalog();
    let school = catalog.resolve_school(&school).found()?;
    let major = catalog.resolve_major(&major).found()?;
    let same = scene
        .page
        .ranking_filters
        .as_ref()
        .is_some_and(|f| f.school == school.name && f.major == major.name);
    if same {
        return None;
    }
    let ranking = site
        .ranking_page(school, major, app::model::SortKey::Overall, 1)
        .await
        .ok()?;
    Some(PageContext {
        current_page: app::protocol::PageKind::Ranking,
        visible_advisors: ranking.advisors.iter().map(|a| a.to_visible()).collect(),
        selected_advisor: None,
        ranking_filters: Some(app::protocol::RankingFilters {
            school: ranking.school,
            major: ranking.major,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_names_are_recognised_by_surname() {
        let surnames: Vec<String> = ["王", "欧阳", "李"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            guess_name("王小明怎么样", &surnames).as_deref(),
            Some("王小明")
        );
        assert_eq!(
            guess_name("欧阳娜娜老师如何？", &surnames).as_deref(),
            Some("欧阳娜娜")
        );
        assert_eq!(
            guess_name("李华的学生评价", &surnames).as_deref(),
            Some("李华")
        );
        assert_eq!(
            guess_name("帮我找一下叫王小明的老师", &surnames).as_deref(),
            Some("王小明")
        );
        assert_eq!(
            guess_name("有没有一个名叫欧阳娜娜的导师？", &surnames).as_deref(),
            Some("欧阳娜娜")
        );
        assert_eq!(
            guess_name("帮我查查李华老师", &surnames).as_deref(),
            Some("李华")
        );
        assert_eq!(guess_name("帮我找一下导师", &surnames), None);
        assert_eq!(guess_name("叫什么名字", &surnames), None);
        assert_eq!(guess_name("怎么样", &surnames), None);
        assert_eq!(guess_name("这个导师怎么样", &surnames), None);
        assert_eq!(guess_name("王", &surnames), None);
    }

    #[test]
    fn positions_and_pronouns_point_into_the_page() {
        let page = PageContext {
            visible_advisors: ["张三", "李四"]
                .iter()
                .enumerate()
                .map(|(i, n)| app::protocol::VisibleAdvisor {
                    id: (i + 1).to_string(),
                    name: n.to_string(),
                    title: "教授".into(),
                    rating: 4.0,
                    rank: i as u32 + 1,
                })
                .collect(),
            ..Default::default()
        };
        let memory = Memory::default();
        let found = |r: Reference| match resolve_on_page(&r, &page, &memory) {
            Some(Target::Found(a)) => a.name,
            other => format!("{other:?}"),
        };
        assert_eq!(found(Reference::Ordinal(1)), "李四");
        assert_eq!(found(Reference::FromEnd(0)), "李四");
        assert_eq!(
            resolve_on_page(&Reference::Ordinal(5), &page, &memory),
            Some(Target::OutOfRange(2))
        );
        assert_eq!(
            resolve_on_page(&Reference::Pronoun, &page, &memory),
            Some(Target::Unclear)
        );
        assert_eq!(
            resolve_on_page(&Reference::Name("王五".into()), &page, &memory),
            None
        );
    }
}
