//! User text in the few places the renderer does not escape it.
//!
//! Leptos escapes text children and attribute values, except inside the
//! elements it treats as raw text: `<textarea>`, `<script>`, `<style>`,
//! `<noscript>`, and the document `<title>` that `leptos_meta` writes. A
//! review re-shown in the form's textarea or an advisor's name in a title is
//! text a stranger wrote, so it goes through here first. And the one
//! percent-encoding of values put into URLs ([`url_encode`]). And numbers
//! with a fixed number of decimals ([`fixed`], [`svg_number`]).

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

/// `x` with `places` decimals ("4.3", "87"), rounded half away from zero.
///
/// Written with integers on purpose: `format!("{x:.1}")` and an `f64`
/// attribute pull the standard library's float formatting (Grisu and Dragon4)
/// into the browser's WASM, and every page that shows a score would load it.
/// Not finite is shown as 0.
pub fn fixed(x: f64, places: u32) -> String {
    if !x.is_finite() {
        return "0".to_string();
    }
    let scale = 10u64.pow(places.min(6));
    let scaled = (x.abs() * scale as f64).round() as u64;
    let sign = if x < 0.0 && scaled != 0 { "-" } else { "" };
    let (int, frac) = (scaled / scale, scaled % scale);
    if places == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac:0width$}", width = places.min(6) as usize)
    }
}

/// An SVG coordinate or length: one decimal, none when it is whole ("22",
/// "22.5").
pub fn svg_number(x: f64) -> String {
    let s = fixed(x, 1);
    match s.strip_suffix(".0") {
        Some(whole) => whole.to_string(),
        None => s,
    }
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

    #[test]
    fn fixed_decimals_without_float_formatting() {
        assert_eq!(fixed(4.25, 1), "4.3");
        assert_eq!(fixed(4.0, 1), "4.0");
        assert_eq!(fixed(87.4, 0), "87");
        assert_eq!(fixed(0.04, 1), "0.0");
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(-1.25, 1), "-1.3");
        assert_eq!(fixed(f64::NAN, 1), "0");
        assert_eq!(fixed(1.23456, 2), "1.23");
        for tenths in 0..=50 {
            let x = tenths as f64 / 10.0;
            assert_eq!(fixed(x, 1), format!("{x:.1}"));
        }
    }

    #[test]
    fn svg_numbers_drop_a_whole_decimal() {
        assert_eq!(svg_number(22.0), "22");
        assert_eq!(svg_number(22.5), "22.5");
        assert_eq!(svg_number(160.0 + 90.0 * 0.75), "227.5");
    }
}
