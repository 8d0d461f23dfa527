//! The site's icons as inline SVG: an emoji renders as an empty box where
//! no emoji font is installed (many Linux desktops, some Android builds),
//! and a drawn icon takes the text colour. Each is decorative
//! (`aria-hidden`): the button around it carries the label.

use leptos::prelude::*;

use crate::sync_hydrate::IntoAnySync;

fn icon(paths: &'static str) -> AnyView {
    view! {
        <svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" inner_html=paths></svg>
    }
    .into_any_sync()
}

/// 朗读回复 (sound on).
pub fn speaker() -> AnyView {
    icon(
        r#"<path d="M4 9v6h4l5 4V5L8 9H4z" fill="currentColor"/><path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>"#,
    )
}

/// 已静音 (sound off).
pub fn speaker_off() -> AnyView {
    icon(
        r#"<path d="M4 9v6h4l5 4V5L8 9H4z" fill="currentColor"/><path d="M16.5 9.5l5 5m0-5l-5 5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>"#,
    )
}

/// 语音输入.
pub fn microphone() -> AnyView {
    icon(
        r#"<rect x="9" y="3" width="6" height="11" rx="3" fill="currentColor"/><path d="M6 11a6 6 0 0 0 12 0M12 17v4M9 21h6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>"#,
    )
}

/// 有用.
pub fn thumbs_up() -> AnyView {
    icon(
        r#"<path d="M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3c0-.4-.2-.8-.4-1.1L13.2 1 6.6 7.6C6.2 8 6 8.5 6 9v10a2 2 0 0 0 2 2h9c.8 0 1.5-.5 1.8-1.2l3-7.1c.1-.2.2-.5.2-.7v-2z" fill="currentColor"/>"#,
    )
}

/// 搜索.
pub fn search() -> AnyView {
    icon(
        r#"<circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" stroke-width="2"/><path d="M15.5 15.5L21 21" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>"#,
    )
}
