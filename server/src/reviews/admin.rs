//! The admin's side of moderation, built for a million reviews:
//!
//! - the reported reviews, most reports first, then the most recently
//!   reported, one page at a time by keyset (the report count and last
//!   report time are kept on the review by triggers, and a partial index
//!   holds exactly the reported reviews in this order — so a page reads
//!   `limit` index entries whatever the size of the table; the grouping of
//!   every report it replaces took 1.8 s at a million reviews);
//! - hiding and restoring one review or many in one transaction, the
//!   aggregates moving with them;
//! - an audit log of every admin action (who, what, when, why), written in
//!   the transaction of the action, shown on the admin page.

use crate::db::Conn;

use app::error::ApiError;

pub use super::moderation::Act;
use super::moderation::{review_id, stored, unavailable};
use super::submit::add_to_aggregates;
use crate::site::Site;
use crate::store::moderation as store;

/// Reviews per page of the admin lists.
pub const PAGE: i64 = 50;
/// At most this many reviews in one bulk action.
pub const MAX_BULK: usize = 200;

pub use app::model::admin::{AdminLists, AdminReview, AuditEntry};

/// Where a page of reported reviews ends: `reports.last_reported_at.id`,
/// opaque to clients (`?after=`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    pub reports: i64,
    pub last_reported_at: String,
    pub id: i64,
}

impl Cursor {
    pub fn encode(&self) -> String {
        format!("{}~{}~{}", self.reports, self.last_reported_at, self.id)
    }

    pub fn decode(s: &str) -> Option<Cursor> {
        let mut parts = s.splitn(3, '~');
        let reports = parts.next()?.parse().ok()?;
        let last_reported_at = parts.next()?.to_string();
        let id = parts.next()?.parse().ok()?;
        Some(Cursor {
            reports,
            last_reported_at,
            id,
        })
    }
}

/// One page of reported reviews after `after` (the first page without),
/// and the cursor of the next page when there is one.
pub async fn reported(
    site: &Site,
    after: Option<&Cursor>,
    limit: i64,
) -> Result<(Vec<AdminReview>, Option<Cursor>), ApiError> {
    let limit = limit.clamp(1, 200);
    let after = after.map(|c| (c.reports, c.last_reported_at.as_str(), c.id));
    let rows = store::reported(site.pool(), after, limit + 1)
        .await
        .map_err(unavailable)?;
    Ok(page(rows.into_iter().map(shown).collect(), limit))
}

fn page(mut rows: Vec<AdminReview>, limit: i64) -> (Vec<AdminReview>, Option<Cursor>) {
    if rows.len() as i64 <= limit {
        return (rows, None);
    }
    rows.truncate(limit as usize);
    let next = rows.last().map(|r| Cursor {
        reports: r.reports,
        last_reported_at: r.last_reported_at.clone().unwrap_or_default(),
        // Written from the stored id a few lines up: always a number.
        id: r.id.parse().unwrap_or(0),
    });
    (rows, next)
}

/// The most recent reviews written on the site.
pub async fn recent(site: &Site, limit: i64) -> Result<Vec<AdminReview>, ApiError> {
    let rows = store::recent(site.pool(), limit.clamp(1, 200))
        .await
        .map_err(unavailable)?;
    Ok(rows.into_iter().map(shown).collect())
}

/// The latest admin actions, newest first.
pub async fn audit_log(site: &Site, limit: i64) -> Result<Vec<AuditEntry>, ApiError> {
    let rows = store::audit_log(site.pool(), limit.clamp(1, 500))
        .await
        .map_err(unavailable)?;
    Ok(rows
        .into_iter()
        .map(|e| AuditEntry {
            id: e.id.to_string(),
            at: e.at,
            actor: e.actor,
            action: e.action,
            review_id: e.review_id.to_string(),
            changed: e.changed.0,
            reason: e.reason,
        })
        .collect())
}

/// Audit log lines the admin's lists show.
pub const AUDIT_LINES: i64 = 50;

/// What the admin reads, on `/admin` and from `GET /api/v1/admin/reviews`
/// alike: one page of reported reviews after `after` (the `next` of the
/// page before; one that does not decode reads as the first page) of
/// `limit` ([`PAGE`] by default), the recent reviews on the first page only,
/// the open requests for a correction (`super::correction`), and the latest
/// [`AUDIT_LINES`] admin actions.
pub async fn lists(
    site: &Site,
    after: Option<&str>,
    limit: Option<i64>,
) -> Result<AdminLists, ApiError> {
    let after = after.and_then(Cursor::decode);
    let (flagged, next) = reported(site, after.as_ref(), limit.unwrap_or(PAGE)).await?;
    let recent = if after.is_none() {
        recent(site, PAGE).await?
    } else {
        Vec::new()
    };
    Ok(AdminLists {
        flagged,
        next: next.map(|c| c.encode()),
        recent,
        corrections: super::correction::open(site).await?,
        audit: audit_log(site, AUDIT_LINES).await?,
    })
}

/// A stored review as the admin's lists show it.
fn shown(r: store::AdminReview) -> AdminReview {
    AdminReview {
        id: r.id.to_string(),
        advisor_id: r.advisor_id.to_string(),
        advisor_name: r.advisor_name,
        text: r.text,
        overall: r.overall,
        status: r.status,
        created_at: r.created_at,
        reports: r.reports,
        reasons: r.reasons,
        last_reported_at: r.last_reported_at,
    }
}

/// Hides (`hidden`) or restores the reviews `ids` in one transaction: the
/// aggregates follow, and each review gets a line in the audit log (also
/// when it already was so). Unknown or malformed ids refuse the whole
/// action. Returns how many reviews changed.
pub async fn set_hidden(
    site: &Site,
    ids: &[String],
    hidden: bool,
    act: &Act,
) -> Result<usize, ApiError> {
    if ids.is_empty() || ids.len() > MAX_BULK {
        return Err(ApiError::bad_request(
            "invalid_ids",
            format!("请选择 1 到 {MAX_BULK} 条评价。"),
        )
        .with_field("ids"));
    }
    let ids = ids
        .iter()
        .map(|id| review_id(id))
        .collect::<Result<Vec<i64>, ApiError>>()?;
    let mut tx = crate::db::begin_write(site.pool())
        .await
        .map_err(unavailable)?;
    let mut changed = 0;
    for id in ids {
        changed += usize::from(hide_one(&mut tx, id, hidden, act).await?);
    }
    tx.commit().await.map_err(unavailable)?;
    tracing::info!(changed, hidden, actor = %act.actor, "reviews moderated");
    Ok(changed)
}

async fn hide_one(conn: &mut Conn, id: i64, hidden: bool, act: &Act) -> Result<bool, ApiError> {
    let s = stored(conn, id).await?;
    let want = if hidden { "hidden" } else { "published" };
    let change = s.status != want;
    if change {
        add_to_aggregates(conn, s.advisor_id, &s.review, if hidden { -1 } else { 1 })
            .await
            .map_err(unavailable)?;
        crate::store::reviews::set_status(conn, id, want)
            .await
            .map_err(unavailable)?;
    }
    let reason: String = act.reason.trim().chars().take(500).collect();
    let action = if hidden { "hide" } else { "restore" };
    store::audit(conn, &act.actor, action, id, change, &reason)
        .await
        .map_err(unavailable)?;
    Ok(change)
}

/// Hides (`hidden`) or restores one review; the aggregates follow and the
/// audit log says who (see [`set_hidden`]).
pub async fn set_one_hidden(
    site: &Site,
    id: &str,
    hidden: bool,
    act: &Act,
) -> Result<(), ApiError> {
    set_hidden(site, &[id.to_string()], hidden, act)
        .await
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_survives_its_encoding() {
        let c = Cursor {
            reports: 3,
            last_reported_at: "2026-01-02T03:04:05Z".into(),
            id: 42,
        };
        assert_eq!(Cursor::decode(&c.encode()), Some(c));
        assert_eq!(Cursor::decode("x"), None);
        assert_eq!(Cursor::decode("1~a~b"), None);
    }
}
