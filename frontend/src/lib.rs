//! The browser half of the site: hydrates the HTML the server rendered, so the
//! same `app` components take over in place (no second render, no flash).
//!
//! The build is split (`cargo leptos build --split`, see `app::routes`):
//! hydration is asynchronous because it waits for the current page's chunk.
//! Should a chunk not arrive (a dropped connection on a phone), Leptos
//! panics; `app::load_failure` turns that into a message in the panel while
//! the server-rendered page keeps working as plain HTML.
#![recursion_limit = "256"]

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    app::load_failure::install_panic_hook();
    leptos::mount::hydrate_lazy(app::App);
}
