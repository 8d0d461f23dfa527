//! What a page says about itself to search engines and link previews: its
//! title, `<meta name="description">` and the Open Graph tags, through one
//! component every page renders ([`PageMeta`]); and the site's canonical
//! address ([`SiteUrl`], `SITE_URL`), which the server's robots.txt and
//! sitemap read too.
//!
//! Why the meta tags are rendered on the server only: crawlers and link
//! previews read the server's HTML and run no WASM, and the browser's copy
//! of the app does not know `SITE_URL`. Rendered there too, they would cost
//! the bundle code and need the address shipped to it. The server registers
//! them with `leptos_meta`, which writes them into the head it sends;
//! hydration leaves them where they are. The title is rendered on both
//! sides, since a client-side navigation must change it.

use leptos::prelude::*;
use leptos_meta::Title;

/// The icon link previews show (`og:image`): a PNG, since previews take no
/// SVG (`scripts/icons.sh` draws it from the favicon).
pub const OG_IMAGE: &str = "/icon-512.png";
/// The site's name, as titles and previews end with it.
pub const SITE_NAME: &str = "导师评价网";

/// The site's canonical address (`SITE_URL`, e.g. `https://daoshi.example`):
/// scheme and host, with a path prefix when the site lives under one, never
/// a trailing slash. Absolute links for crawlers (`og:url`, the sitemap)
/// are built from it; without it they are left out, since an address taken
/// from the request's `Host` header is whatever the client wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteUrl(String);

impl SiteUrl {
    /// An `http://` or `https://` address with a host and no query or
    /// fragment; `Err` says in Chinese what is wrong.
    pub fn parse(s: &str) -> Result<SiteUrl, String> {
        let s = s.trim().trim_end_matches('/');
        let rest = s
            .strip_prefix("https://")
            .or_else(|| s.strip_prefix("http://"))
            .ok_or_else(|| format!("SITE_URL 必须以 http:// 或 https:// 开头：{s}"))?;
        let host = rest.split('/').next().unwrap_or_default();
        if host.is_empty() {
            return Err(format!("SITE_URL 缺少域名：{s}"));
        }
        if rest.contains(['?', '#']) || rest.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!("SITE_URL 只能包含协议、域名和路径：{s}"));
        }
        Ok(SiteUrl(s.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The absolute address of `path` (which starts with `/`).
    pub fn join(&self, path: &str) -> String {
        format!("{}{path}", self.0)
    }
}

/// A page's title and, on the server, its description and Open Graph tags
/// (`og:title`, `og:description`, `og:type`, `og:image`, `og:site_name`,
/// `og:locale`, and `og:url` when [`SiteUrl`] is in context). `title` is the
/// page's own part ("关于"); the app's title formatter adds the site's name,
/// and `og:site_name` names it. `og_type` is `website` unless given.
///
/// Only the title is part of the view, on both sides: the server's tags are
/// handed to `leptos_meta` as the component runs, so the body the server
/// renders is the one the browser hydrates (a view that existed on one side
/// only would leave a marker the other side does not expect).
#[component]
pub fn PageMeta(
    #[prop(into)] title: String,
    #[prop(into)] description: String,
    #[prop(optional)] og_type: Option<&'static str>,
) -> impl IntoView {
    #[cfg(feature = "ssr")]
    register_server_tags(&title, description, og_type.unwrap_or("website"));
    #[cfg(not(feature = "ssr"))]
    let _ = (description, og_type);
    view! { <Title text=crate::text::title(title)/> }
}

/// Whether this render has registered its page's tags ([`provide_once`]).
#[cfg(feature = "ssr")]
#[derive(Clone, Default)]
struct Registered(std::sync::Arc<std::sync::atomic::AtomicBool>);

/// Called once per render at the app's root: a page inside a `Suspense`
/// runs its body more than once while the server resolves it, and the
/// head must get one set of tags, not one per run.
pub fn provide_once() {
    #[cfg(feature = "ssr")]
    provide_context(Registered::default());
}

/// Renders the server's tags into `leptos_meta`'s head (see the module's
/// doc): rendering a `Meta` to HTML is what registers it. The first
/// `PageMeta` of a render registers; later runs (see [`provide_once`]) do
/// not.
#[cfg(feature = "ssr")]
fn register_server_tags(title: &str, description: String, og_type: &'static str) {
    use leptos::tachys::view::RenderHtml;
    use leptos_meta::Meta;
    if let Some(Registered(done)) = use_context::<Registered>() {
        if done.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
    }
    let site = use_context::<SiteUrl>();
    let location = leptos_router::hooks::use_location();
    let (path, query) = (
        location.pathname.get_untracked(),
        location.search.get_untracked(),
    );
    let here = if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    };
    let image = match &site {
        Some(s) => s.join(OG_IMAGE),
        None => OG_IMAGE.to_string(),
    };
    let _ = view! { <Meta name="description" content=description.clone()/> }.to_html();
    let mut properties = vec![
        ("og:title", title.to_string()),
        ("og:description", description),
        ("og:type", og_type.to_string()),
        ("og:site_name", SITE_NAME.to_string()),
        ("og:locale", "zh_CN".to_string()),
        ("og:image", image),
    ];
    if let Some(s) = &site {
        properties.push(("og:url", s.join(&here)));
    }
    for (property, content) in properties {
        let _ = view! { <Meta property=property content=content/> }.to_html();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_url_is_an_absolute_http_address_without_a_trailing_slash() {
        let u = SiteUrl::parse(" https://daoshi.example/ ").unwrap();
        assert_eq!(u.as_str(), "https://daoshi.example");
        assert_eq!(u.join("/about"), "https://daoshi.example/about");
        assert_eq!(
            SiteUrl::parse("http://127.0.0.1:3000/site")
                .unwrap()
                .join("/rules"),
            "http://127.0.0.1:3000/site/rules"
        );
        for bad in [
            "daoshi.example",
            "ftp://x",
            "https://",
            "https://a.b/?x=1",
            "https://a b",
        ] {
            let e = SiteUrl::parse(bad).unwrap_err();
            assert!(e.contains("SITE_URL"), "{bad}: {e}");
        }
    }
}
