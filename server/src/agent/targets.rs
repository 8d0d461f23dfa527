//! Which advisor each reference of a message points at: the targets the
//! `resolve` step finds once per turn (`turn/resolve/`), and the reading of
//! a reference against the page and the conversation alone. Every later
//! step reads them — the embedded planner's answers, the review coach's
//! subject, the facts a model is told; one set of targets is what keeps
//! "他" meaning the same advisor for all of them.

use app::protocol::{PageContext, SelectedAdvisor};

use super::memory::Memory;
use super::nlu::Reference;

/// Which advisor a reference points to, or why it points nowhere.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    Found(SelectedAdvisor),
    /// "第一个" with no list on the page.
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
    /// question: `turn/resolve/names.rs`) with its target, in the message's
    /// order.
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

/// The longest surname (欧阳, 司马): a shorter name is read as one.
const SURNAME_MAX: usize = 2;

/// Resolves a reference from what the page shows and what was said before;
/// `None` for a name neither holds (it needs the database). A surname
/// alone is the advisor shown who has it, or a question between them.
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
        Reference::Ordinal(_) | Reference::FromEnd(_) | Reference::Middle if visible.is_empty() => {
            Target::NoList
        }
        // The middle of an even list is two advisors: asked, not guessed.
        Reference::Middle if visible.len().is_multiple_of(2) => Target::Unclear,
        Reference::Middle => Target::Found(pick(visible.len() / 2)),
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
                // A surname (王老师, 姓王的): the advisors shown who have it.
                let len = name.chars().count();
                let with: Vec<usize> = (0..visible.len())
                    .filter(|&i| {
                        let a = &visible[i].name;
                        len <= SURNAME_MAX
                            && a.chars().count() > len
                            && a.starts_with(name.as_str())
                    })
                    .collect();
                match with.as_slice() {
                    [] => return None,
                    [one] => Target::Found(pick(*one)),
                    several => {
                        Target::Ambiguous(name.clone(), several.iter().map(|&i| pick(i)).collect())
                    }
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_pronouns_point_into_the_page() {
        let page = page(&["张三", "李四"]);
        let memory = Memory::default();
        let found = |r: Reference| match resolve_on_page(&r, &page, &memory) {
            Some(Target::Found(a)) => a.name,
            other => format!("{other:?}"),
        };
        assert_eq!(found(Reference::Ordinal(1)), "李四");
        assert_eq!(found(Reference::FromEnd(0)), "李四");
        // The middle of two is either: asked. Of three, the second.
        assert_eq!(
            resolve_on_page(&Reference::Middle, &page, &memory),
            Some(Target::Unclear)
        );
        let three = self::page(&["张三", "李四", "王五"]);
        assert_eq!(
            resolve_on_page(&Reference::Middle, &three, &memory),
            Some(Target::Found(SelectedAdvisor {
                id: three.visible_advisors[1].id.clone(),
                name: "李四".into()
            }))
        );
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

    #[test]
    fn a_surname_is_the_advisor_shown_who_has_it_or_a_question() {
        let page = page(&["王清", "李四", "王健帆"]);
        let memory = Memory::default();
        let resolve = |name: &str| resolve_on_page(&Reference::Name(name.into()), &page, &memory);
        assert!(matches!(resolve("李"), Some(Target::Found(a)) if a.name == "李四"));
        match resolve("王") {
            Some(Target::Ambiguous(name, shown)) => {
                assert_eq!(name, "王");
                let names: Vec<&str> = shown.iter().map(|a| a.name.as_str()).collect();
                assert_eq!(names, ["王清", "王健帆"]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(resolve("赵"), None);
    }

    fn page(names: &[&str]) -> PageContext {
        PageContext {
            visible_advisors: names
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
        }
    }
}
