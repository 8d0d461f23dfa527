//! `resolve`: the advisors the message points at, found once and read by
//! every later step (the targets: `agent::targets`). "第一个" and "倒数第二
//! 个" are positions in the list on screen (or in the ranking this turn is
//! about to show: "清华计算机排第一的是谁"), "他" is whoever was talked about
//! last (the page's own selection when the student navigated there), a name
//! is looked up on the page, in the conversation, then in the database —
//! the form's school and major first, then site-wide. A name said in words
//! the analysis did not read ("王小明怎么样", "张老师") is found by
//! [`names`].

mod names;

use app::protocol::{PageContext, SelectedAdvisor, UserForm};

use super::{Outcome, Turn};
use crate::agent::facts::Surnames;
use crate::agent::form;
use crate::agent::nlu::{Reference, Slot};
use crate::agent::targets::{resolve_on_page, Resolved, Target};
use crate::site::Site;

/// What the step reads besides the turn: the advisors in the data, and
/// the surnames that tell a name said in words.
pub(super) struct Deps<'a> {
    pub site: &'a Site,
    pub surnames: &'a Surnames,
}

impl Deps<'_> {
    /// The references resolved; then the coach when the student asked to
    /// review the advisor (`understand` heard it), else on to the persona.
    pub(super) async fn run(&self, t: &mut Turn<'_>) -> Outcome {
        t.understood.resolved = self.targets(t).await;
        if t.understood.wants_review {
            Outcome::Review
        } else {
            Outcome::Next
        }
    }

    /// Every reference of the message resolved (see the module comment).
    async fn targets(&self, t: &Turn<'_>) -> Resolved {
        let mut references = t.understood.analysis.references.clone();
        // "刚才那个张老师": a surname the conversation already gave a full name.
        for name in names::by_surname(t, self.surnames) {
            if !references.contains(&name) {
                references.insert(0, name);
            }
        }
        let guessed = references
            .is_empty()
            .then(|| names::guess_name(&t.input.text, self.surnames.list()).map(Reference::Name))
            .flatten();
        references.extend(guessed);
        // A name says who more than a pronoun next to it ("之前说的那个张三，打开
        // 他的详细信息"): the named advisor is the subject.
        let subject = references
            .iter()
            .find(|r| matches!(r, Reference::Name(_)))
            .or(references.first())
            .cloned();
        let ordinal = matches!(
            subject,
            Some(Reference::Ordinal(_) | Reference::FromEnd(_) | Reference::Middle)
        );
        let shown = if ordinal {
            shown_after(self.site, t).await
        } else {
            None
        };
        let page = shown.as_ref().unwrap_or(&t.input.page);
        let mut targets = Vec::with_capacity(references.len() + 1);
        for reference in references {
            if targets.iter().any(|(r, _)| r == &reference) {
                continue;
            }
            let target = match resolve_on_page(&reference, page, t.memory()) {
                Some(found) => found,
                None => match &reference {
                    Reference::Name(name) => by_name(self.site, name, t.form()).await,
                    _ => Target::Unclear,
                },
            };
            targets.push((reference, target));
        }
        // "他" of a message that names nobody: whoever was talked about.
        if !targets.iter().any(|(r, _)| r == &Reference::Pronoun) {
            if let Some(found) = resolve_on_page(&Reference::Pronoun, page, t.memory()) {
                targets.push((Reference::Pronoun, found));
            }
        }
        Resolved {
            targets,
            subject,
            shown,
        }
    }
}

/// A name looked up in the database: within the form's school and major,
/// then site-wide.
async fn by_name(site: &Site, name: &str, user_form: &UserForm) -> Target {
    let (school, major) = form::catalog_pair(site.catalog(), user_form);
    let (school, major) = (school.map(|s| s.id), major.map(|m| m.id));
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
async fn shown_after(site: &Site, t: &Turn<'_>) -> Option<PageContext> {
    let named = |slot: &Option<Slot>| match slot {
        Some(Slot::One(v)) => Some(v.clone()),
        _ => None,
    };
    let school_now = named(&t.understood.analysis.school);
    let major_now = named(&t.understood.analysis.major);
    if school_now.is_none() && major_now.is_none() {
        return None;
    }
    let school = school_now.or_else(|| t.form().school.clone())?;
    let major = major_now.or_else(|| t.form().major.clone())?;
    let catalog = site.catalog();
    let school = catalog.resolve_school(&school).found()?;
    let major = catalog.resolve_major(&major).found()?;
    let same = t
        .input
        .page
        .ranking_filters
        .as_ref()
        .is_some_and(|f| f.school == school.name && f.major == major.name);
    if same {
        return None;
    }
    let ranking = site
        .ranking_page_in(
            school,
            major,
            app::model::SortKey::Overall,
            1,
            &t.input.versions,
        )
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
