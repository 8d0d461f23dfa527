//! The site's files (`/pkg/…`, `public/`) and how long a browser keeps them.
//!
//! The build names the module, the WASM and the stylesheet after their
//! content (cargo-leptos `hash-files`, recorded in `hash.txt` beside the
//! server's binary). A name then stands for one content for good, so the
//! browser keeps such a file a year without asking again (`immutable`): a
//! repeat visit fetches only the page. Pages are rendered per request and
//! always revalidated (`no-cache`), so a deploy reaches the next page load,
//! and a page names only its own deploy's files.
//!
//! Without the hash file (`cargo leptos watch`, tests) the names do not
//! change with the content, and those files are revalidated too.

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use leptos::config::LeptosOptions;
use tower_http::services::ServeDir;

/// A year: files whose name is their content's hash.
const HASHED: &str = "public, max-age=31536000, immutable";
/// Pages, and files whose name does not change with their content.
const REVALIDATE: &str = "no-cache";
/// `public/` (the icon): unhashed, rarely changed.
const PUBLIC: &str = "public, max-age=86400";

/// The options with `hash_files` on when the build wrote the hash file beside
/// this binary, where Leptos looks for it when it names the files.
pub fn hashed_names(mut options: LeptosOptions) -> LeptosOptions {
    options.hash_files = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(options.hash_file.as_ref())))
        .is_some_and(|file| file.is_file());
    options
}

/// The build's files (`/pkg/…`), served as they are on disk, precompressed
/// (`.br`, `.gz`) where the browser accepts it, with conditional requests
/// answered. Not through `leptos_axum::file_and_error_handler`: it applies
/// the response options of whatever page the worker thread rendered last, so
/// now and then the WASM went out with a 404 page's status, and the page never
/// hydrated.
pub fn files(options: &LeptosOptions) -> ServeDir {
    ServeDir::new(format!("{}/{}", options.site_root, options.site_pkg_dir))
        .precompressed_br()
        .precompressed_gzip()
}

/// How long a response may be kept, by what it is. An explicit
/// `Cache-Control` set by a handler stays.
pub fn cache_control(path: &str, content_type: &str, hashed_names: bool) -> Option<&'static str> {
    if path.starts_with("/pkg/") {
        Some(if hashed_names { HASHED } else { REVALIDATE })
    } else if content_type.starts_with("text/html") {
        Some(REVALIDATE)
    } else if path.starts_with("/api/") {
        None
    } else if content_type.starts_with("image/") {
        Some(PUBLIC)
    } else {
        None
    }
}

/// Middleware: sets [`cache_control`] on every response that has none.
pub async fn caching(State(hashed_names): State<bool>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    let mut res = next.run(req).await;
    if res.headers().contains_key(header::CACHE_CONTROL) {
        return res;
    }
    let content_type = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    // Only what was found: a 404 for a file of another deploy is not kept.
    if !res.status().is_success() {
        return res;
    }
    if let Some(value) = cache_control(&path, content_type, hashed_names) {
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    }
    // The files are sent precompressed by what the browser accepts: a
    // shared cache must keep one copy per encoding.
    if path.starts_with("/pkg/") && !res.headers().contains_key(header::VARY) {
        res.headers_mut()
            .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_files_are_kept_for_good_and_pages_are_revalidated() {
        let wasm = "/pkg/advisor-review.7ZkQ2xr1.wasm";
        assert_eq!(cache_control(wasm, "application/wasm", true), Some(HASHED));
        assert_eq!(
            cache_control(wasm, "application/wasm", false),
            Some(REVALIDATE)
        );
        assert_eq!(
            cache_control("/ranking", "text/html; charset=utf-8", true),
            Some(REVALIDATE)
        );
        assert_eq!(
            cache_control("/favicon.svg", "image/svg+xml", true),
            Some(PUBLIC)
        );
        assert_eq!(
            cache_control("/api/v1/advisors", "application/json", true),
            None
        );
    }
}
