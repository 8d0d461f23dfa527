//! User text in the few places the renderer does not escape it.
//!
//! Leptos escapes text children and attribute values, except inside the
//! elements it treats as raw text: `<textarea>`, `<script>`, `<style>`,
//! `<noscript>`, and the document `<title>` that `leptos_meta` writes. A
//! review re-shown in the form's textarea or an advisor's name in a title is
//! text a stranger wrote, so it goes through here first. And the one
//! percent-encoding of values put into URLs ([`url_encode`]).

/// `s` escaped for HTML text (`&`, `<`, `>`, quotes).
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The content of a `<textarea>`, for its `inner_html`: escaped, so the
/// server's HTML and the browser's `innerHTML` (parsed as the textarea's
/// own text) both show exactly `s`.
pub fn textarea_html(s: &str) -> String {
    escape_html(s)
}

/// A page title: escaped when the server writes it into `<title>`, as is in
/// the browser, which sets `document.title` (plain text).
pub fn title(s: impl Into<String>) -> String {
    let s = s.into();
    if cfg!(feature = "ssr") {
        escape_html(&s)
    } else {
        s
    }
}

/// Percent-encodes a query value (everything but unreserved ASCII), so
/// Chinese names survive in URLs.
pub fn url_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_quotes_are_escaped() {
        assert_eq!(
            escape_html("</textarea><script>alert('x')</script>&\""),
            "&lt;/textarea&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;"
        );
        assert_eq!(escape_html("张三 很好"), "张三 很好");
    }
}
