//! `POST /api/v1/transcribe`: a recording of the student (multipart, the
//! panel's `MediaRecorder` output) in, the text they said out, through the
//! configured recognizer (`transcribe`). Limits come before any work, in
//! this order: the recognizer is configured at all (503 otherwise), the
//! client's quota (429), the body's size (413, before it is read past the
//! limit), the recording's container and length (400/413). The recording
//! lives in memory for this request only: it is never written anywhere.
//!
//! The route carries its own body limit and cross-site check: it is merged
//! into the site's router outside the 256 KB hard limit every other route
//! has, since 30 s of WAV is 960 KB.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::middleware;
use axum::routing::post;
use axum::{Json, Router};

use app::error::ApiError;
use app::protocol::{PageContext, TranscribeResponse, UserForm};

use super::limits::RateLimiter;
use super::responses::{Error, RateLimited};
use super::JsonError;
use crate::agent::nlu::{readings, Lexicons};
use crate::agent::session_store::Caller;
use crate::db::Pool;
use crate::observe;
use crate::site::Site;
use crate::transcribe::{
    audio, prompt, respell, transcript, Failure, Heard, Recognizer, Recording, Refusal,
};

/// Recordings one client may send per minute: a student speaks a message
/// every few seconds at most, and the panel may send a message's first
/// part ahead at a pause as well as the whole (`agent_panel::endpoint`).
pub const TRANSCRIPTIONS_PER_MINUTE: u32 = 30;
/// The body: the recording and the small fields beside it.
pub const BODY: usize = audio::MAX_BYTES + 64 * 1024;
/// The page context and form fields, each, at most.
const FIELD: usize = 16 * 1024;

pub struct Transcription {
    recognizer: Option<Recognizer>,
    site: Arc<Site>,
    /// What reads the recognizer's readings (`agent::nlu::readings`).
    lexicons: Arc<Lexicons>,
    limiter: RateLimiter,
}

impl Transcription {
    /// `per_minute` recordings per client, counted in the database `pool`
    /// (shared by every instance on it).
    pub fn new(
        recognizer: Option<Recognizer>,
        site: Arc<Site>,
        lexicons: Arc<Lexicons>,
        per_minute: u32,
        pool: Pool,
    ) -> Transcription {
        Transcription {
            recognizer,
            site,
            lexicons,
            limiter: RateLimiter::shared(per_minute, Duration::from_secs(60), pool, "transcribe"),
        }
    }
}

/// The route, with its body limits and the cross-site check (see the module doc).
pub fn router(state: Arc<Transcription>) -> Router {
    Router::new()
        .route("/api/v1/transcribe", post(transcribe))
        .layer(DefaultBodyLimit::max(BODY))
        .layer(middleware::from_fn(super::security::same_origin_writes))
        .with_state(state)
}

/// A recording refused before any work: its code and status.
fn refused(r: Refusal) -> JsonError {
    observe::transcription("refused", Duration::ZERO);
    let m = r.message();
    JsonError(match r {
        Refusal::Empty => ApiError::status(400, "empty_audio", m),
        Refusal::NotAudio => ApiError::status(400, "unsupported_audio", m),
        Refusal::TooShort => ApiError::status(400, "audio_too_short", m),
        Refusal::Damaged => ApiError::status(400, "damaged_audio", m),
        Refusal::TooLarge => ApiError::status(413, "audio_too_large", m),
        Refusal::TooLong => ApiError::status(413, "audio_too_long", m),
    })
}

/// What the student reads when the recognizer gave nothing.
fn failed(f: &Failure) -> JsonError {
    JsonError(match f {
        Failure::Unreachable => ApiError::status(
            503,
            "transcriber_unavailable",
            "语音识别服务暂时不可用，请改用文字输入。",
        ),
        Failure::TimedOut => ApiError::status(
            504,
            "transcriber_timeout",
            "语音识别太慢了，这次没有结果。请再说一遍，或改用文字输入。",
        ),
        Failure::Rejected(400 | 415 | 422) => ApiError::status(
            422,
            "unreadable_audio",
            "没能识别这段录音，请再说一遍，或改用文字输入。",
        ),
        Failure::Rejected(_) | Failure::Malformed => ApiError::status(
            502,
            "transcriber_failed",
            "语音识别出错了，请再说一遍，或改用文字输入。",
        ),
    })
}

/// The form's parts.
pub struct Upload {
    pub audio: Bytes,
    pub page: Option<PageContext>,
    pub form: Option<UserForm>,
}

/// The request's body read and its recording checked: everything the
/// route does with the bytes it is sent before the recognizer hears them
/// (public for the fuzz targets, `fuzz/`, which feed it any bytes).
pub async fn upload(multipart: Multipart) -> Result<(Upload, Recording), JsonError> {
    let upload = read_upload(multipart).await?;
    let recording = audio::check(&upload.audio).map_err(refused)?;
    Ok((upload, recording))
}

async fn read_upload(mut multipart: Multipart) -> Result<Upload, JsonError> {
    let mut upload = Upload {
        audio: Bytes::new(),
        page: None,
        form: None,
    };
    let malformed = || {
        JsonError(ApiError::bad_request(
            "invalid_request",
            "请求应为 multipart/form-data：audio（录音文件），可选 page_context、form（JSON）。",
        ))
    };
    let too_large = || refused(Refusal::TooLarge);
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                return Err(too_large())
            }
            Err(_) => return Err(malformed()),
        };
        let name = field.name().unwrap_or_default().to_string();
        let bytes = match field.bytes().await {
            Ok(b) => b,
            Err(e) if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                return Err(too_large())
            }
            Err(_) => return Err(malformed()),
        };
        match name.as_str() {
            // `file`: what OpenAI-style clients call it.
            "audio" | "file" => upload.audio = bytes,
            // The page and the form only add words to the prompt: one that
            // cannot be read is left out, not an error.
            "page_context" if bytes.len() <= FIELD => {
                upload.page = serde_json::from_slice(&bytes).ok();
            }
            "form" if bytes.len() <= FIELD => {
                upload.form = serde_json::from_slice(&bytes).ok();
            }
            _ => {}
        }
    }
    Ok(upload)
}

/// What the student said: a recording in (`audio`, as `MediaRecorder`
/// writes it: WebM or Ogg with Opus, MP4, or WAV; at most 30 s and 1 MB),
/// the text out, as the student would have typed it. `page_context` and
/// `form` (JSON, as in a chat turn) add the names on the student's page to
/// the words the recognizer listens for. Nothing is stored.
#[utoipa::path(post, path = "/transcribe", context_path = "/api/v1", tag = "chat",
    request_body(content_type = "multipart/form-data",
        description = "`audio`: the recording (also accepted as `file`); `page_context`, `form`: optional JSON"),
    responses(
        (status = 200, body = TranscribeResponse, description = "What was said; `text` is empty when nothing was heard"),
        (status = 400, response = Error),
        (status = 403, response = Error),
        (status = 413, response = Error),
        (status = 422, response = Error),
        (status = 429, response = RateLimited),
        (status = 502, response = Error),
        (status = 503, response = Error),
        (status = 504, response = Error),
    ))]
pub async fn transcribe(
    State(state): State<Arc<Transcription>>,
    caller: Caller,
    multipart: Multipart,
) -> Result<Json<TranscribeResponse>, JsonError> {
    let Some(recognizer) = &state.recognizer else {
        return Err(JsonError(ApiError::status(
            503,
            "transcription_off",
            "本站没有开启语音识别，请改用文字输入。",
        )));
    };
    if let Err(wait) = state.limiter.hit(&caller.key).await {
        observe::transcription("refused", Duration::ZERO);
        return Err(JsonError(ApiError::too_many(
            wait,
            "说得太快了，请稍等一会儿再试语音输入。",
        )));
    }
    let (upload, recording) = upload(multipart).await?;
    let prompt = prompt::build(
        state.site.catalog(),
        upload.page.as_ref(),
        upload.form.as_ref(),
    );
    // Kept for a second listening (`listen_again`): shared, not copied.
    let audio = upload.audio.clone();
    let (result, mut elapsed) = recognizer
        .transcribe(upload.audio, recording, &prompt)
        .await;
    let heard = match result {
        Ok(heard) => heard,
        Err(f) => {
            tracing::warn!(failure = ?f, elapsed_ms = elapsed.as_millis() as u64, "transcription failed");
            observe::transcription(f.outcome(), elapsed);
            return Err(failed(&f));
        }
    };
    let mut text = reading(&state.lexicons, heard, &prompt, upload.page.as_ref());
    if text.is_empty() {
        let (english, took) = listen_in_english(
            &state.lexicons,
            recognizer,
            audio.clone(),
            recording,
            upload.page.as_ref(),
        )
        .await;
        elapsed += took;
        text = english;
    }
    if let Some((again, took)) = listen_again(
        &state.lexicons,
        recognizer,
        audio,
        recording,
        &text,
        upload.page.as_ref(),
    )
    .await
    {
        elapsed += took;
        text = again;
    }
    observe::transcription(if text.is_empty() { "empty" } else { "ok" }, elapsed);
    tracing::info!(
        elapsed_ms = elapsed.as_millis() as u64,
        chars = text.chars().count(),
        "transcribed"
    );
    Ok(Json(TranscribeResponse {
        text,
        duration_ms: recording.duration.map(|d| d.as_millis() as u64),
    }))
}

/// The recording heard once more, told the names its first reading came
/// near but did not read (`readings::listen_for`), when there are any:
/// the text to take instead of `first`, if this listening reads more
/// names and none otherwise (`readings::better_reading`), with the time
/// it took either way. A failure of the second listening leaves the first
/// reading as it was.
async fn listen_again(
    lexicons: &Lexicons,
    recognizer: &Recognizer,
    audio: Bytes,
    recording: Recording,
    first: &str,
    page: Option<&PageContext>,
) -> Option<(String, Duration)> {
    let names = page_names(page);
    let listen = readings::listen_for(first, lexicons, &names)?;
    let prompt = prompt::again(&listen.schools, &listen.majors);
    let (result, took) = recognizer.transcribe(audio, recording, &prompt).await;
    let again = match result {
        Ok(heard) => reading(lexicons, heard, &prompt, page),
        Err(f) => {
            tracing::info!(failure = ?f, "the second listening failed; the first reading stands");
            return Some((first.to_string(), took));
        }
    };
    let better = readings::better_reading(first, std::slice::from_ref(&again), lexicons, &names);
    tracing::info!(
        taken = better.is_some(),
        elapsed_ms = took.as_millis() as u64,
        "heard again"
    );
    Some((
        if better.is_some() {
            again
        } else {
            first.to_string()
        },
        took,
    ))
}

/// The recording heard in English when the configured language read
/// nothing usable in it (nothing at all, or only the prompt echoed): what
/// a student says in English ("the last one", "number two那个老师呢") comes
/// back from a recognizer told to hear Chinese as silence or as its own
/// prompt. No prompt: the Chinese one is what it would echo. Empty when
/// this listening fails or reads nothing either; the time it took.
async fn listen_in_english(
    lexicons: &Lexicons,
    recognizer: &Recognizer,
    audio: Bytes,
    recording: Recording,
    page: Option<&PageContext>,
) -> (String, Duration) {
    if recognizer.config().language == crate::transcribe::SECOND_LANGUAGE {
        return (String::new(), Duration::ZERO);
    }
    let (result, took) = recognizer
        .transcribe_in(audio, recording, "", crate::transcribe::SECOND_LANGUAGE)
        .await;
    let text = match result {
        Ok(heard) => reading(lexicons, heard, "", page),
        Err(f) => {
            tracing::info!(failure = ?f, "the listening in English failed");
            String::new()
        }
    };
    // Silence, told to be English, comes back as "You" or "Thank you.".
    let text = if crate::transcribe::transcript::is_english_silence(&text) {
        String::new()
    } else {
        text
    };
    tracing::info!(
        taken = !text.is_empty(),
        elapsed_ms = took.as_millis() as u64,
        "heard in English"
    );
    (text, took)
}

/// The advisors on the student's page, by name: names a reading may name.
fn page_names(page: Option<&PageContext>) -> Vec<String> {
    page.map(|p| p.visible_advisors.iter().map(|a| a.name.clone()).collect())
        .unwrap_or_default()
}

/// One reading as the site weighs it: cleaned, and the site's own words
/// put back where the recognizer wrote a homophone (`transcribe::respell`),
/// never over a name the site knows or an advisor of the page (`names`).
pub fn heard_as(lexicons: &Lexicons, text: &str, prompt: &str, names: &[String]) -> String {
    let is_name = |w: &[char]| {
        readings::is_name(lexicons, w) || names.iter().any(|n| n.chars().eq(w.iter().copied()))
    };
    respell::respell(&transcript::clean(text, prompt), is_name)
}

/// The longest reading the site weighs against others: 30 seconds of
/// Mandarin is about 150 characters; a longer text is no spoken request,
/// and is taken as the recognizer gave it.
pub const MAX_READING_CHARS: usize = 300;

/// The text of what was heard: the recognizer's best reading, cleaned, or
/// another of its readings that names more (`agent::nlu::readings`), with
/// the advisors on the student's page as the names a reading may name.
pub fn reading(
    lexicons: &Lexicons,
    heard: Heard,
    prompt: &str,
    page: Option<&PageContext>,
) -> String {
    let names = page_names(page);
    let heard_as = |t: &str| heard_as(lexicons, t, prompt, &names);
    let best = heard_as(&heard.text);
    let short = |t: &str| t.chars().count() <= MAX_READING_CHARS;
    let mut others: Vec<String> = Vec::new();
    // Measured as it came, before any work on it.
    for other in heard.alternatives.iter().filter(|t| short(t)) {
        let other = heard_as(other);
        if !other.is_empty() && other != best && !others.contains(&other) {
            others.push(other);
        }
    }
    if best.is_empty() || !short(&best) || others.is_empty() {
        return best;
    }
    match readings::better_reading(&best, &others, lexicons, &names) {
        Some(i) => {
            tracing::info!(
                reading = i + 1,
                "another reading of the recognizer names more"
            );
            others.swap_remove(i)
        }
        None => best,
    }
}
