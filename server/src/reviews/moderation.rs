//! After a review is published: its writer may edit or delete it with the
//! secret token for a while; anybody may report it (a report hides
//! nothing); the admin hides or restores it. Every change that moves a
//! review in or out of "published" moves the aggregates in the same
//! transaction.

use crate::db::Conn;

use app::error::ApiError;
use app::model::{NewReview, Ratings};

pub use super::admin::{Act, AdminReview};
use super::rules::RuleContext;
use super::submit::{add_to_aggregates, token_hash, validate, write_tags};
use crate::site::Site;

/// How long the writer may edit or delete a review.
pub const EDIT_WINDOW: &str = "-24 hours";

pub(super) fn unavailable(e: sqlx::Error) -> ApiError {
    tracing::error!(error = %e, "review storage failed");
    ApiError::unavailable("评价数据暂时无法读写，请稍后再试。")
}

/// The stored review as the aggregates see it.
pub(super) struct Stored {
    pub(super) advisor_id: i64,
    pub(super) status: String,
    pub(super) review: NewReview,
    token_hash: Option<String>,
    editable: bool,
}

#[derive(sqlx::FromRow)]
struct StoredRow {
    advisor_id: i64,
    status: String,
    academic: i64,
    funding: i64,
    relationship: i64,
    prospects: i64,
    overall: i64,
    text: String,
    relation: String,
    edit_token_hash: Option<String>,
    editable: i64,
    recommend: Option<i64>,
}

pub(super) async fn stored(conn: &mut Conn, id: i64) -> Result<Stored, ApiError> {
    let row: Option<StoredRow> = sqlx::query_as(
        "SELECT advisor_id, status, academic, funding, relationship, prospects, overall, text, \
                relation, edit_token_hash, recommend, \
                CASE WHEN created_at >= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', $1) THEN 1 ELSE 0 END \
                    AS editable \
         FROM reviews WHERE id = $2",
    )
    .bind(EDIT_WINDOW)
    .bind(id)
    .fetch_optional(&mut *conn)
    .await
    .map_err(unavailable)?;
    let Some(StoredRow {
        advisor_id,
        status,
        academic: a,
        funding: f,
        relationship: r,
        prospects: p,
        overall: o,
        text,
        relation,
        edit_token_hash: hash,
        editable,
        recommend,
    }) = row
    else {
        return Err(ApiError::not_found("unknown_review", "没有找到这条评价。"));
    };
    let tags: Vec<String> = sqlx::query_scalar("SELECT tag FROM review_tags WHERE review_id = $1")
        .bind(id)
        .fetch_all(&mut *conn)
        .await
        .map_err(unavailable)?;
    let u = |v: i64| v.clamp(1, 5) as u8;
    Ok(Stored {
        advisor_id,
        status,
        review: NewReview {
            ratings: Ratings {
                academic: u(a),
                funding: u(f),
                relationship: u(r),
                prospects: u(p),
                overall: u(o),
            },
            tags,
            text,
            relation,
            recommend: recommend.map(|v| v != 0),
        },
        token_hash: hash,
        editable: editable != 0,
    })
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
        return Err(forbidden("发布超过 24 小时的评价不能再修改或删除。"));
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
    let name: String = sqlx::query_scalar("SELECT name FROM advisors WHERE id = $1")
        .bind(s.advisor_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(unavailable)?;
    if let Some(e) = validate(&review, &RuleContext { advisor_name: name })
        .into_iter()
        .next()
    {
        return Err(e.into_api());
    }
    let published = s.status == "published";
    if published {
        add_to_aggregates(&mut tx, s.advisor_id, &s.review, -1)
            .await
            .map_err(unavailable)?;
    }
    let r = &review.ratings;
    sqlx::query(
        "UPDATE reviews SET academic = $1, funding = $2, relationship = $3, prospects = $4, overall = $5, \
             text = $6, relation = $7, recommend = $8, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') \
         WHERE id = $9",
    )
    .bind(r.academic as i64)
    .bind(r.funding as i64)
    .bind(r.relationship as i64)
    .bind(r.prospects as i64)
    .bind(r.overall as i64)
    .bind(review.text.trim())
    .bind(review.relation.trim())
    .bind(review.recommend.map(i64::from))
    .bind(id)
    .execute(&mut *tx)
    .await
    .map_err(unavailable)?;
    sqlx::query("DELETE FROM review_tags WHERE review_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(unavailable)?;
    write_tags(&mut tx, id, &review.tags)
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
    tx.commit().await.map_err(unavailable)
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
    sqlx::query("DELETE FROM reviews WHERE id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(unavailable)?;
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
        .take(200)
        .collect();
    let done = sqlx::query(
        "INSERT INTO review_reports (review_id, client_key, reason) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    )
    .bind(id)
    .bind(client_key)
    .bind(reason)
    .execute(&mut *conn)
    .await
    .map_err(unavailable)?;
    Ok(done.rows_affected() == 1)
}

/// Hides (`hidden`) or restores a review; the aggregates follow and the
/// audit log says who (see [`super::admin::set_hidden`]).
pub async fn set_hidden(site: &Site, id: &str, hidden: bool, act: &Act) -> Result<(), ApiError> {
    super::admin::set_hidden(site, &[id.to_string()], hidden, act)
        .await
        .map(|_| ())
}

/// Reported reviews (the first page, most reports first) and the most
/// recent ones.
pub async fn admin_lists(site: &Site) -> Result<(Vec<AdminReview>, Vec<AdminReview>), ApiError> {
    let (flagged, _) = super::admin::reported(site, None, super::admin::PAGE).await?;
    let recent = super::admin::recent(site, super::admin::PAGE).await?;
    Ok((flagged, recent))
}
