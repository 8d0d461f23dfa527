//! The name search, where a student starts (`/search?q=`, the header's box,
//! `GET /api/v1/search`, the agent's "帮我找一下叫张三的老师"): advisors by
//! name, pinyin in full or initials (`store::search`, one index range), and
//! schools and majors by name or alias (the catalog, in memory). Results are
//! ranked by how well they matched, then by how many reviews they have.

use app::error::ApiError;
use app::model::{AdvisorHit, MajorHit, SchoolHit, SearchResults};

use crate::catalog::normalize;
use crate::ranking;
use crate::site::Site;
use crate::store::search::{advisors_matching, Quality};
use crate::text::names::query_key;

/// The longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 50;
/// Advisors a results page lists (suggestions ask for fewer).
pub const MAX_ADVISORS: u32 = 20;
const MAX_SCHOOLS: usize = 5;
const MAX_MAJORS: usize = 5;
/// Schools listed under a major: those with most advisors in it.
const SCHOOLS_PER_MAJOR: usize = 4;

/// A query as typed, checked: empty or too long is a 400 with a Chinese
/// message (`field: q`).
pub fn check_query(q: &str) -> Result<String, ApiError> {
    let q = q.trim();
    if q.is_empty() {
        return Err(ApiError::bad_request(
            "missing_parameter",
            "请输入要搜索的导师姓名、学校或专业。",
        )
        .with_field("q"));
    }
    if q.chars().count() > MAX_QUERY_CHARS {
        return Err(ApiError::bad_request(
            "invalid_query",
            format!("搜索内容太长了，最多 {MAX_QUERY_CHARS} 个字。"),
        )
        .with_field("q"));
    }
    Ok(q.to_string())
}

/// How a catalog name matched the folded query: exact, a prefix, inside.
fn name_quality(name: &str, q: &str) -> Option<Quality> {
    let n = normalize(name);
    if n == q {
        Some(Quality::Exact)
    } else if n.starts_with(q) {
        Some(Quality::Start)
    } else if q.chars().count() >= 2 && n.contains(q) {
        Some(Quality::Inside)
    } else {
        None
    }
}

/// The best match among a name and its aliases: (quality, what matched).
fn best_match<'a>(name: &'a str, aliases: &'a [String], q: &str) -> Option<(Quality, &'a str)> {
    std::iter::once(name)
        .chain(aliases.iter().map(String::as_str))
        .filter_map(|n| name_quality(n, q).map(|quality| (quality, n)))
        .min_by_key(|(quality, _)| *quality)
}

impl Site {
    /// Advisors, schools and majors matching `query` (checked with
    /// [`check_query`]); at most `advisors` advisors.
    pub async fn search(&self, query: &str, advisors: u32) -> Result<SearchResults, ApiError> {
        let query = check_query(query)?;
        let key = query_key(&query);
        let hits = advisors_matching(self.pool(), &key, advisors.min(MAX_ADVISORS))
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "search failed");
                ApiError::unavailable("搜索暂时不可用，请稍后再试。")
            })?;
        let catalog = self.catalog();
        let advisors = hits
            .into_iter()
            .map(|h| AdvisorHit {
                id: h.id.to_string(),
                school: catalog
                    .school_by_id(h.school_id)
                    .map(|s| s.name.clone())
                    .unwrap_or_default(),
                major: catalog
                    .major_by_id(h.major_id)
                    .map(|m| m.name.clone())
                    .unwrap_or_default(),
                score: ranking::round1(h.score_overall),
                review_count: h.review_count,
                matched: match h.quality() {
                    Quality::Exact => "exact",
                    Quality::Start => "start",
                    Quality::Inside => "inside",
                }
                .to_string(),
                name: h.name,
                title: h.title,
            })
            .collect();

        let q = normalize(&query);
        let mut schools: Vec<(Quality, i64, SchoolHit)> = catalog
            .schools()
            .iter()
            .filter_map(|s| {
                let (quality, matched) = best_match(&s.name, &s.aliases, &q)?;
                let count = catalog.school_advisor_count(s.id);
                Some((
                    quality,
                    count,
                    SchoolHit {
                        name: s.name.clone(),
                        matched: matched.to_string(),
                        advisor_count: count,
                    },
                ))
            })
            .collect();
        schools.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));

        let mut majors: Vec<(Quality, i64, MajorHit)> = catalog
            .majors()
            .iter()
            .filter_map(|m| {
                let (quality, matched) = best_match(&m.name, &m.aliases, &q)?;
                let mut offering: Vec<(i64, &str)> = catalog
                    .schools()
                    .iter()
                    .map(|s| (catalog.advisor_count(s.id, m.id), s.name.as_str()))
                    .filter(|(n, _)| *n > 0)
                    .collect();
                offering.sort_by_key(|o| std::cmp::Reverse(o.0));
                let total = offering.iter().map(|(n, _)| n).sum();
                Some((
                    quality,
                    total,
                    MajorHit {
                        name: m.name.clone(),
                        matched: matched.to_string(),
                        schools: offering
                            .into_iter()
                            .take(SCHOOLS_PER_MAJOR)
                            .map(|(_, s)| s.to_string())
                            .collect(),
                    },
                ))
            })
            .collect();
        majors.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));

        Ok(SearchResults {
            query,
            advisors,
            schools: schools
                .into_iter()
                .take(MAX_SCHOOLS)
                .map(|(_, _, s)| s)
                .collect(),
            majors: majors
                .into_iter()
                .take(MAX_MAJORS)
                .map(|(_, _, m)| m)
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_or_overlong_query_is_a_chinese_400() {
        for q in ["", "   "] {
            let e = check_query(q).unwrap_err();
            assert_eq!((e.status, e.info.code.as_str()), (400, "missing_parameter"));
        }
        let e = check_query(&"张".repeat(MAX_QUERY_CHARS + 1)).unwrap_err();
        assert_eq!((e.status, e.info.code.as_str()), (400, "invalid_query"));
        assert_eq!(check_query(" 张三 ").unwrap(), "张三");
    }

    #[test]
    fn catalog_names_match_exactly_then_by_start_then_inside() {
        let aliases = vec!["北大".to_string(), "PKU".to_string()];
        assert_eq!(
            best_match("北京大学", &aliases, "北大"),
            Some((Quality::Exact, "北大"))
        );
        assert_eq!(
            best_match("北京大学", &aliases, "pku"),
            Some((Quality::Exact, "PKU"))
        );
        assert_eq!(
            best_match("北京大学", &aliases, "北京"),
            Some((Quality::Start, "北京大学"))
        );
        assert_eq!(
            best_match("北京大学", &aliases, "京大"),
            Some((Quality::Inside, "北京大学"))
        );
        assert_eq!(best_match("北京大学", &aliases, "京"), None);
    }
}
