//! The chat + voice panel on every page: the student types or speaks, the
//! agent answers with a short spoken reply and tool calls, and the panel
//! applies those calls to the pages (navigating, highlighting) and reads the
//! reply aloud.
//!
//! - [`conversation`]: the state and one turn, shown and spoken as it streams in
//! - [`early`]: the panel before the WASM (a page script), and its hand-over
//! - [`stream`]: the streaming chat endpoint, read as server-sent events
//! - [`apply`]: tool calls → page steps (pure planning, then running)
//! - [`speech`]: `speechSynthesis` and `SpeechRecognition`, called dynamically
//! - [`recorder`]: the microphone recorded for the site's recognizer
//!   (`MediaRecorder`, the input level, the upload); [`endpoint`]: when a
//!   recording ends on its own (pure, tested); [`ahead`]: the recording
//!   so far, sent at a pause, and who hands its answer on (pure, tested)
//! - [`call`]: a voice conversation, hands free (a pure state machine, the
//!   interruption detector, and their browser driver)
//! - [`storage`]: the session id and the mute switch in the browser
//! - [`view`]: the header, messages, chips and input bar; [`mic`]: its
//!   microphone buttons, one message at a time

mod ahead;
mod apply;
mod call;
mod conversation;
pub mod early;
pub mod endpoint;
mod mic;
mod recorder;
mod speech;
mod storage;
mod stream;
mod view;

use leptos::prelude::*;

use crate::hydrated::Hydrated;

use call::{CallBar, Driver};
use conversation::Conversation;
use mic::Ear;
use view::{Chips, Composer, ErrorLine, MessageList, PanelHeader};

/// The assistant panel: fixed at the bottom-right on wide screens (collapsible
/// to a round "语音助手" button), a bottom sheet on narrow ones. Place it once,
/// inside the `<Router>`, after the page-context store and agent overlay are
/// provided.
#[component]
pub fn AgentPanel() -> impl IntoView {
    let conversation = Conversation::new();
    let collapsed = RwSignal::new(false);
    // The server renders every control disabled; they come alive once the
    // whole page has been hydrated (crate::hydrated), so no early click or
    // keystroke is lost.
    let hydrated = Hydrated::expect();

    // Browser-only state (the stored session, the mute switch) is read after
    // hydration so that what hydration meets is what the server rendered.
    // Who listens (and so whether there is a microphone or a call at all)
    // only the browser knows: asked once hydrated, since the answer changes
    // what the panel draws.
    let ear = RwSignal::new(Ear::None);
    Effect::new(move |_| {
        if hydrated.get() {
            conversation.restore();
            ear.set(Ear::of_this_browser());
        }
    });
    let driver = Driver::new(conversation, ear);
    let calling = Signal::derive(move || driver.call.get().active());

    // Escape anywhere in the open panel ends a voice call if one is on;
    // else it folds the panel to its button, and the keyboard lands on that
    // button (to open it again with Enter).
    let toggle = NodeRef::<leptos::html::Button>::new();
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" && driver.escape() {
            ev.prevent_default();
            return;
        }
        if ev.key() == "Escape" && !collapsed.get_untracked() {
            ev.prevent_default();
            collapsed.set(true);
            if let Some(button) = toggle.get_untracked() {
                let _ = button.focus();
            }
        }
    };

    view! {
        <aside
            class="agent-panel"
            class:is-collapsed=move || collapsed.get()
            data-testid="agent-panel"
            aria-labelledby="agent-title"
            on:keydown=on_keydown
        >
            <button
                type="button"
                node_ref=toggle
                class="agent-toggle"
                data-testid="agent-toggle"
                aria-controls="agent-body"
                aria-expanded=move || if collapsed.get() { "false" } else { "true" }
                aria-label=move || if collapsed.get() { "打开语音助手" } else { "收起语音助手" }
                disabled=move || !hydrated.get()
                on:click=move |_| collapsed.update(|c| *c = !*c)
            >
                {move || if collapsed.get() { "语音助手" } else { "收起" }}
            </button>
            <div class="agent-body" id="agent-body" hidden=move || collapsed.get()>
                <PanelHeader conversation hydrated/>
                <MessageList conversation/>
                <ErrorLine conversation/>
                <Chips conversation/>
                <CallBar driver hydrated/>
                <Composer conversation hydrated ear calling/>
            </div>
        </aside>
    }
}
