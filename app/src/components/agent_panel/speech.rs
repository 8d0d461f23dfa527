//! The browser's voice: `speechSynthesis` speaks the replies and
//! `SpeechRecognition` turns the student's speech into a message.
//!
//! Both are reached dynamically (`crate::js`): browsers differ
//! (`webkitSpeechRecognition`, no synthesis at all), and tests replace
//! `window.speechSynthesis` with a plain recorder object. Where an API is
//! missing, nothing happens.

use js_sys::{Array, Function, Reflect};
use leptos::logging::warn;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::js::{call0, call1, get, set, window};

/// The language replies are spoken in and speech is recognised in.
const LANG: &str = "zh-CN";
/// How a persona sounds: the analysis persona a touch faster than normal
/// (replies are short and students are waiting), the casual one slower and
/// a little brighter, so the switch is heard as well as seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Voice {
    pub rate: f64,
    pub pitch: f64,
}

pub fn voice_of(agent: &str) -> Voice {
    if agent == crate::protocol::CASUAL {
        Voice {
            rate: 0.98,
            pitch: 1.15,
        }
    } else {
        Voice {
            rate: 1.05,
            pitch: 1.0,
        }
    }
}

/// `window.speechSynthesis`, if this browser has one.
fn synthesis() -> Option<JsValue> {
    get(&window()?, "speechSynthesis")
}

/// Stops whatever is being spoken (a newer reply, muting, a new conversation).
pub fn cancel() {
    if let Some(synth) = synthesis() {
        if let Err(e) = call0(&synth, "cancel") {
            warn!("speechSynthesis.cancel 失败：{e:?}");
        }
    }
}

/// Whether the browser is speaking, or has words queued to speak (a voice
/// call listens again only once it has finished).
pub fn speaking() -> bool {
    synthesis().is_some_and(|synth| {
        ["speaking", "pending"]
            .iter()
            .any(|key| get(&synth, key).and_then(|v| v.as_bool()) == Some(true))
    })
}

/// Speaks `text` in Chinese, cutting off the reply still being spoken (a
/// reply that started over). Does nothing where the browser cannot speak.
pub fn speak(text: &str, voice: Voice) {
    say(text, voice, true);
}

/// Speaks `text` in Chinese after whatever is still being spoken: the next
/// sentences of a streamed reply must not cut off the first ones. Does nothing
/// where the browser cannot speak.
pub fn enqueue(text: &str, voice: Voice) {
    say(text, voice, false);
}

/// `speechSynthesis.speak` queues utterances itself, so speaking after the
/// current one is a plain `speak`, and speaking instead of it is `cancel` first.
fn say(text: &str, voice: Voice, interrupt: bool) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    let (Some(window), Some(synth)) = (window(), synthesis()) else {
        return;
    };
    let Some(ctor) =
        get(&window, "SpeechSynthesisUtterance").and_then(|c| c.dyn_into::<Function>().ok())
    else {
        return;
    };
    let utterance = match Reflect::construct(&ctor, &Array::of1(&JsValue::from_str(text))) {
        Ok(u) => u,
        Err(e) => {
            warn!("无法创建 SpeechSynthesisUtterance：{e:?}");
            return;
        }
    };
    // Set `text` as well: a stand-in class may ignore its constructor argument.
    set(&utterance, "text", &JsValue::from_str(text));
    set(&utterance, "lang", &JsValue::from_str(LANG));
    set(&utterance, "rate", &JsValue::from_f64(voice.rate));
    set(&utterance, "pitch", &JsValue::from_f64(voice.pitch));
    if let Some(voice) = chinese_voice(&synth) {
        set(&utterance, "voice", &voice);
    }
    if interrupt {
        if let Err(e) = call0(&synth, "cancel") {
            warn!("speechSynthesis.cancel 失败：{e:?}");
        }
    }
    if let Err(e) = call1(&synth, "speak", &utterance) {
        warn!("speechSynthesis.speak 失败：{e:?}");
    }
}

/// A Mandarin (mainland) voice from `getVoices()`, when the browser has one;
/// otherwise the browser picks by `lang`.
fn chinese_voice(synth: &JsValue) -> Option<JsValue> {
    let voices = call0(synth, "getVoices").ok()?.dyn_into::<Array>().ok()?;
    let lang_of = |v: &JsValue| {
        get(v, "lang")
            .and_then(|l| l.as_string())
            .unwrap_or_default()
            .replace('_', "-")
            .to_ascii_lowercase()
    };
    let found = voices
        .iter()
        .find(|v| lang_of(v) == "zh-cn")
        .or_else(|| voices.iter().find(|v| lang_of(v).starts_with("cmn-hans")));
    found
}

/// `window.SpeechRecognition || window.webkitSpeechRecognition`.
fn recognition_constructor() -> Option<Function> {
    let window = window()?;
    get(&window, "SpeechRecognition")
        .or_else(|| get(&window, "webkitSpeechRecognition"))
        .and_then(|c| c.dyn_into::<Function>().ok())
}

/// Whether this browser can listen. Call it only after hydration: the server
/// cannot know, and the first client render must match the server's.
pub fn recognition_supported() -> bool {
    recognition_constructor().is_some()
}

/// What the student hears when listening fails, by the `error` code of the
/// event; `None` for codes that need no message (the student stopped it).
pub fn recognition_error_text(code: &str) -> Option<&'static str> {
    match code {
        "aborted" => None,
        "no-speech" => Some("没听清，请再说一遍"),
        "not-allowed" | "service-not-allowed" => {
            Some("无法使用麦克风，请在浏览器设置里允许本网站使用麦克风")
        }
        "audio-capture" => Some("没有找到麦克风，请检查设备或改用文字输入"),
        "network" => Some("语音识别需要联网，请稍后再试或改用文字输入"),
        _ => Some("语音识别出错了，请再试一次或改用文字输入"),
    }
}

/// A speech recognizer and the callbacks it calls. The closures live exactly
/// as long as this value (keep it in a `StoredValue`); dropping it detaches
/// them from the recognizer first, so the browser never calls a freed closure.
pub struct Recognizer {
    recognition: JsValue,
    _on_result: Closure<dyn FnMut(JsValue)>,
    _on_error: Closure<dyn FnMut(JsValue)>,
    _on_end: Closure<dyn FnMut(JsValue)>,
}

const HANDLERS: [&str; 3] = ["onresult", "onerror", "onend"];

impl Recognizer {
    /// A recognizer for one utterance of Chinese (`continuous = false`) that
    /// reports partial text as it is heard (`interimResults = true`).
    ///
    /// `on_text(text, is_final)` gets the transcript so far; `on_error(code)`
    /// the event's `error` code; `on_end` fires when listening stops for any
    /// reason. `None` when the browser cannot listen.
    pub fn new(
        on_text: impl Fn(String, bool) + 'static,
        on_error: impl Fn(String) + 'static,
        on_end: impl Fn() + 'static,
    ) -> Option<Recognizer> {
        let ctor = recognition_constructor()?;
        let recognition = match Reflect::construct(&ctor, &Array::new()) {
            Ok(r) => r,
            Err(e) => {
                warn!("无法创建语音识别：{e:?}");
                return None;
            }
        };
        set(&recognition, "lang", &JsValue::from_str(LANG));
        set(&recognition, "interimResults", &JsValue::TRUE);
        set(&recognition, "continuous", &JsValue::FALSE);
        set(&recognition, "maxAlternatives", &JsValue::from_f64(1.0));

        let on_result = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            if let Some((text, is_final)) = transcript(&event) {
                on_text(text, is_final);
            }
        });
        let on_error = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            let code = get(&event, "error")
                .and_then(|c| c.as_string())
                .unwrap_or_default();
            on_error(code);
        });
        let on_end = Closure::<dyn FnMut(JsValue)>::new(move |_event: JsValue| on_end());
        set(&recognition, "onresult", on_result.as_ref());
        set(&recognition, "onerror", on_error.as_ref());
        set(&recognition, "onend", on_end.as_ref());
        Some(Recognizer {
            recognition,
            _on_result: on_result,
            _on_error: on_error,
            _on_end: on_end,
        })
    }

    /// Starts listening; `false` when the browser refused (already listening,
    /// no permission yet to ask for).
    pub fn start(&self) -> bool {
        match call0(&self.recognition, "start") {
            Ok(_) => true,
            Err(e) => {
                warn!("语音识别无法开始：{e:?}");
                false
            }
        }
    }

    /// Stops listening; what was heard so far still arrives as a final result.
    pub fn stop(&self) {
        if let Err(e) = call0(&self.recognition, "stop") {
            warn!("语音识别无法停止：{e:?}");
        }
    }
}

impl Drop for Recognizer {
    fn drop(&mut self) {
        for handler in HANDLERS {
            set(&self.recognition, handler, &JsValue::NULL);
        }
        let _ = call0(&self.recognition, "abort");
    }
}

/// The transcript of a `result` event (all results so far, best alternative
/// of each) and whether it is final.
fn transcript(event: &JsValue) -> Option<(String, bool)> {
    let results = get(event, "results")?;
    let len = get(&results, "length")
        .and_then(|l| l.as_f64())
        .unwrap_or(0.0) as u32;
    if len == 0 {
        return None;
    }
    let mut text = String::new();
    let mut is_final = true;
    for i in 0..len {
        let Some(result) = Reflect::get_u32(&results, i).ok().filter(|r| r.is_object()) else {
            continue;
        };
        if let Some(t) = Reflect::get_u32(&result, 0)
            .ok()
            .and_then(|alt| get(&alt, "transcript"))
            .and_then(|t| t.as_string())
        {
            text.push_str(&t);
        }
        if get(&result, "isFinal").and_then(|f| f.as_bool()) != Some(true) {
            is_final = false;
        }
    }
    Some((text.trim().to_string(), is_final))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognition_errors_have_chinese_messages() {
        assert_eq!(
            recognition_error_text("no-speech"),
            Some("没听清，请再说一遍")
        );
        assert!(recognition_error_text("not-allowed").is_some_and(|m| m.contains("麦克风")));
        assert_eq!(recognition_error_text("aborted"), None);
        assert!(recognition_error_text("something-new").is_some());
    }
}
