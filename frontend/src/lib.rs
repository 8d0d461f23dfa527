//! The browser half of the site: hydrates the HTML the server rendered, so the
//! same `app` components take over in place (no second render, no flash).

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(app::App);
}
