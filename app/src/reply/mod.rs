//! What a reply does to the pages, decided once for everyone who needs it.
//!
//! The panel performs it in the browser; the server keeps where it led in
//! the session (so a browser still loading that page is understood as
//! showing it), and the tests, the evaluation and the load tool replay
//! conversations with it as a student would see them. So the decisions are
//! pure and live here, not in the panel:
//!
//! - [`plan`](mod@plan): the reply's tool calls and where the student is,
//!   read into [`Step`]s (hand a page its data, open a ranking, navigate,
//!   scroll) and the chips to show, one file per page a call leads to
//!   (`plan/ranking.rs`, `plan/advisor.rs`, `plan/compare.rs`);
//! - [`chips`]: a `present_options` call read as chips;
//! - [`page`]: the page context once those steps are done — the steps
//!   played the way the browser plays them, with the data they hand over.

mod chips;
mod page;
mod plan;

#[cfg(test)]
pub(crate) mod fixtures;

pub use chips::ChipSet;
pub use page::{catching_up, here, page_after};
pub use plan::{plan, Here, Plan, Step};
