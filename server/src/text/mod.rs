//! Text helpers shared by whatever reads what people type (the posting
//! rules today; nothing here knows about reviews or the agent):
//!
//! - [`fold`]: one canonical spelling of a text — half-width, simplified,
//!   lower-case, digits for spelled-out numbers, separators dropped — with a
//!   map back to the original characters, so a match found in the folded
//!   text is reported where the writer wrote it.
//! - [`words`]: word lists searched in one pass (Aho–Corasick), so a check
//!   stays linear in the length of the text however long the lists grow.

pub mod fold;
pub mod words;
