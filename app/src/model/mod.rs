//! Read models: what the pages, the JSON API and the agent's tool results show
//! of schools, majors, advisors and reviews. Ids travel as strings on the wire,
//! as the protocol's examples do (`"id": "12345"`).
//!
//! One file per thing shown; every type is re-exported here, so the rest of
//! the workspace names them `crate::model::X` / `app::model::X`:
//!
//! - [`catalog`]: schools, majors, the home page
//! - [`ranking`]: sort keys, a ranking's rows and page, what a request resolves to
//! - [`advisor`]: an advisor's detail page
//! - [`compare`]: advisors side by side
//! - [`stats`]: what the reviews of a ranking add up to
//! - [`reviews`]: reviews read and written, a page of them, its order and filter
//! - [`search`]: what the name search found
//! - [`tools`]: the agent's tool results that are no page's own model
//! - [`chat`]: a stored conversation
//! - [`admin`]: the admin page's lists (reported and recent reviews, the
//!   audit log), named `app::model::admin::X`
//! - [`correction`]: a request for a correction or removal, its form's
//!   limits, named `app::model::correction::X`

pub mod admin;
mod advisor;
mod catalog;
mod chat;
mod compare;
pub mod correction;
mod ranking;
mod reviews;
mod search;
mod stats;
mod tools;

pub use advisor::{AdvisorDetail, DimensionAverages, RecommendShare, TagCount};
pub use catalog::{HomeData, Major, School};
pub use chat::{ChatHistory, ChatMessage};
pub use compare::Comparison;
pub use ranking::{AdvisorCard, RankingPage, RankingView, SortKey};
pub use reviews::{
    NewReview, PostedReview, Ratings, Review, ReviewForm, ReviewPage, ReviewQuery, ReviewSort,
};
pub use search::{AdvisorHit, MajorHit, SchoolHit, SearchResults};
pub use stats::{AdvisorRef, DimensionBest, RankingStats};
pub use tools::{RecommendResult, RecommendedAdvisor, ReviewsResult};
