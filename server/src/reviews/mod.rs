//! Writing reviews: one validation and one write path for every way a
//! review is written — the review form, `POST /api/v1/advisors/{id}/reviews`
//! and the review coach.
//!
//! - [`rules`]: the posting rules (no private data, no insults, no other
//!   students named), each refusal saying which rule and where
//! - [`submit`]: field checks, rules, duplicates and rate limits, then the
//!   review and its aggregates in one transaction
//! - [`moderation`]: edit, delete, report; [`admin`]: the admin's paged
//!   list of reported reviews, bulk hide/restore and the audit log;
//!   [`repeated`]: nearly the same text on several advisors, flagged
//! - [`correction`]: requests for a correction or removal from a named
//!   person (`/correction`), listed for the admin beside the reports
//!
//! The rules are measured on a labelled set by `crate::evals::rules`
//! (`server eval-rules`).

pub mod admin;
pub mod correction;
pub mod form;
pub mod moderation;
pub mod repeated;
pub mod rules;
pub mod submit;

pub use submit::{submit, validate, FieldError};
