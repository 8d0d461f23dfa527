//! Speech before the turn is over (`POST /api/v1/chat/stream`). A planner
//! that streams pushes the reply's text into a [`VoiceSink`] as it arrives;
//! the sink cuts it into whole sentences and sends each one that still fits
//! the spoken limit ([`voice::MAX_CHARS`]) to the browser at once. When the
//! turn ends, [`closing_voice`] decides what is left to say: the rest of the
//! final `voice_response`, or — when code replaced the planner's words (an
//! apology, a narration) — the whole of it, with `restart`.

use std::sync::Mutex;

use serde::Serialize;
use tokio::sync::mpsc::UnboundedSender;

use app::protocol::ChatResponse;

use crate::voice;

/// What the stream endpoint sends, in order: a `Switch` when the persona
/// changes this turn (before the new persona's first sentence, so the
/// student hears of the switch first), `Voice`s, then one `Reply`.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    Switch(SwitchNotice),
    Voice(VoicePiece),
    Reply(Box<ChatResponse>),
}

/// The data of a `switch` event: who answers from now on, and the notice
/// the panel says first ("已切换到闲聊模式").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SwitchNotice {
    pub agent_type: String,
    pub message: String,
}

/// The data of a `voice` event: a sentence to speak at once; `restart`: what
/// was said so far this turn is replaced by this.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct VoicePiece {
    pub text: String,
    pub restart: bool,
    /// The persona speaking (the panel gives each its own voice).
    pub agent: String,
}

/// Cuts a growing text into whole sentences within the spoken limit.
#[derive(Debug, Default)]
struct Sentences {
    pending: String,
    /// Characters sent so far.
    sent: usize,
    /// Everything sent, for [`closing_voice`].
    spoken: String,
    /// A sentence did not fit: nothing more is streamed.
    full: bool,
}

/// Where a sentence ends (the same marks [`voice::fit`] keeps whole).
fn sentence_end(c: char) -> bool {
    crate::text::clauses::ends_spoken_sentence(c)
}

impl Sentences {
    fn push(&mut self, delta: &str) -> Vec<String> {
        if self.full {
            return Vec::new();
        }
        // The symbols `voice::fit` removes never reach the speaker either.
        self.pending.extend(
            delta
                .chars()
                .filter(|c| !matches!(c, '*' | '#' | '`' | '_' | '>' | '|'))
                .map(|c| if c.is_whitespace() { ' ' } else { c }),
        );
        let mut out = Vec::new();
        while let Some((at, c)) = self.pending.char_indices().find(|(_, c)| sentence_end(*c)) {
            let mut end = at + c.len_utf8();
            // "……" and "?!" stay with their sentence; a mark at the very end
            // may be continued by the next piece, so wait for one more character.
            while let Some(next) = self.pending[end..]
                .chars()
                .next()
                .filter(|c| sentence_end(*c))
            {
                end += next.len_utf8();
            }
            if end == self.pending.len() {
                break;
            }
            let sentence = self.pending[..end].trim().to_string();
            self.pending.drain(..end);
            if sentence.is_empty() {
                continue;
            }
            let len = voice::len(&sentence);
            if self.sent + len > voice::MAX_CHARS {
                self.full = true;
                self.pending.clear();
                break;
            }
            self.sent += len;
            self.spoken.push_str(&sentence);
            out.push(sentence);
        }
        out
    }
}

impl Sentences {
    /// The reply is complete: what is left goes out if it still fits.
    fn flush(&mut self) -> Option<String> {
        let rest = std::mem::take(&mut self.pending).trim().to_string();
        if self.full || rest.is_empty() || self.sent + voice::len(&rest) > voice::MAX_CHARS {
            return None;
        }
        self.sent += voice::len(&rest);
        self.spoken.push_str(&rest);
        Some(rest)
    }
}

/// Where a streaming planner writes the reply's text as it arrives.
pub struct VoiceSink {
    tx: UnboundedSender<StreamEvent>,
    sentences: Mutex<Sentences>,
    agent: Mutex<String>,
}

impl VoiceSink {
    pub fn new(tx: UnboundedSender<StreamEvent>) -> VoiceSink {
        VoiceSink {
            tx,
            sentences: Mutex::new(Sentences::default()),
            agent: Mutex::new(super::DEFAULT_PERSONA.to_string()),
        }
    }

    /// The persona changes this turn: the notice goes out now, before
    /// anything the new persona says.
    pub fn switch(&self, agent_type: &str, message: &str) {
        self.set_agent(agent_type);
        let _ = self.tx.send(StreamEvent::Switch(SwitchNotice {
            agent_type: agent_type.to_string(),
            message: message.to_string(),
        }));
    }

    /// Who speaks from now on (decided before the planner runs).
    pub fn set_agent(&self, agent: &str) {
        if let Ok(mut a) = self.agent.lock() {
            *a = agent.to_string();
        }
    }

    fn send(&self, text: String, restart: bool) {
        let agent = self.agent.lock().map(|a| a.clone()).unwrap_or_default();
        let _ = self.tx.send(StreamEvent::Voice(VoicePiece {
            text,
            restart,
            agent,
        }));
    }

    /// More of the reply's text; whole sentences go out at once. A closed
    /// channel (the student left) is not an error: the turn still completes.
    pub fn push(&self, delta: &str) {
        let sentences = self
            .sentences
            .lock()
            .map(|mut s| s.push(delta))
            .unwrap_or_default();
        for text in sentences {
            self.send(text, false);
        }
    }

    /// The planner has the whole reply: the last sentence goes out now (it
    /// was held back in case more punctuation followed).
    pub fn flush(&self) {
        let rest = self.sentences.lock().ok().and_then(|mut s| s.flush());
        if let Some(text) = rest {
            self.send(text, false);
        }
    }

    /// Everything sent so far.
    pub fn spoken(&self) -> String {
        self.sentences
            .lock()
            .map(|s| s.spoken.clone())
            .unwrap_or_default()
    }

    /// Ends the stream: what is left to say, then the reply.
    pub fn close(&self, reply: ChatResponse) {
        if let Some((text, restart)) = closing_voice(&self.spoken(), &reply.voice_response) {
            let _ = self.tx.send(StreamEvent::Voice(VoicePiece {
                text,
                restart,
                agent: reply.agent.clone(),
            }));
        }
        let _ = self.tx.send(StreamEvent::Reply(Box::new(reply)));
    }
}

/// What to say once the final reply is known, given what was streamed:
/// nothing, the rest (the final reply continues what was said; spaces do not
/// count), or the whole reply with `restart`.
pub fn closing_voice(spoken: &str, last: &str) -> Option<(String, bool)> {
    let said: Vec<char> = spoken.chars().filter(|c| !c.is_whitespace()).collect();
    let mut matched = 0;
    let mut rest_at = last.len();
    if said.is_empty() {
        rest_at = 0;
    } else {
        for (i, c) in last.char_indices() {
            if c.is_whitespace() {
                continue;
            }
            if said.get(matched) != Some(&c) {
                break;
            }
            matched += 1;
            if matched == said.len() {
                rest_at = i + c.len_utf8();
                break;
            }
        }
    }
    if matched < said.len() {
        return (!last.trim().is_empty()).then(|| (last.trim().to_string(), true));
    }
    let rest = last[rest_at..].trim();
    (!rest.is_empty()).then(|| (rest.to_string(), false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(deltas: &[&str]) -> Vec<String> {
        let mut s = Sentences::default();
        deltas.iter().flat_map(|d| s.push(d)).collect()
    }

    #[test]
    fn whole_sentences_go_out_as_soon_as_they_end() {
        assert_eq!(
            feed(&["好的，北京", "大学计算机系。正在", "为你筛选导师…", "…还有"]),
            vec!["好的，北京大学计算机系。", "正在为你筛选导师……"]
        );
        assert_eq!(feed(&["你好", "呀"]), Vec::<String>::new());
        let mut s = Sentences::default();
        assert!(s.push("好的。我看看").len() == 1);
        assert_eq!(s.flush().as_deref(), Some("我看看"));
        assert_eq!(s.spoken, "好的。我看看");
        assert_eq!(s.flush(), None);
    }

    #[test]
    fn nothing_past_the_spoken_limit_is_streamed() {
        let long = "这是一句很长很长很长很长很长很长很长很长的话。"; // 23 characters
        let out = feed(&[long, long, long]);
        assert_eq!(out.len(), 2);
        assert!(out.iter().map(|s| voice::len(s)).sum::<usize>() <= voice::MAX_CHARS);
        // What was streamed is what `fit` keeps of the whole.
        let fitted = voice::fit(&long.repeat(3));
        assert_eq!(out.concat(), fitted);
    }

    #[test]
    fn the_close_says_the_rest_or_starts_over() {
        assert_eq!(closing_voice("", "好的。"), Some(("好的。".into(), false)));
        assert_eq!(closing_voice("好的。", "好的。"), None);
        assert_eq!(
            closing_voice("好的。", "好的。 正在筛选…"),
            Some(("正在筛选…".into(), false))
        );
        assert_eq!(
            closing_voice("张三很好。", "抱歉，数据加载失败了。"),
            Some(("抱歉，数据加载失败了。".into(), true))
        );
        assert_eq!(closing_voice("", "  "), None);
    }
}
