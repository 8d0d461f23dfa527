//! Speech to text on the site's own server: the panel records the student
//! with `MediaRecorder` and posts the recording to `POST /api/v1/transcribe`
//! (`http::transcribe`), which hands it to a recognizer that speaks the
//! OpenAI-compatible `POST /v1/audio/transcriptions` — a local
//! faster-whisper (`.ci/asr`, docs/asr.md), whisper.cpp's server, FunASR's,
//! or a cloud API — configured like the language model (`ASR_BASE_URL`,
//! `ASR_API_KEY`, `ASR_MODEL`). The browser's own recognizer sends audio
//! to its vendor (Google's servers, out of reach in mainland China) or does
//! not exist (WeChat's and QQ's browsers, Firefox); this one needs only a
//! browser that can record. The recording is held in memory for the one
//! request and never stored.
//!
//! - [`audio`]: what the upload is and how long it lasts, checked before
//!   any work (size, container, duration).
//! - [`prompt`]: the words it is recognized with (schools, majors, the
//!   form's vocabulary, the advisors on the student's page).
//! - [`transcript`]: the recognizer's text made into what the student would
//!   have typed (simplified, no invented subtitles).
//! - [`respell`]: the site's own words (想考, 咨询, 主页) put back where the
//!   recognizer wrote a homophone.
//! - [`scripted`]: a scripted recognizer for tests (`server mock-asr`).

pub mod audio;
pub mod prompt;
pub mod respell;
pub mod scripted;
pub mod transcript;

use std::time::{Duration, Instant};

use axum::body::Bytes;
use serde::Deserialize;

pub use audio::{Recording, Refusal};

/// The recognizer's address and how it is called (`ASR_*`, read once with
/// the rest of the configuration).
#[derive(Clone, Debug, PartialEq)]
pub struct AsrConfig {
    /// Up to and including `/v1`: `http://127.0.0.1:8090/v1`.
    pub base_url: String,
    pub api_key: Option<String>,
    pub model: String,
    /// The language spoken (ISO 639-1), sent so that the recognizer does
    /// not guess it from the first second.
    pub language: String,
    /// One recording's limit, connection included.
    pub timeout: Duration,
}

pub const DEFAULT_MODEL: &str = "whisper-1";
pub const DEFAULT_LANGUAGE: &str = "zh";
/// The language a recording is heard in again when the configured one
/// yields nothing ("the last one", "number two": a student's English).
pub const SECOND_LANGUAGE: &str = "en";
pub const DEFAULT_TIMEOUT_SECS: u64 = 15;
/// The recognizer's other readings looked at, at most.
pub const MAX_ALTERNATIVES: usize = 8;
/// A recognizer's answer read, at most: thirty seconds of speech with its
/// other readings is a few kilobytes; anything past this is not an answer.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;

impl AsrConfig {
    /// `base_url` checked (http or https, no trailing slash) with the
    /// defaults for the rest; `Err` names the variable in Chinese.
    pub fn new(base_url: &str) -> Result<AsrConfig, String> {
        let base_url = base_url.trim().trim_end_matches('/').to_string();
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(format!(
                "ASR_BASE_URL 必须以 http:// 或 https:// 开头：{base_url}"
            ));
        }
        Ok(AsrConfig {
            base_url,
            api_key: None,
            model: DEFAULT_MODEL.to_string(),
            language: DEFAULT_LANGUAGE.to_string(),
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECS),
        })
    }

    pub fn endpoint(&self) -> String {
        format!("{}/audio/transcriptions", self.base_url)
    }
}

/// Why the recognizer gave no text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No connection (not running, wrong address).
    Unreachable,
    /// No answer within the timeout.
    TimedOut,
    /// It answered an error status (it could not decode the audio, a wrong
    /// key, overloaded).
    Rejected(u16),
    /// It answered something that is not a transcription.
    Malformed,
}

impl Failure {
    /// The metric's outcome label.
    pub fn outcome(&self) -> &'static str {
        match self {
            Failure::Unreachable => "unreachable",
            Failure::TimedOut => "timeout",
            Failure::Rejected(_) | Failure::Malformed => "rejected",
        }
    }
}

/// A recognizer behind an OpenAI-compatible endpoint.
#[derive(Clone)]
pub struct Recognizer {
    config: AsrConfig,
    http: reqwest::Client,
}

/// What a recognizer heard: its text, and the other readings it weighed,
/// best first, when it gives them (`.ci/asr`'s server does: the other
/// hypotheses of its beam search; OpenAI-style APIs give none).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Heard {
    pub text: String,
    #[serde(default)]
    pub alternatives: Vec<String>,
}

impl Heard {
    /// A recognizer's answer body: `{"text": …}`, perhaps with
    /// `"alternatives": […]`, of which no more than [`MAX_ALTERNATIVES`]
    /// are kept (another server's idea of the field is not read past a
    /// few). Anything else is [`Failure::Malformed`].
    pub fn read(body: &[u8]) -> Result<Heard, Failure> {
        let mut heard: Heard = serde_json::from_slice(body).map_err(|_| Failure::Malformed)?;
        heard.alternatives.truncate(MAX_ALTERNATIVES);
        Ok(heard)
    }
}

impl Recognizer {
    pub fn new(config: AsrConfig) -> Recognizer {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(3).min(config.timeout))
            .timeout(config.timeout)
            .build()
            .unwrap_or_default();
        Recognizer { config, http }
    }

    pub fn config(&self) -> &AsrConfig {
        &self.config
    }

    /// What the recognizer heard in `audio` (checked by [`audio::check`]),
    /// recognized with `prompt`; the time it took with it.
    pub async fn transcribe(
        &self,
        audio: Bytes,
        recording: Recording,
        prompt: &str,
    ) -> (Result<Heard, Failure>, Duration) {
        self.transcribe_in(audio, recording, prompt, &self.config.language)
            .await
    }

    /// [`Recognizer::transcribe`] in `language` rather than the configured
    /// one.
    pub async fn transcribe_in(
        &self,
        audio: Bytes,
        recording: Recording,
        prompt: &str,
        language: &str,
    ) -> (Result<Heard, Failure>, Duration) {
        let started = Instant::now();
        let result = self.call(audio, recording, prompt, language).await;
        (result, started.elapsed())
    }

    async fn call(
        &self,
        audio: Bytes,
        recording: Recording,
        prompt: &str,
        language: &str,
    ) -> Result<Heard, Failure> {
        let length = audio.len() as u64;
        let file = reqwest::multipart::Part::stream_with_length(audio, length)
            .file_name(recording.container.file_name())
            .mime_str(recording.container.mime())
            .map_err(|_| Failure::Malformed)?;
        let mut form = reqwest::multipart::Form::new()
            .part("file", file)
            .text("model", self.config.model.clone())
            .text("language", language.to_string())
            .text("response_format", "json")
            .text("temperature", "0");
        if !prompt.is_empty() {
            form = form.text("prompt", prompt.to_string());
        }
        let mut request = self.http.post(self.config.endpoint()).multipart(form);
        if let Some(key) = &self.config.api_key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.map_err(transport)?;
        let status = response.status();
        if !status.is_success() {
            return Err(Failure::Rejected(status.as_u16()));
        }
        let (body, whole) = crate::outbound::read_up_to(response, MAX_ANSWER_BYTES)
            .await
            .map_err(transport)?;
        if !whole {
            return Err(Failure::Malformed);
        }
        Heard::read(&body)
    }
}

/// A failure on the way there or back: out of time, or no connection.
fn transport(e: reqwest::Error) -> Failure {
    if e.is_timeout() {
        Failure::TimedOut
    } else {
        Failure::Unreachable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_is_checked_and_the_endpoint_follows_it() {
        let c = AsrConfig::new("http://127.0.0.1:8090/v1/").unwrap();
        assert_eq!(
            c.endpoint(),
            "http://127.0.0.1:8090/v1/audio/transcriptions"
        );
        assert_eq!(c.language, "zh");
        let e = AsrConfig::new("127.0.0.1:8090").unwrap_err();
        assert!(e.contains("ASR_BASE_URL"), "{e}");
    }

    /// A recognizer that answers without end is cut off at
    /// [`MAX_ANSWER_BYTES`] and its answer refused, not held in memory;
    /// a normal answer beside it is read.
    #[tokio::test]
    async fn an_answer_past_the_bound_is_refused_unread() {
        use crate::loopback::{ephemeral, Served};
        use axum::routing::post;
        let endless = format!(r#"{{"text":"{}"}}"#, "北".repeat(MAX_ANSWER_BYTES));
        let app = axum::Router::new()
            .route(
                "/flood/v1/audio/transcriptions",
                post(move || async move { endless }),
            )
            .route(
                "/fine/v1/audio/transcriptions",
                post(|| async { r#"{"text":"北京大学"}"# }),
            );
        let served = Served::on(ephemeral().await.unwrap(), app);
        let wav = Bytes::from(audio::silent_wav(1000));
        let recording = audio::check(&wav).unwrap();
        let at = |path: &str| {
            Recognizer::new(AsrConfig::new(&format!("http://{}/{path}/v1", served.addr())).unwrap())
        };
        let (flood, _) = at("flood").transcribe(wav.clone(), recording, "").await;
        assert_eq!(flood, Err(Failure::Malformed));
        let (fine, _) = at("fine").transcribe(wav, recording, "").await;
        assert_eq!(fine.unwrap().text, "北京大学");
    }
}
