//! "Words live in `server/lexicons/`, prompts and templates in `prompts/`,
//! never a string in code" (`docs/architecture.md`), held as a ratchet:
//! every Chinese string literal outside the demo data and the tests is
//! counted per file, and no file may hold more than it is listed with here.
//! A file not listed may hold none. What the list still allows is of two
//! kinds: what the site says where it says it (an error message beside the
//! check that raises it, a command-line tool's report to the operator), and
//! words of the language side not yet moved to a lexicon file. A count only
//! goes down: move the words out and lower it.

use std::collections::BTreeMap;
use std::path::Path;

use super::architecture::{code, relative, sources};

/// Each file's Chinese string literals, at most.
const ALLOWED: &[(&str, usize)] = &[
    ("agent/about_place.rs", 2),
    ("agent/facts.rs", 8),
    ("agent/form/chips.rs", 9),
    ("agent/history.rs", 7),
    ("agent/nlu/preferences.rs", 1),
    ("agent/option.rs", 1),
    ("agent/planner/embedded/advisor.rs", 1),
    ("agent/planner/embedded/form.rs", 17),
    ("agent/planner/prompt.rs", 4),
    ("agent/prepare.rs", 2),
    ("agent/readback.rs", 6),
    ("agent/recommend.rs", 24),
    ("agent/request.rs", 9),
    ("agent/spoken.rs", 1),
    ("agent/spoken_names.rs", 1),
    ("agent/tools.rs", 8),
    ("agent/turn/chip.rs", 1),
    ("agent/turn/classify.rs", 1),
    ("agent/turn/coach.rs", 2),
    ("agent/turn/intent.rs", 7),
    ("agent/turn/mod.rs", 1),
    ("agent/turn/narrate.rs", 6),
    ("agent/turn/persona/mod.rs", 1),
    ("agent/turn/persona/switch.rs", 1),
    ("agent/turn/plan.rs", 2),
    ("agent/turn/save.rs", 1),
    ("agent/turn/steer/chips.rs", 6),
    ("agent/turn/understand.rs", 1),
    ("agent/turn/validate/form.rs", 10),
    ("agent/turn/validate/mod.rs", 7),
    ("catalog/mod.rs", 21),
    ("cli/bench_scale/cases.rs", 23),
    ("cli/bench_scale/child.rs", 2),
    ("cli/bench_scale/mod.rs", 15),
    ("cli/commands.rs", 1),
    ("cli/evals.rs", 8),
    ("cli/import/apply.rs", 4),
    ("cli/import/csv.rs", 15),
    ("cli/import/fields.rs", 14),
    ("cli/import/mod.rs", 1),
    ("cli/import/fixtures.rs", 16),
    ("cli/import/plan.rs", 7),
    ("cli/import/report.rs", 14),
    ("cli/load.rs", 20),
    ("cli/mod.rs", 1),
    ("cli/tools.rs", 10),
    ("coach/dimension.rs", 4),
    ("coach/edits/mod.rs", 10),
    ("coach/edits/said.rs", 1),
    ("coach/graph/choose.rs", 3),
    ("coach/graph/editor.rs", 7),
    ("coach/graph/tool.rs", 1),
    ("coach/graph/verdict.rs", 10),
    ("coach/knowledge.rs", 22),
    ("coach/router.rs", 5),
    ("coach/speak.rs", 16),
    ("config/mod.rs", 7),
    ("db/mod.rs", 8),
    ("evals/coach.rs", 3),
    ("evals/coach_scores.rs", 6),
    ("evals/rules.rs", 1),
    ("http/access.rs", 1),
    ("http/admin/mod.rs", 11),
    ("http/admin/token.rs", 4),
    ("http/api_v1.rs", 29),
    ("http/chat.rs", 5),
    ("http/client.rs", 1),
    ("http/corrections.rs", 2),
    ("http/crawlers.rs", 4),
    ("http/error.rs", 5),
    ("http/limits.rs", 1),
    ("http/openapi.rs", 3),
    ("http/ops.rs", 2),
    ("http/responses.rs", 1),
    ("http/reviews.rs", 10),
    ("http/security.rs", 11),
    ("http/transcribe.rs", 7),
    ("http/votes.rs", 6),
    ("llm/client.rs", 1),
    ("llm/config.rs", 4),
    ("llm/error.rs", 9),
    ("llm/scripted.rs", 1),
    ("main.rs", 1),
    ("reviews/admin.rs", 1),
    ("reviews/correction.rs", 13),
    ("reviews/form.rs", 1),
    ("reviews/moderation.rs", 5),
    ("reviews/repeated.rs", 2),
    ("reviews/rules.rs", 1),
    ("reviews/rules/contact.rs", 44),
    ("reviews/rules/insult.rs", 1),
    ("reviews/rules/lexicon.rs", 8),
    ("reviews/rules/private_life.rs", 10),
    ("reviews/rules/student.rs", 2),
    ("reviews/submit.rs", 15),
    ("search.rs", 3),
    ("site/advisor.rs", 2),
    ("site/catalog.rs", 2),
    ("site/compare.rs", 3),
    ("site/mod.rs", 1),
    ("startup.rs", 2),
    ("store/client_keys.rs", 1),
    ("store/search.rs", 1),
    ("text/clauses/mod.rs", 4),
    ("text/opinion/irony.rs", 2),
    ("text/opinion/judge/quantity.rs", 2),
    ("text/opinion/judge/value.rs", 7),
    ("text/opinion/situations.rs", 3),
    ("text/templates.rs", 1),
    ("transcribe/audio.rs", 5),
    ("transcribe/mod.rs", 1),
    ("transcribe/prompt.rs", 2),
    ("voice.rs", 2),
];

/// How many string literals of `code` hold a Chinese character.
fn chinese_literals(code: &str) -> usize {
    let chars: Vec<char> = code.chars().collect();
    let mut n = 0;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            // A character literal ('"', '\'', '中'), not a lifetime.
            '\'' if chars.get(i + 2) == Some(&'\'') => i += 3,
            '\'' if chars.get(i + 1) == Some(&'\\') => {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            }
            'r' if chars.get(i + 1).is_some_and(|&c| c == '"' || c == '#')
                && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')) =>
            {
                let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
                if chars.get(i + 1 + hashes) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let start = i + 2 + hashes;
                let mut j = start;
                while j < chars.len()
                    && !(chars[j] == '"'
                        && chars[j + 1..]
                            .iter()
                            .take(hashes)
                            .filter(|&&c| c == '#')
                            .count()
                            == hashes)
                {
                    j += 1;
                }
                n += usize::from(chars[start..j.min(chars.len())].iter().any(|&c| is_han(c)));
                i = j + 1 + hashes;
            }
            '"' => {
                let mut j = i + 1;
                let mut han = false;
                while j < chars.len() && chars[j] != '"' {
                    if chars[j] == '\\' {
                        j += 1;
                    } else if is_han(chars[j]) {
                        han = true;
                    }
                    j += 1;
                }
                n += usize::from(han);
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    n
}

fn is_han(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

#[test]
fn chinese_strings_stay_where_they_are_allowed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut found: BTreeMap<String, usize> = BTreeMap::new();
    for file in files {
        let rel = relative(&file, &root);
        let test_file =
            rel.ends_with("tests.rs") || rel.ends_with("_tests.rs") || rel.contains("/tests/");
        if rel.starts_with("demo/") || test_file {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file");
        let n = chinese_literals(&code(&text));
        if n > 0 {
            found.insert(rel, n);
        }
    }
    let allowed: BTreeMap<&str, usize> = ALLOWED.iter().copied().collect();
    let over: Vec<String> = found
        .iter()
        .filter(|(f, &n)| n > allowed.get(f.as_str()).copied().unwrap_or(0))
        .map(|(f, n)| {
            format!(
                "{f}: {n} (allowed {})",
                allowed.get(f.as_str()).copied().unwrap_or(0)
            )
        })
        .collect();
    let list: Vec<String> = found
        .iter()
        .map(|(f, n)| format!("    (\"{f}\", {n}),"))
        .collect();
    assert!(
        over.is_empty(),
        "Chinese strings in code beyond the list (move words to server/lexicons/, \
         templates to prompts/):\n{}\n\nthe counts now:\n{}",
        over.join("\n"),
        list.join("\n")
    );
    // A count that went down is lowered here, so it cannot come back.
    let stale: Vec<String> = allowed
        .iter()
        .filter(|(f, &n)| found.get(**f).copied().unwrap_or(0) < n)
        .map(|(f, n)| {
            format!(
                "{f}: listed {n}, holds {}",
                found.get(*f).copied().unwrap_or(0)
            )
        })
        .collect();
    assert!(
        stale.is_empty(),
        "lower these counts:\n{}\n\nthe counts now:\n{}",
        stale.join("\n"),
        list.join("\n")
    );
}
