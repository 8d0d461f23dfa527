//! What the admin reads: the reported and the recent reviews and the audit
//! log, as the admin page (`crate::pages::AdminPage`) shows them and as
//! `GET /api/v1/admin/reviews` answers them. One type for both, so the page
//! and the JSON cannot drift apart. Ids are strings on the wire, as on
//! every other route: a client that reads a review's id from one route can
//! send it to another as it is.

use serde::{Deserialize, Serialize};

/// A review as the admin sees it, whatever its status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AdminReview {
    pub id: String,
    pub advisor_id: String,
    pub advisor_name: String,
    pub text: String,
    pub overall: i64,
    /// `published` or `hidden`.
    pub status: String,
    pub created_at: String,
    /// How many clients reported it.
    pub reports: i64,
    /// The latest report reasons, joined with `；`.
    pub reasons: Option<String>,
    pub last_reported_at: Option<String>,
}

impl AdminReview {
    pub fn is_hidden(&self) -> bool {
        self.status == "hidden"
    }
}

/// One line of the audit log: who hid or restored which review, when, why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AuditEntry {
    pub id: String,
    pub at: String,
    pub actor: String,
    /// `hide`, `restore`, or `resolve_correction` (then `review_id` is the
    /// request's id).
    pub action: String,
    pub review_id: String,
    /// Whether the action changed the review (a hide of a hidden one did not).
    pub changed: bool,
    pub reason: String,
}

/// The admin's lists: one keyset page of reported reviews (most reports
/// first), the cursor of the next page (`?after=`), the most recent reviews
/// (on the first page only), the open requests for a correction (newest
/// first) and the latest admin actions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AdminLists {
    pub flagged: Vec<AdminReview>,
    pub next: Option<String>,
    pub recent: Vec<AdminReview>,
    #[serde(default)]
    pub corrections: Vec<super::correction::CorrectionRequest>,
    pub audit: Vec<AuditEntry>,
}
