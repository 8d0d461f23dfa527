//! Which recognizer the panel's microphone uses. The browser's own
//! (`SpeechRecognition`) sends the audio to its vendor — Google's servers,
//! out of reach in mainland China — and WeChat's, QQ's and Firefox's
//! browsers have none; the site's (`POST /api/v1/transcribe`, when the
//! server has `ASR_BASE_URL`) needs only `MediaRecorder`. The server says
//! which it offers in a `<meta name="voice-input" content="server">` of the
//! page's head, which hydration does not walk; the panel reads it once
//! hydrated.

use leptos::prelude::*;

/// What the server offers, provided to every page's render.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VoiceInput {
    /// `POST /api/v1/transcribe` has a recognizer behind it.
    pub server: bool,
}

/// The meta tag, in the shell's head, when the server transcribes.
#[component]
pub fn VoiceInputMeta() -> impl IntoView {
    use_context::<VoiceInput>()
        .filter(|v| v.server)
        .map(|_| view! { <meta name="voice-input" content="server"/> })
}

/// Whether this page's server transcribes (browser only; `false` elsewhere).
pub fn server_transcribes() -> bool {
    #[cfg(feature = "hydrate")]
    {
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| {
                d.query_selector(r#"meta[name="voice-input"][content="server"]"#)
                    .ok()
                    .flatten()
            })
            .is_some()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        false
    }
}
