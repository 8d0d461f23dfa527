//! The rankings: a ranking by what the student typed (names resolved,
//! ambiguity and unknown names shown as views of their own), one page of
//! a resolved pair, and the rendered pages kept per pair version. Also
//! what else is read in ranking order: the priors the stored scores were
//! computed with, and the ids of a pair's best advisors.

use app::error::ApiError;
use app::model::{AdvisorCard, RankingPage, RankingView, SortKey};

use crate::catalog::{MajorEntry, Resolution, SchoolEntry};
use crate::ranking::{self, Priors};
use crate::store;

use super::{db_error, Site, MAX_PAGE};

/// Advisors per ranking page.
pub const RANKING_PAGE_SIZE: u32 = 20;
/// Tags shown on a ranking card.
const CARD_TAGS: usize = 3;

/// Which ranking page: (school, major, sort, page number).
type PageKey = (i64, i64, SortKey, u32);

/// Rendered ranking pages, each with the version of its pair
/// (`pair_versions`) it was rendered at. A chat turn that shows a ranking
/// and the ranking page itself then cost one row read while nothing in the
/// pair changed, instead of a range of the pair's index, twenty advisors'
/// rows and their tags (most of a turn's time at 100,000 advisors).
#[derive(Default)]
pub(super) struct PageCache {
    pub(super) by_key: std::collections::HashMap<PageKey, (i64, RankingPage)>,
}

impl PageCache {
    /// Pages kept at most (about 10 KB each: a few MB).
    const CAPACITY: usize = 500;
}

/// The sizes and page versions of the pairs one chat turn has read
/// (`store::rankings::size_and_version`). A turn that puts a ranking on
/// screen and recommends from it reads a pair's version for the page and
/// for the candidates (and for the page it leads to, when it names a pair
/// other than the page's): one statement each, and on SQLite each a
/// hand-over to the connection's thread. Read once, it holds for the whole turn, as
/// any one request's reads are as of its start. Nothing that lives longer
/// than a turn keeps one: another instance's write moves a version.
#[derive(Default)]
pub struct PairVersions(std::sync::Mutex<std::collections::HashMap<(i64, i64), (i64, i64)>>);

impl Site {
    /// The size and page version of a pair, read once per `seen`.
    pub(super) async fn size_and_version(
        &self,
        (school_id, major_id): (i64, i64),
        seen: &PairVersions,
    ) -> Result<(i64, i64), ApiError> {
        let known = seen
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(school_id, major_id))
            .copied();
        if let Some(read) = known {
            return Ok(read);
        }
        let read = store::rankings::size_and_version(&self.pool, school_id, major_id)
            .await
            .map_err(db_error)?;
        seen.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert((school_id, major_id), read);
        Ok(read)
    }
}

impl Site {
    /// The priors the stored scores were computed with (`store::scores`):
    /// whatever is computed with them agrees with the order of the rankings.
    pub async fn priors(&self) -> Result<Priors, ApiError> {
        let stored = store::scores::stored_prior(&self.pool)
            .await
            .map_err(db_error)?;
        Ok(stored.priors())
    }

    /// The ids of the `n` best advisors of a pair (overall ranking order).
    pub async fn top_advisor_ids(
        &self,
        school_id: i64,
        major_id: i64,
        n: usize,
    ) -> Result<Vec<i64>, ApiError> {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        let rows = store::rankings::page(&self.pool, school_id, major_id, SortKey::Overall, n, 0)
            .await
            .map_err(db_error)?;
        Ok(rows.into_iter().map(|r| r.id).collect())
    }

    /// A ranking by what the student typed: names are resolved, ambiguity and
    /// unknown names become views of their own.
    pub async fn ranking(
        &self,
        school: &str,
        major: &str,
        sort: SortKey,
        page: u32,
    ) -> Result<RankingView, ApiError> {
        let s = match self.catalog.resolve_school(school) {
            Resolution::Found(s) => s,
            Resolution::Ambiguous(list) => {
                return Ok(RankingView::ChooseSchool {
                    query: school.trim().to_string(),
                    candidates: list.iter().map(|s| s.name.clone()).collect(),
                })
            }
            Resolution::Unknown => {
                return Ok(RankingView::UnknownSchool {
                    query: school.trim().to_string(),
                })
            }
        };
        let offered = |unknown_major: Option<String>| RankingView::ChooseMajor {
            school: s.name.clone(),
            unknown_major,
            majors: self
                .catalog
                .majors_of(s.id)
                .into_iter()
                .map(|m| self.major_model(m, Some(s.id)))
                .collect(),
        };
        if major.trim().is_empty() {
            return Ok(offered(None));
        }
        let m = match self.catalog.resolve_major_at(s.id, major) {
            Resolution::Found(m) if self.catalog.advisor_count(s.id, m.id) > 0 => m,
            _ => return Ok(offered(Some(major.trim().to_string()))),
        };
        let page = self.ranking_page(s, m, sort, page).await?;
        Ok(RankingView::Ranking(page))
    }

    /// One page of the ranking of a resolved (school, major).
    pub async fn ranking_page(
        &self,
        school: &SchoolEntry,
        major: &MajorEntry,
        sort: SortKey,
        page: u32,
    ) -> Result<RankingPage, ApiError> {
        self.ranking_page_in(school, major, sort, page, &PairVersions::default())
            .await
    }

    /// [`Site::ranking_page`] with the pair versions a chat turn has read.
    pub async fn ranking_page_in(
        &self,
        school: &SchoolEntry,
        major: &MajorEntry,
        sort: SortKey,
        page: u32,
        seen: &PairVersions,
    ) -> Result<RankingPage, ApiError> {
        let page = page.clamp(1, MAX_PAGE);
        let offset = u64::from(page - 1) * u64::from(RANKING_PAGE_SIZE);
        let (total, version) = self.size_and_version((school.id, major.id), seen).await?;
        let key = (school.id, major.id, sort, page);
        if let Some(hit) = self.cached_page(key, version) {
            return Ok(hit);
        }
        let generation = self
            .directories
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .generation;
        let slice = store::rankings::page(
            &self.pool,
            school.id,
            major.id,
            sort,
            RANKING_PAGE_SIZE,
            offset,
        )
        .await
        .map_err(db_error)?;
        let ids: Vec<i64> = slice.iter().map(|a| a.id).collect();
        let directory = self.directory(school.id, major.id).await?;
        let mut tags = store::top_tags_of(&self.pool, &ids, CARD_TAGS)
            .await
            .map_err(db_error)?;
        let advisors = slice
            .into_iter()
            .enumerate()
            .map(|(i, a)| AdvisorCard {
                id: a.id.to_string(),
                name: a.name.clone(),
                title: a.title.clone(),
                rank: (offset + i as u64 + 1) as u32,
                rating: ranking::round1(ranking::mean(a.sum_overall, a.review_count)),
                score: ranking::round1(a.score_overall),
                review_count: a.review_count,
                top_tags: tags
                    .remove(&a.id)
                    .unwrap_or_default()
                    .into_iter()
                    .take(CARD_TAGS)
                    .map(|t| t.tag)
                    .collect(),
                directions: directory.directions.get(&a.id).cloned().unwrap_or_default(),
            })
            .collect();
        let rendered = RankingPage {
            school: school.name.clone(),
            major: major.name.clone(),
            sort,
            page,
            per_page: RANKING_PAGE_SIZE,
            total: total.max(0) as u64,
            advisors,
        };
        self.keep_page(key, version, generation, &rendered);
        Ok(rendered)
    }

    /// A rendered page of `key`, if one is kept at `version`.
    fn cached_page(&self, key: PageKey, version: i64) -> Option<RankingPage> {
        let pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        pages
            .by_key
            .get(&key)
            .filter(|(at, _)| *at == version)
            .map(|(_, page)| page.clone())
    }

    /// Keeps a rendered page; the cache is emptied when full (a bound on
    /// memory, never on correctness: a page is reused only at its
    /// version). Not kept if the directories were forgotten while it was
    /// rendered: its cards may show directions from before that. The locks
    /// are taken in [`Site::invalidate_directories`]' order.
    fn keep_page(&self, key: PageKey, version: i64, generation: u64, page: &RankingPage) {
        let directories = self.directories.read().unwrap_or_else(|e| e.into_inner());
        if directories.generation != generation {
            return;
        }
        let mut pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        if pages.by_key.len() >= PageCache::CAPACITY {
            pages.by_key.clear();
        }
        pages.by_key.insert(key, (version, page.clone()));
    }
}
