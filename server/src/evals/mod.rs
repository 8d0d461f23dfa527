//! The evaluation harnesses: labelled sets replayed against the product's
//! own code, scored, and printed by `server eval…` and held by the test
//! suite. None of it serves a student, so none of it is in the release
//! build: the module and its commands exist only with the `evals` feature,
//! which development and tests have by default and the build cargo-leptos
//! makes for deployment leaves out (`bin-default-features = false`).
//!
//! - [`dialogues`]: conversations with expectations per turn, replayed the
//!   way a browser would (`server eval`, `server eval-model`);
//! - [`coach`]: the coach's routing and follow-ups, and the posting rules as
//!   the coach applies them (`server eval-coach dev/coach.jsonl`);
//! - [`coach_scores`]: the coach's reading of scores per dimension against
//!   `server/evals/*/coach-scores*.jsonl` (`server eval-coach`);
//! - [`rules`]: the posting rules' precision and recall on labelled
//!   reviews (`server eval-rules`).
//!
//! The sets themselves, and who wrote each and when, are under
//! `server/evals/` (its README is the manifest).

pub mod coach;
pub mod coach_scores;
pub mod dialogues;
pub mod rules;
