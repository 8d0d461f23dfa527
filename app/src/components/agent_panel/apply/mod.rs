//! Turning a reply into what happens on the pages.
//!
//! Split so the decisions can be unit-tested without a browser. The pure
//! half reads the reply: [`plan()`] (in [`crate::reply`], which the server
//! reads too) reads the tool calls and where the student is, and returns a
//! list of [`Step`]s plus the chips to show ([`ChipSet`]); [`notices`]
//! reads the lines a reply's events add to the conversation. The impure
//! half is [`run()`], which performs the steps against the
//! [`AgentOverlay`](crate::agent_state::AgentOverlay), the page context and
//! the router. Every result is taken from the reply itself: the pages are
//! handed the data it carried and never fetch it again.
//!
//! - [`notices`] (pure): the system lines of a reply's events
//! - [`run`](mod@run) (browser): the steps performed

mod notices;
mod run;

pub use crate::reply::{plan, ChipSet, Here, Step};
pub use notices::{event_messages, spoken_notice};
pub use run::run;
