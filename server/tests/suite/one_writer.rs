//! "A field of the turn has one writer" (`docs/architecture.md`), checked:
//! over the agent's turn (`server/src/agent/turn/`), every write to a
//! field of the turn's state — an assignment, a mutating call, a `&mut`
//! borrow of `t.<phase>.<field>` — is counted by the file it is in, and no
//! field may be written from two files. What several steps decide together
//! is read through one reducer of `turn/state.rs` instead (`Turn::form`,
//! `Turn::memory_after`, `Turn::plan`, `Turn::intent`); an answer is a
//! value the graph's runner stores (`turn/mod.rs`). The two ledgers, the
//! cost and the reply's events, have private fields: steps add to them
//! through `Cost::spend` and `Reply::event`, and the compiler holds that.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::architecture::{code, relative, sources};

/// The turn's state as steps name it: `t.<phase>.<field>`.
const PHASES: &[&str] = &["input", "understood", "proposed", "reply", "cost"];

/// Calls that change what they are called on.
const MUTATING: &[&str] = &[
    "push",
    "clear",
    "extend",
    "retain",
    "insert",
    "take",
    "truncate",
    "append",
    "drain",
    "pop",
    "remove",
    "sort",
    "dedup",
    "remember",
    "replace",
    "get_or_insert_with",
];

/// `code` with whitespace before a `.` removed, so that a chain split over
/// lines (`t\n    .reply\n    .answer`) reads as one.
fn joined(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            let mut j = i;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            if j < chars.len() && chars[j] == '.' {
                i = j;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The fields (`phase.field`) that `code` writes.
fn written(code: &str) -> BTreeSet<String> {
    let code = joined(code);
    let mut out = BTreeSet::new();
    let bytes = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    for (start, _) in code.match_indices("t.") {
        if start > 0 && (ident(bytes[start - 1]) || bytes[start - 1] == b'.') {
            continue;
        }
        // The chain of names after `t.`.
        let mut end = start + 2;
        let mut names = Vec::new();
        loop {
            let from = end;
            while end < bytes.len() && ident(bytes[end]) {
                end += 1;
            }
            names.push(&code[from..end]);
            if end < bytes.len() && bytes[end] == b'.' {
                end += 1;
            } else {
                break;
            }
        }
        if names.len() < 2 || !PHASES.contains(&names[0]) {
            continue;
        }
        let rest = code[end..].trim_start();
        // A call on the chain: its last name is the method.
        let (fields, call) = if rest.starts_with('(') {
            (&names[..names.len() - 1], names.last().copied())
        } else {
            (&names[..], None)
        };
        if fields.len() < 2 {
            continue;
        }
        let assigned = call.is_none()
            && ["=", "+=", "-=", "|=", "&="]
                .iter()
                .any(|op| rest.starts_with(op) && !rest.starts_with("=="));
        let mutated = call.is_some_and(|m| MUTATING.contains(&m));
        let borrowed = code[..start].trim_end().ends_with("&mut");
        if assigned || mutated || borrowed {
            out.insert(format!("{}.{}", fields[0], fields[1]));
        }
    }
    out
}

#[test]
fn the_writer_check_sees_writes_and_not_reads() {
    let w = written(
        "t.reply.answer = Some(a);\nt\n    .proposed\n    .calls\n    .push(c);\n\
         let f = &mut t.understood.form;\nif t.cost.calls() == 0 {}\n\
         let x = t.input.page.clone(); t.proposed.opened == None;",
    );
    let expected: BTreeSet<String> = ["reply.answer", "proposed.calls", "understood.form"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(w, expected);
}

#[test]
fn every_field_of_the_turn_has_one_writer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/agent/turn");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut writers: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in files {
        let rel = relative(&path, &root);
        if rel.ends_with("tests.rs") || rel.contains("/tests/") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file is readable");
        for field in written(&code(&text)) {
            writers.entry(field).or_default().insert(rel.clone());
        }
    }
    // The check reads the steps at all: the answer, the steered calls.
    assert!(writers.len() >= 25, "{writers:#?}");
    assert!(writers.contains_key("reply.answer") && writers.contains_key("proposed.calls"));
    let shared: Vec<String> = writers
        .iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(field, files)| format!("{field}: {files:?}"))
        .collect();
    assert!(
        shared.is_empty(),
        "fields of the turn written from more than one file: {shared:#?}"
    );
}
