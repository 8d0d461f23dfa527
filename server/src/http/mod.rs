//! HTTP surface besides the pages: the JSON API under `/api/v1` (reads,
//! reviews and the agent), the 举报 form target and `/admin`.

pub mod api_v1;
pub mod chat;
mod error;
pub mod moderation;

pub use error::JsonError;
