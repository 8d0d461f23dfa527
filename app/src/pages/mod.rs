//! One module per page. Each page reads its data through a server function,
//! renders it on the server, and keeps the page-context store true.

mod admin;
mod advisor;
mod compare;
mod correction;
mod home;
mod not_found;
mod ranking;
mod review;
mod search;
mod trust;

pub use admin::AdminPage;
pub use advisor::AdvisorPage;
pub use compare::ComparePage;
pub use correction::CorrectionPage;
pub use home::HomePage;
pub use not_found::{NotFound, NotFoundPage};
pub use ranking::RankingPageView;
pub use review::ReviewFormPage;
pub use search::SearchPage;
pub use trust::{AboutPage, PrivacyPage, RulesPage};

pub(crate) use crate::text::url_encode as encode;

/// The URL of a comparison of these advisors, in this order.
pub fn compare_href<'a>(ids: impl IntoIterator<Item = &'a str>) -> String {
    let ids = ids.into_iter().map(encode).collect::<Vec<_>>();
    format!("/compare?ids={}", ids.join(","))
}

/// The URL of a ranking.
pub fn ranking_href(school: &str, major: &str, sort: crate::model::SortKey, page: u32) -> String {
    let mut href = format!("/ranking?school={}&major={}", encode(school), encode(major));
    if sort != crate::model::SortKey::Overall {
        href.push_str(&format!("&sort={}", sort.as_param()));
    }
    if page > 1 {
        href.push_str(&format!("&page={page}"));
    }
    href
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SortKey;

    #[test]
    fn compare_urls_keep_the_order_of_the_ids() {
        assert_eq!(compare_href(["34", "12", "56"]), "/compare?ids=34,12,56");
    }

    #[test]
    fn ranking_urls_encode_chinese_and_omit_defaults() {
        assert_eq!(
            ranking_href("北大", "CS", SortKey::Overall, 1),
            "/ranking?school=%E5%8C%97%E5%A4%A7&major=CS"
        );
        assert_eq!(
            ranking_href("a b", "c&d", SortKey::Funding, 3),
            "/ranking?school=a%20b&major=c%26d&sort=funding&page=3"
        );
    }
}
