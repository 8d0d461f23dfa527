//! How the page starts the app: the module and the WASM announced in the
//! head (`modulepreload`, `preload`) and a module script that compiles the
//! WASM as it streams in, instantiates it and hydrates (`boot.js`).
//!
//! It takes the place of Leptos's `HydrationScripts` for one reason: a
//! message the panel's script sent before the app was there
//! (`agent_panel/early.js`) is answered on screen before the WASM is
//! instantiated, not only before hydration. On a phone's CPU instantiating
//! the module is itself a long task, and on a warm visit it came while the
//! reply was arriving. The file names are the ones the build wrote
//! (`hash-files`: `hash.txt` beside the binary, as Leptos reads it).

use leptos::prelude::*;

/// The longest the app waits for the script's reply (a model's turn may take
/// seconds): after it the app starts and takes the turn over when the reply
/// comes (`agent_panel/early.rs`).
pub const HOLD_MS: u32 = 3000;

/// The module's and the WASM's paths under the site's root, and the script
/// that loads them (worked out once per process: every page carries them).
#[cfg(feature = "ssr")]
fn files(options: &LeptosOptions) -> &'static (String, String, String) {
    static FILES: std::sync::OnceLock<(String, String, String)> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let mut js = options.output_name.to_string();
        let mut wasm = options.output_name.to_string();
        let hashes = options
            .hash_files
            .then(|| {
                let exe = std::env::current_exe().ok()?;
                std::fs::read_to_string(exe.parent()?.join(options.hash_file.as_ref())).ok()
            })
            .flatten();
        match hashes {
            Some(hashes) => {
                for (file, hash) in hashes.lines().filter_map(|l| l.trim().split_once(':')) {
                    match file {
                        "js" => js.push_str(&format!(".{}", hash.trim())),
                        "wasm" => wasm.push_str(&format!(".{}", hash.trim())),
                        _ => {}
                    }
                }
            }
            // Without hashes wasm-bindgen names the WASM `<name>_bg.wasm`
            // (unless cargo-leptos renamed the output).
            None if option_env!("LEPTOS_OUTPUT_NAME").is_none() => wasm.push_str("_bg"),
            None => {}
        }
        let pkg = &options.site_pkg_dir;
        let (js, wasm) = (format!("/{pkg}/{js}.js"), format!("/{pkg}/{wasm}.wasm"));
        let script = include_str!("boot.js")
            .replace("HOLD_MS", &HOLD_MS.to_string())
            .replace("JS_FILE", &format!("{js:?}"))
            .replace("WASM_FILE", &format!("{wasm:?}"));
        (js, wasm, script)
    })
}

/// The preload links and the module script, with the page's CSP nonce.
#[component]
pub fn AppScripts(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    let (js, wasm, script) = files(&options).clone();
    // Rendered on the server only (the shell).
    #[cfg(not(feature = "ssr"))]
    let (js, wasm, script) = {
        let _ = &options;
        (String::new(), String::new(), String::new())
    };
    let nonce = leptos::nonce::use_nonce();
    view! {
        <link rel="modulepreload" href=js.clone() crossorigin=""/>
        <link rel="preload" href=wasm r#as="fetch" r#type="application/wasm" crossorigin=""/>
        <script type="module" nonce=nonce>{script}</script>
    }
}
