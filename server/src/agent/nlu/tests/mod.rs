//! Tests of the whole analysis, table-driven: each case is an utterance and
//! the fields it must produce; every field not listed must stay empty
//! (None / false / [] / Act::None), so false positives fail too.

pub(crate) mod fixture;

mod cases_acts;
mod cases_corrections;
mod cases_faq;
mod cases_frames;
mod cases_heard;
mod cases_lexicon;
mod cases_refs;
mod cases_slots;
mod cases_work;
mod check;
mod perf;
