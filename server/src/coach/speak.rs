//! The coach's specialists through a model (each is a model call
//! with its own prompt, filled with the router's evaluation and the draft):
//! the follow-up (`prompts/coach/follow_up.txt`) asks about a gap, the
//! editor (`prompts/coach/editor.txt`) answers a question and may call the
//! lookup tool (`prompts/coach/lookup_tool.json`, run by the graph's tool
//! node). Code holds every line ([`Coach::accept`]): the voice limit, no
//! tool names or JSON, the posting rules on anything quoted back, no token,
//! no figure or name the draft, the data or the passages did not give, and
//! no action claimed that code did not perform. A refused line or any model
//! fault leaves the template to speak.

use serde_json::Value;

use super::knowledge::Passage;
use super::lexicon::CoachLexicon;
use super::state::{CoachState, Dimension, Evaluation};
use super::Coach;
use crate::llm::wire::WireMessage;
use crate::llm::{CompletionRequest, LlmClient};
use crate::text::templates::fill;

const FOLLOW_UP: &str = include_str!("../../../prompts/coach/follow_up.txt");
const EDITOR: &str = include_str!("../../../prompts/coach/editor.txt");
const LOOKUP_TOOL: &str = include_str!("../../../prompts/coach/lookup_tool.json");
/// The lookup tool's name, never spoken.
pub const LOOKUP: &str = "lookup_knowledge";

/// What the editor's model call came back with.
#[derive(Clone, Debug, PartialEq)]
pub enum EditorReply {
    Line(String),
    /// It called the lookup tool with this query.
    Lookup(String),
}

/// How a dimension is named to the model, with what to ask about.
fn dimension_words(d: Dimension) -> (&'static str, &'static str) {
    let hint = match d {
        Dimension::Academic => "指导、组会、论文",
        Dimension::Funding => "补助、设备",
        Dimension::Relationship => "沟通、态度",
        Dimension::Prospects => "毕业、去向、推荐信",
    };
    (d.name(), hint)
}

fn names(ds: &[Dimension]) -> String {
    if ds.is_empty() {
        return "无".to_string();
    }
    ds.iter()
        .map(|d| dimension_words(*d).0)
        .collect::<Vec<_>>()
        .join("、")
}

/// The router's evaluation as the specialists' prompts show it.
fn evaluation_vars(state: &CoachState, e: &Evaluation) -> Vec<(&'static str, String)> {
    let covered: Vec<Dimension> = Dimension::ALL
        .into_iter()
        .filter(|d| state.coverage(*d).mentioned)
        .collect();
    let missing: Vec<Dimension> = Dimension::ALL
        .into_iter()
        .filter(|d| !state.coverage(*d).mentioned)
        .collect();
    let yes_no = |b: bool| if b { "是" } else { "否" }.to_string();
    vec![
        ("advisor", state.advisor_name.clone()),
        ("dimensions", names(&e.dimensions)),
        ("covered", names(&covered)),
        ("missing", names(&missing)),
        ("specific", yes_no(e.specific)),
        (
            "violations",
            if e.violations.is_empty() {
                "无".to_string()
            } else {
                e.violations.join("、")
            },
        ),
        ("complete", yes_no(e.complete)),
        ("reason", e.reason.clone()),
        ("draft", {
            let d = state.text();
            if d.is_empty() {
                "（还没有）".to_string()
            } else {
                d
            }
        }),
    ]
}

fn filled(template: &str, vars: &[(&'static str, String)]) -> String {
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    fill(template, &vars)
}

/// Runs of 16 or more ASCII letters and digits: a token, a key, an id.
fn has_token(line: &str) -> bool {
    let mut run = 0;
    for c in line.chars() {
        run = if c.is_ascii_alphanumeric() {
            run + 1
        } else {
            0
        };
        if run >= 16 {
            return true;
        }
    }
    line.to_ascii_lowercase().contains("token")
}

impl Coach {
    /// The follow-up's question about `target`, from the model.
    pub async fn follow_up_line(
        &self,
        client: &LlmClient,
        state: &CoachState,
        e: &Evaluation,
        target: Dimension,
        said: &str,
    ) -> Result<String, String> {
        let (name, hint) = dimension_words(target);
        let mut vars = evaluation_vars(state, e);
        vars.push(("target", name.to_string()));
        vars.push(("hint", hint.to_string()));
        let request = CompletionRequest {
            messages: vec![
                WireMessage::new("system", filled(FOLLOW_UP, &vars)),
                WireMessage::new("user", said.trim()),
            ],
            ..CompletionRequest::default()
        };
        let completion = client
            .complete(&request, &mut |_| {})
            .await
            .map_err(|e| e.to_string())?;
        let line = self.accept(&completion.content, state, &[])?;
        // A follow-up asks: a statement is not one.
        if !line.contains(['？', '?', '吗', '呢']) {
            return Err(format!("not a question: {line}"));
        }
        Ok(line)
    }

    /// The editor's answer to `question`; with `passages` (the lookup's
    /// result) the tool is not offered again.
    pub(super) async fn editor_reply(
        &self,
        client: &LlmClient,
        state: &CoachState,
        e: &Evaluation,
        question: &str,
        passages: Option<&[Passage]>,
    ) -> Result<EditorReply, String> {
        let mut vars = evaluation_vars(state, e);
        let knowledge = match passages {
            Some([]) => "本站资料：没有查到相关内容。".to_string(),
            Some(found) => {
                let lines: Vec<String> = found.iter().map(|p| format!("- {}", p.text)).collect();
                format!("本站资料：\n{}", lines.join("\n"))
            }
            None => String::new(),
        };
        vars.push(("knowledge", knowledge));
        vars.push((
            "tool_hint",
            if passages.is_none() {
                "需要本站资料时先调用 lookup_knowledge 查询。".to_string()
            } else {
                String::new()
            },
        ));
        let tools: Option<Value> = passages
            .is_none()
            .then(|| serde_json::from_str(LOOKUP_TOOL).expect("lookup_tool.json is JSON"));
        let request = CompletionRequest {
            messages: vec![
                WireMessage::new("system", filled(EDITOR, &vars)),
                WireMessage::new("user", question.trim()),
            ],
            tool_choice: tools.as_ref().map(|_| serde_json::json!("auto")),
            tools,
            temperature: None,
        };
        let completion = client
            .complete(&request, &mut |_| {})
            .await
            .map_err(|e| e.to_string())?;
        if let Some(call) = completion.tool_calls.iter().find(|c| c.name == LOOKUP) {
            let query = serde_json::from_str::<Value>(&call.arguments)
                .ok()
                .and_then(|v| v.get("query").and_then(Value::as_str).map(str::to_string))
                .filter(|q| !q.trim().is_empty())
                .unwrap_or_else(|| question.to_string());
            return Ok(EditorReply::Lookup(query));
        }
        let grounding: Vec<&str> = passages
            .unwrap_or_default()
            .iter()
            .map(|p| p.text.as_str())
            .collect();
        let line = self.accept(&completion.content, state, &grounding)?;
        // "否", "可以": too short to be an answer the student can use.
        if crate::voice::len(&line) < 6 {
            return Err(format!("too short to answer: {line}"));
        }
        Ok(EditorReply::Line(line))
    }

    /// A model's line as the student may hear it, or why not: cleaned of
    /// anything internal, within the voice limit, breaking no posting rule,
    /// no token, no action claimed, no figure or advisor name that the draft,
    /// the advisor's own name or the `grounding` passages do not hold.
    pub fn accept(
        &self,
        line: &str,
        state: &CoachState,
        grounding: &[&str],
    ) -> Result<String, String> {
        let line = crate::voice::clean(line, &[LOOKUP.to_string()]);
        let line = line
            .trim()
            .trim_matches(|c| c == '"' || c == '“' || c == '”')
            .trim();
        if line.is_empty() {
            return Err("empty".into());
        }
        if crate::voice::len(line) > crate::voice::MAX_CHARS {
            return Err("over the voice limit".into());
        }
        if has_token(line) {
            return Err("a token".into());
        }
        let folded = crate::text::fold::fold(line);
        if let Some(claim) = CoachLexicon::first(&self.lex.claims, &folded) {
            return Err(format!("claims an action code did not perform: {claim}"));
        }
        if let Some(p) = self.knowledge.contradicted(line, "") {
            return Err(format!("contradicts the site's knowledge ({})", p.id));
        }
        let broken = self.rule_check(line, state);
        if let Some((code, _)) = broken.first() {
            return Err(format!("breaks the posting rule {code}"));
        }
        // Figures: only those the draft or the passages hold.
        let known = format!("{}{}", state.text(), grounding.concat());
        let mut digits = String::new();
        for c in line.chars().chain(std::iter::once(' ')) {
            if c.is_ascii_digit() {
                digits.push(c);
            } else if !digits.is_empty() {
                if !known.contains(&digits) {
                    return Err(format!("a figure from nowhere: {digits}"));
                }
                digits.clear();
            }
        }
        // Names: a title ("老师", "教授", "导师") right after a name that is
        // not this advisor's (surname) nor a word like 这位/你的.
        let surname = state.advisor_name.chars().next();
        for title in ["老师", "教授", "导师"] {
            for (at, _) in line.match_indices(title) {
                let before: Vec<char> = line[..at]
                    .chars()
                    .rev()
                    .take_while(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
                    .take(2)
                    .collect();
                let generic = before.is_empty()
                    || before
                        .iter()
                        .any(|c| "这那位个的你他她我们该此每".contains(*c));
                let theirs = surname.is_some_and(|s| before.contains(&s));
                let named: String = before.iter().rev().collect();
                if !generic && !theirs && !known.contains(&named) {
                    return Err(format!("names someone else: {named}{title}"));
                }
            }
        }
        Ok(line.to_string())
    }
}
