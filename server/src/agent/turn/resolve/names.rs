//! Names said in words the analysis did not read as a reference: a name
//! the catalog does not know, said as the subject of a question or a
//! search ("王小明怎么样", "帮我找一下王小明老师"), and a surname with a
//! title ("刚才那个张老师") for an advisor the conversation or the page
//! already gave a full name. The `resolve` step looks them up like any
//! other name.

use std::sync::OnceLock;

use app::protocol::SelectedAdvisor;

use super::Turn;
use crate::agent::facts::Surnames;
use crate::agent::nlu::Reference;
use crate::text::lexfile;

const LEXICON: &str = include_str!("../../../../lexicons/person_names.txt");

/// The words around a name (`server/lexicons/person_names.txt`).
struct Words {
    tails: Vec<String>,
    leads: Vec<String>,
    introducers: Vec<String>,
    titles: Vec<String>,
}

fn words() -> &'static Words {
    static WORDS: OnceLock<Words> = OnceLock::new();
    WORDS.get_or_init(|| {
        let [tails, leads, introducers, titles] = lexfile::keyed(
            "person_names.txt",
            LEXICON,
            ["tail", "lead", "introducer", "title"],
        );
        Words {
            tails,
            leads,
            introducers,
            titles,
        }
    })
}

/// `text` without the longest of `words` at its front (or end), repeatedly.
fn strip_all(mut rest: String, words: &[String], front: bool) -> String {
    let mut words: Vec<&str> = words.iter().map(String::as_str).collect();
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
pub(super) fn guess_name(text: &str, surnames: &[String]) -> Option<String> {
    let plain: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && !"，。？！?!,.、".contains(*c))
        .collect();
    // "叫X的老师": what follows 叫, up to 的 or a title.
    let w = words();
    for intro in &w.introducers {
        if let Some((_, after)) = plain.split_once(intro.as_str()) {
            let head: String = after.split('的').next().unwrap_or_default().to_string();
            let name = strip_all(head, &w.tails, false);
            if plausible_name(&name, surnames) {
                return Some(name);
            }
        }
    }
    let rest = strip_all(strip_all(plain, &w.leads, true), &w.tails, false);
    plausible_name(&rest, surnames).then_some(rest)
}

/// "张老师" where the code's analysis found no name: the advisor with that
/// surname most recently talked about, else the one on the page (when only
/// one there has it).
pub(super) fn by_surname(t: &Turn<'_>, surnames: &Surnames) -> Vec<Reference> {
    let named: Vec<&String> = t
        .understood
        .analysis
        .references
        .iter()
        .filter_map(|r| match r {
            Reference::Name(n) => Some(n),
            _ => None,
        })
        .collect();
    let text: Vec<char> = t.understood.analysis.normalized.chars().collect();
    let mut out = Vec::new();
    // "不是秦老师，是李晨帆老师": none said before a correction is meant.
    let from = t.understood.analysis.references_from;
    for title in &words().titles {
        let title: Vec<char> = title.chars().collect();
        for at in from..text.len() {
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
                let on_page: Vec<&SelectedAdvisor> = t.input.page.selected_advisor.iter().collect();
                let visible: Vec<SelectedAdvisor> = t
                    .input
                    .page
                    .visible_advisors
                    .iter()
                    .map(|v| SelectedAdvisor {
                        id: v.id.clone(),
                        name: v.name.clone(),
                    })
                    .collect();
                let found = t
                    .memory()
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
}
