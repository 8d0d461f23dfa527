//! The name search's SQL: the terms of every advisor's name
//! (`advisor_name_terms`, written from [`crate::text::names::terms`]) and a
//! lookup that is one range of that table's primary key. A one-character
//! query (a surname) reads `advisors_head` instead: an index in the order
//! results are shown, so the site's thousands of 张 are not gathered and
//! sorted.
//!
//! Why not FTS5's trigram tokenizer: it matches only queries of three
//! characters or more, and most Chinese names are two or three characters —
//! "张三" would scan every row. A prefix range over the name's suffixes
//! answers queries of any length from the index, and the same table holds
//! the pinyin spellings. Measured at 100,000 advisors by `make bench-scale`.

use crate::db::{Conn, Pool};

use crate::text::names::{prefix_end, terms};

/// Advisors indexed per INSERT batch (each name has about a dozen terms).
const BATCH: usize = 200;

/// Writes the terms of every advisor that has none yet: after the demo seed,
/// after an import, at every start (cheap when nothing is missing). An
/// advisor's name does not change, so terms, once written, stay right; they
/// go with their advisor (ON DELETE CASCADE). Returns how many advisors it
/// indexed.
pub async fn index_missing(conn: &mut Conn) -> Result<u64, sqlx::Error> {
    let missing: Vec<(i64, String)> = sqlx::query_as(
        "SELECT a.id, a.name FROM advisors a \
         WHERE NOT EXISTS (SELECT 1 FROM advisor_name_terms t WHERE t.advisor_id = a.id)",
    )
    .fetch_all(&mut *conn)
    .await?;
    let backend = crate::db::Backend::of_conn(conn);
    for chunk in missing.chunks(BATCH) {
        let rows: Vec<(String, i64, i64)> = chunk
            .iter()
            .flat_map(|(id, name)| terms(name).into_iter().map(|t| (t.text, *id, t.pos)))
            .collect();
        if rows.is_empty() {
            continue;
        }
        let mut qb = crate::store::sql::Sql::for_backend(
            backend,
            "INSERT INTO advisor_name_terms (term, advisor_id, pos) ",
        );
        qb.push_values(rows, |b, (term, id, pos)| {
            b.push_bind(term).push_bind(id).push_bind(pos);
        });
        qb.push(" ON CONFLICT DO NOTHING");
        qb.build().execute(&mut *conn).await?;
    }
    Ok(missing.len() as u64)
}

/// [`index_missing`] in its own write transaction.
pub async fn index_missing_in(pool: &Pool) -> Result<u64, sqlx::Error> {
    let mut tx = crate::db::begin_write(pool).await?;
    let n = index_missing(&mut tx).await?;
    tx.commit().await?;
    Ok(n)
}

/// Advisors whose name starts with $1, most reviewed first (`advisors_head`).
const BY_HEAD: &str = "SELECT id, name, title, school_id, major_id, review_count, score_overall, \
         CASE WHEN name = $1 THEN 0 ELSE 1 END AS quality \
     FROM advisors WHERE substr(name, 1, 1) = $1 \
     ORDER BY review_count DESC, id LIMIT $2";

/// The plan of a one-character lookup (tests: one index, no sort).
pub async fn head_plan(pool: &Pool) -> Result<super::plan::QueryPlan, sqlx::Error> {
    let sql = BY_HEAD.replace("$1", "'张'").replace("$2", "20");
    super::plan::explain(pool, &sql).await
}

/// How well a name matched: the whole name, its start, or inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Quality {
    Exact = 0,
    Start = 1,
    Inside = 2,
}

/// One advisor a key matched, with what a result line shows.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct NameHit {
    pub id: i64,
    pub name: String,
    pub title: String,
    pub school_id: i64,
    pub major_id: i64,
    pub review_count: i64,
    pub score_overall: f64,
    pub quality: i64,
}

impl NameHit {
    pub fn quality(&self) -> Quality {
        match self.quality {
            0 => Quality::Exact,
            1 => Quality::Start,
            _ => Quality::Inside,
        }
    }
}

/// Advisors whose name has a term starting with `key` (a
/// [`crate::text::names::query_key`]), best match first, then most
/// reviewed: at most `limit`. A one-character key matches only a name's
/// start (a surname): inside names it would match most of the site and say
/// little; a single Latin letter matches nobody.
pub async fn advisors_matching(
    pool: &Pool,
    key: &str,
    limit: u32,
) -> Result<Vec<NameHit>, sqlx::Error> {
    if key.is_empty() || limit == 0 {
        return Ok(Vec::new());
    }
    let mut chars = key.chars();
    if let (Some(head), None) = (chars.next(), chars.next()) {
        // One Latin letter names nobody (every 张, 赵 and 周 is a "z").
        if head.is_ascii() {
            return Ok(Vec::new());
        }
        // A surname: one range of `advisors_head`, already in order.
        return sqlx::query_as(BY_HEAD)
            .bind(key)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await;
    }
    sqlx::query_as(
        "SELECT a.id, a.name, a.title, a.school_id, a.major_id, a.review_count, a.score_overall, \
                m.quality \
         FROM (SELECT advisor_id, \
                      MIN(CASE WHEN pos = 0 AND term = $1 THEN 0 WHEN pos = 0 THEN 1 ELSE 2 END) AS quality \
               FROM advisor_name_terms \
               WHERE term >= $1 AND term < $2 \
               GROUP BY advisor_id) AS m \
         JOIN advisors a ON a.id = m.advisor_id \
         ORDER BY m.quality, a.review_count DESC, a.id \
         LIMIT $3",
    )
    .bind(key)
    .bind(prefix_end(key))
    .bind(i64::from(limit))
    .fetch_all(pool)
    .await
}
