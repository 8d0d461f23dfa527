//! What the data lets a turn name: the advisor names a student may say
//! (read by the understanding and the coach) and the facts check of a
//! reply against the data (the evaluation's `unsupported_claims`).

use app::protocol::{ChatResponse, PageContext, UserForm};

use super::{facts, form, memory, nlu, Agent};
use crate::site::Site;

/// Advisor names the student may say: those on the page, the one last
/// talked about, and those of the advisors of the form's school + major
/// that could be in `text` (a pair has up to thousands of advisors; only
/// names whose first character the message holds can be meant, so the
/// understanding of a turn does not grow with the pair).
pub(super) async fn known_names(
    site: &Site,
    lexicons: &nlu::Lexicons,
    text: &str,
    page: &PageContext,
    memory: &memory::Memory,
    user_form: &UserForm,
) -> Vec<String> {
    let mut names: Vec<String> = page
        .visible_advisors
        .iter()
        .map(|a| a.name.clone())
        .collect();
    names.extend(page.selected_advisor.iter().map(|a| a.name.clone()));
    names.extend(memory.last_advisor.iter().map(|a| a.name.clone()));
    names.extend(memory.talked_about.iter().map(|a| a.name.clone()));
    if let (Some(s), Some(m)) = form::catalog_pair(site.catalog(), user_form) {
        if let Ok(directory) = site.directory(s.id, m.id).await {
            let chars = nlu::matchable_chars(text, lexicons);
            names.extend(
                directory
                    .advisors
                    .iter()
                    .filter(|(_, name)| name.chars().next().is_some_and(|c| chars.contains(&c)))
                    .map(|(_, name)| name.clone()),
            );
        }
    }
    names.sort();
    names.dedup();
    names
}

impl Agent {
    /// The advisor names and figures `reply` speaks that the data does not
    /// hold — the evaluation's facts check, the same for every planner. The
    /// data is the turn's tool results, `page` (what the student saw when
    /// speaking), and the database record of each advisor of the page or the
    /// form's school + major the reply names (code describes an advisor from
    /// it without a tool call); a name that is none of these, or a figure
    /// none of them holds, is unsupported.
    pub async fn unsupported_claims(
        &self,
        reply: &ChatResponse,
        page: &PageContext,
    ) -> Vec<String> {
        let mut grounding = facts::Grounding::default();
        for call in &reply.tool_calls {
            grounding.add_json(&call.params);
            if let Some(result) = &call.result {
                grounding.add_json(result);
            }
        }
        grounding.add_page(page);
        let known = known_names(
            &self.site,
            &self.lexicons,
            &reply.voice_response,
            page,
            &memory::Memory::default(),
            &reply.form,
        )
        .await;
        let (school, major) = form::catalog_pair(self.site.catalog(), &reply.form);
        let claims = facts::claims(&reply.voice_response, &known, &self.surnames);
        for name in claims.names.iter().filter(|n| known.contains(n)) {
            let on_page = page
                .visible_advisors
                .iter()
                .map(|a| (&a.id, &a.name))
                .chain(page.selected_advisor.iter().map(|a| (&a.id, &a.name)))
                .find(|(_, n)| *n == name)
                .map(|(id, _)| id.clone());
            let ids: Vec<String> = match on_page {
                Some(id) => vec![id],
                None => self
                    .site
                    .advisors_named(name, school.map(|s| s.id), major.map(|m| m.id))
                    .await
                    .unwrap_or_default()
                    .iter()
                    .map(|a| a.id.to_string())
                    .collect(),
            };
            for id in ids {
                if let Ok(Some(detail)) = self.site.advisor_detail(&id).await {
                    if let Ok(v) = serde_json::to_value(detail) {
                        grounding.add_json(&v);
                    }
                }
            }
        }
        facts::unsupported(&reply.voice_response, &grounding, &known, &self.surnames)
    }
}
