//! Server-sent events read from bytes cut anywhere: the one reader of every
//! event stream the project reads — the panel's turn
//! (`POST /api/v1/chat/stream`), a model server's streamed reply (the
//! server's `llm` client) and the tests of both. It lives here, beside the
//! protocol, because the browser and the server both need it and neither
//! owns it.
//!
//! It follows the `EventSource` rules the streams rely on: lines end in
//! `\n` (a `\r` before it is dropped), a blank line ends an event, a line
//! starting with `:` is a comment, one space after a field's colon is
//! optional, `data` lines join with `\n`, an event without `data` is no
//! event, and an unnamed event is a `message`. `id` and `retry` mean
//! nothing to one turn and are ignored.
//!
//! The bytes may be anyone's, so each is scanned once however the stream is
//! cut (a piece of many lines, or a line in many pieces, stays linear), and
//! a line is decoded only when whole: `\n` never occurs inside a UTF-8
//! sequence, so a Chinese character cut between two pieces is never
//! replaced; truly invalid bytes become U+FFFD, as a browser makes them.

/// One complete event: its `event:` name (`message` when it had none) and
/// its `data:` lines joined by `\n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    pub name: String,
    pub data: String,
}

/// Bytes in, whole events out (see the module doc).
#[derive(Debug, Default)]
pub struct SseReader {
    /// Bytes not yet forming a whole line.
    pending: Vec<u8>,
    name: Option<String>,
    data: Option<String>,
}

impl SseReader {
    /// The events completed by `bytes`, in order.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        // The pending bytes hold no line end: only the new ones are searched.
        let mut from = self.pending.len();
        self.pending.extend_from_slice(bytes);
        let mut start = 0;
        while let Some(at) = self.pending[from..].iter().position(|&b| b == b'\n') {
            let end = from + at;
            let line = String::from_utf8_lossy(&self.pending[start..end]).into_owned();
            out.extend(self.line(line.strip_suffix('\r').unwrap_or(&line)));
            start = end + 1;
            from = start;
        }
        // One move of what is left, however many lines there were.
        self.pending.drain(..start);
        out
    }

    /// The stream ended: a last line without its `\n`, and an event not
    /// closed by a blank line, still count. (A reader that must drop an
    /// unfinished event simply does not call this.)
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            let line = String::from_utf8_lossy(&rest).trim_end().to_string();
            out.extend(self.line(&line));
        }
        out.extend(self.line(""));
        out
    }

    fn line(&mut self, line: &str) -> Option<SseEvent> {
        if line.is_empty() {
            let name = self.name.take();
            return self.data.take().map(|data| SseEvent {
                name: name.unwrap_or_else(|| "message".to_string()),
                data,
            });
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => self.name = Some(value.to_string()),
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            },
            _ => {}
        }
        None
    }
}

/// Every event of a whole body (a test's, or a stream read to its end).
pub fn events(body: &[u8]) -> Vec<SseEvent> {
    let mut reader = SseReader::default();
    let mut out = reader.push(body);
    out.extend(reader.finish());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(name: &str, data: &str) -> SseEvent {
        SseEvent {
            name: name.into(),
            data: data.into(),
        }
    }

    /// The stream cut at every byte, then at every pair of places: the
    /// same events come out.
    #[test]
    fn events_cut_anywhere_come_out_whole() {
        let body = "event: voice\ndata: {\"text\":\"北京大学\"}\n\n: keep-alive\n\nevent: reply\r\ndata: a\r\ndata: b\r\n\r\n";
        let whole = events(body.as_bytes());
        assert_eq!(
            whole,
            vec![
                event("voice", "{\"text\":\"北京大学\"}"),
                event("reply", "a\nb")
            ]
        );
        let bytes = body.as_bytes();
        for i in 0..bytes.len() {
            for j in i..bytes.len() {
                let mut r = SseReader::default();
                let mut got = r.push(&bytes[..i]);
                got.extend(r.push(&bytes[i..j]));
                got.extend(r.push(&bytes[j..]));
                got.extend(r.finish());
                assert_eq!(got, whole, "cut at {i} and {j}");
            }
        }
    }

    #[test]
    fn unnamed_events_are_messages_and_events_without_data_are_none() {
        let got = events(b"data:x\n\nevent: ping\nid: 3\nretry: 10\n\ndata\n\n");
        assert_eq!(got, vec![event("message", "x"), event("message", "")]);
    }

    #[test]
    fn an_unterminated_last_event_counts_only_on_finish() {
        let mut r = SseReader::default();
        assert!(r.push(b"data: [DONE]").is_empty());
        assert_eq!(r.finish(), vec![event("message", "[DONE]")]);
    }

    #[test]
    fn invalid_bytes_become_replacement_characters_inside_their_line() {
        let got = events(b"data: a\xffb\n\n");
        assert_eq!(got, vec![event("message", "a\u{fffd}b")]);
    }
}
