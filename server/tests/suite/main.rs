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
mod disk_full;
mod docs_checked;
mod faults;
mod flow;
mod fuzz;
mod general_questions;
mod ids;
mod import;
mod instances;
mod model;
mod moderation;
mod name_search;
mod one_writer;
mod openapi;
mod operations;
mod operator;
mod pages;
mod parsers;
mod personas;
mod pg_faults;
mod review_site;
mod reviews;
mod rules_eval;
mod safety;
mod scale;
mod shutdown;
mod speech_acts;
mod speech_sets;
mod storage_faults;
mod strings_in_code;
mod transcribe;
mod trust;
