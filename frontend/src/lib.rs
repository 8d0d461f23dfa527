//! The browser half of the site: hydrates the HTML the server rendered, so the
//! same `app` components take over in place (no second render, no flash).
//!
//! One WASM file, hydrated synchronously: a student's first answer needs the
//! panel's network half and most of the views anyway, and on a phone network
//! every extra file costs a round trip (see `docs/architecture.md`, "The
//! browser bundle"). Should the WASM panic, `app::load_failure` says so in the
//! panel while the server-rendered page keeps working as plain HTML. A turn
//! the page's script sent before the WASM is answered before the WASM is
//! instantiated (`app::boot`).
#![recursion_limit = "256"]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::load_failure::install_panic_hook();
    // A message the page's script sent before the WASM (early.js) is on the
    // screen before this runs: the page's loader (`app::boot`) waits for it.
    leptos::mount::hydrate_body(app::App);
}
