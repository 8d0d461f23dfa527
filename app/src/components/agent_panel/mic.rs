//! The microphone buttons of the input bar: one spoken message at a time,
//! recorded for the site's recognizer ([`RecordButton`]) or heard by the
//! browser's own ([`MicButton`]), whichever this browser and server offer
//! ([`Ear`]). A voice call (`call`) listens with the same parts, hands free.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::ahead::{self, Ahead, Claim};
use super::conversation::Conversation;
use super::endpoint::{self, Endpointer, Stop};
use super::recorder::{self, Recorder};
use super::speech::{self, Recognizer};

/// Who turns speech into text for this page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ear {
    /// Nobody: no microphone button.
    None,
    /// The browser's `SpeechRecognition`.
    Browser,
    /// The site's recognizer, from a `MediaRecorder` recording.
    Server,
}

impl Ear {
    /// The site's recognizer where the server has one and the browser can
    /// record (the audio then goes nowhere else); else the browser's own.
    pub fn of_this_browser() -> Ear {
        if crate::voice_input::server_transcribes() && recorder::supported() {
            Ear::Server
        } else if speech::recognition_supported() {
            Ear::Browser
        } else {
            Ear::None
        }
    }
}

/// Where a recording for the site's recognizer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Idle,
    /// Asking for the microphone.
    Starting,
    Recording,
    /// On its way to the recognizer.
    Sending,
}

const NOTHING_HEARD: &str = "没听清，请再说一遍，或改用文字输入。";

/// Records one message for the site's recognizer: a level meter and the
/// time while recording; a second tap or a pause after speaking stops it;
/// the text goes in the box and is sent as a turn.
#[component]
pub fn RecordButton(conversation: Conversation, draft: RwSignal<String>) -> impl IntoView {
    let take = RwSignal::new(Stage::Idle);
    // The meter's level and the time, read together every tick.
    let meter = RwSignal::new((0.0f64, 0u32));
    let session = StoredValue::new_local(None::<Session>);
    // The recording so far, sent ahead at the last pause (`endpoint`).
    let went_ahead = StoredValue::new_local(None::<Ahead>);
    // One recording at a time: its take is always the same.
    const TAKE: u64 = 0;

    // The text heard, as a turn; an empty one or a failure as the message.
    let deliver = move |heard: Result<String, String>| {
        take.set(Stage::Idle);
        match heard {
            Ok(text) if !text.trim().is_empty() => {
                if conversation.send_text(&text) {
                    draft.set(String::new());
                } else {
                    // A turn is still running: keep it to edit.
                    draft.set(text);
                }
            }
            Ok(_) => conversation.error.set(Some(NOTHING_HEARD.to_string())),
            Err(message) => conversation.error.set(Some(message)),
        }
    };
    // Sends `blob` to the recognizer with what the page shows now.
    let recognize = move |blob: wasm_bindgen::JsValue| async move {
        let page = conversation.page_snapshot();
        let form = conversation.form.get_untracked();
        recorder::transcribe(blob, &page, form.as_ref()).await
    };
    // The recording so far goes ahead to the recognizer; its answer waits
    // in `went_ahead` for the end, or is delivered when it comes if the end
    // came first and claimed it (`ahead`).
    let send_ahead = move |mark: u32, blob: Option<wasm_bindgen::JsValue>| {
        let Some(blob) = blob else { return };
        went_ahead.update_value(|a| ahead::sent(a, TAKE, mark));
        spawn_local(async move {
            let heard = recognize(blob).await;
            let now = went_ahead
                .try_update_value(|a| ahead::answered(a, TAKE, mark, heard))
                .flatten();
            if let Some(heard) = now {
                deliver(heard);
            }
        });
    };

    // The recording ends (a tap, a pause, the limit): `sent` below gets it.
    let finish = move |why: Stop| {
        session.update_value(|s| {
            if let Some(s) = s {
                s.ticker = None;
                s.ended_by = Some(why);
                s.recorder.stop();
            }
        });
    };
    // Called from the recorder's own callback: everything, the recorder's
    // drop included, runs after it has returned.
    let sent = move |blob: Option<wasm_bindgen::JsValue>| {
        spawn_local(async move {
            let ended = session.try_update_value(|s| s.take()).flatten();
            let ended_by = ended.as_ref().and_then(|s| s.ended_by);
            // What was sent ahead is the message if nothing was said since.
            went_ahead.update_value(|a| {
                ahead::ended(a, TAKE, |mark| {
                    ended.as_ref().is_some_and(|s| s.ears.quiet_since(mark))
                })
            });
            drop(ended);
            meter.set((0.0, 0));
            let Some(blob) = blob.filter(|_| ended_by != Some(Stop::NothingSaid)) else {
                went_ahead.set_value(None);
                take.set(Stage::Idle);
                conversation.error.set(Some(NOTHING_HEARD.to_string()));
                return;
            };
            take.set(Stage::Sending);
            match went_ahead.try_update_value(|a| ahead::claim(a, TAKE)) {
                Some(Claim::Ready(heard)) => deliver(heard),
                // Still on its way: it delivers when it arrives.
                Some(Claim::Waiting) => {}
                _ => deliver(recognize(blob).await),
            }
        });
    };
    let tick = move || {
        let mut stop = None;
        session.update_value(|s| {
            if let Some(s) = s {
                let heard = s.recorder.frame();
                let said = s.ears.tick(heard);
                let elapsed = s.ears.elapsed_ms();
                meter.set((heard.level, elapsed));
                stop = if s.recorder.has_meter() {
                    said
                } else {
                    (elapsed >= endpoint::MAX_MS).then_some(Stop::TooLong)
                };
                if let Some(mark) = s.ears.listen_ahead().filter(|_| stop.is_none()) {
                    s.recorder.peek(move |blob| send_ahead(mark, blob));
                }
            }
        });
        if let Some(why) = stop {
            finish(why);
        }
    };
    let toggle = move |_| match take.get_untracked() {
        Stage::Recording => finish(Stop::Spoke),
        Stage::Starting | Stage::Sending => {}
        Stage::Idle => {
            // Do not let the microphone hear the previous reply.
            speech::cancel();
            conversation.error.set(None);
            take.set(Stage::Starting);
            went_ahead.set_value(None);
            spawn_local(async move {
                match Recorder::start(sent).await {
                    Ok(recorder) => {
                        meter.set((0.0, 0));
                        session.set_value(Some(Session {
                            recorder,
                            ticker: Some(gloo_timers::callback::Interval::new(
                                endpoint::TICK_MS,
                                tick,
                            )),
                            ears: Endpointer::new(),
                            ended_by: None,
                        }));
                        take.set(Stage::Recording);
                    }
                    Err(message) => {
                        take.set(Stage::Idle);
                        conversation.error.set(Some(message));
                    }
                }
            });
        }
    };
    let recording = move || take.get() == Stage::Recording;
    view! {
        <button
            type="button"
            class="agent-mic"
            class:listening=recording
            data-testid="agent-mic"
            aria-pressed=move || if recording() { "true" } else { "false" }
            aria-label=move || if recording() { "停止录音并发送" } else { "语音输入" }
            title=move || if recording() { "正在录音…说完会自动停止，也可以再点一次" } else { "点击后说话" }
            disabled=move || conversation.busy.get() || matches!(take.get(), Stage::Starting | Stage::Sending)
            on:click=toggle
        >
            {crate::components::icons::microphone()}
        </button>
        // One status line: the meter and the time while recording, 识别中…
        // while the recording is on its way.
        <span
            class="agent-rec"
            class:recording=recording
            data-testid="agent-rec"
            role="status"
            hidden=move || !matches!(take.get(), Stage::Recording | Stage::Sending)
        >
            <span class="visually-hidden">
                {move || if recording() { "正在录音，说完会自动停止" } else { "" }}
            </span>
            <span class="agent-level" aria-hidden="true">
                <span style:transform=move || format!("scaleX({:.2})", (meter.get().0 * 8.0).min(1.0))></span>
            </span>
            <span aria-hidden=move || if recording() { "true" } else { "false" }>
                {move || if recording() { endpoint::clock(meter.get().1) } else { "识别中…".to_string() }}
            </span>
        </span>
    }
}

/// One recording: the recorder, the timer reading its level, when it
/// should end and why it did.
struct Session {
    recorder: Recorder,
    ticker: Option<gloo_timers::callback::Interval>,
    ears: Endpointer,
    ended_by: Option<Stop>,
}

/// Listens for one utterance: partial text fills the input, the final text
/// is sent. A second click, the end of speech or an error stops listening.
#[component]
pub fn MicButton(conversation: Conversation, draft: RwSignal<String>) -> impl IntoView {
    let listening = RwSignal::new(false);
    // Created on first use and kept: one recognizer and one set of closures
    // for the panel's lifetime, dropped (and detached) with this component.
    let recognizer = StoredValue::new_local(None::<Recognizer>);
    let on_text = move |text: String, is_final: bool| {
        if !is_final {
            draft.set(text);
            return;
        }
        listening.set(false);
        if conversation.send_text(&text) {
            draft.set(String::new());
        } else {
            // A turn is still running (or nothing was heard): keep it to edit.
            draft.set(text);
        }
    };
    let on_error = move |code: String| {
        listening.set(false);
        if let Some(message) = speech::recognition_error_text(&code) {
            conversation.error.set(Some(message.to_string()));
        }
    };
    let toggle = move |_| {
        if listening.get_untracked() {
            recognizer.with_value(|r| {
                if let Some(r) = r {
                    r.stop();
                }
            });
            listening.set(false);
            return;
        }
        if recognizer.with_value(Option::is_none) {
            let made = Recognizer::new(on_text, on_error, move || listening.set(false));
            if made.is_none() {
                conversation
                    .error
                    .set(Some("这个浏览器不支持语音输入，请改用文字。".to_string()));
                return;
            }
            recognizer.set_value(made);
        }
        // Do not let the microphone hear the previous reply.
        speech::cancel();
        conversation.error.set(None);
        let started = recognizer.with_value(|r| r.as_ref().is_some_and(Recognizer::start));
        listening.set(started);
    };
    view! {
        <button
            type="button"
            class="agent-mic"
            class:listening=move || listening.get()
            data-testid="agent-mic"
            aria-pressed=move || if listening.get() { "true" } else { "false" }
            aria-label=move || if listening.get() { "停止语音输入" } else { "语音输入" }
            title=move || if listening.get() { "正在听…再点一次停止" } else { "点击后说话" }
            disabled=move || conversation.busy.get()
            on:click=toggle
        >
            {crate::components::icons::microphone()}
        </button>
    }
}
