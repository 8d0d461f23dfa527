//! HTTP surface besides the pages: the JSON API under `/api/v1` (reads,
//! reviews and the agent), the 举报 form target and `/admin`; the guards
//! every request passes ([`security`], [`client`], [`limits`]).

pub mod api_v1;
pub mod chat;
pub mod client;
mod error;
pub mod limits;
pub mod moderation;
pub mod security;

pub use error::{json_body, JsonError};
