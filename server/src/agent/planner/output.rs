//! Reading what a model said into a reply and tool calls. Two shapes are
//! accepted, whatever mode was asked for: native function calls with the
//! text as the spoken reply, or a JSON object
//! (`{"voice_response", "tool_calls"}`), found inside code fences or prose
//! and tolerant of text after it. While a reply streams, [`VoiceExtractor`]
//! pulls the spoken part out of either shape as it grows, so speech can start
//! before the JSON is complete.

use serde_json::{Map, Value};

use app::protocol::ToolCall;

use crate::llm::json::json_object;
use crate::llm::{Completion, LlmError};

/// A model's proposal, before validation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelOutput {
    pub voice: String,
    pub calls: Vec<ToolCall>,
}

/// The completion as a proposal; malformed arguments and empty replies are errors.
pub fn read(completion: &Completion) -> Result<ModelOutput, LlmError> {
    let mut calls = Vec::with_capacity(completion.tool_calls.len());
    for raw in &completion.tool_calls {
        let name = raw.name.trim();
        if name.is_empty() {
            return Err(LlmError::BadOutput("a tool call without a name".into()));
        }
        calls.push(ToolCall {
            tool: name.to_string(),
            params: arguments(&raw.arguments).ok_or_else(|| {
                LlmError::BadOutput(format!("arguments of {name} are not a JSON object"))
            })?,
            result: None,
        });
    }
    let content = completion.content.trim();
    let mut voice = content.to_string();
    if looks_like_json(content) {
        let object = json_object(content)
            .ok_or_else(|| LlmError::BadOutput("the reply is not a JSON object".into()))?;
        voice = object
            .get("voice_response")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim()
            .to_string();
        if let Some(list) = object.get("tool_calls") {
            let list = list
                .as_array()
                .ok_or_else(|| LlmError::BadOutput("tool_calls is not a list".into()))?;
            for item in list {
                calls.push(json_call(item)?);
            }
        }
    } else if let Some(object) = json_object(content) {
        // Prose with the tool call written out as JSON beside it (small
        // models do this instead of calling the function): the calls are
        // read from the JSON, the prose is what is said.
        let listed = object.get("tool_calls").and_then(Value::as_array);
        let items: Vec<Value> = match listed {
            Some(list) => list.clone(),
            None => vec![Value::Object(object.clone())],
        };
        for item in &items {
            match json_call(item) {
                Ok(call) => calls.push(call),
                Err(e) => tracing::debug!(error = %e, "JSON beside the prose is no tool call"),
            }
        }
        voice = object
            .get("voice_response")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
            .unwrap_or_else(|| prose(content));
    }
    if voice.is_empty() && calls.is_empty() {
        return Err(LlmError::Empty);
    }
    Ok(ModelOutput { voice, calls })
}

/// `content` without its code fences and JSON objects.
fn prose(content: &str) -> String {
    crate::voice::clean(content, &[])
}

/// `{"tool": …, "params": {…}}`, or the function-calling spelling
/// `{"name": …, "arguments": "…"}` some models use inside JSON.
fn json_call(item: &Value) -> Result<ToolCall, LlmError> {
    let name = item
        .get("tool")
        .or_else(|| item.get("name"))
        .or_else(|| item.get("function").and_then(|f| f.get("name")))
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| LlmError::BadOutput("a tool call without a name".into()))?;
    let params = match item
        .get("params")
        .or_else(|| item.get("arguments"))
        .or_else(|| item.get("parameters"))
        .or_else(|| item.get("function").and_then(|f| f.get("arguments")))
    {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(Value::String(text)) => arguments(text).ok_or_else(|| {
            LlmError::BadOutput(format!("arguments of {name} are not a JSON object"))
        })?,
        Some(v @ Value::Object(_)) => v.clone(),
        Some(_) => {
            return Err(LlmError::BadOutput(format!(
                "arguments of {name} are not a JSON object"
            )))
        }
    };
    Ok(ToolCall {
        tool: name.to_string(),
        params,
        result: None,
    })
}

/// Arguments text → an object; empty means no arguments.
fn arguments(text: &str) -> Option<Value> {
    let text = text.trim();
    if text.is_empty() {
        return Some(Value::Object(Map::new()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Some(v),
        _ => None,
    }
}

/// The reply is meant as JSON: it opens with an object or a code fence.
fn looks_like_json(text: &str) -> bool {
    text.starts_with('{') || text.starts_with("```")
}

/// Pulls the spoken text out of a reply while it streams: plain text passes
/// through; in a JSON reply, the characters of the `voice_response` string
/// come out as they arrive, escapes decoded.
#[derive(Debug, Default)]
pub struct VoiceExtractor {
    buf: String,
    /// Byte position in `buf` up to which input is consumed.
    pos: usize,
    state: Extract,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Extract {
    /// Nothing but whitespace seen yet.
    #[default]
    Undecided,
    Plain,
    /// JSON: looking for `"voice_response": "`.
    Seek,
    /// Inside the string value.
    Value,
    /// The value is complete; the rest is not spoken.
    Done,
}

const VOICE_KEY: &str = "\"voice_response\"";

impl VoiceExtractor {
    /// More of the reply; returns the spoken text it completed.
    pub fn push(&mut self, delta: &str) -> String {
        self.buf.push_str(delta);
        let mut out = String::new();
        loop {
            match self.state {
                Extract::Undecided => {
                    let rest = self.buf[self.pos..].trim_start();
                    match rest.chars().next() {
                        None => return out,
                        Some('{') | Some('`') => self.state = Extract::Seek,
                        Some(_) => self.state = Extract::Plain,
                    }
                }
                Extract::Plain => {
                    out.push_str(&self.buf[self.pos..]);
                    self.pos = self.buf.len();
                    return out;
                }
                Extract::Seek => {
                    let Some(found) = self.buf[self.pos..].find(VOICE_KEY) else {
                        return out;
                    };
                    let after = self.pos + found + VOICE_KEY.len();
                    let rest = &self.buf[after..];
                    let trimmed = rest.trim_start();
                    let Some(colon_rest) = trimmed.strip_prefix(':') else {
                        if trimmed.is_empty() {
                            return out;
                        }
                        // Not a key (the name inside some text): look further.
                        self.pos = after;
                        continue;
                    };
                    let value = colon_rest.trim_start();
                    match value.chars().next() {
                        None => return out,
                        Some('"') => {
                            self.pos = self.buf.len() - value.len() + 1;
                            self.state = Extract::Value;
                        }
                        Some(_) => {
                            self.state = Extract::Done;
                            return out;
                        }
                    }
                }
                Extract::Value => {
                    let mut chars = self.buf[self.pos..].char_indices().peekable();
                    let mut consumed = 0;
                    while let Some((i, c)) = chars.next() {
                        if c == '"' {
                            self.state = Extract::Done;
                            consumed = i + 1;
                            break;
                        }
                        if c != '\\' {
                            out.push(c);
                            consumed = i + c.len_utf8();
                            continue;
                        }
                        // An escape: wait until it is complete.
                        let Some(&(_, e)) = chars.peek() else { break };
                        let decoded = match e {
                            'n' | 'r' | 't' => Some(' '),
                            'u' => {
                                let hex = self.buf[self.pos + i + 2..].get(..4);
                                match hex {
                                    Some(h) if h.chars().all(|c| c.is_ascii_hexdigit()) => {
                                        let ch = u32::from_str_radix(h, 16)
                                            .ok()
                                            .and_then(char::from_u32)
                                            .unwrap_or(' ');
                                        out.push(ch);
                                        consumed = i + 6;
                                        for _ in 0..5 {
                                            chars.next();
                                        }
                                        continue;
                                    }
                                    Some(_) => Some(' '),
                                    None => break,
                                }
                            }
                            other => Some(other),
                        };
                        if let Some(d) = decoded {
                            out.push(d);
                        }
                        chars.next();
                        consumed = i + 1 + e.len_utf8();
                    }
                    self.pos += consumed;
                    if self.state == Extract::Value {
                        return out;
                    }
                }
                Extract::Done => return out,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::RawToolCall;

    fn completion(content: &str, calls: &[(&str, &str)]) -> Completion {
        Completion {
            content: content.into(),
            tool_calls: calls
                .iter()
                .map(|(n, a)| RawToolCall {
                    name: n.to_string(),
                    arguments: a.to_string(),
                })
                .collect(),
            usage: None,
            attempts: 1,
        }
    }

    #[test]
    fn native_calls_with_text_as_the_voice() {
        let out = read(&completion(
            "好的。",
            &[
                ("update_form", r#"{"school":"北京大学"}"#),
                ("update_ranking", ""),
            ],
        ))
        .unwrap();
        assert_eq!(out.voice, "好的。");
        assert_eq!(out.calls[0].params["school"], "北京大学");
        assert_eq!(out.calls[1].params, serde_json::json!({}));
    }

    #[test]
    fn a_tool_call_written_as_json_beside_prose_is_a_call_and_the_prose_is_said() {
        let text = "好的，我来帮你筛选北京大学计算机系的导师。\n```json\n{\"name\": \"update_form\", \"arguments\": {\"school\": \"北京大学\", \"major\": \"计算机\"}}\n```";
        let out = read(&completion(text, &[])).unwrap();
        assert_eq!(out.voice, "好的，我来帮你筛选北京大学计算机系的导师。");
        assert_eq!(out.calls.len(), 1);
        assert_eq!(out.calls[0].tool, "update_form");
        assert_eq!(out.calls[0].params["major"], "计算机");
        // JSON that is no call: only the prose is said.
        let out = read(&completion("好的。{\"foo\": 1}", &[])).unwrap();
        assert_eq!(out.voice, "好的。");
        assert!(out.calls.is_empty());
    }

    #[test]
    fn the_json_object_is_found_in_fences_and_before_trailing_text() {
        for text in [
            r#"{"voice_response": "好的，北京大学。", "tool_calls": [{"tool": "update_form", "params": {"school": "北京大学"}}]}"#,
            "```json\n{\"voice_response\": \"好的，北京大学。\", \"tool_calls\": [{\"tool\": \"update_form\", \"params\": {\"school\": \"北京大学\"}}]}\n```",
            "{\"voice_response\": \"好的，北京大学。\", \"tool_calls\": [{\"name\": \"update_form\", \"arguments\": \"{\\\"school\\\": \\\"北京大学\\\"}\"}]}\n以上是我的回答 {不是 JSON}",
        ] {
            let out = read(&completion(text, &[])).unwrap();
            assert_eq!(out.voice, "好的，北京大学。", "{text}");
            assert_eq!(out.calls.len(), 1, "{text}");
            assert_eq!(out.calls[0].tool, "update_form");
            assert_eq!(out.calls[0].params["school"], "北京大学");
        }
    }

    #[test]
    fn malformed_arguments_and_empty_replies_are_errors() {
        assert!(matches!(
            read(&completion("", &[("update_form", r#"{"school": "北京"#)])),
            Err(LlmError::BadOutput(_))
        ));
        assert!(matches!(
            read(&completion("", &[("update_form", "[1]")])),
            Err(LlmError::BadOutput(_))
        ));
        assert!(matches!(read(&completion("  ", &[])), Err(LlmError::Empty)));
        assert!(matches!(
            read(&completion("{\"voice_response\": ", &[])),
            Err(LlmError::BadOutput(_))
        ));
        assert!(matches!(
            read(&completion(
                "{\"voice_response\": \"\", \"tool_calls\": []}",
                &[]
            )),
            Err(LlmError::Empty)
        ));
    }

    fn extract_all(text: &str, size: usize) -> String {
        let chars: Vec<char> = text.chars().collect();
        let mut x = VoiceExtractor::default();
        chars
            .chunks(size)
            .map(|c| x.push(&c.iter().collect::<String>()))
            .collect()
    }

    #[test]
    fn the_voice_streams_out_of_json_in_any_cut() {
        let json = r#"```json
{"tool_calls": [], "voice_response": "好的，\"北大\"\n计算机\u7cfb。", "x": "不读"}
```"#;
        for size in 1..8 {
            assert_eq!(
                extract_all(json, size),
                "好的，\"北大\" 计算机系。",
                "size {size}"
            );
        }
        assert_eq!(extract_all("  好的，马上。", 2), "  好的，马上。");
        assert_eq!(extract_all(r#"{"voice_response": null}"#, 3), "");
    }
}
