//! What the site tells crawlers: `/robots.txt` (everything may be crawled
//! but the admin and the API, and where the sitemap is when `SITE_URL` is
//! set) and the sitemap of the home page, the pages about the site and
//! every advisor's page.
//!
//! Why parts: a sitemap file may list at most [`MAX_URLS`] URLs, and the
//! site may hold 100,000 advisors. Up to that many URLs `/sitemap.xml` is
//! one `urlset`; past it, it is a `sitemapindex` of `/sitemap-pages.xml`
//! (the pages that are not an advisor's) and numbered
//! `/sitemap-advisors-N.xml` parts, each read from the database on its own
//! (`store::sitemap`), so no request reads every advisor.
//!
//! Without `SITE_URL` there is no sitemap (404) and robots.txt names none:
//! a sitemap's URLs must be absolute, and an address taken from the
//! request's `Host` header is whatever the client wrote.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use app::error::ApiError;
use app::meta::SiteUrl;
use app::text::escape_html;

use super::JsonError;
use crate::site::Site;

/// The most URLs one sitemap file may list (sitemaps.org).
pub const MAX_URLS: usize = 50_000;
/// The pages listed besides the advisors', in this order: the home page and
/// the pages about the site that the footer links.
pub const PAGES: [&str; 5] = ["/", "/about", "/rules", "/privacy", "/correction"];
/// Crawlers may keep these an hour: advisors come and go seldom.
const CACHE: &str = "public, max-age=3600";

#[derive(Clone)]
struct Crawlers {
    site: Arc<Site>,
    url: Option<SiteUrl>,
    per_part: usize,
}

/// The routes, with at most `per_part` URLs per sitemap file ([`MAX_URLS`]
/// on the site; tests use fewer to see the index at the demo's size).
pub fn router(site: Arc<Site>, url: Option<SiteUrl>, per_part: usize) -> Router {
    Router::new()
        .route("/robots.txt", get(robots))
        .route("/sitemap.xml", get(sitemap))
        .route("/sitemap-pages.xml", get(pages_part))
        .route("/sitemap-advisors-{part}", get(advisors_part))
        .with_state(Crawlers {
            site,
            url,
            per_part: per_part.clamp(PAGES.len() + 1, MAX_URLS),
        })
}

/// robots.txt for a site at `url` (`None`: no sitemap line).
pub fn robots_txt(url: Option<&SiteUrl>) -> String {
    let mut out = String::from("User-agent: *\nDisallow: /admin\nDisallow: /api/\n");
    if let Some(u) = url {
        out.push_str(&format!("\nSitemap: {}\n", u.join("/sitemap.xml")));
    }
    out
}

async fn robots(State(c): State<Crawlers>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, CACHE),
        ],
        robots_txt(c.url.as_ref()),
    )
        .into_response()
}

fn xml(body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/xml; charset=utf-8"),
            (header::CACHE_CONTROL, CACHE),
        ],
        body,
    )
        .into_response()
}

fn not_found(message: &'static str) -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        message,
    )
        .into_response()
}

const NO_SITE_URL: &str = "没有配置网站地址（SITE_URL），所以没有站点地图。";

fn unavailable(e: sqlx::Error) -> Response {
    tracing::error!(error = %e, "sitemap not read");
    JsonError(ApiError::unavailable("站点地图暂时无法生成，请稍后再试。")).into_response()
}

/// A `urlset` of these absolute URLs.
fn urlset(urls: impl Iterator<Item = String>) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for u in urls {
        out.push_str(&format!("<url><loc>{}</loc></url>\n", escape_html(&u)));
    }
    out.push_str("</urlset>\n");
    out
}

/// A `sitemapindex` of these absolute sitemap URLs.
fn index(urls: impl Iterator<Item = String>) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for u in urls {
        out.push_str(&format!(
            "<sitemap><loc>{}</loc></sitemap>\n",
            escape_html(&u)
        ));
    }
    out.push_str("</sitemapindex>\n");
    out
}

fn advisor_urls(url: &SiteUrl, ids: Vec<i64>) -> impl Iterator<Item = String> + '_ {
    ids.into_iter()
        .map(move |id| url.join(&format!("/advisor/{id}")))
}

fn page_urls(url: &SiteUrl) -> impl Iterator<Item = String> + '_ {
    PAGES.iter().map(move |p| url.join(p))
}

/// How many advisor parts `advisors` make at `per_part` URLs a part.
pub fn parts(advisors: usize, per_part: usize) -> usize {
    advisors.div_ceil(per_part.max(1))
}

async fn sitemap(State(c): State<Crawlers>) -> Response {
    let Some(url) = &c.url else {
        return not_found(NO_SITE_URL);
    };
    let total = match crate::store::sitemap::advisor_count(c.site.pool()).await {
        Ok(n) => n.max(0) as usize,
        Err(e) => return unavailable(e),
    };
    if PAGES.len() + total <= c.per_part {
        let ids = match crate::store::sitemap::advisor_ids(c.site.pool(), 0, total as i64).await {
            Ok(ids) => ids,
            Err(e) => return unavailable(e),
        };
        return xml(urlset(page_urls(url).chain(advisor_urls(url, ids))));
    }
    let numbered =
        (1..=parts(total, c.per_part)).map(|n| url.join(&format!("/sitemap-advisors-{n}.xml")));
    xml(index(
        std::iter::once(url.join("/sitemap-pages.xml")).chain(numbered),
    ))
}

async fn pages_part(State(c): State<Crawlers>) -> Response {
    match &c.url {
        Some(url) => xml(urlset(page_urls(url))),
        None => not_found(NO_SITE_URL),
    }
}

async fn advisors_part(State(c): State<Crawlers>, Path(part): Path<String>) -> Response {
    let Some(url) = &c.url else {
        return not_found(NO_SITE_URL);
    };
    let Some(n) = part
        .strip_suffix(".xml")
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| *n >= 1)
    else {
        return not_found("没有这个站点地图。");
    };
    let skip = (n - 1).saturating_mul(c.per_part);
    let ids = match crate::store::sitemap::advisor_ids(
        c.site.pool(),
        skip.min(i64::MAX as usize) as i64,
        c.per_part as i64,
    )
    .await
    {
        Ok(ids) => ids,
        Err(e) => return unavailable(e),
    };
    if ids.is_empty() {
        return not_found("没有这个站点地图。");
    }
    xml(urlset(advisor_urls(url, ids)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robots_keeps_crawlers_off_the_admin_and_the_api() {
        let none = robots_txt(None);
        assert!(none.contains("Disallow: /admin\n") && none.contains("Disallow: /api/\n"));
        assert!(!none.contains("Sitemap"));
        let url = SiteUrl::parse("https://daoshi.example").unwrap();
        assert!(robots_txt(Some(&url)).ends_with("Sitemap: https://daoshi.example/sitemap.xml\n"));
    }

    #[test]
    fn parts_hold_at_most_their_size() {
        assert_eq!(parts(0, MAX_URLS), 0);
        assert_eq!(parts(50_000, MAX_URLS), 1);
        assert_eq!(parts(100_000, MAX_URLS), 2);
        assert_eq!(parts(100_001, MAX_URLS), 3);
    }
}
