//! What the student sees when the browser half of the site stops: the WASM
//! that did not arrive ([`script`], in every page's head, since no WASM can
//! report its own absence), or a panic.
//!
//! The release build aborts on panic, so no error boundary can catch one;
//! the panic hook is the one place left to act. It says so in the panel, in the panel's own error
//! style and announced (`role="alert"`), and turns the panel's controls off
//! (after an abort the WASM can no longer be trusted to answer a click), so
//! nobody types into a panel that can no longer answer. The page itself
//! is server-rendered HTML and stays on screen. Its links are marked
//! `rel="external"`, which the router's click handler (still installed
//! after the abort) would otherwise keep catching, turning clicks into
//! client-side navigations the dead WASM never makes; it leaves such links
//! to the browser, so they load their pages in full.

/// The message in the panel.
pub const MESSAGE: &str = "页面功能加载失败，请检查网络后刷新页面。";

/// The page's script that shows [`MESSAGE`] when the module or the WASM
/// fails to load (`load_failure.js`), rendered inline with the page's CSP
/// nonce: no request of its own, and there before anything can fail. Filled
/// in once per process.
pub fn script() -> &'static str {
    static SCRIPT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        include_str!("load_failure.js").replace("MESSAGE", &format!("{MESSAGE:?}"))
    });
    &SCRIPT
}

/// Logs the panic to the console (as `console_error_panic_hook` did) and then
/// shows [`MESSAGE`] in the panel.
pub fn install_panic_hook() {
    #[cfg(feature = "hydrate")]
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&info.to_string().into());
        show_in_panel();
    }));
}

/// Puts [`MESSAGE`] into the panel once and disables its controls.
#[cfg(feature = "hydrate")]
fn show_in_panel() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(Some(body)) = document.query_selector("[data-testid=agent-panel] .agent-body") else {
        return;
    };
    if let Ok(Some(_)) = document.query_selector("[data-testid=agent-load-error]") {
        return;
    }
    if let Ok(alert) = document.create_element("p") {
        alert.set_class_name("agent-error");
        let _ = alert.set_attribute("data-testid", "agent-load-error");
        let _ = alert.set_attribute("role", "alert");
        alert.set_text_content(Some(MESSAGE));
        let _ = body.insert_before(&alert, body.first_child().as_ref());
    }
    if let Ok(links) = document.query_selector_all("a[href]") {
        for i in 0..links.length() {
            if let Some(a) = links
                .item(i)
                .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
            {
                let rel = a.get_attribute("rel").unwrap_or_default();
                let _ = a.set_attribute("rel", format!("{rel} external").trim());
            }
        }
    }
    if let Ok(controls) =
        document.query_selector_all("[data-testid=agent-panel] :is(button, input, textarea)")
    {
        for i in 0..controls.length() {
            if let Some(el) = controls
                .item(i)
                .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
            {
                let _ = el.set_attribute("disabled", "");
            }
        }
    }
}
