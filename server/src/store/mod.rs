//! Every SQL statement of the site, in one place, each written once for
//! SQLite and PostgreSQL (`crate::db` says how: `$1` parameters, the storage
//! classes both have, two SQLite functions defined in PostgreSQL). This file:
//! advisors with their aggregates, directions, tags, reviews and site
//! totals. Nothing here scans reviews to rank; the aggregates on `advisors`
//! are kept on write ([`reviews::add_to_aggregates`]) and rebuilt wholesale
//! by [`rebuild_aggregates`] after a bulk load.
//!
//! - [`reviews`]: the review write paths (a new review, edits, deletions,
//!   reports, near-duplicate signatures) and the aggregates they move.
//! - [`moderation`]: the admin's lists and the audit log.
//! - [`corrections`]: requests for a correction, from the `/correction` form.
//! - [`sitemap`]: the advisors the sitemap lists, one part at a time.
//! - [`catalog`], [`dataset`]: the catalog's rows; bulk loads of generated data.
//! - [`sql`], [`plan`]: statements built piece by piece; query plans.
//! - [`rankings`]: a page of a ranking, a rank, a pair's statistics — each
//!   one range of an index, whatever the size of the pair.
//! - [`scores`]: the stored Bayesian scores those indexes are ordered by,
//!   and why they stay correct while the site-wide prior moves.
//! - [`drafts`], [`limits`]: the short-lived state every instance must see
//!   alike (refused review forms, per-client counters).
//! - [`sessions`]: chat sessions, their messages and the coach's checkpoints.
//! - [`places`]: the sums of a school or a major, for general questions.
//! - [`search`]: advisors by name, pinyin or initials, one index range.
//! - [`votes`]: 有用 on reviews, one per client, and the count it moves.
//! - [`client_keys`]: what a client's identity is stored as — a keyed hash
//!   of its address, never the address — the secret it is made with, and
//!   the rewrite of keys older versions stored as the address.
//! - [`roster`]: advisors added and edited by `server import`, and the
//!   roster version that tells running instances to reload their caches.

pub mod catalog;
pub mod client_keys;
pub mod corrections;
pub mod dataset;
pub mod drafts;
pub mod limits;
pub mod moderation;
pub mod places;
pub mod plan;
pub mod rankings;
pub mod reviews;
pub mod roster;
pub mod scores;
pub mod search;
pub mod sessions;
pub mod sitemap;
pub mod sql;
pub mod votes;

use std::collections::HashMap;

use crate::db::{Conn, Pool};
use sql::Sql;

use app::model::{Review, ReviewQuery, ReviewSort, TagCount};

/// An advisor row with its aggregates.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AdvisorRow {
    pub id: i64,
    pub name: String,
    pub title: String,
    pub school_id: i64,
    pub major_id: i64,
    pub bio: String,
    pub review_count: i64,
    pub sum_overall: i64,
    pub sum_academic: i64,
    pub sum_funding: i64,
    pub sum_relationship: i64,
    pub sum_prospects: i64,
    pub hist_1: i64,
    pub hist_2: i64,
    pub hist_3: i64,
    pub hist_4: i64,
    pub hist_5: i64,
    /// The stored Bayesian overall score ([`scores`]): what rankings sort by.
    pub score_overall: f64,
    /// 是否推荐报考 over its published reviews: yes answers, answers.
    pub recommend_yes: i64,
    pub recommend_answered: i64,
}

impl AdvisorRow {
    pub fn histogram(&self) -> [i64; 5] {
        [
            self.hist_1,
            self.hist_2,
            self.hist_3,
            self.hist_4,
            self.hist_5,
        ]
    }
}

/// Site-wide sums of published reviews: the prior of every Bayesian average.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct SiteStats {
    pub review_count: i64,
    pub sum_overall: i64,
    pub sum_academic: i64,
    pub sum_funding: i64,
    pub sum_relationship: i64,
    pub sum_prospects: i64,
}

impl AdvisorRow {
    /// The value a ranking under `sort` orders this advisor by.
    pub fn sort_value(&self, priors: &crate::ranking::Priors, sort: app::model::SortKey) -> f64 {
        use crate::ranking::bayesian;
        use app::model::SortKey;
        let n = self.review_count;
        match sort {
            SortKey::Overall => bayesian(self.sum_overall, n, priors.overall),
            SortKey::Academic => bayesian(self.sum_academic, n, priors.academic),
            SortKey::Funding => bayesian(self.sum_funding, n, priors.funding),
            SortKey::Relationship => bayesian(self.sum_relationship, n, priors.relationship),
            SortKey::Prospects => bayesian(self.sum_prospects, n, priors.prospects),
            SortKey::Reviews => n as f64,
        }
    }
}

impl SiteStats {
    /// The ranking's priors these sums give.
    pub fn priors(&self) -> crate::ranking::Priors {
        crate::ranking::Priors::from_sums(
            [
                self.sum_overall,
                self.sum_academic,
                self.sum_funding,
                self.sum_relationship,
                self.sum_prospects,
            ],
            self.review_count,
        )
    }
}

const ADVISOR_COLUMNS: &str = "id, name, title, school_id, major_id, bio, review_count, \
     sum_overall, sum_academic, sum_funding, sum_relationship, sum_prospects, \
     hist_1, hist_2, hist_3, hist_4, hist_5, score_overall, recommend_yes, recommend_answered";

pub async fn site_stats<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
) -> Result<SiteStats, sqlx::Error> {
    sqlx::query_as(
        "SELECT review_count, sum_overall, sum_academic, sum_funding, sum_relationship, \
         sum_prospects FROM site_stats WHERE id = 1",
    )
    .fetch_optional(db)
    .await
    .map(Option::unwrap_or_default)
}

/// Number of advisors on the site.
pub async fn advisor_total(pool: &Pool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM advisors")
        .fetch_one(pool)
        .await
}

/// All advisors of one (school, major), by id: one range of an index.
pub async fn advisors_in(
    pool: &Pool,
    school_id: i64,
    major_id: i64,
) -> Result<Vec<AdvisorRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors WHERE school_id = $1 AND major_id = $2 ORDER BY id"
    ))
    .bind(school_id)
    .bind(major_id)
    .fetch_all(pool)
    .await
}

pub async fn advisor(pool: &Pool, id: i64) -> Result<Option<AdvisorRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// The advisors among `ids` that exist (any order).
pub async fn advisors_by_ids(pool: &Pool, ids: &[i64]) -> Result<Vec<AdvisorRow>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut qb = Sql::new(format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors WHERE id IN ("
    ));
    push_id_list(&mut qb, ids);
    qb.build_query_as().fetch_all(pool).await
}

/// The names and titles of the advisors among `ids` that exist.
pub async fn advisor_names(
    pool: &Pool,
    ids: &[i64],
) -> Result<HashMap<i64, (String, String)>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let mut qb = Sql::new("SELECT id, name, title FROM advisors WHERE id IN (");
    let mut list = qb.separated(", ");
    for id in ids {
        list.push_bind(*id);
    }
    qb.push(")");
    let rows: Vec<(i64, String, String)> = qb.build_query_as().fetch_all(pool).await?;
    Ok(rows.into_iter().map(|(id, n, t)| (id, (n, t))).collect())
}

/// Advisors with exactly this name, optionally within a school and major.
pub async fn advisors_named(
    pool: &Pool,
    name: &str,
    school_id: Option<i64>,
    major_id: Option<i64>,
) -> Result<Vec<AdvisorRow>, sqlx::Error> {
    let mut qb = Sql::new(format!(
        "SELECT {ADVISOR_COLUMNS} FROM advisors WHERE name = "
    ));
    qb.push_bind(name.to_string());
    if let Some(s) = school_id {
        qb.push(" AND school_id = ").push_bind(s);
    }
    if let Some(m) = major_id {
        qb.push(" AND major_id = ").push_bind(m);
    }
    qb.push(" ORDER BY review_count DESC, id LIMIT 20");
    qb.build_query_as().fetch_all(pool).await
}

fn push_id_list(qb: &mut Sql<'_>, ids: &[i64]) {
    let mut list = qb.separated(", ");
    for id in ids {
        list.push_bind(*id);
    }
    qb.push(")");
}

/// Research directions of several advisors, each in the advisor's own order.
pub async fn directions_of(
    pool: &Pool,
    ids: &[i64],
) -> Result<HashMap<i64, Vec<String>>, sqlx::Error> {
    let mut out: HashMap<i64, Vec<String>> = HashMap::new();
    if ids.is_empty() {
        return Ok(out);
    }
    let mut qb =
        Sql::new("SELECT advisor_id, direction FROM advisor_directions WHERE advisor_id IN (");
    push_id_list(&mut qb, ids);
    qb.push(" ORDER BY advisor_id, position");
    for (id, direction) in qb.build_query_as::<(i64, String)>().fetch_all(pool).await? {
        out.entry(id).or_default().push(direction);
    }
    Ok(out)
}

/// Tag counts of several advisors, most frequent first.
pub async fn tags_of(pool: &Pool, ids: &[i64]) -> Result<HashMap<i64, Vec<TagCount>>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let mut qb = Sql::new("SELECT advisor_id, tag, count FROM advisor_tags WHERE advisor_id IN (");
    push_id_list(&mut qb, ids);
    qb.push(" ORDER BY advisor_id, count DESC, tag");
    collect_tags(qb, pool).await
}

/// The `per` most frequent tags of several advisors (a ranking card shows
/// three): one seek per advisor in `advisor_tags_top` (migration 0025),
/// `per` rows each, whatever the number of tags its reviews gave it (a
/// window over every tag of the page's advisors was most of a chat turn's
/// time at scale, where the first advisors of a big pair have hundreds).
pub async fn top_tags_of(
    pool: &Pool,
    ids: &[i64],
    per: usize,
) -> Result<HashMap<i64, Vec<TagCount>>, sqlx::Error> {
    // SQLite allows 500 terms in a compound SELECT.
    const TERMS: usize = 100;
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let mut out = HashMap::new();
    if per == 0 {
        return Ok(out);
    }
    let per = i64::try_from(per).unwrap_or(i64::MAX);
    for chunk in ids.chunks(TERMS) {
        let mut qb = Sql::new("");
        for (i, id) in chunk.iter().enumerate() {
            if i > 0 {
                qb.push(" UNION ALL ");
            }
            qb.push(TOP_TAGS_HEAD)
                .push_bind(*id)
                .push(TOP_TAGS_ORDER)
                .push_bind(per)
                .push(format_args!(") AS t{i}"));
        }
        out.extend(collect_tags(qb, pool).await?);
    }
    Ok(out)
}

/// One advisor's term of [`top_tags_of`]: its id, then the limit, follow.
const TOP_TAGS_HEAD: &str =
    "SELECT * FROM (SELECT advisor_id, tag, count FROM advisor_tags WHERE advisor_id = ";
const TOP_TAGS_ORDER: &str = " ORDER BY count DESC, tag LIMIT ";

/// How the database reads the top tags of two advisors ([`plan`]): the
/// tests hold each term to one range of `advisor_tags_top`, no sort.
pub async fn top_tags_plan(pool: &Pool) -> Result<plan::QueryPlan, sqlx::Error> {
    let sql = format!(
        "{TOP_TAGS_HEAD}1{TOP_TAGS_ORDER}3) AS t0 UNION ALL {TOP_TAGS_HEAD}2{TOP_TAGS_ORDER}3) AS t1"
    );
    plan::explain(pool, &sql).await
}

/// (advisor, tag, count) rows, in order, grouped by advisor.
async fn collect_tags(
    mut qb: Sql<'_>,
    pool: &Pool,
) -> Result<HashMap<i64, Vec<TagCount>>, sqlx::Error> {
    let mut out: HashMap<i64, Vec<TagCount>> = HashMap::new();
    for (id, tag, count) in qb
        .build_query_as::<(i64, String, i64)>()
        .fetch_all(pool)
        .await?
    {
        out.entry(id).or_default().push(TagCount { tag, count });
    }
    Ok(out)
}

#[derive(sqlx::FromRow)]
struct ReviewRow {
    id: i64,
    advisor_id: i64,
    academic: i64,
    funding: i64,
    relationship: i64,
    prospects: i64,
    overall: i64,
    text: String,
    relation: String,
    created_at: String,
    tags: Option<String>,
    recommend: Option<i64>,
    helpful_count: i64,
    voted: i64,
}

/// Pushes the WHERE clause of an advisor's published reviews under `query`'s
/// filter (relation, tag).
fn push_review_filter<'a>(qb: &mut Sql<'a>, advisor_id: i64, query: &'a ReviewQuery) {
    qb.push(" WHERE r.advisor_id = ")
        .push_bind(advisor_id)
        .push(" AND r.status = 'published'");
    if let Some(relation) = &query.relation {
        qb.push(" AND r.relation = ").push_bind(relation.as_str());
    }
    if let Some(tag) = &query.tag {
        qb.push(" AND EXISTS (SELECT 1 FROM review_tags t WHERE t.review_id = r.id AND t.tag = ")
            .push_bind(tag.as_str())
            .push(")");
    }
}

/// Published reviews of an advisor as `query` asks (最新 or 最有用 first,
/// filtered by relation and tag): (how many match, one page). `viewer` is the
/// reading client's key: each review says whether it voted 有用.
pub async fn reviews_of(
    pool: &Pool,
    advisor_id: i64,
    query: &ReviewQuery,
    limit: u32,
    offset: u64,
    viewer: Option<&str>,
) -> Result<(u64, Vec<Review>), sqlx::Error> {
    let mut count = Sql::new("SELECT COUNT(*) FROM reviews r");
    push_review_filter(&mut count, advisor_id, query);
    let total: i64 = count.build_query_scalar().fetch_one(pool).await?;
    let mut qb = Sql::new(
        "SELECT r.id, r.advisor_id, r.academic, r.funding, r.relationship, r.prospects, r.overall, \
                r.text, r.relation, r.created_at, r.recommend, r.helpful_count, \
                (SELECT group_concat(tag, ',') FROM review_tags t WHERE t.review_id = r.id) AS tags, \
                CASE WHEN EXISTS (SELECT 1 FROM review_votes v \
                    WHERE v.review_id = r.id AND v.client_key = ",
    );
    qb.push_bind(viewer.unwrap_or(""))
        .push(") THEN 1 ELSE 0 END AS voted FROM reviews r");
    push_review_filter(&mut qb, advisor_id, query);
    qb.push(match query.sort {
        ReviewSort::Newest => " ORDER BY r.created_at DESC, r.id DESC",
        ReviewSort::Helpful => " ORDER BY r.helpful_count DESC, r.created_at DESC, r.id DESC",
    });
    qb.push(" LIMIT ")
        .push_bind(i64::from(limit))
        .push(" OFFSET ")
        .push_bind(i64::try_from(offset).unwrap_or(i64::MAX));
    let rows: Vec<ReviewRow> = qb.build_query_as().fetch_all(pool).await?;
    let score = |v: i64| v.clamp(1, 5) as u8;
    let reviews = rows
        .into_iter()
        .map(|r| Review {
            id: r.id.to_string(),
            advisor_id: r.advisor_id.to_string(),
            academic: score(r.academic),
            funding: score(r.funding),
            relationship: score(r.relationship),
            prospects: score(r.prospects),
            overall: score(r.overall),
            tags: r
                .tags
                .map(|t| {
                    t.split(',')
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            text: r.text,
            relation: r.relation,
            created_at: r.created_at,
            recommend: r.recommend.map(|v| v != 0),
            helpful: r.helpful_count.max(0),
            voted: viewer.is_some() && r.voted != 0,
        })
        .collect();
    Ok((total.max(0) as u64, reviews))
}

/// Every aggregate as comparable lines: advisors' counts, sums,
/// histograms and 推荐 answers, reviews' 有用 counts, their non-zero tag counts, the site's sums, the pairs' sums. Equal before and
/// after [`rebuild_aggregates`] means the incremental writes were right
/// (tests, and the crash check after `kill -9`).
pub async fn aggregate_snapshot(conn: &mut Conn) -> Result<Vec<String>, sqlx::Error> {
    type AdvisorLine = (i64, i64, i64, i64, i64, i64, i64, String);
    let advisors: Vec<AdvisorLine> = sqlx::query_as(
        "SELECT id, review_count, sum_overall, sum_academic, sum_funding, sum_relationship, sum_prospects, \
             hist_1 || ',' || hist_2 || ',' || hist_3 || ',' || hist_4 || ',' || hist_5 \
             || ' recommend ' || recommend_yes || '/' || recommend_answered \
         FROM advisors ORDER BY id",
    )
    .fetch_all(&mut *conn)
    .await?;
    let tags: Vec<(i64, String, i64)> = sqlx::query_as(
        "SELECT advisor_id, tag, count FROM advisor_tags WHERE count > 0 ORDER BY advisor_id, tag",
    )
    .fetch_all(&mut *conn)
    .await?;
    let site: Vec<(i64, i64, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT review_count, sum_overall, sum_academic, sum_funding, sum_relationship, sum_prospects \
         FROM site_stats",
    )
    .fetch_all(&mut *conn)
    .await?;
    let pairs: Vec<(i64, i64, i64, i64, i64, i64, String)> = sqlx::query_as(
        "SELECT school_id, major_id, advisors, reviews, sum_overall, sum_prospects, \
             hist_1 || ',' || hist_2 || ',' || hist_3 || ',' || hist_4 || ',' || hist_5 \
         FROM pair_stats WHERE advisors > 0 ORDER BY school_id, major_id",
    )
    .fetch_all(&mut *conn)
    .await?;
    let helpful: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT id, helpful_count FROM reviews WHERE helpful_count <> 0 ORDER BY id",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(advisors
        .into_iter()
        .map(|a| format!("advisor {a:?}"))
        .chain(helpful.into_iter().map(|h| format!("helpful {h:?}")))
        .chain(tags.into_iter().map(|t| format!("tag {t:?}")))
        .chain(site.into_iter().map(|s| format!("site {s:?}")))
        .chain(pairs.into_iter().map(|p| format!("pair {p:?}")))
        .collect())
}

/// The aggregates that differ from a recomputation (at most `max` of them,
/// "stored / recomputed"); empty when every incremental write was right.
/// Recomputes in place: the database keeps the recomputed values.
pub async fn aggregate_drift(conn: &mut Conn, max: usize) -> Result<Vec<String>, sqlx::Error> {
    // The stored scores are checked against the stored prior first: a
    // rebuild stores the live prior, after which they are right by
    // construction.
    let mut drift = scores::score_drift(&mut *conn, max).await?;
    drift.extend(search::head_drift(&mut *conn, max).await?);
    let kept = aggregate_snapshot(&mut *conn).await?;
    rebuild_aggregates(&mut *conn).await?;
    let rebuilt = aggregate_snapshot(&mut *conn).await?;
    drift.extend(
        kept.iter()
            .zip(&rebuilt)
            .filter(|(a, b)| a != b)
            .map(|(a, b)| format!("{a} / {b}")),
    );
    drift.truncate(max);
    if kept.len() != rebuilt.len() && drift.len() < max {
        drift.push(format!("{} lines / {} lines", kept.len(), rebuilt.len()));
    }
    Ok(drift)
}

/// Recomputes every aggregate from the published reviews: advisors' sums and
/// histograms, per-advisor tag counts, the site-wide sums, and the stored
/// scores under the live prior. Used after a bulk load and as a repair tool;
/// ordinary writes update aggregates in place.
pub async fn rebuild_aggregates(conn: &mut Conn) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE advisors SET review_count = 0, sum_overall = 0, sum_academic = 0, sum_funding = 0, \
         sum_relationship = 0, sum_prospects = 0, hist_1 = 0, hist_2 = 0, hist_3 = 0, hist_4 = 0, hist_5 = 0, \
         recommend_yes = 0, recommend_answered = 0",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "UPDATE advisors AS a SET review_count = s.n, sum_overall = s.so, sum_academic = s.sa, \
             sum_funding = s.sf, sum_relationship = s.sr, sum_prospects = s.sp, \
             hist_1 = s.h1, hist_2 = s.h2, hist_3 = s.h3, hist_4 = s.h4, hist_5 = s.h5, \
             recommend_yes = s.ry, recommend_answered = s.ra \
         FROM (SELECT advisor_id, COUNT(*) AS n, SUM(overall) AS so, SUM(academic) AS sa, \
                      SUM(funding) AS sf, SUM(relationship) AS sr, SUM(prospects) AS sp, \
                      SUM(CASE WHEN overall = 1 THEN 1 ELSE 0 END) AS h1, SUM(CASE WHEN overall = 2 THEN 1 ELSE 0 END) AS h2, SUM(CASE WHEN overall = 3 THEN 1 ELSE 0 END) AS h3, \
                      SUM(CASE WHEN overall = 4 THEN 1 ELSE 0 END) AS h4, SUM(CASE WHEN overall = 5 THEN 1 ELSE 0 END) AS h5, \
                      SUM(CASE WHEN recommend = 1 THEN 1 ELSE 0 END) AS ry, COUNT(recommend) AS ra \
               FROM reviews WHERE status = 'published' GROUP BY advisor_id) AS s \
         WHERE a.id = s.advisor_id",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE reviews SET helpful_count = 0 WHERE helpful_count <> 0")
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "UPDATE reviews SET helpful_count = v.n \
         FROM (SELECT review_id, COUNT(*) AS n FROM review_votes GROUP BY review_id) AS v \
         WHERE reviews.id = v.review_id",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM advisor_tags")
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO advisor_tags (advisor_id, tag, count) \
         SELECT r.advisor_id, t.tag, COUNT(*) FROM review_tags t JOIN reviews r ON r.id = t.review_id \
         WHERE r.status = 'published' GROUP BY r.advisor_id, t.tag",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "UPDATE site_stats SET \
             (review_count, sum_overall, sum_academic, sum_funding, sum_relationship, sum_prospects) = \
             (SELECT COUNT(*), COALESCE(SUM(overall), 0), COALESCE(SUM(academic), 0), \
                     COALESCE(SUM(funding), 0), COALESCE(SUM(relationship), 0), COALESCE(SUM(prospects), 0) \
              FROM reviews WHERE status = 'published') \
         WHERE id = 1",
    )
    .execute(&mut *conn)
    .await?;
    let live = scores::StoredPrior::live(&site_stats(&mut *conn).await?);
    scores::recompute_all(&mut *conn, &live).await?;
    sqlx::query("DELETE FROM pair_stats")
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO pair_stats (school_id, major_id, advisors, reviews, sum_overall, sum_prospects, \
                hist_1, hist_2, hist_3, hist_4, hist_5) \
         SELECT school_id, major_id, COUNT(*), SUM(review_count), SUM(sum_overall), SUM(sum_prospects), \
                SUM(hist_1), SUM(hist_2), SUM(hist_3), SUM(hist_4), SUM(hist_5) \
         FROM advisors GROUP BY school_id, major_id",
    )
    .execute(&mut *conn)
    .await?;
    // Every pair's pages may have changed: no instance may reuse one.
    sqlx::query(
        "INSERT INTO pair_versions (school_id, major_id, version) \
         SELECT school_id, major_id, 1 FROM pair_stats WHERE true \
         ON CONFLICT (school_id, major_id) DO UPDATE SET version = pair_versions.version + 1",
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}
