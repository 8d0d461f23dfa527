//! A conversation by voice, hands free: one control starts it; the panel
//! listens, answers aloud and listens again; the student can talk over the
//! agent to interrupt it, and ends the call with a tap, Escape, or by
//! saying so ("好了，谢谢" — read by the server's speech-act layer, whose
//! reply carries `conversation_end`). A few seconds of silence end it
//! politely; hiding the tab ends it and releases the microphone. The
//! call's state is shown and announced on a line of its own, apart from
//! the conversation, which still shows every turn.
//!
//! Split as `apply` is, so the decisions are tested without a browser:
//!
//! - [`plan`] (pure): the state machine — idle, listening, thinking,
//!   speaking, ended — events in, next state and effects out;
//! - [`barge`] (pure): when sound heard while the agent speaks is the
//!   student interrupting, not the agent's own voice;
//! - [`run`] (browser): the effects performed, the browser's observations
//!   turned into events.
//!
//! No wake lock is taken: a phone's screen may sleep during a call as it
//! would otherwise (and the call then ends with the hidden tab).

mod barge;
mod plan;
mod run;

use leptos::prelude::*;

use crate::hydrated::Hydrated;
use plan::Phase;
pub use run::Driver;

/// The call control and the call's state, between the chips and the input
/// bar. Drawn only where the browser can listen (a recognizer on either
/// side).
#[component]
pub fn CallBar(driver: Driver, hydrated: Hydrated) -> impl IntoView {
    let phase = Memo::new(move |_| driver.call.get().phase);
    let on = move || driver.call.get().active();
    let name = move || match phase.get() {
        Phase::Idle => "idle",
        Phase::Listening => "listening",
        Phase::Thinking => "thinking",
        Phase::Speaking => "speaking",
        Phase::Ended(_) => "ended",
    };
    let offered = move || hydrated.get() && driver.ear.get() != super::mic::Ear::None;
    view! {
        <Show when=offered>
            <div class="agent-call" class:active=on data-testid="agent-call-bar">
                <button
                    type="button"
                    class="agent-call-button"
                    data-testid="agent-call"
                    aria-pressed=move || if on() { "true" } else { "false" }
                    title=move || if on() { "结束语音通话（Esc）" } else { "开始语音通话：说完会自动回答并继续听" }
                    on:click=move |_| driver.toggle()
                >
                    {crate::components::icons::microphone()}
                    <span>{move || if on() { "挂断" } else { "语音通话" }}</span>
                </button>
                <p
                    class="agent-call-status"
                    data-testid="agent-call-status"
                    data-phase=name
                    role="status"
                    aria-live="polite"
                >
                    {move || plan::status(phase.get())}
                </p>
            </div>
        </Show>
    }
}
