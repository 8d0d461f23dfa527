//! After a review is published: its writer may edit or delete it with the
//! secret token for a while; anybody may report it (a report hides
//! nothing); the admin hides or restores it (`admin.rs`, above this
//! module). Every change that moves a review in or out of "published" moves
//! the aggregates in the same transaction.

use crate::db::Conn;

use app::error::ApiError;
use app::model::NewReview;

use super::rules::RuleContext;
use super::submit::{add_to_aggregates, token_hash, validate};
use crate::site::Site;
use crate::store::reviews as store;

/// Who acts on a review or a request, and why: the admin's hide and
/// restore (`super::admin`) and the answer to a correction request
/// (`super::correction`) both write it to the audit log.
#[derive(Clone, Debug, Default)]
pub struct Act {
    pub actor: String,
    pub reason: String,
}

/// How long the writer may edit or delete a review, in hours
/// (`app::policy`, which the `/rules` page prints).
pub use app::policy::EDIT_HOURS;

pub(super) fn unavailable(e: sqlx::Error) -> ApiError {
    tracing::error!(error = %e, "review storage failed");
    ApiError::unavailable("评价数据暂时无法读写，请稍后再试。")
}

/// The stored review as the aggregates see it.
pub(super) type Stored = store::StoredReview;

pub(super) async fn stored(conn: &mut Conn, id: i64) -> Result<Stored, ApiError> {
    store::stored(conn, id, &format!("-{EDIT_HOURS} hours"))
        .await
        .map_err(unavailable)?
        .ok_or_else(|| ApiError::not_found("unknown_review", "没有找到这条评价。"))
}

/// A review id from a path: digits only (surrounding spaces forgiven).
pub fn review_id(id: &str) -> Result<i64, ApiError> {
    id.trim()
        .parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| ApiError::bad_request("invalid_id", "评价编号格式不正确。").with_field("id"))
}

/// The writer's token must match, within the edit window.
fn check_token(s: &Stored, token: &str) -> Result<(), ApiError> {
    let forbidden = |m: &str| {
        let mut e = ApiError::bad_request("forbidden", m);
        e.status = 403;
        e
    };
    match &s.token_hash {
        Some(h) if *h == token_hash(token.trim()) && !token.trim().is_empty() => {}
        _ => return Err(forbidden("修改码不正确，只有评价的作者可以修改或删除。")),
    }
    if !s.editable {
        return Err(forbidden(&format!(
            "发布超过 {EDIT_HOURS} 小时的评价不能再修改或删除。"
        )));
    }
    Ok(())
}

/// A published review of `advisor_id`, as the form edits it.
pub async fn published_review(
    site: &Site,
    id: &str,
    advisor_id: &str,
) -> Result<Option<NewReview>, ApiError> {
    let Ok(id) = review_id(id) else {
        return Ok(None);
    };
    let mut conn = site.pool().acquire().await.map_err(unavailable)?;
    match stored(&mut conn, id).await {
        Ok(s) if s.status == "published" && s.advisor_id.to_string() == advisor_id => {
            Ok(Some(s.review))
        }
        Ok(_) => Ok(None),
        Err(e) if e.status == 404 => Ok(None),
        Err(e) => Err(e),
    }
}

/// The advisor a review is about (for redirects back to it).
pub async fn advisor_of(site: &Site, id: &str) -> Result<i64, ApiError> {
    let id = review_id(id)?;
    let mut conn = site.pool().acquire().await.map_err(unavailable)?;
    Ok(stored(&mut conn, id).await?.advisor_id)
}

/// Replaces a review's content (same validation as a new one).
pub async fn edit(site: &Site, id: &str, token: &str, review: NewReview) -> Result<(), ApiError> {
    let id = review_id(id)?;
    let review = super::submit::clean(review);
    let mut tx = crate::db::begin_write(site.pool())
        .await
        .map_err(unavailable)?;
    let s = stored(&mut tx, id).await?;
    check_token(&s, token)?;
    let name = store::advisor_name(&mut tx, s.advisor_id)
        .await
        .map_err(unavailable)?
        .unwrap_or_default();
    if let Some(e) = validate(&review, &RuleContext { advisor_name: name })
        .into_iter()
        .next()
    {
        crate::observe::review_refused(e.code);
        return Err(e.into_api());
    }
    let published = s.status == "published";
    if published {
        add_to_aggregates(&mut tx, s.advisor_id, &s.review, -1)
            .await
            .map_err(unavailable)?;
    }
    store::update(&mut tx, id, &review)
        .await
        .map_err(unavailable)?;
    if published {
        add_to_aggregates(&mut tx, s.advisor_id, &review, 1)
            .await
            .map_err(unavailable)?;
    }
    super::repeated::record_and_flag(&mut tx, id, s.advisor_id, review.text.trim())
        .await
        .map_err(unavailable)?;
    tx.commit().await.map_err(unavailable)?;
    crate::observe::review_written("edit");
    Ok(())
}

/// Deletes a review (its writer, with the token, within the window).
pub async fn delete(site: &Site, id: &str, token: &str) -> Result<(), ApiError> {
    let id = review_id(id)?;
    let mut tx = crate::db::begin_write(site.pool())
        .await
        .map_err(unavailable)?;
    let s = stored(&mut tx, id).await?;
    check_token(&s, token)?;
    if s.status == "published" {
        add_to_aggregates(&mut tx, s.advisor_id, &s.review, -1)
            .await
            .map_err(unavailable)?;
    }
    store::delete(&mut tx, id).await.map_err(unavailable)?;
    tx.commit().await.map_err(unavailable)
}

/// Flags a review for the admin; one report per client and review counts.
/// Returns whether this report was new.
pub async fn report(
    site: &Site,
    id: &str,
    client_key: &str,
    reason: &str,
) -> Result<bool, ApiError> {
    let id = review_id(id)?;
    let mut conn = site.pool().acquire().await.map_err(unavailable)?;
    stored(&mut conn, id).await?;
    let reason: String = super::submit::visible(reason.trim())
        .chars()
        .take(app::policy::REPORT_REASON_CHARS)
        .collect();
    store::report(&mut conn, id, client_key, &reason)
        .await
        .map_err(unavailable)
}
