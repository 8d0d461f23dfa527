//! One validation and one write for every way a review is written (the
//! form, the JSON API, the coach): the fields, the posting rules, then —
//! with the database — duplicates and rate limits, and finally the review,
//! its tags and every aggregate it moves, in one transaction. A refused
//! review stores nothing.

use crate::store::reviews as store;
use sha2::{Digest, Sha256};

use app::error::ApiError;
use app::model::{NewReview, PostedReview, Review};

use super::rules::{self, RuleContext};
use crate::site::Site;

use crate::text::similar::jaccard;
/// The same writer, the same advisor, a text this similar
/// ([`DUPLICATE_SIMILARITY`]), within [`DUPLICATE_DAYS`]: a duplicate.
pub use app::policy::{DUPLICATE_DAYS, DUPLICATE_SIMILARITY};
/// At most this many reviews per client in the short and the long window
/// (`app::policy`, which the `/rules` page prints).
pub use app::policy::{REVIEW_BURST as BURST, REVIEW_DAILY as DAILY};
pub use app::vocabulary::{MAX_TAGS, MAX_TEXT, MIN_TEXT, RELATIONS};

/// A field that is wrong, and why (the error's `code`, `field`, `message`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub code: &'static str,
    pub field: String,
    pub message: String,
}

impl FieldError {
    fn new(code: &'static str, field: &str, message: impl Into<String>) -> FieldError {
        FieldError {
            code,
            field: field.to_string(),
            message: message.into(),
        }
    }

    pub fn into_api(self) -> ApiError {
        let status = if self.code == "rate_limited" {
            429
        } else {
            400
        };
        let mut e = ApiError::bad_request(self.code, self.message).with_field(&self.field);
        e.status = status;
        e
    }
}

/// Everything wrong with `review` that can be told without the database,
/// in the order of the form. `tags` are the site's tag names.
pub fn validate_with(review: &NewReview, ctx: &RuleContext, tags: &[String]) -> Vec<FieldError> {
    let mut out = Vec::new();
    let r = &review.ratings;
    for (field, label, v) in [
        ("ratings.academic", "学术水平", r.academic),
        ("ratings.funding", "科研经费", r.funding),
        ("ratings.relationship", "师生关系", r.relationship),
        ("ratings.prospects", "学生前途", r.prospects),
        ("ratings.overall", "综合评分", r.overall),
    ] {
        if !(1..=5).contains(&v) {
            out.push(FieldError::new(
                "invalid_rating",
                field,
                format!("{label}请打 1 到 5 分。"),
            ));
        }
    }
    if review.tags.len() > MAX_TAGS {
        out.push(FieldError::new(
            "too_many_tags",
            "tags",
            format!("最多选 {MAX_TAGS} 个标签。"),
        ));
    }
    for t in &review.tags {
        if !tags.contains(t) {
            out.push(FieldError::new(
                "invalid_tag",
                "tags",
                format!("没有“{t}”这个标签，请从列表中选择。"),
            ));
            break;
        }
    }
    if !RELATIONS.contains(&review.relation.trim()) {
        out.push(FieldError::new(
            "invalid_relation",
            "relation",
            "请选择你和导师的关系：在读、已毕业或了解。",
        ));
    }
    let text = review.text.trim();
    let len = text.chars().count();
    if len < MIN_TEXT {
        out.push(FieldError::new(
            "too_short",
            "text",
            format!("评价至少写 {MIN_TEXT} 个字，现在是 {len} 个字。"),
        ));
    } else if len > MAX_TEXT {
        out.push(FieldError::new(
            "too_long",
            "text",
            format!("评价最多 {MAX_TEXT} 个字，现在是 {len} 个字。"),
        ));
    }
    // Limits before work: the rules read only a text of a valid length.
    if (MIN_TEXT..=MAX_TEXT).contains(&len) {
        for v in rules::check(text, ctx) {
            out.push(FieldError::new(v.code, v.field, v.message));
        }
    }
    out
}

/// Whether `c` is an invisible control that changes how text around it is
/// shown: bidirectional overrides and isolates (a review could make its
/// text display reversed, U+202E before "moc.live"), and C0/C1 controls other than line
/// breaks and tabs.
fn is_hidden_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        || (c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
}

/// A review as written, less the invisible controls of [`is_hidden_control`]
/// (what a reader could not see is not published).
pub fn clean(mut review: NewReview) -> NewReview {
    review.text = visible(&review.text);
    review
}

/// `s` without the invisible controls of [`is_hidden_control`] (review texts,
/// report reasons: anything a stranger writes that others will read).
pub fn visible(s: &str) -> String {
    s.chars().filter(|c| !is_hidden_control(*c)).collect()
}

/// [`validate_with`] against the site's tags (the coach checks a draft with it).
pub fn validate(review: &NewReview, ctx: &RuleContext) -> Vec<FieldError> {
    let tags: Vec<String> = app::vocabulary::TAGS
        .iter()
        .map(|(t, _)| t.to_string())
        .collect();
    validate_with(review, ctx, &tags)
}

/// The token's hash, hex: only this is stored.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Validates and stores a review of `advisor_id` written by `client_key`.
pub async fn submit(
    site: &Site,
    advisor_id: &str,
    review: NewReview,
    client_key: &str,
) -> Result<PostedReview, ApiError> {
    let row = site.advisor_row(advisor_id).await?.ok_or_else(|| {
        ApiError::not_found("unknown_advisor", "没有找到这位导师。").with_field("advisor_id")
    })?;
    let ctx = RuleContext {
        advisor_name: row.name.clone(),
    };
    let review = clean(review);
    if let Some(e) = validate(&review, &ctx).into_iter().next() {
        crate::observe::review_refused(e.code);
        return Err(e.into_api());
    }
    let text = review.text.trim().to_string();
    let unavailable = |e: sqlx::Error| {
        tracing::error!(error = %e, "review not saved");
        ApiError::unavailable("评价保存失败，请稍后再试。")
    };
    let mut tx = crate::db::begin_write(site.pool())
        .await
        .map_err(unavailable)?;
    for quota in [BURST, DAILY] {
        let n = crate::store::limits::written_since(
            &mut tx,
            crate::store::limits::Written::Reviews,
            client_key,
            &quota.modifier(),
        )
        .await
        .map_err(unavailable)?;
        if n >= quota.count {
            crate::observe::review_refused("rate_limited");
            return Err(
                FieldError::new("rate_limited", "text", "发评价太频繁了，请稍后再试。").into_api(),
            );
        }
    }
    let window = format!("-{DUPLICATE_DAYS} days");
    let earlier = store::texts_since(&mut tx, client_key, row.id, &window)
        .await
        .map_err(unavailable)?;
    if earlier
        .iter()
        .any(|t| jaccard(t, &text) >= DUPLICATE_SIMILARITY)
    {
        crate::observe::review_refused("duplicate");
        return Err(FieldError::new(
            "duplicate",
            "text",
            "你已经发过内容相同或几乎相同的评价了，可以修改原来那条。",
        )
        .into_api());
    }
    let token = uuid::Uuid::new_v4().simple().to_string();
    let r = &review.ratings;
    let (id, created_at) = store::insert(
        &mut tx,
        row.id,
        &review,
        &text,
        client_key,
        &token_hash(&token),
    )
    .await
    .map_err(unavailable)?;
    write_tags(&mut tx, id, &review.tags)
        .await
        .map_err(unavailable)?;
    add_to_aggregates(&mut tx, row.id, &review, 1)
        .await
        .map_err(unavailable)?;
    super::repeated::record_and_flag(&mut tx, id, row.id, &text)
        .await
        .map_err(unavailable)?;
    tx.commit().await.map_err(unavailable)?;
    tracing::info!(review = id, advisor = row.id, "review published");
    crate::observe::review_written("new");
    Ok(PostedReview {
        review: Review {
            id: id.to_string(),
            advisor_id: row.id.to_string(),
            academic: r.academic,
            funding: r.funding,
            relationship: r.relationship,
            prospects: r.prospects,
            overall: r.overall,
            tags: review.tags.clone(),
            text,
            relation: review.relation.trim().to_string(),
            created_at,
            recommend: review.recommend,
            helpful: 0,
            voted: false,
        },
        edit_token: token,
    })
}

pub use crate::store::reviews::{add_to_aggregates, write_tags};

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> NewReview {
        NewReview {
            ratings: app::model::Ratings {
                academic: 4,
                funding: 3,
                relationship: 5,
                prospects: 4,
                overall: 4,
            },
            tags: vec!["温和".into(), "负责".into()],
            text: "导师学术水平很高，每周组会都会认真指导，经费一般但够用。".into(),
            relation: "在读".into(),
            recommend: None,
        }
    }

    #[test]
    fn a_good_review_passes_and_each_field_is_checked() {
        let ctx = RuleContext::default();
        assert!(validate(&good(), &ctx).is_empty());
        let mut r = good();
        r.ratings.funding = 6;
        r.tags = vec!["温和".into(), "负责".into(), "耐心".into(), "严格".into()];
        r.relation = "路人".into();
        r.text = "太短了".into();
        let codes: Vec<&str> = validate(&r, &ctx).iter().map(|e| e.code).collect();
        assert_eq!(
            codes,
            [
                "invalid_rating",
                "too_many_tags",
                "invalid_relation",
                "too_short"
            ]
        );
        let mut r = good();
        r.tags = vec!["帅".into()];
        assert_eq!(validate(&r, &ctx)[0].code, "invalid_tag");
        assert_eq!(validate(&r, &ctx)[0].field, "tags");
    }
}
