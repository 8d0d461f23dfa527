//! The voice call in the browser: the effects of the [`plan`](super::plan)
//! performed (the microphone, recordings, the recognizer, the turn, the
//! speech), and what the browser observes turned back into its events —
//! the endpointer and the interruption detector read twenty times a second,
//! the recognizer's results, `visibilitychange`. Thin on purpose: every
//! decision is the plan's.
//!
//! With the site's recognizer the microphone stays open for the whole call
//! and one recording follows another: while the agent thinks and speaks, a
//! recording runs too, so when the student interrupts, the start of what
//! they say is in it. With the browser's recognizer the microphone is
//! opened only to hear an interruption; the recognizer listens again once
//! one is heard.

use gloo_timers::callback::Interval;
use leptos::logging::warn;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;

use super::barge::BargeIn;
use super::plan::{Call, Effect, Event, Phase, GOODBYE};
use crate::components::agent_panel::ahead::{self, Ahead, Claim};
use crate::components::agent_panel::conversation::Conversation;
use crate::components::agent_panel::endpoint::{Endpointer, Stop, MAX_MS, TICK_MS};
use crate::components::agent_panel::mic::Ear;
use crate::components::agent_panel::recorder::{self, Microphone, Take};
use crate::components::agent_panel::speech::{self, Recognizer};
use crate::js::{get, method, window};

/// A recording running while the agent speaks is started afresh after this
/// long with no interruption beginning: what it keeps is the start of an
/// interruption, not the agent's whole reply.
const ROTATE_MS: u32 = 6_000;

/// The browser side of one call; dropped when it ends (microphone released,
/// recordings and recognizer stopped, listeners detached).
struct Line {
    // Dropped before the microphone.
    take: Option<Take>,
    /// The recording sent to the recognizer, until it has been handed over.
    sending: Option<Take>,
    mic: Option<Microphone>,
    recognizer: Option<Recognizer>,
    take_id: u64,
    take_ms: u32,
    ears: Endpointer,
    barge: BargeIn,
    voice_was: bool,
    /// Words heard while the previous (hushed) turn still ran.
    pending: Option<String>,
    /// The recording so far, sent to the recognizer at the last pause.
    ahead: Option<Ahead>,
    _ticker: Interval,
    on_hidden: Closure<dyn FnMut(JsValue)>,
}

impl Drop for Line {
    fn drop(&mut self) {
        if let Some(doc) = window().and_then(|w| get(&w, "document")) {
            if let Ok(remove) = method(&doc, "removeEventListener") {
                let _ = remove.call2(&doc, &"visibilitychange".into(), self.on_hidden.as_ref());
            }
        }
    }
}

thread_local! {
    /// The browser side of the call on, if any. Not in the driver's
    /// reactive storage: the server renders the panel on a multi-threaded
    /// runtime, where a value of local storage must not be dropped from
    /// another thread, and a page holds one call at most.
    static LINE: std::cell::RefCell<Option<Line>> = const { std::cell::RefCell::new(None) };
}

/// The call: its state for the view, and the one way to drive it.
#[derive(Clone, Copy)]
pub struct Driver {
    pub call: RwSignal<Call>,
    pub ear: RwSignal<Ear>,
    conversation: Conversation,
    /// Bumped at each start and end: what an older call's callbacks report
    /// is dropped.
    generation: StoredValue<u64>,
}

impl Driver {
    pub fn new(conversation: Conversation, ear: RwSignal<Ear>) -> Driver {
        Driver {
            call: RwSignal::new(Call::IDLE),
            ear,
            conversation,
            generation: StoredValue::new(0),
        }
    }

    /// The control: starts a call, or ends the one on.
    pub fn toggle(self) {
        if self.call.get_untracked().active() {
            self.dispatch(Event::Stop);
        } else {
            self.dispatch(Event::Start);
        }
    }

    /// Escape: ends the call if one is on (`true`).
    pub fn escape(self) -> bool {
        let on = self.call.get_untracked().active();
        if on {
            self.dispatch(Event::Stop);
        }
        on
    }

    fn dispatch(self, event: Event) {
        let now = self.call.get_untracked();
        let (next, effects) = now.step(event);
        if next != now {
            self.call.set(next);
        }
        for effect in effects {
            self.perform(effect);
        }
    }

    /// `dispatch` for a callback of this call only.
    fn report(self, generation: u64, event: Event) {
        if self.generation.get_value() == generation {
            self.dispatch(event);
        }
    }

    /// `report`, once the callback it is called from has returned.
    fn later(self, generation: u64, event: Event) {
        spawn_local(async move { self.report(generation, event) });
    }

    fn perform(self, effect: Effect) {
        match effect {
            Effect::OpenMic => self.open(),
            Effect::CloseMic => self.close(),
            Effect::Listen { fresh } => self.listen(fresh),
            Effect::Transcribe => self.transcribe(),
            Effect::Send(text) => {
                if !self.conversation.send_text(&text) {
                    // The interrupted turn is still finishing: sent after it.
                    self.with_line(|l| l.pending = Some(text));
                }
            }
            Effect::Hush => self.conversation.hush(),
            Effect::SayGoodbye => self.conversation.aside(GOODBYE),
        }
    }

    /// `f` on the line, if a call is on (and the line is not in use by a
    /// caller up the stack: then nothing, never a panic).
    fn with_line<R>(self, f: impl FnOnce(&mut Line) -> R) -> Option<R> {
        LINE.with(|line| line.try_borrow_mut().ok()?.as_mut().map(f))
    }

    /// A new line: the ticker and the hidden-tab listener now, the
    /// microphone once the browser grants it.
    fn open(self) {
        self.generation.update_value(|g| *g += 1);
        let generation = self.generation.get_value();
        self.conversation.error.set(None);
        speech::cancel();
        let on_hidden = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
            let hidden = window()
                .and_then(|w| get(&w, "document"))
                .and_then(|d| get(&d, "hidden"))
                .and_then(|h| h.as_bool())
                == Some(true);
            if hidden {
                self.report(generation, Event::Hidden);
            }
        });
        if let Some(doc) = window().and_then(|w| get(&w, "document")) {
            if let Ok(add) = method(&doc, "addEventListener") {
                let _ = add.call2(&doc, &"visibilitychange".into(), on_hidden.as_ref());
            }
        }
        let line = Line {
            take: None,
            sending: None,
            mic: None,
            recognizer: None,
            take_id: 0,
            take_ms: 0,
            ears: Endpointer::new(),
            barge: BargeIn::new(0.0),
            voice_was: false,
            pending: None,
            ahead: None,
            _ticker: Interval::new(TICK_MS, move || {
                if self.generation.get_value() == generation {
                    self.tick(generation);
                }
            }),
            on_hidden,
        };
        let old = LINE.with(|l| l.try_borrow_mut().ok().and_then(|mut l| l.replace(line)));
        drop(old);
        let needed = self.ear.get_untracked() == Ear::Server;
        spawn_local(async move {
            let opened = Microphone::open().await;
            if self.generation.get_value() != generation {
                return;
            }
            match opened {
                Ok(mic) => {
                    self.with_line(|l| l.mic = Some(mic));
                    if needed && self.call.get_untracked().phase == Phase::Listening {
                        self.listen(true);
                    }
                }
                // The browser's recognizer listens without it: only an
                // interruption cannot be heard then.
                Err(message) if needed => {
                    self.conversation.error.set(Some(message));
                    self.dispatch(Event::Failed);
                }
                Err(message) => warn!("通话中无法读取麦克风音量：{message}"),
            }
        });
    }

    /// The call is over: everything of the line stopped and released, once
    /// the callback that ended it has returned.
    fn close(self) {
        self.generation.update_value(|g| *g += 1);
        let line = LINE.with(|l| l.try_borrow_mut().ok().and_then(|mut l| l.take()));
        spawn_local(async move { drop(line) });
    }

    fn listen(self, fresh: bool) {
        let generation = self.generation.get_value();
        match self.ear.get_untracked() {
            Ear::Server => {
                self.with_line(|l| {
                    if fresh || l.take.is_none() {
                        l.ears = Endpointer::new();
                        self.new_take(l, generation);
                    } else {
                        l.ears = Endpointer::resumed(l.take_ms, l.barge.noise());
                    }
                });
            }
            Ear::Browser => self.recognize(generation),
            Ear::None => {}
        }
    }

    /// A recording of the open microphone; the last one is dropped unheard.
    fn new_take(self, l: &mut Line, generation: u64) {
        let Some(mic) = &l.mic else { return };
        l.take_id += 1;
        l.take_ms = 0;
        let id = l.take_id;
        let started = Take::start(mic, move |blob| {
            spawn_local(async move { self.recorded(generation, id, blob).await });
        });
        match started {
            Ok(take) => l.take = Some(take),
            Err(message) => {
                l.take = None;
                warn!("通话录音无法开始：{message}");
            }
        }
    }

    /// The student stopped talking: this recording goes to the recognizer,
    /// and the next one starts at once (an interruption's first words).
    fn transcribe(self) {
        let generation = self.generation.get_value();
        self.with_line(|l| {
            // What went ahead at the last pause is the turn if nothing was
            // said since (see `endpoint`); else it is dropped.
            let ears = &l.ears;
            ahead::ended(&mut l.ahead, l.take_id, |mark| ears.quiet_since(mark));
            if let Some(take) = l.take.take() {
                take.stop();
                l.sending = Some(take);
            }
            l.barge = BargeIn::new(l.ears.noise());
            l.voice_was = false;
            self.new_take(l, generation);
        });
    }

    /// A recording handed over: only the one sent to the recognizer is read.
    async fn recorded(self, generation: u64, id: u64, blob: Option<JsValue>) {
        let sent = self
            .with_line(|l| l.take_id != id && l.sending.take().is_some())
            .unwrap_or(false);
        // (A recording dropped unheard never reports: only the one sent does.)
        if !sent || self.generation.get_value() != generation {
            return;
        }
        // The text heard ahead, if it is this turn's: now, or when it comes.
        match self.with_line(|l| ahead::claim(&mut l.ahead, id)) {
            Some(Claim::Ready(heard)) => return self.heard(generation, heard),
            Some(Claim::Waiting) => return,
            _ => {}
        }
        let heard = match blob {
            Some(blob) => {
                let page = self.conversation.page_snapshot();
                let form = self.conversation.form.get_untracked();
                recorder::transcribe(blob, &page, form.as_ref()).await
            }
            None => Ok(String::new()),
        };
        self.heard(generation, heard);
    }

    /// The recording of take `id` so far, at the pause `mark`, to the
    /// recognizer: its text kept for the end of the turn, or reported if
    /// the turn has ended and claimed it.
    fn send_ahead(self, generation: u64, id: u64, mark: u32, blob: Option<JsValue>) {
        let Some(blob) = blob else { return };
        self.with_line(|l| ahead::sent(&mut l.ahead, id, mark));
        spawn_local(async move {
            let page = self.conversation.page_snapshot();
            let form = self.conversation.form.get_untracked();
            let heard = recorder::transcribe(blob, &page, form.as_ref()).await;
            let now = self
                .with_line(|l| ahead::answered(&mut l.ahead, id, mark, heard))
                .flatten();
            if let Some(heard) = now {
                self.heard(generation, heard);
            }
        });
    }

    /// What the recognizer made of a turn, reported; a failure is said.
    fn heard(self, generation: u64, heard: ahead::Heard) {
        let text = heard.unwrap_or_else(|message| {
            if self.generation.get_value() == generation {
                self.conversation.error.set(Some(message));
            }
            String::new()
        });
        self.report(generation, Event::Heard(text));
    }

    /// The browser's recognizer, for one utterance.
    fn recognize(self, generation: u64) {
        let made = self.with_line(|l| {
            if l.recognizer.is_none() {
                l.recognizer = Recognizer::new(
                    // Each reported once the recognizer's own callback has
                    // returned: the next step may start it again.
                    move |text: String, is_final: bool| {
                        if is_final {
                            self.later(generation, Event::Heard(text));
                        }
                    },
                    move |code: String| match code.as_str() {
                        "aborted" => {}
                        "no-speech" => self.later(generation, Event::Silence),
                        _ => {
                            let text = speech::recognition_error_text(&code).unwrap_or_default();
                            self.conversation.error.set(Some(text.to_string()));
                            self.later(generation, Event::Failed);
                        }
                    },
                    // Ended with nothing heard: listen again.
                    move || {
                        if self.call.get_untracked().phase == Phase::Listening {
                            self.later(generation, Event::Heard(String::new()));
                        }
                    },
                );
            }
            l.recognizer.as_ref().is_some_and(Recognizer::start)
        });
        if made != Some(true) {
            self.conversation
                .error
                .set(Some("语音识别无法开始，请改用文字输入。".to_string()));
            self.dispatch(Event::Failed);
        }
    }

    /// Twenty times a second: the microphone read by the endpointer (the
    /// student's turn) or the interruption detector (the agent's), then
    /// where the turn and the speech are.
    fn tick(self, generation: u64) {
        let call = self.call.get_untracked();
        let server = self.ear.get_untracked() == Ear::Server;
        let voice = speech::speaking();
        let mut heard = None;
        let turn_running = self
            .with_line(|l| {
                let frame = l.mic.as_ref().map(Microphone::frame).unwrap_or_default();
                let meter = l.mic.as_ref().is_some_and(Microphone::has_meter);
                l.take_ms += TICK_MS;
                match call.phase {
                    Phase::Listening if server && l.take.is_some() => {
                        // Without a meter only the time limit ends what is said.
                        let said = if meter {
                            l.ears.tick(frame)
                        } else {
                            (l.take_ms >= MAX_MS).then_some(Stop::TooLong)
                        };
                        heard = said.map(|stop| match stop {
                            Stop::NothingSaid => Event::Silence,
                            Stop::Spoke | Stop::TooLong => Event::EndOfSpeech,
                        });
                        let pause = l.ears.listen_ahead().filter(|_| said.is_none());
                        if let (Some(mark), Some(take)) = (pause, l.take.as_ref()) {
                            let id = l.take_id;
                            take.peek(move |blob| self.send_ahead(generation, id, mark, blob));
                        }
                    }
                    _ if call.interruptible() && meter => {
                        if voice && !l.voice_was {
                            l.barge.voice_started();
                        }
                        l.voice_was = voice;
                        if l.barge.tick(frame) {
                            heard = Some(Event::BargeIn);
                        } else if server && l.take_ms >= ROTATE_MS && l.barge.idle() {
                            self.new_take(l, generation);
                        }
                    }
                    _ => {}
                }
                if let Some(text) = l.pending.take() {
                    if !self.conversation.send_text(&text) {
                        l.pending = Some(text);
                    }
                }
                l.pending.is_some()
            })
            .unwrap_or(false);
        if let Some(event) = heard {
            self.dispatch(event);
        }
        self.dispatch(Event::Tick {
            turn_running: turn_running || self.conversation.busy.get_untracked(),
            voice,
            farewell: self.conversation.farewell.get_untracked(),
        });
    }
}
