//! Recording the student for the site's own recognizer: the microphone
//! through `getUserMedia` ([`Microphone`], held by a voice call for its
//! whole length), one [`Take`] after another of it with `MediaRecorder` (Opus in WebM or Ogg, AAC in MP4
//! on Safari, at 32 kbit/s: a 20-second message is 80 KB on a phone
//! network), the samples of an `AnalyserNode` for the meter and the end of
//! speech (`endpoint`), and the upload to `POST /api/v1/transcribe`.
//! Reached dynamically (`crate::js`), as the panel's other browser APIs.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Float32Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::endpoint::Frame;
use crate::js::{call0, call1, construct, get, method, object, set, window};
use crate::protocol::{PageContext, UserForm};

/// Formats in the order asked for: what the server reads best first.
const FORMATS: [&str; 4] = [
    "audio/webm;codecs=opus",
    "audio/ogg;codecs=opus",
    "audio/mp4",
    "audio/webm",
];
const BITS_PER_SECOND: f64 = 32_000.0;
/// Samples per reading: 43 ms at 48 kHz, two periods of the lowest voice
/// (`endpoint::Frame::of` looks for its pitch).
const WINDOW: u32 = 2048;

fn navigator_media() -> Option<JsValue> {
    get(&get(&window()?, "navigator")?, "mediaDevices")
}

/// Whether this browser can record (`getUserMedia` and `MediaRecorder`).
/// After hydration only, as for `speech::recognition_supported`.
pub fn supported() -> bool {
    navigator_media().is_some_and(|m| method(&m, "getUserMedia").is_ok())
        && window().and_then(|w| get(&w, "MediaRecorder")).is_some()
}

/// Why recording could not start, as the student reads it.
pub fn start_error_text(name: &str) -> &'static str {
    match name {
        "NotAllowedError" | "SecurityError" | "PermissionDeniedError" => {
            "无法使用麦克风，请在浏览器设置里允许本网站使用麦克风，或改用文字输入。"
        }
        "NotFoundError" | "OverconstrainedError" | "DevicesNotFoundError" => {
            "没有找到麦克风，请检查设备或改用文字输入。"
        }
        "NotReadableError" => "麦克风正被其他程序占用，请关闭它后再试，或改用文字输入。",
        _ => "无法开始录音，请改用文字输入。",
    }
}

/// The microphone, open: its stream and the analyser that reads it. A call
/// keeps one open for its whole length (the level is read while the agent
/// speaks too, to hear the student interrupt), and records one [`Take`] of
/// it after another. Dropping it releases the microphone (the browser's
/// recording indicator goes off).
pub struct Microphone {
    stream: JsValue,
    context: Option<JsValue>,
    analyser: Option<JsValue>,
    samples: Float32Array,
    /// The audio context's sample rate.
    rate: f64,
}

impl Microphone {
    /// Asks for the microphone. `Err` carries the Chinese message.
    pub async fn open() -> Result<Microphone, String> {
        let media = navigator_media().ok_or_else(|| start_error_text(""))?;
        // Echo cancellation keeps a reply still being spoken out of the
        // recording; the browser's noise suppression stays off: it smears
        // consonants, and the recognizer copes with noise better than with
        // that (tested with the local Whisper: 北京 was lost with it on).
        let constraints = object(&[(
            "audio",
            object(&[
                ("channelCount", JsValue::from_f64(1.0)),
                ("echoCancellation", JsValue::TRUE),
                ("noiseSuppression", JsValue::FALSE),
            ]),
        )]);
        let asked = call1(&media, "getUserMedia", &constraints)
            .map_err(|_| start_error_text(""))?
            .dyn_into::<js_sys::Promise>()
            .map_err(|_| start_error_text(""))?;
        let stream = JsFuture::from(asked).await.map_err(|e| {
            let name = get(&e, "name")
                .and_then(|n| n.as_string())
                .unwrap_or_default();
            start_error_text(&name).to_string()
        })?;
        // The level meter: optional (old Safari has only webkitAudioContext,
        // some browsers none); without it a recording ends by a tap or the
        // time limit, and a call cannot hear the student interrupt.
        let context = construct("AudioContext", &[])
            .or_else(|_| construct("webkitAudioContext", &[]))
            .ok();
        let analyser = context.as_ref().and_then(|ctx| {
            let source = call1(ctx, "createMediaStreamSource", &stream).ok()?;
            let analyser = call0(ctx, "createAnalyser").ok()?;
            set(&analyser, "fftSize", &JsValue::from_f64(WINDOW as f64));
            call1(&source, "connect", &analyser).ok()?;
            let _ = call0(ctx, "resume");
            Some(analyser)
        });
        let rate = context
            .as_ref()
            .and_then(|ctx| get(ctx, "sampleRate"))
            .and_then(|r| r.as_f64())
            .unwrap_or(48_000.0);
        Ok(Microphone {
            stream,
            context,
            analyser,
            samples: Float32Array::new_with_length(WINDOW),
            rate,
        })
    }

    /// What the microphone hears now: the last samples' level, speech band
    /// and voicing (nothing without a meter).
    pub fn frame(&self) -> Frame {
        match &self.analyser {
            Some(analyser) if call1(analyser, "getFloatTimeDomainData", &self.samples).is_ok() => {
                Frame::of(&self.samples.to_vec(), self.rate)
            }
            _ => Frame::default(),
        }
    }

    /// Whether a meter reads the level (else only a tap or the limit ends it).
    pub fn has_meter(&self) -> bool {
        self.analyser.is_some()
    }

    /// Releases the microphone now (dropping it does too).
    pub fn release(&self) {
        stop_tracks(&self.stream);
    }
}

impl Drop for Microphone {
    fn drop(&mut self) {
        self.release();
        if let Some(ctx) = &self.context {
            let _ = call0(ctx, "close");
        }
    }
}

/// One recording of an open [`Microphone`]. Dropping it stops it and
/// detaches its callbacks (its `done` is then never called).
pub struct Take {
    recorder: JsValue,
    /// Waiting for the data asked for by [`Take::peek`].
    peek: Peek,
    _on_data: Closure<dyn FnMut(JsValue)>,
    _on_stop: Closure<dyn FnMut(JsValue)>,
}

type Peek = Rc<RefCell<Option<Box<dyn FnOnce(Option<JsValue>)>>>>;

/// The chunks recorded so far as one file of `kind`.
fn blob_of(parts: &Array, kind: &str) -> Option<JsValue> {
    if parts.length() == 0 {
        return None;
    }
    construct(
        "Blob",
        &[parts, &object(&[("type", JsValue::from_str(kind))])],
    )
    .ok()
}

impl Take {
    /// Starts recording `mic`; `done(blob)` is called once after
    /// [`Take::stop`] with the recording (`None` when nothing was recorded).
    pub fn start(
        mic: &Microphone,
        done: impl FnOnce(Option<JsValue>) + 'static,
    ) -> Result<Take, String> {
        let class = window()
            .and_then(|w| get(&w, "MediaRecorder"))
            .ok_or_else(|| start_error_text(""))?;
        let mime = FORMATS
            .iter()
            .find(|t| {
                call1(&class, "isTypeSupported", &JsValue::from_str(t))
                    .ok()
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false)
            })
            .copied();
        let mut options = vec![("audioBitsPerSecond", JsValue::from_f64(BITS_PER_SECOND))];
        if let Some(m) = mime {
            options.push(("mimeType", JsValue::from_str(m)));
        }
        let recorder = construct("MediaRecorder", &[&mic.stream, &object(&options)])
            .or_else(|_| construct("MediaRecorder", &[&mic.stream]))
            .map_err(|_| start_error_text(""))?;

        let chunks = Rc::new(RefCell::new(Vec::<JsValue>::new()));
        let kind_of = {
            let recorder = recorder.clone();
            move || {
                get(&recorder, "mimeType")
                    .and_then(|m| m.as_string())
                    .filter(|m| !m.is_empty())
                    .unwrap_or_else(|| mime.unwrap_or("audio/webm").to_string())
            }
        };
        let peek: Peek = Rc::new(RefCell::new(None));
        let on_data = {
            let chunks = chunks.clone();
            let peek = peek.clone();
            let kind_of = kind_of.clone();
            Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
                if let Some(data) = get(&event, "data") {
                    if get(&data, "size").and_then(|s| s.as_f64()).unwrap_or(0.0) > 0.0 {
                        chunks.borrow_mut().push(data);
                    }
                }
                let waiting = peek.borrow_mut().take();
                if let Some(got) = waiting {
                    let parts: Array = chunks.borrow().iter().cloned().collect();
                    got(blob_of(&parts, &kind_of()));
                }
            })
        };
        let on_stop = {
            let done = RefCell::new(Some(done));
            Closure::<dyn FnMut(JsValue)>::new(move |_event: JsValue| {
                let Some(done) = done.borrow_mut().take() else {
                    return;
                };
                let parts: Array = chunks.borrow_mut().drain(..).collect();
                done(blob_of(&parts, &kind_of()));
            })
        };
        set(&recorder, "ondataavailable", on_data.as_ref());
        set(&recorder, "onstop", on_stop.as_ref());
        call0(&recorder, "start").map_err(|_| start_error_text(""))?;
        Ok(Take {
            recorder,
            peek,
            _on_data: on_data,
            _on_stop: on_stop,
        })
    }

    /// The recording so far, while it goes on: `got(blob)` is called
    /// once the recorder has handed over what it holds (`None` when
    /// nothing was recorded, or it could not be asked). The chunks from the
    /// start make a whole file: the first holds the container's header.
    pub fn peek(&self, got: impl FnOnce(Option<JsValue>) + 'static) {
        let recording = get(&self.recorder, "state").and_then(|s| s.as_string());
        if recording.as_deref() != Some("recording") || self.peek.borrow().is_some() {
            got(None);
            return;
        }
        *self.peek.borrow_mut() = Some(Box::new(got));
        if call0(&self.recorder, "requestData").is_err() {
            if let Some(got) = self.peek.borrow_mut().take() {
                got(None);
            }
        }
    }

    /// Ends the recording: `done` gets it.
    pub fn stop(&self) {
        let state = get(&self.recorder, "state").and_then(|s| s.as_string());
        if state.as_deref() != Some("inactive") {
            let _ = call0(&self.recorder, "stop");
        }
    }
}

impl Drop for Take {
    fn drop(&mut self) {
        set(&self.recorder, "ondataavailable", &JsValue::NULL);
        set(&self.recorder, "onstop", &JsValue::NULL);
        self.stop();
    }
}

/// One message recorded for the site's recognizer: the microphone opened
/// for it and released when it ends. Dropping it stops everything.
pub struct Recorder {
    // Dropped first: the recording stops before the microphone goes.
    take: Take,
    mic: Microphone,
}

impl Recorder {
    /// Asks for the microphone and starts recording; `done(blob)` is called
    /// once after [`Recorder::stop`] with the recording (`None` when
    /// nothing was recorded). `Err` carries the Chinese message.
    pub async fn start(done: impl FnOnce(Option<JsValue>) + 'static) -> Result<Recorder, String> {
        let mic = Microphone::open().await?;
        let take = Take::start(&mic, done)?;
        Ok(Recorder { take, mic })
    }

    /// What the microphone hears now (see [`Microphone::frame`]).
    pub fn frame(&self) -> Frame {
        self.mic.frame()
    }

    /// Whether a meter reads the level (else only a tap or the limit ends it).
    pub fn has_meter(&self) -> bool {
        self.mic.has_meter()
    }

    /// The recording so far (see [`Take::peek`]).
    pub fn peek(&self, got: impl FnOnce(Option<JsValue>) + 'static) {
        self.take.peek(got);
    }

    /// Ends the recording (`done` gets it) and releases the microphone.
    pub fn stop(&self) {
        self.take.stop();
        self.mic.release();
    }
}

/// Every track of `stream` stopped: the microphone is released.
fn stop_tracks(stream: &JsValue) {
    if let Ok(tracks) = call0(stream, "getTracks").and_then(|t| t.dyn_into::<Array>()) {
        for track in tracks.iter() {
            let _ = call0(&track, "stop");
        }
    }
}

/// The recording sent to the site's recognizer with what the page shows
/// and the form so far (their names are what it listens for): the text,
/// or the Chinese message to show.
pub async fn transcribe(
    blob: JsValue,
    page: &PageContext,
    form: Option<&UserForm>,
) -> Result<String, String> {
    const FAILED: &str = "录音没能送到服务器，请检查网络，或改用文字输入。";
    let data = construct("FormData", &[]).map_err(|_| FAILED.to_string())?;
    let append = method(&data, "append").map_err(|_| FAILED.to_string())?;
    // Any file name: the server reads the container from the bytes.
    let _ = append.call3(&data, &"audio".into(), &blob, &"recording".into());
    if let Ok(page) = serde_json::to_string(page) {
        let _ = append.call2(&data, &"page_context".into(), &page.into());
    }
    if let Some(Ok(form)) = form.map(serde_json::to_string) {
        let _ = append.call2(&data, &"form".into(), &form.into());
    }
    let (_, body) =
        crate::fetch::request("POST", "/api/v1/transcribe", &[], Some(&data), FAILED).await?;
    // `TranscribeResponse.text`, read with the browser's JSON parser: a
    // serde reader of its own would cost the bundle more than this panel's
    // whole recorder.
    js_sys::JSON::parse(&body)
        .ok()
        .and_then(|answer| get(&answer, "text"))
        .and_then(|text| text.as_string())
        .ok_or_else(|| FAILED.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_start_failure_has_a_chinese_way_out() {
        for name in [
            "NotAllowedError",
            "NotFoundError",
            "NotReadableError",
            "AbortError",
            "",
        ] {
            let m = start_error_text(name);
            assert!(
                m.contains("文字输入") || m.contains("麦克风"),
                "{name}: {m}"
            );
        }
    }
}
