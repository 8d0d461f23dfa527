//! The page the browser says it shows, checked against the database
//! before the agent acts on it: advisors that do not exist are dropped,
//! names and titles are the stored ones.

use app::error::ApiError;

use crate::store;

use super::{db_error, parse_advisor_id, Site};

impl Site {
    /// A page context as the database knows it: advisors whose ids do not
    /// exist are dropped, names and titles are the stored ones. What the
    /// browser reports is a claim; the agent acts on what is true. `known`
    /// is a page checked before (the session's last one): its advisors are
    /// taken from it, and only ids it does not name are read — most turns
    /// show the page the last turn left, and read nothing here.
    pub async fn checked_page(
        &self,
        mut page: app::protocol::PageContext,
        known: &app::protocol::PageContext,
    ) -> Result<app::protocol::PageContext, ApiError> {
        let mut names: std::collections::HashMap<i64, (String, String)> = known
            .visible_advisors
            .iter()
            .filter_map(|a| Some((parse_advisor_id(&a.id)?, (a.name.clone(), a.title.clone()))))
            .collect();
        let mut ids: Vec<i64> = page
            .visible_advisors
            .iter()
            .map(|a| a.id.as_str())
            .chain(page.selected_advisor.iter().map(|a| a.id.as_str()))
            .filter_map(parse_advisor_id)
            .filter(|id| !names.contains_key(id))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        if !ids.is_empty() {
            names.extend(
                store::advisor_names(&self.pool, &ids)
                    .await
                    .map_err(db_error)?,
            );
        }
        let lookup = |id: &str| parse_advisor_id(id).and_then(|n| names.get(&n));
        page.visible_advisors.retain_mut(|a| match lookup(&a.id) {
            Some((name, title)) => {
                a.name = name.clone();
                a.title = title.clone();
                true
            }
            None => false,
        });
        page.selected_advisor = page.selected_advisor.and_then(|mut a| {
            let (name, _) = lookup(&a.id)?;
            a.name = name.clone();
            Some(a)
        });
        Ok(page)
    }
}
