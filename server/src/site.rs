//! The read service behind the pages, the JSON API and (next) the agent's
//! tools: it resolves names through the catalog, ranks with the Bayesian
//! average and shapes rows into the shared read models.

use std::sync::Arc;

use crate::db::Pool;

use app::error::ApiError;
use app::model::{
    AdvisorCard, AdvisorDetail, AdvisorRef, Comparison, DimensionAverages, DimensionBest, HomeData,
    Major, RankingPage, RankingStats, RankingView, ReviewPage, ReviewQuery, School, SortKey,
};

use crate::catalog::{Catalog, MajorEntry, Resolution, SchoolEntry};
use crate::ranking::{self, Priors};
use crate::store::{self, AdvisorRow};

/// Advisors per ranking page.
pub const RANKING_PAGE_SIZE: u32 = 20;
/// Reviews per page on the detail page.
pub const REVIEW_PAGE_SIZE: u32 = 10;
/// The highest page number accepted; beyond it a request is malformed.
pub const MAX_PAGE: u32 = 10_000;
/// Tags shown on a ranking card.
const CARD_TAGS: usize = 3;
/// How often a running server looks for a changed roster
/// ([`Site::refresh_if_changed`]): an import shows within this time.
pub const ROSTER_POLL: std::time::Duration = std::time::Duration::from_secs(2);

pub(crate) fn db_error(e: sqlx::Error) -> ApiError {
    tracing::error!(error = %e, "database error");
    ApiError::unavailable("数据加载失败了，请稍后再试。")
}

/// A review query with its filter checked: the relation one of
/// `vocabulary::RELATIONS`, the tag one of the site's tags (blank is none).
pub fn check_review_query(query: &ReviewQuery) -> Result<ReviewQuery, ApiError> {
    let blank = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let relation = blank(&query.relation);
    if let Some(r) = &relation {
        if !app::vocabulary::RELATIONS.contains(&r.as_str()) {
            return Err(ApiError::bad_request(
                "invalid_relation",
                format!(
                    "relation 只能是 {} 之一。",
                    app::vocabulary::RELATIONS.join("、")
                ),
            )
            .with_field("relation"));
        }
    }
    let tag = blank(&query.tag);
    if let Some(t) = &tag {
        if !app::vocabulary::TAGS.iter().any(|(name, _)| name == t) {
            return Err(ApiError::bad_request("invalid_tag", "没有这个标签。").with_field("tag"));
        }
    }
    Ok(ReviewQuery {
        page: query.page.max(1),
        sort: query.sort,
        relation,
        tag,
    })
}

/// Parses an advisor id from the URL; anything but a positive integer is no id.
pub fn parse_advisor_id(id: &str) -> Option<i64> {
    id.trim().parse::<i64>().ok().filter(|n| *n > 0)
}

/// The advisors of one (school, major) in ranking order, with their facts.
pub struct GroupFacts {
    pub rows: Vec<AdvisorRow>,
    pub directions: std::collections::HashMap<i64, Vec<String>>,
    pub tags: std::collections::HashMap<i64, Vec<app::model::TagCount>>,
    pub priors: Priors,
}

/// Who is in one (school, major) and what they research: names and
/// directions change only when advisors are added or edited, not with
/// reviews, so the agent reads them from memory on every turn.
#[derive(Debug, Default)]
pub struct Directory {
    pub advisors: Vec<(i64, String)>,
    pub directions: std::collections::HashMap<i64, Vec<String>>,
    /// Every direction of the pair with how many advisors research it, most
    /// common first (then by name): the chips the agent offers.
    pub common_directions: Vec<(usize, String)>,
}

impl Directory {
    pub fn new(
        advisors: Vec<(i64, String)>,
        directions: std::collections::HashMap<i64, Vec<String>>,
    ) -> Directory {
        let mut tally: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for d in directions.values().flatten() {
            *tally.entry(d.as_str()).or_default() += 1;
        }
        let mut common_directions: Vec<(usize, String)> =
            tally.into_iter().map(|(d, n)| (n, d.to_string())).collect();
        common_directions.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        Directory {
            advisors,
            directions,
            common_directions,
        }
    }
}

/// The cached directories, and a generation that moves on each time they
/// are forgotten: a directory read from the database before that is not
/// kept after it.
#[derive(Default)]
struct Directories {
    generation: u64,
    by_pair: std::collections::HashMap<(i64, i64), Arc<Directory>>,
}

/// Which ranking page: (school, major, sort, page number).
type PageKey = (i64, i64, SortKey, u32);

/// Rendered ranking pages, each with the version of its pair
/// (`pair_versions`) it was rendered at. A chat turn that shows a ranking
/// and the ranking page itself then cost one row read while nothing in the
/// pair changed, instead of a range of the pair's index, twenty advisors'
/// rows and their tags (most of a turn's time at 100,000 advisors).
#[derive(Default)]
struct PageCache {
    by_key: std::collections::HashMap<PageKey, (i64, RankingPage)>,
}

impl PageCache {
    /// Pages kept at most (about 10 KB each: a few MB).
    const CAPACITY: usize = 500;
}

/// Which recommender candidates: (school, major, what a large pair's
/// shortlist was drawn for).
type FactsKey = (i64, i64, Option<String>);

/// The recommender's candidates of a pair with the pair version they were
/// read at, kept as the ranking pages are ([`Site::recommend_facts`]): a
/// recommending turn then reads one row while nothing in the pair changed,
/// instead of up to 150 advisors, their tags and the prior. The stored
/// prior changes only when every score is recomputed, which moves every
/// pair's version.
#[derive(Default)]
struct FactsCache {
    by_key: std::collections::HashMap<FactsKey, (i64, Arc<GroupFacts>)>,
}

impl FactsCache {
    /// Candidate sets kept at most (up to 150 advisors each: a few MB).
    const CAPACITY: usize = 200;
}

pub struct Site {
    pool: Pool,
    catalog: Arc<Catalog>,
    directories: std::sync::RwLock<Directories>,
    /// Rendered ranking pages and the pair version each was rendered at
    /// ([`Site::ranking_page`]).
    pages: std::sync::Mutex<PageCache>,
    /// The recommender's candidates of a pair at a pair version.
    facts: std::sync::Mutex<FactsCache>,
    /// The roster version ([`store::roster`]) the caches were loaded at;
    /// held while they are reloaded, so reloads take turns.
    roster_seen: tokio::sync::Mutex<i64>,
}

impl Site {
    /// Loads the catalog; the pool must already be migrated.
    pub async fn load(pool: Pool) -> Result<Site, sqlx::Error> {
        // The version first: an import that lands while the catalog loads
        // is then seen as a change by the next refresh.
        let roster = store::roster::version(&pool).await?;
        let catalog = Arc::new(Catalog::load(&pool).await?);
        Ok(Site {
            pool,
            catalog,
            directories: Default::default(),
            pages: Default::default(),
            facts: Default::default(),
            roster_seen: tokio::sync::Mutex::new(roster),
        })
    }

    /// Reloads what the site caches about the roster — which pairs have
    /// advisors and how many, each pair's names and directions — when the
    /// roster version in the database has moved (an import, by this
    /// process or another). Returns whether it did. The server calls this
    /// every [`ROSTER_POLL`]; it costs one read of a header field.
    pub async fn refresh_if_changed(&self) -> Result<bool, sqlx::Error> {
        let mut seen = self.roster_seen.lock().await;
        let now = store::roster::version(&self.pool).await?;
        if now == *seen {
            return Ok(false);
        }
        self.catalog
            .set_offered(Catalog::load_offered(&self.pool).await?);
        self.invalidate_directories();
        *seen = now;
        Ok(true)
    }

    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    fn school_model(&self, s: &SchoolEntry) -> School {
        School {
            id: s.id.to_string(),
            name: s.name.clone(),
            city: s.city.clone(),
            tier: s.tier.clone(),
            aliases: s.aliases.clone(),
            advisor_count: self.catalog.school_advisor_count(s.id),
        }
    }

    fn major_model(&self, m: &MajorEntry, school_id: Option<i64>) -> Major {
        let advisor_count = match school_id {
            Some(s) => self.catalog.advisor_count(s, m.id),
            None => self
                .catalog
                .schools()
                .iter()
                .map(|s| self.catalog.advisor_count(s.id, m.id))
                .sum(),
        };
        Major {
            id: m.id.to_string(),
            name: m.name.clone(),
            category: m.category.clone(),
            aliases: m.aliases.clone(),
            advisor_count,
        }
    }

    /// Every school, most popular first.
    pub fn schools(&self) -> Vec<School> {
        self.catalog
            .schools()
            .iter()
            .map(|s| self.school_model(s))
            .collect()
    }

    /// The majors of a school (by any of its names), or of the whole site.
    pub fn majors(&self, school: Option<&str>) -> Result<(Option<String>, Vec<Major>), ApiError> {
        match school.map(str::trim).filter(|s| !s.is_empty()) {
            None => Ok((
                None,
                self.catalog
                    .majors()
                    .iter()
                    .map(|m| self.major_model(m, None))
                    .collect(),
            )),
            Some(name) => {
                let s = self.require_school(name)?;
                let majors = self
                    .catalog
                    .majors_of(s.id)
                    .into_iter()
                    .map(|m| self.major_model(m, Some(s.id)))
                    .collect();
                Ok((Some(s.name.clone()), majors))
            }
        }
    }

    /// A school by any of its names, or the error the API answers.
    pub fn require_school(&self, name: &str) -> Result<&SchoolEntry, ApiError> {
        match self.catalog.resolve_school(name) {
            Resolution::Found(s) => Ok(s),
            Resolution::Ambiguous(list) => Err(ApiError::bad_request(
                "ambiguous_school",
                format!(
                    "“{}”可能指：{}。请说出学校全称。",
                    name.trim(),
                    list.iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join("、")
                ),
            )
            .with_field("school")),
            Resolution::Unknown => Err(ApiError::not_found(
                "unknown_school",
                format!("没有找到“{}”这所学校。", name.trim()),
            )
            .with_field("school")),
        }
    }

    /// The priors the stored scores were computed with (`store::scores`):
    /// whatever is computed with them agrees with the order of the rankings.
    pub async fn priors(&self) -> Result<Priors, ApiError> {
        let stored = store::scores::stored_prior(&self.pool)
            .await
            .map_err(db_error)?;
        Ok(stored.priors())
    }

    /// Everything the recommender and the agent need about one (school,
    /// major): its advisors, their directions and tags, and the priors.
    pub async fn group_facts(&self, school_id: i64, major_id: i64) -> Result<GroupFacts, ApiError> {
        let priors = self.priors().await?;
        let rows = store::rankings::all(&self.pool, school_id, major_id)
            .await
            .map_err(db_error)?;
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let directions = self
            .directory(school_id, major_id)
            .await?
            .directions
            .clone();
        let tags = store::tags_of(&self.pool, &ids).await.map_err(db_error)?;
        Ok(GroupFacts {
            rows,
            directions,
            tags,
            priors,
        })
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

    /// [`Site::group_facts`] of some advisors of a pair only (the
    /// recommender's shortlist of a large pair), in ranking order.
    pub async fn facts_of(
        &self,
        school_id: i64,
        major_id: i64,
        ids: &[i64],
    ) -> Result<GroupFacts, ApiError> {
        let priors = self.priors().await?;
        let mut rows = store::advisors_by_ids(&self.pool, ids)
            .await
            .map_err(db_error)?;
        rows.retain(|r| r.school_id == school_id && r.major_id == major_id);
        rows.sort_by(|a, b| {
            ranking::compare(
                (a.score_overall, a.review_count, a.id),
                (b.score_overall, b.review_count, b.id),
            )
        });
        let directory = self.directory(school_id, major_id).await?;
        let directions = ids
            .iter()
            .filter_map(|id| directory.directions.get(id).map(|d| (*id, d.clone())))
            .collect();
        let tags = store::tags_of(&self.pool, ids).await.map_err(db_error)?;
        Ok(GroupFacts {
            rows,
            directions,
            tags,
            priors,
        })
    }

    /// The names and directions of one (school, major), cached in memory.
    pub async fn directory(
        &self,
        school_id: i64,
        major_id: i64,
    ) -> Result<Arc<Directory>, ApiError> {
        let key = (school_id, major_id);
        let generation = {
            let m = self.directories.read().unwrap_or_else(|e| e.into_inner());
            if let Some(d) = m.by_pair.get(&key) {
                return Ok(d.clone());
            }
            m.generation
        };
        let rows = store::advisors_in(&self.pool, school_id, major_id)
            .await
            .map_err(db_error)?;
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let directions = store::directions_of(&self.pool, &ids)
            .await
            .map_err(db_error)?;
        let directory = Arc::new(Directory::new(
            rows.into_iter().map(|r| (r.id, r.name)).collect(),
            directions,
        ));
        let mut m = self.directories.write().unwrap_or_else(|e| e.into_inner());
        // Forgotten while it was read: it may predate the change.
        if m.generation == generation {
            m.by_pair.insert(key, directory.clone());
        }
        Ok(directory)
    }

    /// Forgets cached directories (after advisors are added or edited), and
    /// the rendered ranking pages, whose cards show the directions.
    pub fn invalidate_directories(&self) {
        let mut m = self.directories.write().unwrap_or_else(|e| e.into_inner());
        m.by_pair.clear();
        m.generation = m.generation.wrapping_add(1);
        let mut pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        pages.by_key.clear();
        let mut facts = self.facts.lock().unwrap_or_else(|e| e.into_inner());
        facts.by_key.clear();
    }

    /// The advisors a recommendation weighs in a pair, with their
    /// directions, tags and the priors: every advisor of a pair of at most
    /// `max`, else those `shortlist` picks from the best `max` (in ranking
    /// order) and the pair's directory — the same pick for the same `drawn_for`.
    /// Kept at the pair's version, so while nothing in the pair changed a
    /// recommendation costs one row read.
    pub async fn candidate_facts(
        &self,
        (school_id, major_id): (i64, i64),
        max: usize,
        drawn_for: Option<&str>,
        shortlist: impl FnOnce(&[i64], &Directory) -> Vec<i64>,
    ) -> Result<Arc<GroupFacts>, ApiError> {
        let small = self.catalog.advisor_count(school_id, major_id) <= max as i64;
        // A small pair's candidates are all of it, whatever they are for.
        let key = (
            school_id,
            major_id,
            (!small).then(|| drawn_for.unwrap_or_default().to_string()),
        );
        let (_, version) = store::rankings::size_and_version(&self.pool, school_id, major_id)
            .await
            .map_err(db_error)?;
        let kept = {
            let facts = self.facts.lock().unwrap_or_else(|e| e.into_inner());
            facts
                .by_key
                .get(&key)
                .filter(|(at, _)| *at == version)
                .map(|(_, f)| f.clone())
        };
        if let Some(facts) = kept {
            return Ok(facts);
        }
        let generation = self
            .directories
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .generation;
        let facts = if small {
            self.group_facts(school_id, major_id).await?
        } else {
            let top = self.top_advisor_ids(school_id, major_id, max).await?;
            let directory = self.directory(school_id, major_id).await?;
            let ids = shortlist(&top, &directory);
            self.facts_of(school_id, major_id, &ids).await?
        };
        let facts = Arc::new(facts);
        // As `keep_page`: not kept if the directories were forgotten meanwhile.
        let directories = self.directories.read().unwrap_or_else(|e| e.into_inner());
        if directories.generation == generation {
            let mut kept = self.facts.lock().unwrap_or_else(|e| e.into_inner());
            if kept.by_key.len() >= FactsCache::CAPACITY {
                kept.by_key.clear();
            }
            kept.by_key.insert(key, (version, facts.clone()));
        }
        Ok(facts)
    }

    /// One advisor's row, if the id names one.
    pub async fn advisor_row(&self, id: &str) -> Result<Option<AdvisorRow>, ApiError> {
        match parse_advisor_id(id) {
            Some(id) => store::advisor(&self.pool, id).await.map_err(db_error),
            None => Ok(None),
        }
    }

    /// A page context as the database knows it: advisors whose ids do not
    /// exist are dropped, names and titles are the stored ones. What the
    /// browser reports is a claim; the agent acts on what is true. `known`
    /// is a page checked before (the session's last one): its advisors are
    /// taken from it, and only ids it does not name are read — most turns
    /// show the page the last turn left, and read nothing here.
    pub async fn checked_page(
        &self,
        mut page: app::protocol::PageContext,
        known: &app::protocol::PageContext,
    ) -> Result<app::protocol::PageContext, ApiError> {
        let mut names: std::collections::HashMap<i64, (String, String)> = known
            .visible_advisors
            .iter()
            .filter_map(|a| Some((parse_advisor_id(&a.id)?, (a.name.clone(), a.title.clone()))))
            .collect();
        let mut ids: Vec<i64> = page
            .visible_advisors
            .iter()
            .map(|a| a.id.as_str())
            .chain(page.selected_advisor.iter().map(|a| a.id.as_str()))
            .filter_map(parse_advisor_id)
            .filter(|id| !names.contains_key(id))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        if !ids.is_empty() {
            names.extend(
                store::advisor_names(&self.pool, &ids)
                    .await
                    .map_err(db_error)?,
            );
        }
        let lookup = |id: &str| parse_advisor_id(id).and_then(|n| names.get(&n));
        page.visible_advisors.retain_mut(|a| match lookup(&a.id) {
            Some((name, title)) => {
                a.name = name.clone();
                a.title = title.clone();
                true
            }
            None => false,
        });
        page.selected_advisor = page.selected_advisor.and_then(|mut a| {
            let (name, _) = lookup(&a.id)?;
            a.name = name.clone();
            Some(a)
        });
        Ok(page)
    }

    /// Advisors called `name`, within one school (and major) when given.
    pub async fn advisors_named(
        &self,
        name: &str,
        school_id: Option<i64>,
        major_id: Option<i64>,
    ) -> Result<Vec<AdvisorRow>, ApiError> {
        store::advisors_named(&self.pool, name, school_id, major_id)
            .await
            .map_err(db_error)
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
        let page = page.clamp(1, MAX_PAGE);
        let offset = u64::from(page - 1) * u64::from(RANKING_PAGE_SIZE);
        let (total, version) = store::rankings::size_and_version(&self.pool, school.id, major.id)
            .await
            .map_err(db_error)?;
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

    /// The detail of one advisor, `None` if there is no such advisor.
    pub async fn advisor_detail(&self, id: &str) -> Result<Option<AdvisorDetail>, ApiError> {
        let Some(id) = parse_advisor_id(id) else {
            return Ok(None);
        };
        let Some(a) = store::advisor(&self.pool, id).await.map_err(db_error)? else {
            return Ok(None);
        };
        let rank = store::rankings::rank_of(&self.pool, &a)
            .await
            .map_err(db_error)?;
        let rank_total = store::rankings::size(&self.pool, a.school_id, a.major_id)
            .await
            .map_err(db_error)?;
        let directory = self.directory(a.school_id, a.major_id).await?;
        let tags = store::tags_of(&self.pool, &[a.id])
            .await
            .map_err(db_error)?;
        let n = a.review_count;
        let avg = |sum| ranking::round1(ranking::mean(sum, n));
        Ok(Some(AdvisorDetail {
            id: a.id.to_string(),
            name: a.name.clone(),
            title: a.title.clone(),
            school: self
                .catalog
                .school_by_id(a.school_id)
                .map(|s| s.name.clone())
                .unwrap_or_default(),
            major: self
                .catalog
                .major_by_id(a.major_id)
                .map(|m| m.name.clone())
                .unwrap_or_default(),
            bio: a.bio.clone(),
            directions: directory.directions.get(&a.id).cloned().unwrap_or_default(),
            review_count: n,
            averages: (n > 0).then(|| DimensionAverages {
                academic: avg(a.sum_academic),
                funding: avg(a.sum_funding),
                relationship: avg(a.sum_relationship),
                prospects: avg(a.sum_prospects),
                overall: avg(a.sum_overall),
            }),
            score: ranking::round1(a.score_overall),
            rank: rank as u32,
            rank_total: rank_total.max(0) as u64,
            histogram: a.histogram(),
            tags: tags.get(&a.id).cloned().unwrap_or_default(),
            recommend: app::model::RecommendShare {
                yes: a.recommend_yes,
                answered: a.recommend_answered,
            },
        }))
    }

    /// A page of an advisor's reviews as `query` asks (order, relation,
    /// tag), `None` if there is no such advisor. A relation or tag the site
    /// does not have is a 400 (`invalid_relation`, `invalid_tag`). `viewer`
    /// is the reading client: each review says whether it voted 有用.
    pub async fn reviews(
        &self,
        id: &str,
        query: &ReviewQuery,
        viewer: Option<&str>,
    ) -> Result<Option<ReviewPage>, ApiError> {
        let query = check_review_query(query)?;
        let Some(id) = parse_advisor_id(id) else {
            return Ok(None);
        };
        let Some(a) = store::advisor(&self.pool, id).await.map_err(db_error)? else {
            return Ok(None);
        };
        let page = query.page.clamp(1, MAX_PAGE);
        let offset = (page as u64 - 1) * REVIEW_PAGE_SIZE as u64;
        let (total, reviews) =
            store::reviews_of(&self.pool, id, &query, REVIEW_PAGE_SIZE, offset, viewer)
                .await
                .map_err(db_error)?;
        Ok(Some(ReviewPage {
            advisor_id: id.to_string(),
            page,
            per_page: REVIEW_PAGE_SIZE,
            total,
            average: (a.review_count > 0)
                .then(|| ranking::round1(ranking::mean(a.sum_overall, a.review_count))),
            reviews,
            query: ReviewQuery { page, ..query },
        }))
    }

    /// Advisors side by side, in the order given: 2 to 4 distinct advisor
    /// ids (repeats count once). Each id must be a positive integer
    /// (`invalid_id`) naming an advisor (`unknown_advisor`, 404); too few or
    /// too many distinct ids is `invalid_ids`.
    pub async fn compare(&self, ids: &[String]) -> Result<Comparison, ApiError> {
        let count_error = || {
            ApiError::bad_request(
                "invalid_ids",
                format!(
                    "请选择 {} 到 {} 位导师进行对比。",
                    Comparison::MIN,
                    Comparison::MAX
                ),
            )
            .with_field("ids")
        };
        let mut wanted: Vec<i64> = Vec::with_capacity(Comparison::MAX);
        for raw in ids {
            let id = parse_advisor_id(raw).ok_or_else(|| {
                ApiError::bad_request(
                    "invalid_id",
                    format!("导师编号“{}”无效，必须是正整数。", shown(raw)),
                )
                .with_field("ids")
            })?;
            if !wanted.contains(&id) {
                wanted.push(id);
            }
            // A list far too long is refused before it costs anything.
            if wanted.len() > Comparison::MAX {
                return Err(count_error());
            }
        }
        if wanted.len() < Comparison::MIN {
            return Err(count_error());
        }
        let mut advisors = Vec::with_capacity(wanted.len());
        for id in wanted {
            let detail = self.advisor_detail(&id.to_string()).await?.ok_or_else(|| {
                ApiError::not_found("unknown_advisor", format!("没有找到编号为 {id} 的导师。"))
                    .with_field("ids")
            })?;
            advisors.push(detail);
        }
        Ok(Comparison { advisors })
    }

    /// What the reviews of a resolved (school, major) add up to: sums of the
    /// advisors' aggregate columns and a best advisor per dimension, in SQL
    /// (`store::rankings`), never the reviews. [`stats_of`] is the same
    /// statistics from rows, the reference the tests hold this to.
    pub async fn ranking_stats(
        &self,
        school: &SchoolEntry,
        major: &MajorEntry,
    ) -> Result<RankingStats, ApiError> {
        use store::rankings;
        let (s, m) = (school.id, major.id);
        let sums = rankings::sums(&self.pool, s, m).await.map_err(db_error)?;
        let most = rankings::most_reviewed(&self.pool, s, m)
            .await
            .map_err(db_error)?;
        let mut best = Vec::with_capacity(DIMENSIONS.len());
        for &(key, sum, column) in &DIMENSIONS {
            if let Some(a) = rankings::best_on(&self.pool, s, m, column)
                .await
                .map_err(db_error)?
            {
                best.push(DimensionBest {
                    dimension: key.as_param().to_string(),
                    label: key.label().to_string(),
                    advisor: advisor_ref(
                        &a,
                        ranking::round1(ranking::mean(sum(&a), a.review_count)),
                    ),
                });
            }
        }
        Ok(RankingStats {
            advisors: sums.advisors.max(0) as u64,
            reviews: sums.reviews,
            average: (sums.reviews > 0)
                .then(|| ranking::round1(ranking::mean(sums.sum_overall, sums.reviews))),
            histogram: [
                sums.hist_1,
                sums.hist_2,
                sums.hist_3,
                sums.hist_4,
                sums.hist_5,
            ],
            most_reviewed: most.map(|a| advisor_ref(&a, a.review_count as f64)),
            best,
        })
    }

    /// [`Site::ranking_stats`] by what the student typed, resolved as
    /// [`Site::ranking`] resolves it; `None` where that shows no ranking (an
    /// unknown or ambiguous school, a major the school does not have).
    pub async fn ranking_stats_by_name(
        &self,
        school: &str,
        major: &str,
    ) -> Result<Option<RankingStats>, ApiError> {
        let Some(s) = self.catalog.resolve_school(school).found() else {
            return Ok(None);
        };
        if major.trim().is_empty() {
            return Ok(None);
        }
        match self.catalog.resolve_major_at(s.id, major) {
            Resolution::Found(m) if self.catalog.advisor_count(s.id, m.id) > 0 => {
                self.ranking_stats(s, m).await.map(Some)
            }
            _ => Ok(None),
        }
    }

    pub async fn home(&self) -> Result<HomeData, ApiError> {
        let stats = store::site_stats(&self.pool).await.map_err(db_error)?;
        let advisor_count = store::advisor_total(&self.pool).await.map_err(db_error)?;
        Ok(HomeData {
            schools: self.schools(),
            school_count: self.catalog.schools().len() as i64,
            advisor_count,
            review_count: stats.review_count,
        })
    }
}

/// An id as a message may quote it: a long one is cut, so a garbage
/// parameter does not come back whole.
fn shown(raw: &str) -> String {
    const LIMIT: usize = 20;
    let raw = raw.trim();
    if raw.chars().count() > LIMIT {
        format!("{}…", raw.chars().take(LIMIT).collect::<String>())
    } else {
        raw.to_string()
    }
}

/// Reads one aggregate column of an advisor row.
type SumColumn = fn(&AdvisorRow) -> i64;

/// The four dimensions students rate, with the aggregate column of each
/// (as a row's field and as the store's column).
const DIMENSIONS: [(SortKey, SumColumn, store::rankings::SumColumn); 4] = [
    (
        SortKey::Academic,
        |a| a.sum_academic,
        store::rankings::SumColumn::Academic,
    ),
    (
        SortKey::Funding,
        |a| a.sum_funding,
        store::rankings::SumColumn::Funding,
    ),
    (
        SortKey::Relationship,
        |a| a.sum_relationship,
        store::rankings::SumColumn::Relationship,
    ),
    (
        SortKey::Prospects,
        |a| a.sum_prospects,
        store::rankings::SumColumn::Prospects,
    ),
];

fn advisor_ref(a: &AdvisorRow, value: f64) -> AdvisorRef {
    AdvisorRef {
        id: a.id.to_string(),
        name: a.name.clone(),
        value,
    }
}

/// The statistics of a group of advisors from their aggregates alone.
pub fn stats_of(rows: &[AdvisorRow]) -> RankingStats {
    let reviews: i64 = rows.iter().map(|a| a.review_count).sum();
    let sum_overall: i64 = rows.iter().map(|a| a.sum_overall).sum();
    let mut histogram = [0i64; 5];
    for a in rows {
        for (total, n) in histogram.iter_mut().zip(a.histogram()) {
            *total += n;
        }
    }
    // Most reviews; equal counts go to the name first by code point (a
    // stable order, not pinyin), then the lower id.
    let most_reviewed = rows
        .iter()
        .filter(|a| a.review_count > 0)
        .min_by(|a, b| {
            b.review_count
                .cmp(&a.review_count)
                .then_with(|| a.name.cmp(&b.name))
                .then(a.id.cmp(&b.id))
        })
        .map(|a| advisor_ref(a, a.review_count as f64));
    let rated: Vec<&AdvisorRow> = rows
        .iter()
        .filter(|a| a.review_count >= RankingStats::MIN_REVIEWS)
        .collect();
    let best = DIMENSIONS
        .iter()
        .filter_map(|&(key, sum, _)| {
            rated
                .iter()
                .min_by(|a, b| better_on(a, b, sum))
                .map(|a| DimensionBest {
                    dimension: key.as_param().to_string(),
                    label: key.label().to_string(),
                    advisor: advisor_ref(a, ranking::round1(ranking::mean(sum(a), a.review_count))),
                })
        })
        .collect();
    RankingStats {
        advisors: rows.len() as u64,
        reviews,
        average: (reviews > 0).then(|| ranking::round1(ranking::mean(sum_overall, reviews))),
        histogram,
        most_reviewed,
        best,
    }
}

/// `Less` when `a` is the better advisor on the dimension `sum` reads: the
/// higher exact average (compared as fractions, no rounding), then more
/// reviews, then the name first by code point, then the lower id.
fn better_on(a: &AdvisorRow, b: &AdvisorRow, sum: SumColumn) -> std::cmp::Ordering {
    let mean_a = i128::from(sum(a)) * i128::from(b.review_count);
    let mean_b = i128::from(sum(b)) * i128::from(a.review_count);
    mean_b
        .cmp(&mean_a)
        .then(b.review_count.cmp(&a.review_count))
        .then_with(|| a.name.cmp(&b.name))
        .then(a.id.cmp(&b.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An advisor row with `n` reviews whose scores on every dimension add
    /// up to `sums` (academic, funding, relationship, prospects).
    fn row(id: i64, name: &str, n: i64, sums: [i64; 4]) -> AdvisorRow {
        AdvisorRow {
            id,
            name: name.to_string(),
            title: "教授".to_string(),
            school_id: 1,
            major_id: 1,
            bio: String::new(),
            review_count: n,
            sum_overall: sums[0],
            sum_academic: sums[0],
            sum_funding: sums[1],
            sum_relationship: sums[2],
            sum_prospects: sums[3],
            hist_1: 0,
            hist_2: 0,
            hist_3: 0,
            hist_4: n,
            hist_5: 0,
            score_overall: 0.0,
            recommend_yes: 0,
            recommend_answered: 0,
        }
    }

    fn best_names(stats: &RankingStats) -> Vec<(&str, &str)> {
        stats
            .best
            .iter()
            .map(|b| (b.dimension.as_str(), b.advisor.name.as_str()))
            .collect()
    }

    #[test]
    fn an_empty_group_has_no_average_and_no_names() {
        let stats = stats_of(&[]);
        assert_eq!(stats.advisors, 0);
        assert_eq!(stats.reviews, 0);
        assert_eq!(stats.average, None);
        assert_eq!(stats.histogram, [0; 5]);
        assert_eq!(stats.most_reviewed, None);
        assert!(stats.best.is_empty());

        let unreviewed = stats_of(&[row(1, "甲", 0, [0; 4])]);
        assert_eq!(unreviewed.advisors, 1);
        assert_eq!(unreviewed.most_reviewed, None);
        assert!(unreviewed.best.is_empty());
    }

    #[test]
    fn two_perfect_reviews_are_not_enough_to_be_best() {
        let rows = [
            row(1, "满分", 2, [10, 10, 10, 10]),
            row(2, "稳定", 10, [40, 35, 45, 42]),
            row(3, "扎实", 3, [12, 13, 12, 12]),
        ];
        let stats = stats_of(&rows);
        assert_eq!(
            best_names(&stats),
            vec![
                ("academic", "稳定"),
                ("funding", "扎实"),
                ("relationship", "稳定"),
                ("prospects", "稳定"),
            ]
        );
        assert_eq!(stats.best[0].label, "学术水平");
        assert_eq!(stats.best[1].advisor.value, 4.3);
        assert_eq!(stats.reviews, 15);
        assert_eq!(stats.average, Some(ranking::round1(62.0 / 15.0)));
        assert_eq!(stats.histogram, [0, 0, 0, 15, 0]);
        let most = stats.most_reviewed.unwrap();
        assert_eq!((most.id.as_str(), most.value), ("2", 10.0));
    }

    #[test]
    fn equal_averages_go_to_more_reviews_then_to_the_name() {
        // 4.0 exactly from 3 and from 6 reviews: more reviews win.
        let stats = stats_of(&[row(1, "甲", 3, [12; 4]), row(2, "乙", 6, [24; 4])]);
        assert!(stats.best.iter().all(|b| b.advisor.name == "乙"));
        // Same average, same count: the name first by code point wins (张
        // U+5F20 before 李 U+674E), whatever the id.
        let stats = stats_of(&[row(3, "李四", 4, [16; 4]), row(9, "张三", 4, [16; 4])]);
        assert!(stats.best.iter().all(|b| b.advisor.name == "张三"));
        assert_eq!(stats.most_reviewed.unwrap().name, "张三");
        // Averages that round alike are still told apart exactly: 13/3 > 30/7.
        let stats = stats_of(&[row(1, "甲", 7, [30; 4]), row(2, "乙", 3, [13; 4])]);
        assert_eq!(stats.best[0].advisor.name, "乙");
        assert_eq!(stats.best[0].advisor.value, 4.3);
    }
}
