//! Every integration test of the server, in one test binary.
//!
//! One binary, not one per file: the shared support (`common`) and the
//! site's generic code are compiled and linked once instead of twenty-odd
//! times, and on PostgreSQL one throwaway cluster and one seeded template
//! serve every suite. Each file is a suite of its own (`cargo test --test
//! suite pages::` runs one).

mod common;

mod api;
mod architecture;
mod chat;
mod coach;
mod compare;
mod configuration;
mod crash;
mod data;
mod dialogues;
mod faults;
mod flow;
mod fuzz;
mod general_questions;
mod import;
mod instances;
mod model;
mod moderation;
mod openapi;
mod operations;
mod pages;
mod parsers;
mod personas;
mod review_site;
mod reviews;
mod rules_eval;
mod safety;
mod scale;
mod shutdown;
mod speech_acts;
mod transcribe;
mod trust;
