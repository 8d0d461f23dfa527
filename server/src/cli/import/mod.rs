//! `server import <advisors.csv> [--dry-run] [--skip-bad] [--db URL]`: real
//! advisors from a spreadsheet into the site.
//!
//! The file: UTF-8 CSV (a byte-order mark is dropped; Excel: 「CSV UTF-8」),
//! RFC 4180 quoting, a header line naming the columns in any order:
//!
//! | column | 中文表头 | what |
//! | --- | --- | --- |
//! | `name` | 姓名 | 1–20 characters: Chinese characters, Latin letters, `·` (spaces and `-` between Latin letters) |
//! | `title` | 职称 | one of [`TITLES`] exactly |
//! | `school` | 学校 | a school of the catalog, by its name or an alias (北大, PKU) |
//! | `major` | 专业 | a major of the catalog, by its name or an alias (计算机, CS) |
//! | `directions` | 研究方向 | up to 8 research directions of up to 30 characters, separated by `、` `;` `；` `,` `，` (may be empty) |
//! | `bio` | 简介 | up to 2000 characters; line breaks allowed (may be empty) |
//!
//! All six columns must be there; any other column is an error of the
//! header (a misspelt `titel` would otherwise be dropped without a word).
//! Fields are trimmed; rows with every field empty are skipped; no field
//! may hold a control character (the bio may hold line breaks). A header
//! that cannot be read stops everything.
//!
//! Decisions:
//! - An advisor is its school + major + name. Two rows of one file with the
//!   same three: the later one is a bad line (which of the two is right is
//!   the operator's call, not ours).
//! - Any school and major of the catalog may be paired. A school offers a
//!   major exactly when it has advisors there (there is no table of pairs:
//!   the catalog, the rankings and `pair_stats` all find pairs through
//!   advisors), so the first imported advisor of a pair opens it; the
//!   report names such pairs so a slip shows.
//! - An advisor that exists is updated to the file (title, directions and
//!   bio as given — an empty bio empties it) and counted as updated only if
//!   something differs; advisors not in the file are left alone.
//! - Any bad line stops the import and nothing is written, unless
//!   `--skip-bad`: then the good lines are written and the bad ones listed.
//!   A dry run says what the real run would do and exits as it would.
//! - Everything is one `BEGIN IMMEDIATE` transaction (all or nothing), and
//!   it moves the roster version on so that running servers reload their
//!   caches ([`crate::store::roster`]).
//!
//! [`plan()`] (parse and validate, against the catalog) is pure;
//! [`apply()`] (the database) takes its result.
//!
//! The files, one step each: `args.rs` the switches, `csv.rs` the
//! file (encoding, header, records, line numbers), `fields.rs` the rules
//! of each value, `plan.rs` the rows checked against the catalog,
//! `apply.rs` the writing, `report.rs` what is printed and the exit code.
//! This file holds what every step shares: a bad line and how a message
//! quotes a value.

mod apply;
mod args;
mod csv;
mod fields;
mod plan;
mod report;

#[cfg(test)]
mod fixtures;

use std::fmt;

// `self::`: the `csv` crate has the same name.
pub use self::csv::COLUMNS;
pub use apply::apply;
pub use args::Options;
pub use fields::{MAX_BIO, MAX_DIRECTION, MAX_DIRECTIONS, MAX_NAME, TITLES};
pub use plan::{plan, plan_bytes, ImportPlan, Row};
pub use report::{Change, Outcome, Report};

/// A line that cannot be imported, and why (in Chinese).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    pub line: u64,
    pub reason: String,
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "第 {} 行：{}", self.line, self.reason)
    }
}

/// A value as a message quotes it: a long one is cut.
fn shown(s: &str) -> String {
    const LIMIT: usize = 20;
    if s.chars().count() > LIMIT {
        format!("{}…", s.chars().take(LIMIT).collect::<String>())
    } else {
        s.to_string()
    }
}
