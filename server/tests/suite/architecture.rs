//! The server's layers (`docs/architecture.md`), checked: every `crate::…`
//! path outside comments and test modules points to a lower layer, never up
//! or sideways, so no feature reaches into another; inside a layer, the
//! files' imports (`crate::`, `super::`, `self::` and a declared child's
//! paths) never run in a circle; and files stay under 600 lines.

use std::path::{Path, PathBuf};

/// The layers of `docs/architecture.md`, bottom to top.
const LAYERS: &[&[&str]] = &[
    &["observe", "loopback", "graph", "outbound"],
    &["text", "llm", "ranking", "latency"],
    &["voice", "speech_act", "db"],
    &["store"],
    &["catalog", "demo"],
    &["startup", "site"],
    &["places", "search", "reviews", "transcribe"],
    &["coach"],
    &["agent"],
    &["evals"],
    &["http", "cli"],
    &["config"],
];

/// Items of the crate root (`lib.rs`) a module may use, and who may.
const ROOT_ITEMS: &[(&str, &str)] = &[("cli", "serve_on_loopback")];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

pub(crate) fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("server/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `path` relative to `root`, with `/` between folders, for the lists the
/// checks name files by.
pub(crate) fn relative(path: &Path, root: &Path) -> String {
    path.strip_prefix(root)
        .expect("a source file under its root")
        .to_string_lossy()
        .replace('\\', "/")
}

/// The code of a file without its test module and its comments (clippy's
/// `items_after_test_module` keeps code from following the test module;
/// `#[cfg(test)] mod tests;`, a test module in a file of its own, is no
/// end of the code).
pub(crate) fn code(text: &str) -> String {
    let inline_tests = text.match_indices("#[cfg(test)]").find(|(i, m)| {
        let after = text[i + m.len()..].trim_start();
        after.starts_with("mod ") && !after.split('\n').next().unwrap_or("").contains(';')
    });
    let text = match inline_tests {
        Some((i, _)) => &text[..i],
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
            let rel = relative(&path, &crate_src);
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

/// "Every erased view goes through `app::sync_hydrate::IntoAnySync`"
/// (`docs/architecture.md`, the browser bundle): `into_any()` compiles
/// async hydration code for each type it erases, which synchronous
/// hydration never runs, and it is what grew the WASM past its ceiling
/// when three of them came back into the panel.
#[test]
fn the_app_erases_views_only_for_synchronous_hydration() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../app/src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let offenders: Vec<String> = files
        .iter()
        .filter(|p| !p.ends_with("sync_hydrate.rs"))
        .filter(|p| {
            code(&std::fs::read_to_string(p).expect("a source file is readable"))
                .contains(".into_any()")
        })
        .map(|p| p.strip_prefix(&src).unwrap_or(p).display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "into_any() instead of into_any_sync() in {offenders:?}"
    );
}

/// A source file's module path under `src`: `http/openapi.rs` is
/// `http::openapi`, `http/admin/mod.rs` is `http::admin`, `lib.rs` the root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .map(|s| s.trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Every path in `code` that starts at `crate::`, `super::` or `self::`, or
/// at one of `children` (the modules the file declares), with `{…}` groups
/// spread: `use super::{a, b::c}` gives `super::a` and `super::b::c`.
fn module_paths(code: &str, children: &[String]) -> Vec<Vec<String>> {
    fn ident(s: &str) -> usize {
        s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(s.len())
    }
    /// The paths of the group or path at the start of `s`, after `prefix`.
    fn spread(s: &str, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
        let s_trim = s.trim_start();
        let lead = s.len() - s_trim.len();
        if let Some(inner) = s_trim.strip_prefix('{') {
            let mut used = 1;
            let mut rest = inner;
            loop {
                let n = spread(rest, prefix, out);
                rest = &rest[n..];
                used += n;
                let t = rest.trim_start();
                used += rest.len() - t.len();
                rest = t;
                if let Some(r) = rest.strip_prefix(',') {
                    rest = r;
                    used += 1;
                } else {
                    if rest.starts_with('}') {
                        used += 1;
                    }
                    return lead + used;
                }
            }
        }
        let n = ident(s_trim);
        if n == 0 {
            if !prefix.is_empty() {
                out.push(prefix.to_vec());
            }
            return lead;
        }
        let mut path = prefix.to_vec();
        path.push(s_trim[..n].to_string());
        if let Some(r) = s_trim[n..].strip_prefix("::") {
            return lead + n + 2 + spread(r, &path, out);
        }
        out.push(path);
        lead + n
    }
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let boundary = i == 0 || {
            let c = bytes[i - 1] as char;
            !(c.is_ascii_alphanumeric() || c == '_' || c == ':')
        };
        if boundary && code.is_char_boundary(i) {
            let rest = &code[i..];
            let n = ident(rest);
            let head = &rest[..n];
            if n > 0
                && rest[n..].starts_with("::")
                && (matches!(head, "crate" | "super" | "self")
                    || children.iter().any(|c| c == head))
            {
                let mut found = Vec::new();
                let used = spread(&rest[n + 2..], &[head.to_string()], &mut found);
                out.extend(found);
                i += n + 2 + used.max(1);
                continue;
            }
        }
        i += 1;
    }
    out
}

/// "No circles": over the server's files, the imports (`crate::`,
/// `super::`, `self::` and a declared child's paths, outside comments and
/// test modules) never lead from a file back to itself. A helper two files
/// share lives below both. `pub use` re-exports, `mod` lines and a
/// submodule's use of the modules it sits in are the module tree, not a
/// use, and are left out.
#[test]
fn no_file_imports_its_way_back_to_itself() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let modules: Vec<Vec<String>> = files
        .iter()
        .map(|f| module_of(f.strip_prefix(&root).expect("under src")))
        .collect();
    let file_of = |path: &[String]| modules.iter().position(|m| m == path);
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); files.len()];
    for (idx, file) in files.iter().enumerate() {
        let own = &modules[idx];
        let text = std::fs::read_to_string(file).expect("a source file");
        let code: String = code(&text)
            .lines()
            .filter(|l| {
                let t = l.trim_start();
                !(t.starts_with("pub use ")
                    || t.starts_with("pub(crate) use ")
                    || t.starts_with("mod ")
                    || t.starts_with("pub mod ")
                    || t.starts_with("pub(crate) mod "))
            })
            .collect::<Vec<_>>()
            .join("\n");
        let children: Vec<String> = modules
            .iter()
            .filter(|m| m.len() == own.len() + 1 && m.starts_with(own))
            .map(|m| m[own.len()].clone())
            .collect();
        for path in module_paths(&code, &children) {
            let mut base: Vec<String> = match path[0].as_str() {
                "crate" => Vec::new(),
                _ => own.clone(),
            };
            let mut segs = &path[1..];
            if path[0] == "super" {
                base.pop();
                while segs.first().is_some_and(|s| s == "super") {
                    base.pop();
                    segs = &segs[1..];
                }
            } else if path[0] != "crate" && path[0] != "self" {
                segs = &path[..];
            }
            // The deepest module the path names; what follows is an item.
            let mut target = file_of(&base);
            for s in segs {
                base.push(s.clone());
                match file_of(&base) {
                    Some(t) => target = Some(t),
                    None => break,
                }
            }
            // A module's own submodules use what it declares for them
            // (`super::Agent`): that is the module tree, not a circle.
            if let Some(t) = target.filter(|&t| t != idx && !own.starts_with(&modules[t])) {
                if !edges[idx].contains(&t) {
                    edges[idx].push(t);
                }
            }
        }
    }
    // Tarjan's strongly connected components: each of more than one file
    // is a circle.
    struct Walk<'a> {
        edges: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        circles: Vec<Vec<usize>>,
    }
    fn visit(w: &mut Walk, v: usize) {
        w.index[v] = Some(w.next);
        w.low[v] = w.next;
        w.next += 1;
        w.stack.push(v);
        w.on[v] = true;
        for &u in &w.edges[v].clone() {
            match w.index[u] {
                None => {
                    visit(w, u);
                    w.low[v] = w.low[v].min(w.low[u]);
                }
                Some(i) if w.on[u] => w.low[v] = w.low[v].min(i),
                _ => {}
            }
        }
        if Some(w.low[v]) == w.index[v] {
            let mut c = Vec::new();
            while let Some(u) = w.stack.pop() {
                w.on[u] = false;
                c.push(u);
                if u == v {
                    break;
                }
            }
            if c.len() > 1 {
                w.circles.push(c);
            }
        }
    }
    let mut w = Walk {
        edges: &edges,
        index: vec![None; files.len()],
        low: vec![0; files.len()],
        on: vec![false; files.len()],
        stack: Vec::new(),
        next: 0,
        circles: Vec::new(),
    };
    for v in 0..files.len() {
        if w.index[v].is_none() {
            visit(&mut w, v);
        }
    }
    let edge_count: usize = edges.iter().map(Vec::len).sum();
    assert!(edge_count > 300, "the imports were read ({edge_count})");
    let named: Vec<String> = w
        .circles
        .iter()
        .map(|c| {
            let mut names: Vec<String> = c.iter().map(|&f| modules[f].join("::")).collect();
            names.sort();
            names.join(" ↔ ")
        })
        .collect();
    assert!(named.is_empty(), "import circles:\n{}", named.join("\n"));
}
