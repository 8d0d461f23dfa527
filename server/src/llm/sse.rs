//! Reading a streamed reply: bytes arrive in arbitrary pieces (a line, an
//! event, or a Chinese character may be split between two), [`SseDecoder`]
//! turns them into whole `data:` payloads through the project's one event
//! reader (`app::sse`, linear however the stream is cut), and
//! [`ToolCallAssembler`] joins the argument fragments of each tool call by
//! its `index`.
//!
//! The bytes are the model server's, so they may be anything: an `index` is
//! a number the server chose, so it is bounded ([`MAX_CALLS`]) before
//! anything is allocated for it. The total is bounded by the client
//! (`client::MAX_REPLY_BYTES`).

use super::wire::{arguments_text, ToolCallWire};

/// Server-sent events → the `data` of each event, in order: the project's
/// one reader ([`app::sse`]), of which a model's stream needs only the data.
#[derive(Default)]
pub struct SseDecoder(app::sse::SseReader);

impl SseDecoder {
    /// Feeds bytes; returns the payloads of the events they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<String> {
        self.0.push(bytes).into_iter().map(|e| e.data).collect()
    }

    /// The stream ended: an event not closed by a blank line still counts.
    pub fn finish(&mut self) -> Vec<String> {
        self.0.finish().into_iter().map(|e| e.data).collect()
    }
}

/// The most tool calls one reply may carry: a turn calls two or three; an
/// `index` past this is garbage, not a call to make room for.
pub const MAX_CALLS: usize = 32;

/// One tool call as the model finally sent it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AssembledCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

/// Tool-call deltas → whole calls. A call's first delta has its id and name,
/// the following ones carry more of its `arguments` text.
#[derive(Default)]
pub struct ToolCallAssembler {
    calls: Vec<AssembledCall>,
}

impl ToolCallAssembler {
    /// Adds one chunk's deltas; `Err` when one names a call past
    /// [`MAX_CALLS`].
    pub fn push(&mut self, deltas: &[ToolCallWire]) -> Result<(), &'static str> {
        for (position, delta) in deltas.iter().enumerate() {
            // Servers that omit `index` send each call whole, in order.
            let index = delta.index.unwrap_or(self.calls.len().max(position));
            if index >= MAX_CALLS {
                return Err("a tool call's index is past the most a reply may carry");
            }
            while self.calls.len() <= index {
                self.calls.push(AssembledCall::default());
            }
            let call = &mut self.calls[index];
            if let Some(id) = delta.id.as_deref().filter(|s| !s.is_empty()) {
                call.id = id.to_string();
            }
            if let Some(f) = &delta.function {
                if let Some(name) = f.name.as_deref().filter(|s| !s.is_empty()) {
                    call.name.push_str(name);
                }
                call.arguments.push_str(&arguments_text(&f.arguments));
            }
        }
        Ok(())
    }

    pub fn finish(self) -> Vec<AssembledCall> {
        self.calls
            .into_iter()
            .filter(|c| !c.name.is_empty() || !c.arguments.is_empty())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::wire::ReplyBody;

    #[test]
    fn events_split_anywhere_come_out_whole() {
        let stream = "data: {\"a\":\"北京大学\"}\n\n: keep-alive\n\nevent: x\ndata: second\r\n\r\ndata: [DONE]\n\n";
        let bytes = stream.as_bytes();
        // Every split point, including inside the multi-byte characters.
        for cut in 0..bytes.len() {
            let mut d = SseDecoder::default();
            let mut out = d.push(&bytes[..cut]);
            out.extend(d.push(&bytes[cut..]));
            out.extend(d.finish());
            assert_eq!(
                out,
                vec!["{\"a\":\"北京大学\"}", "second", "[DONE]"],
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn multi_line_data_and_an_unterminated_last_event() {
        let mut d = SseDecoder::default();
        let mut out = d.push(b"data:one\ndata: two\n\ndata: tail");
        out.extend(d.finish());
        assert_eq!(out, vec!["one\ntwo", "tail"]);
    }

    fn deltas(json: &str) -> Vec<ToolCallWire> {
        let body: ReplyBody = serde_json::from_str(json).unwrap();
        body.choices[0].delta.clone().unwrap().tool_calls.unwrap()
    }

    #[test]
    fn a_tool_call_split_across_chunks_is_joined() {
        let mut a = ToolCallAssembler::default();
        a.push(&deltas(r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"update_form","arguments":""}}]}}]}"#)).unwrap();
        a.push(&deltas(r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"school\":\"北京"}}]}}]}"#)).unwrap();
        a.push(&deltas(r#"{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"c2","function":{"name":"update_ranking","arguments":"{}"}}]}}]}"#)).unwrap();
        a.push(&deltas(r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"大学\"}"}}]}}]}"#)).unwrap();
        let calls = a.finish();
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].name, "update_form");
        assert_eq!(calls[0].arguments, "{\"school\":\"北京大学\"}");
        assert_eq!(calls[1].name, "update_ranking");
    }

    #[test]
    fn calls_without_index_are_taken_in_order() {
        let mut a = ToolCallAssembler::default();
        a.push(&deltas(r#"{"choices":[{"delta":{"tool_calls":[{"function":{"name":"a","arguments":{"x":1}}},{"function":{"name":"b","arguments":"{}"}}]}}]}"#)).unwrap();
        let calls = a.finish();
        assert_eq!(
            calls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(calls[0].arguments, "{\"x\":1}");
    }
}
