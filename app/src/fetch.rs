//! The browser's `fetch` for the few API calls a button makes itself
//! (删除我的评价, 有用, the panel's recording), with the API's Chinese error
//! message on refusal.
//! Browser only: on the server there is no window and every call fails.

/// Sends `method url` with `headers` and no body: the status and the text
/// of a 2xx answer, else the error envelope's message (or `fallback`).
pub async fn send(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    fallback: &str,
) -> Result<(u16, String), String> {
    request(method, url, headers, None, fallback).await
}

/// [`send`] with a body (a `FormData`, a `Blob`, a string): the panel's
/// recording on its way to the recognizer.
pub async fn request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&wasm_bindgen::JsValue>,
    fallback: &str,
) -> Result<(u16, String), String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let failed = |_| fallback.to_string();
    let h = web_sys::Headers::new().map_err(failed)?;
    for (k, v) in headers {
        h.set(k, v).map_err(failed)?;
    }
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    init.set_headers(h.as_ref());
    if let Some(body) = body {
        init.set_body(body);
    }
    let request = web_sys::Request::new_with_str_and_init(url, &init).map_err(failed)?;
    let window = web_sys::window().ok_or_else(|| fallback.to_string())?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(failed)?
        .dyn_into()
        .map_err(failed)?;
    let text = match response.text() {
        Ok(p) => JsFuture::from(p)
            .await
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    };
    if response.ok() {
        return Ok((response.status(), text));
    }
    Err(
        serde_json::from_str::<crate::protocol::ErrorEnvelope>(&text)
            .map(|e| e.error.message)
            .unwrap_or_else(|_| fallback.to_string()),
    )
}
