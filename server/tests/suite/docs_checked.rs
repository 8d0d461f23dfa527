//! The documentation against the binary, so that a line of `docs/` cannot
//! say what the server does not do:
//!
//! - `docs/api.md` names every route of the OpenAPI document (method and
//!   path) and every error code of the error enum (`ERROR_CODES`, which the
//!   document lists and `openapi.rs` checks against the source);
//! - every relative link in `docs/` and the README leads to a file that
//!   exists, and every `#anchor` to a heading of it;
//! - every metric series `docs/operations.md` names is on `/metrics` from
//!   the start, before its first event (registered at zero).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn api_md_names_every_route_and_every_error_code() {
    let api = read("docs/api.md");
    let document: serde_json::Value =
        serde_json::from_str(server::http::openapi::document_json()).unwrap();
    let mut missing = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            let method = method.to_uppercase();
            if !["GET", "POST", "PUT", "DELETE", "PATCH"].contains(&method.as_str()) {
                continue;
            }
            // `GET /api/v1/advisors/{id}`, or the path in a table row whose
            // method column says it (`POST` / `DELETE /api/v1/…`).
            let named = api.lines().any(|line| {
                line.contains(&format!("{path}`"))
                    || line.contains(&format!("{path}?"))
                    || line.contains(&format!("{path} "))
                    || line.contains(&format!("{path}|"))
            }) && api.contains(&method);
            let said = api.contains(&format!("{method} {path}"))
                || api
                    .lines()
                    .any(|l| l.contains(&method) && l.contains(&format!("{path}`")));
            if !(named && said) {
                missing.push(format!("{method} {path}"));
            }
        }
    }
    assert!(missing.is_empty(), "docs/api.md leaves out {missing:?}");
    let codes: Vec<&str> = server::http::openapi::ERROR_CODES
        .iter()
        .map(|(_, code, _)| *code)
        .filter(|code| !api.contains(&format!("`{code}`")))
        .collect();
    assert!(
        codes.is_empty(),
        "docs/api.md leaves out the error codes {codes:?}"
    );
}

/// The anchor GitHub makes of a heading.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut inside_code = false;
    let mut out = BTreeSet::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            inside_code = !inside_code;
        }
        if !inside_code && line.starts_with('#') {
            out.insert(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn every_link_in_the_docs_leads_somewhere() {
    let mut files = vec![PathBuf::from("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == "md") {
            files.push(PathBuf::from("docs").join(entry.file_name()));
        }
    }
    let mut broken = Vec::new();
    for file in &files {
        let text = read(&file.to_string_lossy());
        let dir = file.parent().unwrap_or(Path::new(""));
        let mut rest = text.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            if target.starts_with("http") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            let (path, fragment) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target, None),
            };
            let resolved = if path.is_empty() {
                file.clone()
            } else {
                dir.join(path)
            };
            let on_disk = root().join(&resolved);
            if !on_disk.exists() {
                broken.push(format!(
                    "{}: {target} (no {})",
                    file.display(),
                    resolved.display()
                ));
                continue;
            }
            if let Some(fragment) = fragment {
                if on_disk.extension().is_some_and(|e| e == "md") {
                    let headings = anchors(&std::fs::read_to_string(&on_disk).unwrap());
                    if !headings.contains(fragment) {
                        broken.push(format!(
                            "{}: {target} (no heading #{fragment})",
                            file.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_metric_series_the_docs_name_is_there_before_its_first_event() {
    server::observe::metrics::install().unwrap();
    let text = server::observe::metrics::render().unwrap();
    let ops = read("docs/operations.md");
    let section = &ops[ops.find("- **Metrics.**").expect("the metrics paragraph")..];
    let section = &section[..section[3..].find("\n- **").map_or(section.len(), |i| i + 3)];
    let named: BTreeSet<&str> = section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| {
            s.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                && (s.ends_with("_total") || s.ends_with("_seconds") || s.starts_with("db_"))
        })
        .collect();
    assert!(named.len() >= 16, "{named:?}");
    let missing: Vec<&&str> = named
        .iter()
        .filter(|name| {
            !text.lines().any(|l| {
                l.starts_with(&format!("{name}{{"))
                    || l.starts_with(&format!("{name} "))
                    || l.starts_with(&format!("{name}_bucket"))
            })
        })
        .collect();
    assert!(
        missing.is_empty(),
        "on /metrics only after their first event: {missing:?}"
    );
}
