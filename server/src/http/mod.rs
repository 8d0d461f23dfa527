//! HTTP surface besides the pages: the JSON API under `/api/v1` (reads and
//! the agent) and health.

pub mod api_v1;
pub mod chat;
mod error;

pub use error::JsonError;
