//! One turn through `POST /api/v1/chat/stream`: the reply's first sentences
//! arrive (and are spoken) while the agent is still working on the rest.
//!
//! The body is server-sent events — `voice` events with the next sentences of
//! the spoken reply, then one `reply` event with the whole `ChatResponse`.
//! `EventSource` cannot POST a JSON body, so the panel fetches the stream and
//! reads it itself. The reading is split in two: the events come from the
//! project's one reader ([`crate::sse`]) and [`TurnEvent`] reads them, plain
//! Rust tested on the host; only [`chat_stream`] touches the browser
//! (`fetch` and the body's reader). It
//! compiles on the server too, like the rest of the panel, but only ever
//! runs in the browser.

use js_sys::Uint8Array;
use leptos::logging::warn;
use serde::Deserialize;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    Headers, ReadableStreamDefaultReader, ReadableStreamReadResult, Request, RequestInit, Response,
};

use crate::error::UNKNOWN_SESSION_MESSAGE;
use crate::protocol::{ChatRequest, ChatResponse, ErrorEnvelope, ErrorInfo};
use crate::sse::{SseEvent, SseReader};

/// The streaming twin of `POST /api/v1/chat`: same request, same final reply.
pub const STREAM_PATH: &str = "/api/v1/chat/stream";

/// The same turn answered at once, as JSON (the panel's script before the
/// WASM, `early.js`).
pub const CHAT_PATH: &str = "/api/v1/chat";

/// `event: voice`: the next sentences of the spoken reply.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct VoicePiece {
    pub text: String,
    /// The agent started over: `text` is the whole reply so far and replaces
    /// what was said and shown.
    #[serde(default)]
    pub restart: bool,
    /// The persona speaking (`casual` / `analysis`); absent from older servers.
    #[serde(default)]
    pub agent: Option<String>,
}

/// `event: switch`: the persona changes this turn; the notice comes before
/// anything the new persona says, so the student hears of the switch first.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct SwitchNotice {
    pub agent_type: String,
    pub message: String,
}

/// What one turn's stream says, event by event.
#[derive(Clone, Debug, PartialEq)]
pub enum TurnEvent {
    Switch(SwitchNotice),
    Voice(VoicePiece),
    /// The whole turn, last. Boxed: it is far larger than a voice piece.
    Reply(Box<ChatResponse>),
}

impl TurnEvent {
    /// Reads a `switch`, `voice` or `reply` event; `None` for any other name, so the
    /// server may add events (progress, keep-alives) without breaking old
    /// pages.
    pub fn from_sse(event: &SseEvent) -> Option<Result<TurnEvent, serde_json::Error>> {
        match event.name.as_str() {
            "switch" => Some(serde_json::from_str(&event.data).map(TurnEvent::Switch)),
            "voice" => Some(serde_json::from_str(&event.data).map(TurnEvent::Voice)),
            "reply" => Some(
                serde_json::from_str(&event.data).map(|reply| TurnEvent::Reply(Box::new(reply))),
            ),
            _ => None,
        }
    }
}

/// Why a turn got no reply. What was already shown and spoken stays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamError {
    /// The server refused the request with its error envelope (bad input, an
    /// unknown session): nothing was streamed.
    Rejected(ErrorInfo),
    /// No connection, the connection broke, or the stream ended before its
    /// `reply`.
    Network(String),
    /// The server answered something this page cannot read (a proxy's error
    /// page, a malformed reply).
    Unreadable(String),
}

impl StreamError {
    /// The error line under the messages, in the student's language.
    pub fn student_text(&self) -> String {
        match self {
            StreamError::Rejected(info) if !info.message.trim().is_empty() => {
                format!("发送失败：{}", info.message)
            }
            StreamError::Network(_) => "网络连接失败，请检查网络后再试。".to_string(),
            _ => "助手暂时无法回答，请稍后再试。".to_string(),
        }
    }

    /// The server no longer knows the session (expired, or a new database):
    /// the next message must open a fresh one.
    pub fn is_unknown_session(&self) -> bool {
        matches!(self, StreamError::Rejected(info)
            if info.code == "unknown_session" || info.message == UNKNOWN_SESSION_MESSAGE)
    }
}

/// Sends one turn and reads its stream: `on_switch` gets a `switch` event and
/// `on_voice` every `voice` event as they arrive; the result is the final
/// `reply`. Only call it in the browser.
pub async fn chat_stream(
    request: &ChatRequest,
    mut on_switch: impl FnMut(SwitchNotice),
    mut on_voice: impl FnMut(VoicePiece),
) -> Result<ChatResponse, StreamError> {
    let response = post(request).await?;
    if !response.ok() {
        return Err(rejection(&response).await);
    }
    let reader: ReadableStreamDefaultReader = response
        .body()
        .ok_or_else(|| StreamError::Network("回复没有正文".to_string()))?
        .get_reader()
        .unchecked_into();
    // An event the stream never finished is dropped: `finish` is not called.
    let mut events = SseReader::default();
    loop {
        let read: ReadableStreamReadResult = JsFuture::from(reader.read())
            .await
            .map_err(|e| StreamError::Network(format!("读取回复失败：{e:?}")))?
            .unchecked_into();
        if read.get_done().unwrap_or(false) {
            return Err(StreamError::Network("回复在 reply 之前结束".to_string()));
        }
        let bytes = Uint8Array::new(&read.get_value()).to_vec();
        for event in events.push(&bytes) {
            match TurnEvent::from_sse(&event) {
                Some(Ok(TurnEvent::Switch(notice))) => on_switch(notice),
                Some(Ok(TurnEvent::Voice(piece))) => on_voice(piece),
                // The server ends the stream after `reply`; nothing is left to read.
                Some(Ok(TurnEvent::Reply(reply))) => return Ok(*reply),
                // A garbled sentence is only lost from the voice: the reply
                // still carries the whole text.
                Some(Err(e)) if event.name == "voice" || event.name == "switch" => {
                    warn!("无法解析语音片段：{e}")
                }
                Some(Err(e)) => return Err(StreamError::Unreadable(format!("无法解析回复：{e}"))),
                None => {}
            }
        }
    }
}

/// `fetch` of the stream with the request as JSON; the response is in once its
/// headers are, long before the body.
async fn post(request: &ChatRequest) -> Result<Response, StreamError> {
    let body = serde_json::to_string(request)
        .map_err(|e| StreamError::Unreadable(format!("无法编码请求：{e}")))?;
    let js = |what: &str, e: JsValue| StreamError::Network(format!("{what}：{e:?}"));
    let headers = Headers::new().map_err(|e| js("无法创建请求头", e))?;
    for (name, value) in [
        ("Content-Type", "application/json"),
        ("Accept", "text/event-stream"),
    ] {
        headers
            .set(name, value)
            .map_err(|e| js("无法设置请求头", e))?;
    }
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(headers.as_ref());
    init.set_body(&JsValue::from_str(&body));
    let request =
        Request::new_with_str_and_init(STREAM_PATH, &init).map_err(|e| js("无法创建请求", e))?;
    let window =
        web_sys::window().ok_or_else(|| StreamError::Network("没有 window".to_string()))?;
    JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(|e| js("请求失败", e))?
        .dyn_into::<Response>()
        .map_err(|e| js("fetch 没有返回 Response", e))
}

/// A refusal: the server's error envelope when the body is one.
async fn rejection(response: &Response) -> StreamError {
    let status = response.status();
    let text = match response.text() {
        Ok(promise) => JsFuture::from(promise)
            .await
            .ok()
            .and_then(|t| t.as_string()),
        Err(_) => None,
    };
    match text.and_then(|t| serde_json::from_str::<ErrorEnvelope>(&t).ok()) {
        Some(envelope) => StreamError::Rejected(envelope.error),
        None => StreamError::Unreadable(format!("HTTP {status}，且没有错误说明")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(name: &str, data: &str) -> SseEvent {
        SseEvent {
            name: name.to_string(),
            data: data.to_string(),
        }
    }

    /// Feeds `chunks` one after another and collects every event, as the
    /// panel reads them (an unfinished last event dropped).
    fn parse(chunks: &[&str]) -> Vec<SseEvent> {
        let mut reader = SseReader::default();
        chunks
            .iter()
            .flat_map(|c| reader.push(c.as_bytes()))
            .collect()
    }

    const REPLY: &str = r#"{"session_id":"s1","intent":{"intent":"unknown","confidence":0.5,"reasoning":"r"},"agent":"casual","voice_response":"好的，北京大学计算机系。正在为你筛选导师…","tool_calls":[],"form":{"school":"北京大学","major":null,"research_direction":null},"form_status":{"is_complete":false,"missing_required":["major"],"filled_optional":[]}}"#;

    #[test]
    fn one_event_in_one_chunk() {
        assert_eq!(
            parse(&["event: voice\ndata: {\"text\": \"好的。\"}\n\n"]),
            vec![event("voice", "{\"text\": \"好的。\"}")]
        );
    }

    #[test]
    fn an_event_split_across_chunks_arrives_once_complete() {
        let mut reader = SseReader::default();
        assert!(reader.push(b"event: voice\nda").is_empty());
        assert!(reader.push(b"ta: {\"text\":").is_empty());
        assert!(reader.push(" \"好的。\"}\n".as_bytes()).is_empty());
        assert_eq!(
            reader.push(b"\n"),
            vec![event("voice", "{\"text\": \"好的。\"}")]
        );
    }

    #[test]
    fn an_event_fed_one_character_at_a_time_still_parses() {
        let stream = "event: voice\ndata: {\"text\": \"好的。\"}\n\nevent: reply\ndata: {}\n\n";
        let chars: Vec<String> = stream.chars().map(String::from).collect();
        let chunks: Vec<&str> = chars.iter().map(String::as_str).collect();
        assert_eq!(
            parse(&chunks),
            vec![
                event("voice", "{\"text\": \"好的。\"}"),
                event("reply", "{}")
            ]
        );
    }

    #[test]
    fn crlf_line_ends_are_read_like_lf() {
        assert_eq!(
            parse(&["event: voice\r\ndata: {}\r", "\n\r\n"]),
            vec![event("voice", "{}")]
        );
    }

    #[test]
    fn several_events_in_one_chunk_come_out_in_order() {
        assert_eq!(
            parse(&["event: voice\ndata: 1\n\nevent: voice\ndata: 2\n\nevent: reply\ndata: 3\n\nevent: vo"]),
            vec![event("voice", "1"), event("voice", "2"), event("reply", "3")]
        );
    }

    #[test]
    fn the_space_after_the_colon_is_optional() {
        assert_eq!(
            parse(&["event:voice\ndata:{}\n\n", "event: voice\ndata:  x\n\n"]),
            vec![event("voice", "{}"), event("voice", " x")]
        );
    }

    #[test]
    fn data_lines_join_with_newlines_and_unnamed_events_are_messages() {
        assert_eq!(
            parse(&["data: a\ndata: b\n\n"]),
            vec![event("message", "a\nb")]
        );
    }

    #[test]
    fn comments_ids_and_events_without_data_are_no_events() {
        assert_eq!(
            parse(&[": keep-alive\n\nid: 7\nretry: 100\n\nevent: voice\n\n"]),
            vec![]
        );
        // The name of an event without data does not leak into the next one.
        assert_eq!(
            parse(&["event: ping\n\ndata: x\n\n"]),
            vec![event("message", "x")]
        );
    }

    #[test]
    fn an_unfinished_event_at_the_end_is_not_emitted() {
        assert_eq!(parse(&["event: reply\ndata: {}\n"]), vec![]);
    }

    #[test]
    fn voice_and_reply_events_are_read_and_unknown_events_ignored() {
        let voice = TurnEvent::from_sse(&event(
            "voice",
            r#"{"text": "好的。", "restart": true, "agent": "casual"}"#,
        ));
        assert_eq!(
            voice.map(Result::unwrap),
            Some(TurnEvent::Voice(VoicePiece {
                text: "好的。".to_string(),
                restart: true,
                agent: Some("casual".to_string()),
            }))
        );
        let plain = TurnEvent::from_sse(&event("voice", r#"{"text": "好"}"#));
        assert!(matches!(
            plain,
            Some(Ok(TurnEvent::Voice(VoicePiece { restart: false, .. })))
        ));
        let Some(Ok(TurnEvent::Reply(reply))) = TurnEvent::from_sse(&event("reply", REPLY)) else {
            panic!("reply not read");
        };
        assert_eq!(reply.session_id, "s1");
        assert!(TurnEvent::from_sse(&event("progress", "{}")).is_none());
        assert!(TurnEvent::from_sse(&event("message", REPLY)).is_none());
        assert!(matches!(
            TurnEvent::from_sse(&event("reply", "{")),
            Some(Err(_))
        ));
    }

    #[test]
    fn every_split_of_a_stream_reads_the_same() {
        let stream = format!("event: voice\r\ndata: {{\"text\": \"好的，北京大学。\"}}\r\n\r\nevent: reply\ndata:{REPLY}\n\n");
        let bytes = stream.as_bytes();
        for cut in 0..=bytes.len() {
            let mut reader = SseReader::default();
            let mut events = reader.push(&bytes[..cut]);
            events.extend(reader.push(&bytes[cut..]));
            assert_eq!(
                events,
                vec![
                    event("voice", "{\"text\": \"好的，北京大学。\"}"),
                    event("reply", REPLY)
                ],
                "cut at byte {cut}"
            );
        }
    }

    #[test]
    fn failures_read_as_chinese() {
        let info = |code: &str, message: &str| ErrorInfo {
            code: code.to_string(),
            message: message.to_string(),
            field: None,
        };
        let rejected = StreamError::Rejected(info("empty_message", "请输入内容"));
        assert_eq!(rejected.student_text(), "发送失败：请输入内容");
        assert!(!rejected.is_unknown_session());
        assert_eq!(
            StreamError::Network("cut".into()).student_text(),
            "网络连接失败，请检查网络后再试。"
        );
        assert_eq!(
            StreamError::Unreadable("502".into()).student_text(),
            "助手暂时无法回答，请稍后再试。"
        );
        assert!(
            StreamError::Rejected(info("not_found", UNKNOWN_SESSION_MESSAGE)).is_unknown_session()
        );
        assert!(
            StreamError::Rejected(info("unknown_session", "会话不存在或已过期。"))
                .is_unknown_session()
        );
    }

    #[test]
    fn a_switch_event_is_read_before_the_voice_it_announces() {
        let events = parse(&[
            "event: switch\ndata: {\"agent_type\": \"casual\", \"message\": \"[系统] 已从分析模式切换到闲聊模式\"}\n\n",
            "event: voice\ndata: {\"text\": \"好呀。\", \"agent\": \"casual\"}\n\n",
        ]);
        let read: Vec<TurnEvent> = events
            .iter()
            .filter_map(TurnEvent::from_sse)
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            read[0],
            TurnEvent::Switch(SwitchNotice {
                agent_type: "casual".into(),
                message: "[系统] 已从分析模式切换到闲聊模式".into(),
            })
        );
        assert!(matches!(read[1], TurnEvent::Voice(_)));
    }
}
