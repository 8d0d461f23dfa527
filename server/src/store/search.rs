//! The name search's SQL: the heads of every advisor's name
//! (`advisor_name_heads`, written from [`crate::text::names::heads`]) and a
//! lookup that reads, for each head a key may stop in
//! ([`crate::text::names::lookup_heads`]), the first rows of one index
//! range already in result order. A one-character query (a surname) reads
//! `advisors_head` instead: an index in the order results are shown, so the
//! site's thousands of 张 are not gathered and sorted.
//!
//! Why not a prefix range over the terms (what this was): it reads every
//! matching row before the best twenty are known, and at a million
//! advisors "wang" matches tens of thousands (204 ms). Why not FTS5's
//! trigram tokenizer: it matches only queries of three characters or more,
//! and most Chinese names are two or three characters. Why not an index in
//! memory: several instances share one database, and a new advisor or a
//! new review must be found in its order by all of them at once. Measured
//! at 10,000, 100,000 and 1,000,000 advisors by `make bench-scale`.

use std::collections::HashMap;

use crate::db::{Backend, Conn, Pool};
use crate::store::sql::Sql;
use crate::text::names::{heads, lookup_heads, HeadClass};

/// Rows per INSERT batch (four values each).
const BATCH: usize = 2_000;
/// Advisors whose heads are sorted and written together: rows go into the
/// index in its order (a load of a million advisors is a sort and an
/// append, not ten million random insertions), in bounded memory.
const SORTED_RUN: usize = 50_000;

/// Writes the heads of every advisor that has none yet: after the demo
/// seed, after an import, at every start (cheap when nothing is missing).
/// An advisor's name does not change, so heads, once written, stay right;
/// their review count follows the advisor's in the same transaction (a
/// trigger); they go with their advisor (ON DELETE CASCADE). Returns how
/// many advisors it indexed.
pub async fn index_missing(conn: &mut Conn) -> Result<u64, sqlx::Error> {
    let missing: Vec<(i64, String, i64)> = sqlx::query_as(
        "SELECT a.id, a.name, a.review_count FROM advisors a \
         WHERE NOT EXISTS (SELECT 1 FROM advisor_name_heads h WHERE h.advisor_id = a.id)",
    )
    .fetch_all(&mut *conn)
    .await?;
    let backend = Backend::of_conn(conn);
    for run in missing.chunks(SORTED_RUN) {
        let mut rows: Vec<(String, i64, i64, i64)> = run
            .iter()
            .flat_map(|(id, name, count)| {
                heads(name)
                    .into_iter()
                    .map(move |h| (h.text, h.class as i64, *count, *id))
            })
            .collect();
        rows.sort_by(|a, b| {
            (&a.0, a.1, std::cmp::Reverse(a.2), a.3).cmp(&(&b.0, b.1, std::cmp::Reverse(b.2), b.3))
        });
        for batch in rows.chunks(BATCH) {
            let mut qb = Sql::for_backend(
                backend,
                "INSERT INTO advisor_name_heads (head, class, review_count, advisor_id) ",
            );
            qb.push_values(batch, |b, (head, class, count, id)| {
                b.push_bind(head.as_str())
                    .push_bind(*class)
                    .push_bind(*count)
                    .push_bind(*id);
            });
            qb.build().execute(&mut *conn).await?;
        }
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

/// Advisors whose heads carry another review count than the advisor (at
/// most `max`, described): the trigger's work, checked with the other
/// aggregates ([`super::aggregate_drift`]).
pub async fn head_drift(conn: &mut Conn, max: usize) -> Result<Vec<String>, sqlx::Error> {
    let rows: Vec<(i64, i64, i64)> = sqlx::query_as(
        "SELECT h.advisor_id, h.review_count, a.review_count FROM advisor_name_heads h \
         JOIN advisors a ON a.id = h.advisor_id WHERE h.review_count <> a.review_count \
         ORDER BY h.advisor_id LIMIT $1",
    )
    .bind(max as i64)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, head, advisor)| {
            format!("name heads of advisor {id}: {head} reviews / {advisor}")
        })
        .collect())
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

/// The plan of one head's lookup (tests: one index, no sort).
pub async fn heads_plan(pool: &Pool) -> Result<super::plan::QueryPlan, sqlx::Error> {
    let (before, after) = arm_sql(0, HeadClass::Start as usize, 20);
    super::plan::explain(pool, &format!("{before}'zhang'{after}")).await
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
    // An advisor is stored once under a head and class, so the first
    // `limit` rows of each are `limit` advisors that rank at or above every
    // row left unread there: none of those can be among the first `limit`.
    let mut conn = pool.acquire().await?;
    let rows = read_heads(&mut conn, &lookup_heads(key), i64::from(limit)).await?;
    details(&mut conn, &rank(&rows, limit as usize)).await
}

/// One head and class, read in result order (`arm` is head × 3 + class):
/// the SQL before the head's value and after it.
fn arm_sql(arm: usize, class: usize, depth: i64) -> (String, String) {
    (
        format!(
            "SELECT CAST({arm} AS BIGINT) AS arm, advisor_id, review_count FROM \
             (SELECT advisor_id, review_count FROM advisor_name_heads WHERE head = "
        ),
        format!(
            " AND class = {class} ORDER BY review_count DESC, advisor_id LIMIT {depth}) AS h{arm}"
        ),
    )
}

/// The same for PostgreSQL in one text whatever the heads: it plans a
/// statement per execution until it keeps a generic plan, and a hundred
/// arms (the heads of "zs") cost milliseconds to plan each time. The heads
/// come as one list (they hold letters and characters only, never a
/// comma).
const PG_HEADS: &str =
    "SELECT CAST((h.n - 1) * 3 + c.class AS BIGINT) AS arm, t.advisor_id, t.review_count \
     FROM unnest(string_to_array($1, ',')) WITH ORDINALITY AS h(head, n) \
     CROSS JOIN (VALUES (0), (1), (2)) AS c(class) \
     CROSS JOIN LATERAL (SELECT advisor_id, review_count FROM advisor_name_heads \
         WHERE head = h.head COLLATE \"C\" AND class = c.class \
         ORDER BY review_count DESC, advisor_id LIMIT $2) AS t";

/// The first `depth` rows of every head and class: (arm, advisor, reviews).
async fn read_heads(
    conn: &mut Conn,
    heads: &[String],
    depth: i64,
) -> Result<Vec<(i64, i64, i64)>, sqlx::Error> {
    let backend = Backend::of_conn(conn);
    if backend == Backend::Postgres {
        return sqlx::query_as(PG_HEADS)
            .bind(heads.join(","))
            .bind(depth)
            .fetch_all(&mut *conn)
            .await;
    }
    let mut sql = Sql::for_backend(backend, "");
    for (i, head) in heads.iter().enumerate() {
        for class in HeadClass::ALL {
            let arm = i * 3 + class as usize;
            if arm > 0 {
                sql.push(" UNION ALL ");
            }
            let (before, after) = arm_sql(arm, class as usize, depth);
            sql.push(before).push_bind(head.as_str()).push(after);
        }
    }
    sql.build_query_as().fetch_all(&mut *conn).await
}

/// How a row of `arm` ranks: its quality, most reviews first, then id.
type Rank = (Quality, std::cmp::Reverse<i64>, i64);

fn quality_of(arm: i64) -> Quality {
    match (arm / 3, arm % 3) {
        (0, 0) => Quality::Exact,
        (_, 0 | 1) => Quality::Start,
        _ => Quality::Inside,
    }
}

/// Each advisor at its best rank, best first, at most `limit`.
fn rank(rows: &[(i64, i64, i64)], limit: usize) -> Vec<Rank> {
    let mut best: HashMap<i64, Rank> = HashMap::new();
    for &(arm, id, count) in rows {
        let rank = (quality_of(arm), std::cmp::Reverse(count), id);
        let b = best.entry(id).or_insert(rank);
        *b = (*b).min(rank);
    }
    let mut ranked: Vec<Rank> = best.into_values().collect();
    ranked.sort();
    ranked.truncate(limit);
    ranked
}

/// The result lines of the ranked advisors, in their order.
async fn details(conn: &mut Conn, ranked: &[Rank]) -> Result<Vec<NameHit>, sqlx::Error> {
    if ranked.is_empty() {
        return Ok(Vec::new());
    }
    let mut sql = Sql::new(
        "SELECT id, name, title, school_id, major_id, review_count, score_overall, \
         CAST(0 AS BIGINT) AS quality FROM advisors WHERE id IN (",
    );
    {
        let mut ids = sql.separated(", ");
        for (_, _, id) in ranked {
            ids.push_bind(*id);
        }
    }
    sql.push(")");
    let mut hits: Vec<NameHit> = sql.build_query_as().fetch_all(&mut *conn).await?;
    let quality: HashMap<i64, Quality> = ranked.iter().map(|(q, _, id)| (*id, *q)).collect();
    for h in &mut hits {
        h.quality = quality.get(&h.id).copied().unwrap_or(Quality::Inside) as i64;
    }
    // The advisor's own count orders what is shown (the same in one
    // transaction; a review written between the two reads moves it).
    hits.sort_by_key(|h| (h.quality, std::cmp::Reverse(h.review_count), h.id));
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_advisor_keeps_its_best_rank_then_most_reviewed_first() {
        // Arm 0: the key itself, whole; arm 1: the key, a start; arm 5:
        // another head, inside.
        let rows = [(0, 7, 3), (1, 8, 9), (1, 7, 3), (5, 9, 50), (4, 10, 9)];
        let ranked = rank(&rows, 3);
        let ids: Vec<i64> = ranked.iter().map(|r| r.2).collect();
        assert_eq!(ids, vec![7, 8, 10]);
        assert_eq!(ranked[0].0, Quality::Exact);
        assert_eq!(ranked[2].0, Quality::Start);
    }
}
