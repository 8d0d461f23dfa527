//! The SQL of the review write paths (`crate::reviews`): a new review and
//! its tags, the aggregates every change of a published review moves, the
//! stored review as edits and deletions read it, reports, and the MinHash
//! signatures of near-duplicate texts. The rules (validation, rate limits,
//! tokens, what counts as a repeat) stay in `crate::reviews`; these
//! functions run in the caller's transaction.

use app::model::{NewReview, Ratings};

use crate::db::Conn;
use crate::store::sql::Sql;

/// The texts `client_key` wrote about `advisor_id` since `modifier` ago.
pub async fn texts_since(
    conn: &mut Conn,
    client_key: &str,
    advisor_id: i64,
    modifier: &str,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT text FROM reviews WHERE client_key = $1 AND advisor_id = $2 \
         AND created_at >= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', $3)",
    )
    .bind(client_key)
    .bind(advisor_id)
    .bind(modifier)
    .fetch_all(&mut *conn)
    .await
}

/// A new published review (without its tags): its id and creation time.
pub async fn insert(
    conn: &mut Conn,
    advisor_id: i64,
    review: &NewReview,
    text: &str,
    client_key: &str,
    token_hash: &str,
) -> Result<(i64, String), sqlx::Error> {
    let r = &review.ratings;
    sqlx::query_as(
        "INSERT INTO reviews (advisor_id, academic, funding, relationship, prospects, overall, text, \
             relation, created_at, status, client_key, edit_token_hash, recommend) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 'published', $9, $10, $11) \
         RETURNING id, created_at",
    )
    .bind(advisor_id)
    .bind(r.academic as i64)
    .bind(r.funding as i64)
    .bind(r.relationship as i64)
    .bind(r.prospects as i64)
    .bind(r.overall as i64)
    .bind(text)
    .bind(review.relation.trim())
    .bind(client_key)
    .bind(token_hash)
    .bind(review.recommend.map(i64::from))
    .fetch_one(&mut *conn)
    .await
}

/// The review's tags (each once).
pub async fn write_tags(
    conn: &mut Conn,
    review_id: i64,
    tags: &[String],
) -> Result<(), sqlx::Error> {
    for t in tags {
        sqlx::query(
            "INSERT INTO review_tags (review_id, tag) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        )
        .bind(review_id)
        .bind(t)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Replaces a review's content and tags (an edit by its writer).
pub async fn update(conn: &mut Conn, id: i64, review: &NewReview) -> Result<(), sqlx::Error> {
    let r = &review.ratings;
    sqlx::query(
        "UPDATE reviews SET academic = $1, funding = $2, relationship = $3, prospects = $4, overall = $5, \
             text = $6, relation = $7, recommend = $8, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') \
         WHERE id = $9",
    )
    .bind(r.academic as i64)
    .bind(r.funding as i64)
    .bind(r.relationship as i64)
    .bind(r.prospects as i64)
    .bind(r.overall as i64)
    .bind(review.text.trim())
    .bind(review.relation.trim())
    .bind(review.recommend.map(i64::from))
    .bind(id)
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM review_tags WHERE review_id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    write_tags(conn, id, &review.tags).await
}

pub async fn delete(conn: &mut Conn, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM reviews WHERE id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// `published` or `hidden`.
pub async fn set_status(conn: &mut Conn, id: i64, status: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE reviews SET status = $1 WHERE id = $2")
        .bind(status)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// A review as edits, deletions and moderation read it.
pub struct StoredReview {
    pub advisor_id: i64,
    pub status: String,
    pub review: NewReview,
    pub token_hash: Option<String>,
    /// Written less than `window` ago (see [`stored`]).
    pub editable: bool,
}

#[derive(sqlx::FromRow)]
struct StoredRow {
    advisor_id: i64,
    status: String,
    academic: i64,
    funding: i64,
    relationship: i64,
    prospects: i64,
    overall: i64,
    text: String,
    relation: String,
    edit_token_hash: Option<String>,
    editable: i64,
    recommend: Option<i64>,
}

/// Review `id` with its tags; `editable` says whether it was written
/// within `window` (a modifier: "-24 hours").
pub async fn stored(
    conn: &mut Conn,
    id: i64,
    window: &str,
) -> Result<Option<StoredReview>, sqlx::Error> {
    let row: Option<StoredRow> = sqlx::query_as(
        "SELECT advisor_id, status, academic, funding, relationship, prospects, overall, text, \
                relation, edit_token_hash, recommend, \
                CASE WHEN created_at >= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', $1) THEN 1 ELSE 0 END \
                    AS editable \
         FROM reviews WHERE id = $2",
    )
    .bind(window)
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let tags: Vec<String> = sqlx::query_scalar("SELECT tag FROM review_tags WHERE review_id = $1")
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
    let u = |v: i64| v.clamp(1, 5) as u8;
    Ok(Some(StoredReview {
        advisor_id: row.advisor_id,
        status: row.status,
        review: NewReview {
            ratings: Ratings {
                academic: u(row.academic),
                funding: u(row.funding),
                relationship: u(row.relationship),
                prospects: u(row.prospects),
                overall: u(row.overall),
            },
            tags,
            text: row.text,
            relation: row.relation,
            recommend: row.recommend.map(|v| v != 0),
        },
        token_hash: row.edit_token_hash,
        editable: row.editable != 0,
    }))
}

/// The advisor's name, if there is one with that id.
pub async fn advisor_name(conn: &mut Conn, advisor_id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT name FROM advisors WHERE id = $1")
        .bind(advisor_id)
        .fetch_optional(&mut *conn)
        .await
}

/// A report of review `id` by `client_key`; whether it was new (one per
/// client and review).
pub async fn report(
    conn: &mut Conn,
    id: i64,
    client_key: &str,
    reason: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO review_reports (review_id, client_key, reason) VALUES ($1, $2, $3) \
         ON CONFLICT DO NOTHING",
    )
    .bind(id)
    .bind(client_key)
    .bind(reason)
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The same report on each of `ids`, in one statement; reviews already
/// reported by `client_key` keep their report.
pub async fn report_all(
    conn: &mut Conn,
    ids: &[i64],
    client_key: &str,
    reason: &str,
) -> Result<(), sqlx::Error> {
    if ids.is_empty() {
        return Ok(());
    }
    let mut qb = Sql::new("INSERT INTO review_reports (review_id, client_key, reason) ");
    qb.push_values(ids, |row, id| {
        row.push_bind(*id).push_bind(client_key).push_bind(reason);
    });
    qb.push(" ON CONFLICT DO NOTHING");
    qb.build().execute(&mut *conn).await?;
    Ok(())
}

/// Binds $1 = `sign` and $2–$6 = overall, academic, funding, relationship,
/// prospects: the parameters every aggregate update shares.
fn scored<'q>(
    query: sqlx::query::Query<'q, crate::db::Db, sqlx::any::AnyArguments<'q>>,
    sign: i64,
    r: &Ratings,
) -> sqlx::query::Query<'q, crate::db::Db, sqlx::any::AnyArguments<'q>> {
    query
        .bind(sign)
        .bind(r.overall as i64)
        .bind(r.academic as i64)
        .bind(r.funding as i64)
        .bind(r.relationship as i64)
        .bind(r.prospects as i64)
}

/// Adds (`sign` = 1) or removes (-1) one published review from the advisor's
/// and the site's aggregates — the same sums `store::rebuild_aggregates`
/// computes from scratch — and refreshes the stored scores
/// (`store::scores::refresh`).
pub async fn add_to_aggregates(
    conn: &mut Conn,
    advisor_id: i64,
    review: &NewReview,
    sign: i64,
) -> Result<(), sqlx::Error> {
    let r = &review.ratings;
    let hist = format!("hist_{}", r.overall.clamp(1, 5));
    let advisors_update = format!(
        "UPDATE advisors SET review_count = review_count + $1, sum_overall = sum_overall + $1 * $2, \
             sum_academic = sum_academic + $1 * $3, sum_funding = sum_funding + $1 * $4, \
             sum_relationship = sum_relationship + $1 * $5, sum_prospects = sum_prospects + $1 * $6, \
             {hist} = {hist} + $1, recommend_yes = recommend_yes + $1 * $8, \
             recommend_answered = recommend_answered + $1 * $9 WHERE id = $7"
    );
    scored(sqlx::query(&advisors_update), sign, r)
        .bind(advisor_id)
        .bind(i64::from(review.recommend == Some(true)))
        .bind(i64::from(review.recommend.is_some()))
        .execute(&mut *conn)
        .await?;
    // The site's sums: the same additions, $7 matching the single row.
    scored(
        sqlx::query(
            "UPDATE site_stats SET review_count = review_count + $1, sum_overall = sum_overall + $1 * $2, \
                 sum_academic = sum_academic + $1 * $3, sum_funding = sum_funding + $1 * $4, \
                 sum_relationship = sum_relationship + $1 * $5, sum_prospects = sum_prospects + $1 * $6 \
             WHERE id = $7",
        ),
        sign,
        r,
    )
    .bind(1i64)
    .execute(&mut *conn)
    .await?;
    for t in &review.tags {
        sqlx::query(
            "INSERT INTO advisor_tags (advisor_id, tag, count) VALUES ($1, $2, $3) \
             ON CONFLICT (advisor_id, tag) DO UPDATE SET count = advisor_tags.count + $3",
        )
        .bind(advisor_id)
        .bind(t)
        .bind(sign)
        .execute(&mut *conn)
        .await?;
    }
    sqlx::query("DELETE FROM advisor_tags WHERE advisor_id = $1 AND count <= 0")
        .bind(advisor_id)
        .execute(&mut *conn)
        .await?;
    // The scores rankings are ordered by, in the same transaction.
    super::scores::refresh(&mut *conn, advisor_id).await?;
    Ok(())
}

/// Replaces review `id`'s MinHash band signatures with `bands`, and
/// returns the reviews of other advisors that share a band with it (at
/// most 50 a band, each once, in id order). Three statements whatever the
/// number of bands (one a band made a review's write a round trip per
/// band).
pub async fn replace_signatures(
    conn: &mut Conn,
    id: i64,
    advisor_id: i64,
    bands: &[i64],
) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query("DELETE FROM review_signatures WHERE review_id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    let mut bands = bands.to_vec();
    bands.sort_unstable();
    bands.dedup();
    if bands.is_empty() {
        return Ok(Vec::new());
    }
    // One term a band, each with its own limit (SQLite allows 500 terms in
    // a compound SELECT; a text has `repeated::BANDS`).
    let mut qb = Sql::new("");
    for (i, band) in bands.iter().enumerate() {
        if i > 0 {
            qb.push(" UNION ALL ");
        }
        qb.push(
            "SELECT * FROM (SELECT s.review_id FROM review_signatures s \
             JOIN reviews r ON r.id = s.review_id WHERE s.band = ",
        )
        .push_bind(*band)
        .push(" AND r.advisor_id != ")
        .push_bind(advisor_id)
        .push(format_args!(" LIMIT 50) AS t{i}"));
    }
    let mut candidates: Vec<i64> = qb.build_query_scalar().fetch_all(&mut *conn).await?;
    let mut qb = Sql::new("INSERT INTO review_signatures (review_id, band) ");
    qb.push_values(&bands, |row, band| {
        row.push_bind(id).push_bind(*band);
    });
    qb.push(" ON CONFLICT DO NOTHING");
    qb.build().execute(&mut *conn).await?;
    candidates.sort_unstable();
    candidates.dedup();
    Ok(candidates)
}

/// (id, advisor, text) of the reviews `ids` that exist, in id order: one
/// statement.
pub async fn advisors_and_texts(
    conn: &mut Conn,
    ids: &[i64],
) -> Result<Vec<(i64, i64, String)>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut qb = Sql::new("SELECT id, advisor_id, text FROM reviews WHERE id IN (");
    let mut list = qb.separated(", ");
    for id in ids {
        list.push_bind(*id);
    }
    qb.push(") ORDER BY id");
    qb.build_query_as().fetch_all(&mut *conn).await
}
