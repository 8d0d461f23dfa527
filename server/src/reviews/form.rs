//! The review form without JavaScript: a plain POST of form fields,
//! answered with a redirect — to the new review on success (its edit token
//! in a cookie), or back to the form with a short-lived draft id whose
//! values and field errors the form shows again. The draft is kept for a few
//! minutes in the database (`store::drafts`), so whichever instance serves
//! the redirect shows it: it holds what the student typed, never a stored
//! review. The correction form (`super::correction`) keeps its refused
//! submissions the same way ([`Drafts::put_json`]).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::db::Pool;

use app::error::ApiError;
use app::model::{NewReview, Ratings, ReviewForm};

use super::rules::RuleContext;
use crate::site::Site;

/// How long a refused submission is kept for the form to show again.
const KEEP: Duration = Duration::from_secs(app::policy::DRAFT_MINUTES * 60);
/// At most this many are kept (the oldest go first).
const MAX: usize = 1000;
/// A draft's text is kept up to this many characters (the form's limit and
/// a little more, so "too long" can still be shown and fixed).
const KEEP_CHARS: usize = super::submit::MAX_TEXT + 200;

/// (field, message) errors of a refused submission.
type FieldErrors = Vec<(String, String)>;

/// Refused submissions waiting to be shown again.
pub struct Drafts {
    pool: Pool,
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl Drafts {
    pub fn new(pool: Pool) -> Drafts {
        Drafts { pool }
    }

    /// Keeps a refused submission (its text cut to [`KEEP_CHARS`], its tags
    /// to a few), at most [`MAX`] of them; returns its id.
    pub async fn put(
        &self,
        mut review: NewReview,
        errors: FieldErrors,
    ) -> Result<String, ApiError> {
        if review.text.chars().count() > KEEP_CHARS {
            review.text = review.text.chars().take(KEEP_CHARS).collect();
        }
        review.tags.truncate(10);
        review.tags.iter_mut().for_each(|t| {
            if t.len() > 64 {
                *t = t.chars().take(16).collect();
            }
        });
        review.relation = review.relation.chars().take(16).collect();
        self.put_json(&serde_json::to_string(&review).unwrap_or_default(), errors)
            .await
    }

    /// Keeps any form's refused submission, its values already as JSON
    /// (and cut to a size the form can show again); returns its id.
    pub async fn put_json(&self, values: &str, errors: FieldErrors) -> Result<String, ApiError> {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let now = now_secs();
        crate::store::drafts::put(
            &self.pool,
            &id,
            now,
            values,
            &serde_json::to_string(&errors).unwrap_or_default(),
            now - KEEP.as_secs() as i64,
            MAX,
        )
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "could not keep a form draft");
            ApiError::unavailable("暂时无法保存表单，请稍后再试。")
        })?;
        Ok(id)
    }

    /// A review draft kept less than [`KEEP`] ago; none for an unknown,
    /// expired or unreadable id.
    pub async fn get(&self, id: &str) -> Option<(NewReview, FieldErrors)> {
        let (review, errors) = self.get_json(id).await?;
        Some((serde_json::from_str(&review).ok()?, errors))
    }

    /// Any form's draft as [`Drafts::put_json`] kept it: its values' JSON
    /// and its errors.
    pub async fn get_json(&self, id: &str) -> Option<(String, FieldErrors)> {
        let (values, errors) =
            crate::store::drafts::get(&self.pool, id, now_secs() - KEEP.as_secs() as i64)
                .await
                .ok()??;
        Some((values, serde_json::from_str(&errors).ok()?))
    }
}

/// The form's data for an advisor.
pub async fn review_form(
    site: &Site,
    advisor_id: &str,
    draft: Option<&str>,
    edit: Option<&str>,
) -> Result<Option<ReviewForm>, ApiError> {
    let Some(detail) = site.advisor_detail(advisor_id).await? else {
        return Ok(None);
    };
    let kept = match draft {
        Some(d) => Drafts::new(site.pool().clone()).get(d).await,
        None => None,
    };
    let (mut values, errors) = kept.map(|(r, e)| (Some(r), e)).unwrap_or_default();
    // Editing: the stored review of this advisor fills the form (the token
    // is checked when the edit is sent).
    let mut editing = None;
    if let Some(rid) = edit {
        if let Some(stored) = super::moderation::published_review(site, rid, &detail.id).await? {
            if values.is_none() {
                values = Some(stored);
            }
            editing = Some(rid.to_string());
        }
    }
    Ok(Some(ReviewForm {
        advisor_id: detail.id,
        advisor_name: detail.name,
        school: detail.school,
        major: detail.major,
        tags: app::vocabulary::TAGS
            .iter()
            .map(|(t, _)| t.to_string())
            .collect(),
        values,
        errors,
        editing,
    }))
}

/// Form fields (a field may repeat: `tags`) → the review as the API takes it.
pub fn from_fields(fields: &[(String, String)]) -> NewReview {
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let score = |k: &str| get(k).trim().parse::<u8>().unwrap_or(0);
    NewReview {
        ratings: Ratings {
            academic: score("academic"),
            funding: score("funding"),
            relationship: score("relationship"),
            prospects: score("prospects"),
            overall: score("overall"),
        },
        tags: fields
            .iter()
            .filter(|(k, _)| k == "tags")
            .map(|(_, v)| v.clone())
            .collect(),
        text: get("text"),
        relation: get("relation"),
        // 是否推荐报考: "yes" / "no"; anything else (or nothing) is no answer.
        recommend: match get("recommend").trim() {
            "yes" => Some(true),
            "no" => Some(false),
            _ => None,
        },
    }
}

/// All field errors of a submission (every field at once, not only the first).
pub fn field_errors(review: &NewReview, advisor_name: &str) -> Vec<(String, String)> {
    let ctx = RuleContext {
        advisor_name: advisor_name.to_string(),
    };
    let mut out: Vec<(String, String)> = Vec::new();
    for e in super::validate(review, &ctx) {
        if !out.iter().any(|(f, _)| *f == e.field) {
            out.push((e.field, e.message));
        }
    }
    out
}
