//! Reviews as read and as written: a published review, what its writer
//! sends and the form that collects it, the token of a posted review, and a
//! page of an advisor's reviews with its order and filter (`?sort=`,
//! `relation=`, `tag=`).

use serde::{Deserialize, Serialize};

/// One published review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Review {
    pub id: String,
    pub advisor_id: String,
    pub academic: u8,
    pub funding: u8,
    pub relationship: u8,
    pub prospects: u8,
    pub overall: u8,
    pub tags: Vec<String>,
    pub text: String,
    pub relation: String,
    pub created_at: String,
    /// 是否推荐报考, when the writer answered.
    #[serde(default)]
    pub recommend: Option<bool>,
    /// How many readers said the review helped them (有用).
    #[serde(default)]
    pub helpful: i64,
    /// Whether the client reading it is one of them.
    #[serde(default)]
    pub voted: bool,
}

/// The five scores of a review, 1–5 (`POST /api/v1/advisors/{id}/reviews`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Ratings {
    pub academic: u8,
    pub funding: u8,
    pub relationship: u8,
    pub prospects: u8,
    pub overall: u8,
}

/// A review as the writer sends it (the protocol's "Reviews API" body).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct NewReview {
    pub ratings: Ratings,
    #[serde(default)]
    pub tags: Vec<String>,
    pub text: String,
    pub relation: String,
    /// 是否推荐报考 (optional: `null` or absent is "not answered").
    #[serde(default)]
    pub recommend: Option<bool>,
}

/// What the review form needs: the advisor, the site's tags, and — after a
/// refused submission — what was entered and what was wrong, by field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewForm {
    pub advisor_id: String,
    pub advisor_name: String,
    pub school: String,
    pub major: String,
    pub tags: Vec<String>,
    pub values: Option<NewReview>,
    /// (field, message): `ratings.academic`, `tags`, `text`, `relation`, …
    pub errors: Vec<(String, String)>,
    /// The review being edited (its writer's browser holds the token).
    #[serde(default)]
    pub editing: Option<String>,
}

/// A stored review and the secret token its writer edits or deletes it with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct PostedReview {
    pub review: Review,
    pub edit_token: String,
}

/// A page of an advisor's published reviews, in the order and with the
/// filter it was asked for (`total` counts the filtered reviews).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ReviewPage {
    pub advisor_id: String,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
    pub average: Option<f64>,
    pub reviews: Vec<Review>,
    #[serde(default)]
    pub query: ReviewQuery,
}

impl ReviewPage {
    pub fn page_count(&self) -> u32 {
        (self.total.div_ceil(self.per_page.max(1) as u64)).max(1) as u32
    }
}

/// The order of an advisor's reviews: 最新 or 最有用.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReviewSort {
    #[default]
    Newest,
    Helpful,
}

impl ReviewSort {
    pub const ALL: [ReviewSort; 2] = [ReviewSort::Newest, ReviewSort::Helpful];

    /// Parses `sort=`; empty is the default.
    pub fn from_param(s: &str) -> Option<ReviewSort> {
        match s.trim() {
            "" | "newest" => Some(ReviewSort::Newest),
            "helpful" => Some(ReviewSort::Helpful),
            _ => None,
        }
    }

    pub fn as_param(self) -> &'static str {
        match self {
            ReviewSort::Newest => "newest",
            ReviewSort::Helpful => "helpful",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ReviewSort::Newest => "最新",
            ReviewSort::Helpful => "最有用",
        }
    }
}

/// Which reviews of an advisor, in which order: the detail page's links
/// (`?sort=helpful&relation=在读&tag=…`) and the JSON API's parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ReviewQuery {
    #[serde(default)]
    pub page: u32,
    #[serde(default)]
    pub sort: ReviewSort,
    /// 在读 / 已毕业 / 了解 (`vocabulary::RELATIONS`).
    #[serde(default)]
    pub relation: Option<String>,
    #[serde(default)]
    pub tag: Option<String>,
}

impl ReviewQuery {
    /// The first page, newest first, unfiltered.
    pub fn first(page: u32) -> ReviewQuery {
        ReviewQuery {
            page,
            ..ReviewQuery::default()
        }
    }

    /// The query string of this query (without `?`), `page` left out on the
    /// first page: what the detail page links to.
    pub fn to_query_string(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.sort != ReviewSort::Newest {
            parts.push(format!("sort={}", self.sort.as_param()));
        }
        if let Some(r) = &self.relation {
            parts.push(format!("relation={}", crate::text::url_encode(r)));
        }
        if let Some(t) = &self.tag {
            parts.push(format!("tag={}", crate::text::url_encode(t)));
        }
        if self.page > 1 {
            parts.push(format!("page={}", self.page));
        }
        parts.join("&")
    }
}
