//! What the panel remembers in the browser: the session id per tab
//! (`sessionStorage`, so a reload keeps the conversation but a new tab starts
//! fresh) and the mute switch across visits (`localStorage`).
//!
//! Storage may be missing or refuse writes (private mode, a full quota): every
//! function here degrades to "nothing remembered" and logs a warning.

use leptos::logging::warn;
use web_sys::Storage;

/// `sessionStorage` key of the agent's session id.
pub const SESSION_KEY: &str = "advisor-agent-session";
/// `localStorage` key of the mute switch (`"1"` muted, `"0"` not).
pub const MUTED_KEY: &str = "advisor-agent-muted";

fn session_storage() -> Option<Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

fn local_storage() -> Option<Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn read(storage: Option<Storage>, key: &str) -> Option<String> {
    storage?
        .get_item(key)
        .ok()
        .flatten()
        .filter(|v| !v.is_empty())
}

fn write(storage: Option<Storage>, key: &str, value: Option<&str>) {
    let Some(storage) = storage else {
        warn!("浏览器存储不可用，无法保存 {key}");
        return;
    };
    let outcome = match value {
        Some(v) => storage.set_item(key, v),
        None => storage.remove_item(key),
    };
    if let Err(e) = outcome {
        warn!("保存 {key} 失败：{e:?}");
    }
}

/// The session id of this tab's conversation, if there is one.
pub fn load_session() -> Option<String> {
    read(session_storage(), SESSION_KEY)
}

pub fn save_session(id: &str) {
    write(session_storage(), SESSION_KEY, Some(id));
}

/// Forgets the session: the next message opens a new one.
pub fn clear_session() {
    write(session_storage(), SESSION_KEY, None);
}

/// Where the edit token of a review written in this browser is kept (the
/// review form keeps its tokens under the same key).
pub fn edit_token_key(review_id: &str) -> String {
    format!("advisor-review-token:{review_id}")
}

/// Keeps a review's secret edit token in `localStorage`: the writer may edit
/// or delete the review from this browser for a while.
pub fn save_edit_token(review_id: &str, token: &str) {
    write(local_storage(), &edit_token_key(review_id), Some(token));
}

pub fn load_muted() -> bool {
    read(local_storage(), MUTED_KEY).as_deref() == Some("1")
}

pub fn save_muted(muted: bool) {
    write(
        local_storage(),
        MUTED_KEY,
        Some(if muted { "1" } else { "0" }),
    );
}
