//! An advisor call checked: the advisor it names must exist — a known id,
//! else a name on the page or unique in the database — and a comparison
//! names two to four of them.

use serde_json::Value;

use app::protocol::{PageContext, ToolCall};

use crate::agent::tools::param;
use crate::site::Site;

/// The (id, name) an advisor call refers to: a known id, or else a name
/// that is on the page or unique in the database.
pub(super) async fn advisor_ref(
    site: &Site,
    call: &ToolCall,
    page: &PageContext,
) -> Option<(String, String)> {
    advisor(
        site,
        param(call, "advisor_id"),
        param(call, "advisor_name"),
        page,
    )
    .await
}

/// The advisors of a comparison: its ids that exist, then its names
/// (resolved like [`advisor_ref`]), each once, in order.
pub(super) async fn compared(
    site: &Site,
    params: &Value,
    page: &PageContext,
) -> Vec<(String, String)> {
    let list = |key: &str| -> Vec<String> {
        params
            .get(key)
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(|v| match v {
                        Value::String(s) => Some(s.trim().to_string()),
                        Value::Number(n) => Some(n.to_string()),
                        _ => None,
                    })
                    .filter(|s| !s.is_empty())
                    .take(8)
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut out: Vec<(String, String)> = Vec::new();
    for id in list("advisor_ids") {
        if let Some(a) = advisor(site, Some(&id), None, page).await {
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    for name in list("advisor_names") {
        if out.iter().any(|(_, n)| n == &name) {
            continue;
        }
        if let Some(a) = advisor(site, None, Some(&name), page).await {
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out
}

async fn advisor(
    site: &Site,
    id: Option<&str>,
    name: Option<&str>,
    page: &PageContext,
) -> Option<(String, String)> {
    if let Some(id) = id {
        if let Ok(Some(row)) = site.advisor_row(id).await {
            return Some((row.id.to_string(), row.name));
        }
    }
    let name = name?;
    if let Some(a) = page.visible_advisors.iter().find(|a| a.name == name) {
        return Some((a.id.clone(), a.name.clone()));
    }
    match site.advisors_named(name, None, None).await.ok()?.as_slice() {
        [only] => Some((only.id.to_string(), only.name.clone())),
        _ => None,
    }
}
