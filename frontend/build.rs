//! Keeps each lazily loaded chunk's constant data in that chunk: without
//! `--no-merge-data-segments` an optimised (LTO) build merges every data
//! segment into one, which stays in the main module, so the first page would
//! download every page's strings and tables (cargo-leptos issue 679).
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=--no-merge-data-segments");
    }
}
