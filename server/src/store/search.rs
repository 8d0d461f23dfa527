//! The name search's SQL: the terms of every advisor's name
//! (`advisor_name_terms`, written from [`crate::text::names::terms`]) and a
//! lookup that is one range of that table's primary key.
//!
//! Why not FTS5's trigram tokenizer: it matches only queries of three
//! characters or more, and most Chinese names are two or three characters —
//! "张三" would scan every row. A prefix range over the name's suffixes
//! answers queries of any length from the index, and the same table holds
//! the pinyin spellings. Measured at 100,000 advisors by `make bench-scale`.

use sqlx::{SqliteConnection, SqlitePool};

use crate::text::names::{prefix_end, terms};

/// Advisors indexed per INSERT batch (each name has about a dozen terms).
const BATCH: usize = 200;

/// Writes the terms of every advisor that has none yet: after the demo seed,
/// after an import, at every start (cheap when nothing is missing). An
/// advisor's name does not change, so terms, once written, stay right; they
/// go with their advisor (ON DELETE CASCADE). Returns how many advisors it
/// indexed.
pub async fn index_missing(conn: &mut SqliteConnection) -> Result<u64, sqlx::Error> {
    let missing: Vec<(i64, String)> = sqlx::query_as(
        "SELECT a.id, a.name FROM advisors a \
         WHERE NOT EXISTS (SELECT 1 FROM advisor_name_terms t WHERE t.advisor_id = a.id)",
    )
    .fetch_all(&mut *conn)
    .await?;
    for chunk in missing.chunks(BATCH) {
        let rows: Vec<(String, i64, i64)> = chunk
            .iter()
            .flat_map(|(id, name)| terms(name).into_iter().map(|t| (t.text, *id, t.pos)))
            .collect();
        if rows.is_empty() {
            continue;
        }
        let mut qb = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "INSERT OR IGNORE INTO advisor_name_terms (term, advisor_id, pos) ",
        );
        qb.push_values(rows, |mut b, (term, id, pos)| {
            b.push_bind(term).push_bind(id).push_bind(pos);
        });
        qb.build().execute(&mut *conn).await?;
    }
    Ok(missing.len() as u64)
}

/// [`index_missing`] in its own write transaction.
pub async fn index_missing_in(pool: &SqlitePool) -> Result<u64, sqlx::Error> {
    let mut tx = crate::db::begin_write(pool).await?;
    let n = index_missing(&mut tx).await?;
    tx.commit().await?;
    Ok(n)
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
/// start (a surname, an initial): inside names it would match most of the
/// site and say little.
pub async fn advisors_matching(
    pool: &SqlitePool,
    key: &str,
    limit: u32,
) -> Result<Vec<NameHit>, sqlx::Error> {
    if key.is_empty() || limit == 0 {
        return Ok(Vec::new());
    }
    let max_pos = if key.chars().count() == 1 {
        0
    } else {
        i64::MAX
    };
    sqlx::query_as(
        "SELECT a.id, a.name, a.title, a.school_id, a.major_id, a.review_count, a.score_overall, \
                m.quality \
         FROM (SELECT advisor_id, \
                      MIN(CASE WHEN pos = 0 AND term = ?1 THEN 0 WHEN pos = 0 THEN 1 ELSE 2 END) AS quality \
               FROM advisor_name_terms \
               WHERE term >= ?1 AND term < ?2 AND pos <= ?3 \
               GROUP BY advisor_id) AS m \
         JOIN advisors a ON a.id = m.advisor_id \
         ORDER BY m.quality, a.review_count DESC, a.id \
         LIMIT ?4",
    )
    .bind(key)
    .bind(prefix_end(key))
    .bind(max_pos)
    .bind(i64::from(limit))
    .fetch_all(pool)
    .await
}
