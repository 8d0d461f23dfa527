//! The configuration's table in docs/operations.md ("Running") is the one
//! `server::config` declares: every variable, its default and its doc
//! comment, generated from the clap command that `server --help` prints.
//! Out of date, the test fails with the table to paste.

use clap::CommandFactory;

const TABLE_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/operations.md");
const BEGIN: &str =
    "<!-- configuration: generated from server/src/config/mod.rs (tests/suite/configuration.rs) -->";
const END: &str = "<!-- end of configuration -->";

/// The table, from the declarations.
fn table() -> String {
    let mut out = String::from("| variable | default | meaning |\n| --- | --- | --- |\n");
    for arg in server::config::Cli::command().get_arguments() {
        let Some(name) = arg.get_env() else {
            continue;
        };
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| format!("`{}`", v.to_string_lossy()))
            .collect();
        let default = if defaults.is_empty() {
            "none".to_string()
        } else {
            defaults.join(", ")
        };
        let help = arg
            .get_long_help()
            .or(arg.get_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        let meaning = help
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace('|', "\\|");
        assert!(!meaning.is_empty(), "{name:?} has no doc comment");
        out.push_str(&format!(
            "| `{}` | {default} | {meaning} |\n",
            name.to_string_lossy()
        ));
    }
    out
}

#[test]
fn the_operations_guide_lists_exactly_the_variables_the_configuration_defines() {
    let readme = std::fs::read_to_string(TABLE_FILE).expect("docs/operations.md");
    let start = readme
        .find(BEGIN)
        .unwrap_or_else(|| panic!("docs/operations.md has no line {BEGIN}"))
        + BEGIN.len();
    let end = readme[start..]
        .find(END)
        .unwrap_or_else(|| panic!("docs/operations.md has no line {END} after the table"))
        + start;
    let written = readme[start..end].trim();
    let expected = table();
    assert!(
        written == expected.trim(),
        "docs/operations.md's configuration table is out of date; between its markers put:\n\n{expected}"
    );
}

/// `.env.example`: every variable with its meaning and its default,
/// commented out (a deployment uncomments what it sets), generated from the
/// same declarations as the table.
fn env_example() -> String {
    let mut out = String::from(
        "# The site's configuration: every variable `server` reads (`server --help`,\n\
         # docs/operations.md), with its default. Uncomment what you set and give\n\
         # the file to whatever starts the server (systemd's EnvironmentFile;\n\
         # deploy/compose.yaml reads it as deploy/site.env through env_file).\n\
         # Generated from server/src/config/mod.rs (tests/suite/configuration.rs).\n",
    );
    for arg in server::config::Cli::command().get_arguments() {
        let Some(name) = arg.get_env() else {
            continue;
        };
        let help = arg
            .get_long_help()
            .or(arg.get_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        out.push('\n');
        let mut line = String::from("#");
        for word in help.split_whitespace() {
            if line.chars().count() + 1 + word.chars().count() > 78 && line != "#" {
                out.push_str(&line);
                out.push('\n');
                line = String::from("#");
            }
            line.push(' ');
            line.push_str(word);
        }
        out.push_str(&line);
        out.push('\n');
        let default = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(",");
        out.push_str(&format!("# {}={default}\n", name.to_string_lossy()));
    }
    out
}

#[test]
fn the_env_example_lists_exactly_the_variables_the_configuration_defines() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../.env.example");
    let written = std::fs::read_to_string(path).unwrap_or_default();
    let expected = env_example();
    assert!(
        written == expected,
        ".env.example is out of date; it should read:\n\n{expected}"
    );
}

#[test]
fn every_variable_is_documented_and_named_once() {
    let cmd = server::config::Cli::command();
    let mut names: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_env().map(|e| e.to_string_lossy().into_owned()))
        .collect();
    let n = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), n, "a variable is declared twice: {names:?}");
    // The variables the README and the tests have always used keep their names.
    for kept in [
        "DATABASE_URL",
        "DATABASE_MAX_CONNECTIONS",
        "DEMO_DATA",
        "LEPTOS_SITE_ADDR",
        "LEPTOS_SITE_ROOT",
        "RUST_LOG",
        "TRUSTED_PROXIES",
        "CHAT_TURNS_PER_MINUTE",
        "ADMIN_TOKEN",
        "LLM_BASE_URL",
        "LLM_API_KEY",
        "LLM_MODEL",
        "LLM_TIMEOUT_SECS",
        "LLM_TURN_BUDGET_SECS",
        "LLM_MAX_RETRIES",
        "LLM_TOOL_MODE",
        "LLM_STREAM",
        "LLM_TEMPERATURE",
        "LLM_MAX_TOKENS",
        "LLM_HISTORY_TOKENS",
    ] {
        assert!(names.iter().any(|n| n == kept), "{kept} is gone");
    }
}

/// No module but the configuration reads the environment (a test's own
/// support excepted): a variable read elsewhere would be missing from
/// `--help` and the table.
#[test]
fn only_the_configuration_reads_the_environment() {
    fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut readers = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let code = match text.find("#[cfg(test)]") {
            Some(i) => &text[..i],
            None => &text,
        };
        if ["env::var(", "env::var_os(", "env::vars("]
            .iter()
            .any(|r| code.contains(r))
        {
            readers.push(file.strip_prefix(&root).unwrap().display().to_string());
        }
    }
    assert!(
        readers.is_empty(),
        "these read the environment: {readers:?}"
    );
}
