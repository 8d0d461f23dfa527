//! The server's layers (`docs/architecture.md`), checked: every `crate::…`
//! path outside comments and test modules points to a lower layer, never up
//! or sideways, so the import graph has no circle and no feature reaches
//! into another.

use std::path::{Path, PathBuf};

/// The layers of `docs/architecture.md`, bottom to top.
const LAYERS: &[&[&str]] = &[
    &["observe", "loopback"],
    &["text", "llm", "ranking", "latency"],
    &["voice", "speech_act", "db"],
    &["store"],
    &["catalog", "demo"],
    &["startup", "site"],
    &["places", "search", "reviews", "transcribe"],
    &["coach"],
    &["agent"],
    &["http", "cli"],
    &["config"],
];

/// Items of the crate root (`lib.rs`) a module may use, and who may.
const ROOT_ITEMS: &[(&str, &str)] = &[("cli", "serve_on_loopback")];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("server/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its test module and its comments (clippy's
/// `items_after_test_module` keeps code from following the test module).
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segment of every `crate::x` path in `code`.
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push(name);
        }
        rest = after;
    }
    out
}

#[test]
fn every_import_points_down_a_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut wrong = Vec::new();
    let mut seen = 0;
    for file in &files {
        let rel = file.strip_prefix(&root).expect("under src");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or_default()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let Some(own) = layer(&top) else {
            wrong.push(format!(
                "{}: module `{top}` is in no layer of docs/architecture.md",
                rel.display()
            ));
            continue;
        };
        seen += 1;
        let text = std::fs::read_to_string(file).expect("a source file");
        for used in crate_paths(&code(&text)) {
            if used == top {
                continue;
            }
            match layer(&used) {
                Some(l) if l < own => {}
                Some(l) => wrong.push(format!(
                    "{}: `{top}` (layer {own}) uses `crate::{used}` (layer {l})",
                    rel.display()
                )),
                None if ROOT_ITEMS.contains(&(top.as_str(), used.as_str())) => {}
                None => wrong.push(format!(
                    "{}: `{top}` uses `crate::{used}`, which is no module of a layer",
                    rel.display()
                )),
            }
        }
    }
    assert!(seen > 100, "the sources were found ({seen} files)");
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_layers_name_every_module_once() {
    let all: Vec<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    for m in &all {
        assert_eq!(all.iter().filter(|x| *x == m).count(), 1, "{m}");
    }
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("lib.rs");
    for line in lib.lines() {
        if let Some(m) = line
            .strip_prefix("pub mod ")
            .and_then(|m| m.strip_suffix(';'))
        {
            assert!(
                layer(m).is_some(),
                "lib.rs declares `{m}`, which no layer names"
            );
        }
    }
}

/// Source files that may be longer than the 600 lines the architecture
/// sets, each with its reason. A file joins this list only with one.
const LONG_FILES: &[(&str, &str)] = &[
    // Data, not code: the demo's schools and majors, one entry a few lines.
    ("demo/catalog_data.rs", "the demo catalog's data"),
];

/// "A file has one reason to change, and stays under about 600 lines"
/// (`docs/architecture.md`), checked over the server's and the app's
/// sources; a module's tests may live beside it in `tests.rs`.
#[test]
fn source_files_stay_under_six_hundred_lines() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut long = Vec::new();
    for (crate_src, prefix) in [
        (manifest.join("src"), ""),
        (manifest.join("../app/src"), "app/"),
    ] {
        let mut files = Vec::new();
        sources(&crate_src, &mut files);
        for path in files {
            let rel = path
                .strip_prefix(&crate_src)
                .expect("under its src")
                .to_string_lossy()
                .replace('\\', "/");
            let lines = std::fs::read_to_string(&path)
                .expect("a source file is readable")
                .lines()
                .count();
            let name = format!("{prefix}{rel}");
            if lines > 600 && !LONG_FILES.iter().any(|(f, _)| *f == name) {
                long.push(format!("{name}: {lines} lines"));
            }
        }
    }
    assert!(long.is_empty(), "files over 600 lines: {long:#?}");
}
