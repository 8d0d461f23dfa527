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
/// A draft's text is kept up to this many characters (the form's limit and
/// a little more, so "too long" can still be shown and fixed).
const KEEP_CHARS: usize = super::submit::MAX_TEXT + 200;
/// At most this many bytes of drafts in all.
const MAX_BYTES: usize = 4 * 1024 * 1024;

/// A refused submission: when, what was typed, (field, message) errors.
type Draft = (Instant, NewReview, Vec<(String, String)>);

#[derive(Default)]
pub struct Drafts {
    inner: Mutex<HashMap<String, Draft>>,
}

/// What a draft costs in memory, roughly.
fn size_of(d: &Draft) -> usize {
    d.1.text.len()
        + d.1.relation.len()
        + d.1.tags.iter().map(String::len).sum::<usize>()
        + d.2.iter().map(|(f, m)| f.len() + m.len()).sum::<usize>()
        + 128
}

impl Drafts {
    /// Keeps a refused submission (its text cut to [`KEEP_CHARS`], its tags
    /// to a few) within [`MAX`] drafts and [`MAX_BYTES`] in all.
    pub fn put(&self, mut review: NewReview, errors: Vec<(String, String)>) -> String {
        let id = uuid::Uuid::new_v4().simple().to_string();
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
        let draft = (Instant::now(), review, errors);
        let mut map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        map.retain(|_, (at, _, _)| at.elapsed() < KEEP);
        let mut bytes: usize = map.values().map(size_of).sum();
        while !map.is_empty() && (map.len() >= MAX || bytes + size_of(&draft) > MAX_BYTES) {
            let Some(oldest) = map.iter().min_by_key(|(_, v)| v.0).map(|(k, _)| k.clone()) else {
                break;
            };
            if let Some(d) = map.remove(&oldest) {
                bytes -= size_of(&d);
            }
        }
        map.insert(id.clone(), draft);
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
