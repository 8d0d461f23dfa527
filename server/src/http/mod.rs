//! HTTP surface besides the pages: the JSON API under `/api/v1` (reads,
//! reviews, 有用 votes and the agent), the 举报, 有用 and 申诉 form targets
//! and `/admin`; the guards every request passes ([`security`], [`client`],
//! [`limits`]); how long browsers keep the site's files ([`assets`]);
//! robots.txt and the sitemap ([`crawlers`]).

pub mod admin;
pub mod api_v1;
pub mod assets;
pub mod chat;
pub mod client;
pub mod corrections;
pub mod crawlers;
mod error;
pub mod limits;
mod pages;
pub mod reviews;
pub mod security;
pub mod votes;

pub use error::{json_body, JsonError};
