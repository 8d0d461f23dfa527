//! The review form without JavaScript: a plain POST of form fields,
//! answered with a redirect — to the new review on success (its edit token
//! in a cookie), or back to the form with a short-lived draft id whose
//! values and field errors the form shows again. The draft lives in memory
//! for a few minutes: it holds what the student typed, never a stored review.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use app::error::ApiError;
use app::model::{NewReview, Ratings, ReviewForm};

use super::rules::RuleContext;
use crate::site::Site;

/// How long a refused submission is kept for the form to show again.
const KEEP: Duration = Duration::from_secs(10 * 60);
/// At most this many are kept (the oldest go first).
const MAX: usize = 1000;

/// A refused submission: when, what was typed, (field, message) errors.
type Draft = (Instant, NewReview, Vec<(String, String)>);

#[derive(Default)]
pub struct Drafts {
    inner: Mutex<HashMap<String, Draft>>,
}

impl Drafts {
    pub fn put(&self, review: NewReview, errors: Vec<(String, String)>) -> String {
        let id = uuid::Uuid::new_v4().simple().to_string();
        if let Ok(mut map) = self.inner.lock() {
            map.retain(|_, (at, _, _)| at.elapsed() < KEEP);
            if map.len() >= MAX {
                if let Some(oldest) = map.iter().min_by_key(|(_, v)| v.0).map(|(k, _)| k.clone()) {
                    map.remove(&oldest);
                }
            }
            map.insert(id.clone(), (Instant::now(), review, errors));
        }
        id
    }

    fn get(&self, id: &str) -> Option<(NewReview, Vec<(String, String)>)> {
        let map = self.inner.lock().ok()?;
        map.get(id)
            .filter(|(at, _, _)| at.elapsed() < KEEP)
            .map(|(_, r, e)| (r.clone(), e.clone()))
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
    let (mut values, errors) = draft
        .and_then(|d| site.review_drafts().get(d))
        .map(|(r, e)| (Some(r), e))
        .unwrap_or_default();
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
        tags: crate::demo::catalog_data::TAGS
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
