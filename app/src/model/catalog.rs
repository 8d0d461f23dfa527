//! Schools and majors as the site lists them, and the home page that lists
//! them: what the pickers suggest from and the ranking's "choose a major"
//! page offers.

use serde::{Deserialize, Serialize};

/// A school with the names students use for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct School {
    pub id: String,
    pub name: String,
    pub city: String,
    pub tier: String,
    pub aliases: Vec<String>,
    pub advisor_count: i64,
}

/// A major as offered by one school (or site-wide when no school is given).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Major {
    pub id: String,
    pub name: String,
    pub category: String,
    pub aliases: Vec<String>,
    pub advisor_count: i64,
}

/// The home page's data: every school, most popular first (the page shows the
/// first few and suggests from all of them with their aliases), and site totals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HomeData {
    pub schools: Vec<School>,
    pub school_count: i64,
    pub advisor_count: i64,
    pub review_count: i64,
}
