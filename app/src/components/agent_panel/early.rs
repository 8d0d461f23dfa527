//! The panel before the WASM, and the hand-over after it.
//!
//! On a slow phone network the page's HTML arrives in a fraction of a second
//! and the WASM seconds later. [`script`] (`early.js`, inline at the end of
//! every page's body) makes the panel's input usable from the first paint: one message is
//! sent through `POST /api/v1/chat`, shown and spoken. Everything else a reply
//! does (the ranking, the advisor's page, the highlights, the chips) waits for
//! the WASM: once hydrated, [`take`] hands the pending turn to the
//! conversation, which shows the stored conversation in place of the script's
//! lines and applies the reply through the one `apply::plan`.

/// Where the script puts its lines: an element the app renders empty and
/// never fills, so hydration does not look inside it.
pub const LOG_ID: &str = "agent-early";

/// The page's script, with the names it shares with the app filled in
/// (once per process: every page carries it).
pub fn script() -> &'static str {
    static SCRIPT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        include_str!("early.js")
            .replace("SESSION_KEY", &format!("{:?}", super::storage::SESSION_KEY))
            .replace("MUTED_KEY", &format!("{:?}", super::storage::MUTED_KEY))
            .replace("CHAT_PATH", &format!("{:?}", super::stream::CHAT_PATH))
            .replace(
                "FAILED",
                &format!(
                    "{:?}",
                    super::stream::StreamError::Network(String::new()).student_text()
                ),
            )
    });
    &SCRIPT
}

/// What is in the panel's input when the app starts: typed before hydration,
/// while the script served it (empty on the server).
pub fn typed() -> String {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("[data-testid=agent-input]").ok().flatten())
            .and_then(|el| el.dyn_into::<web_sys::HtmlInputElement>().ok())
            .map(|input| input.value())
            .unwrap_or_default()
    }
    #[cfg(not(feature = "hydrate"))]
    String::new()
}

/// A turn the script sent before hydration: what the student typed and the
/// reply's JSON (a promise of its text). Taken once.
#[cfg(feature = "hydrate")]
pub struct EarlyTurn {
    pub text: String,
    pub reply: js_sys::Promise,
}

#[cfg(feature = "hydrate")]
const TURN_KEY: &str = "__earlyTurn";

/// The script's pending turn, if it sent one; removed from the page.
#[cfg(feature = "hydrate")]
pub fn take() -> Option<EarlyTurn> {
    use wasm_bindgen::JsCast;
    let window = web_sys::window()?;
    let turn = js_sys::Reflect::get(&window, &TURN_KEY.into()).ok()?;
    if turn.is_undefined() || turn.is_null() {
        return None;
    }
    let _ = js_sys::Reflect::delete_property(&window, &TURN_KEY.into());
    let text = js_sys::Reflect::get(&turn, &"text".into())
        .ok()?
        .as_string()?;
    let reply = js_sys::Reflect::get(&turn, &"reply".into())
        .ok()?
        .dyn_into::<js_sys::Promise>()
        .ok()?;
    Some(EarlyTurn { text, reply })
}

/// The reply, parsed; `None` when the request failed (the script said so).
#[cfg(feature = "hydrate")]
pub async fn reply(turn: EarlyTurn) -> Option<crate::protocol::ChatResponse> {
    let body = wasm_bindgen_futures::JsFuture::from(turn.reply)
        .await
        .ok()?;
    serde_json::from_str(&body.as_string()?).ok()
}

/// Empties the script's lines (the conversation shows them from now on).
#[cfg(feature = "hydrate")]
pub fn clear_log() {
    if let Some(log) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(LOG_ID))
    {
        log.set_inner_html("");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_names_what_the_app_names() {
        let js = script();
        assert!(js.contains(&format!("{:?}", super::super::storage::SESSION_KEY)));
        assert!(js.contains("\"/api/v1/chat\""));
        assert!(js.contains("网络连接失败"));
        for placeholder in ["SESSION_KEY", "MUTED_KEY", "CHAT_PATH", "FAILED"] {
            assert!(
                !js.contains(placeholder),
                "{placeholder} left in the script"
            );
        }
    }
}
