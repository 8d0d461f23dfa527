//! A request for a correction or removal (`/correction`): a person who is
//! named on the site, or who knows something on it is wrong, asks the
//! moderators to look. The form's words and limits are here, where the page
//! (its hints, `maxlength`) and the server's check
//! (`server::reviews::correction`) both read them, so the two cannot
//! disagree about what is accepted.

use serde::{Deserialize, Serialize};

/// Who is asking, as the form offers it.
pub const REQUESTERS: [&str; 3] = ["本人", "学生", "其他"];
/// The advisor's name or a link to the page, in characters.
pub const MAX_SUBJECT: usize = 200;
/// What is wrong, in characters after trimming.
pub const MIN_DETAILS: usize = 10;
pub const MAX_DETAILS: usize = 2000;
/// How to reach the person (an e-mail address or a phone number).
pub const MAX_CONTACT: usize = 100;

/// What the form sends (and what a refused submission shows again).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorrectionInput {
    /// The advisor's name or the page's link.
    pub subject: String,
    /// One of [`REQUESTERS`].
    pub requester: String,
    /// What is wrong and what should change.
    pub details: String,
    pub contact: String,
}

/// The form as the page shows it: empty, or a refused submission's values
/// with each field's error.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorrectionForm {
    pub values: CorrectionInput,
    /// (field, message); the field `form` is the whole form's.
    pub errors: Vec<(String, String)>,
}

/// A stored request, as the admin's list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct CorrectionRequest {
    pub id: String,
    pub subject: String,
    pub requester: String,
    pub details: String,
    pub contact: String,
    pub created_at: String,
}
