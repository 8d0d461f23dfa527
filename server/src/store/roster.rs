//! The roster: who advises where, with which title, research directions and
//! bio, as an operator loads it from a file (`server import`,
//! [`crate::cli::import`]). The parsing, validation and report live in `import`;
//! every statement they need is here, as every other read and write of the
//! site keeps its SQL under `store`.
//!
//! An advisor added here has no reviews: its aggregate columns keep their
//! zero defaults, the `pair_stats` triggers count it into its pair, and its
//! stored scores are set to the prior mean with the formula every other
//! score uses ([`scores::rescore`]), so `aggregate_drift` finds nothing to
//! correct. An update changes the title, the bio and the directions only,
//! never an aggregate.
//!
//! The roster version: the site caches what changes only with the roster
//! (which pairs have advisors, each pair's names and directions). A write
//! here bumps a number in the database (the row of `roster_version`, which
//! commits and rolls back with the writer's transaction), and every running
//! instance that sees it change reloads those caches
//! ([`crate::site::Site::refresh_if_changed`]).

use crate::db::Conn;

use super::scores;

/// An advisor as stored, what an import may change about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    pub id: i64,
    pub title: String,
    pub bio: String,
    pub directions: Vec<String>,
}

/// An advisor as the file gives it.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    pub name: &'a str,
    pub title: &'a str,
    pub school_id: i64,
    pub major_id: i64,
    pub directions: &'a [String],
    pub bio: &'a str,
}

/// The advisors called `name` in one (school, major), by id: an import's
/// identity of an advisor (normally none or one).
pub async fn find(
    conn: &mut Conn,
    school_id: i64,
    major_id: i64,
    name: &str,
) -> Result<Vec<Stored>, sqlx::Error> {
    let rows: Vec<(i64, String, String)> = sqlx::query_as(
        "SELECT id, title, bio FROM advisors \
         WHERE school_id = $1 AND major_id = $2 AND name = $3 ORDER BY id",
    )
    .bind(school_id)
    .bind(major_id)
    .bind(name)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for (id, title, bio) in rows {
        let directions = sqlx::query_scalar(
            "SELECT direction FROM advisor_directions WHERE advisor_id = $1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
        out.push(Stored {
            id,
            title,
            bio,
            directions,
        });
    }
    Ok(out)
}

/// Whether a (school, major) has any advisor yet.
pub async fn pair_has_advisors(
    conn: &mut Conn,
    school_id: i64,
    major_id: i64,
) -> Result<bool, sqlx::Error> {
    let found: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM (SELECT 1 FROM advisors WHERE school_id = $1 AND major_id = $2 LIMIT 1) AS one",
    )
    .bind(school_id)
    .bind(major_id)
    .fetch_one(&mut *conn)
    .await?;
    Ok(found > 0)
}

/// Adds an advisor without reviews; returns its id.
pub async fn insert(conn: &mut Conn, entry: &Entry<'_>) -> Result<i64, sqlx::Error> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO advisors (name, title, school_id, major_id, bio) VALUES ($1, $2, $3, $4, $5) \
         RETURNING id",
    )
    .bind(entry.name)
    .bind(entry.title)
    .bind(entry.school_id)
    .bind(entry.major_id)
    .bind(entry.bio)
    .fetch_one(&mut *conn)
    .await?;
    write_directions(&mut *conn, id, entry.directions).await?;
    scores::rescore(&mut *conn, id).await?;
    Ok(id)
}

/// Sets an advisor's title and bio, and its directions when given.
pub async fn update(
    conn: &mut Conn,
    id: i64,
    title: &str,
    bio: &str,
    directions: Option<&[String]>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE advisors SET title = $1, bio = $2 WHERE id = $3")
        .bind(title)
        .bind(bio)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    if let Some(directions) = directions {
        sqlx::query("DELETE FROM advisor_directions WHERE advisor_id = $1")
            .bind(id)
            .execute(&mut *conn)
            .await?;
        write_directions(&mut *conn, id, directions).await?;
    }
    Ok(())
}

async fn write_directions(
    conn: &mut Conn,
    id: i64,
    directions: &[String],
) -> Result<(), sqlx::Error> {
    for (position, direction) in directions.iter().enumerate() {
        sqlx::query(
            "INSERT INTO advisor_directions (advisor_id, position, direction) VALUES ($1, $2, $3)",
        )
        .bind(id)
        .bind(position as i64)
        .bind(direction)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The roster version (0 until the first import).
pub async fn version<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT version FROM roster_version WHERE id = 1")
        .fetch_one(db)
        .await
}

/// Moves the roster version on, in the writer's transaction.
pub async fn bump_version(conn: &mut Conn) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE roster_version SET version = CASE WHEN version >= 2147483647 THEN 1 \
         ELSE version + 1 END WHERE id = 1",
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}
