//! The school/major catalog as stored: schools, majors, the names students
//! use for them (in the order they were written), and which pairs have
//! advisors. `crate::catalog` builds its lookup structures from these rows.

use std::collections::HashMap;

use crate::db::Pool;

/// (id, name, city, tier, popularity), by id.
pub type SchoolRow = (i64, String, String, String, i64);
/// (id, name, category), by id.
pub type MajorRow = (i64, String, String);

pub async fn schools(pool: &Pool) -> Result<Vec<SchoolRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, city, tier, popularity FROM schools ORDER BY id")
        .fetch_all(pool)
        .await
}

pub async fn majors(pool: &Pool) -> Result<Vec<MajorRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, category FROM majors ORDER BY id")
        .fetch_all(pool)
        .await
}

/// (alias, school id) in the order they were written (`rowid`: SQLite's
/// own, an identity column of the alias tables in PostgreSQL).
pub async fn school_aliases(pool: &Pool) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT alias, school_id FROM school_aliases ORDER BY rowid")
        .fetch_all(pool)
        .await
}

/// (alias, major id) in the order they were written.
pub async fn major_aliases(pool: &Pool) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT alias, major_id FROM major_aliases ORDER BY rowid")
        .fetch_all(pool)
        .await
}

/// The advisor count of every pair that has advisors.
pub async fn offered(pool: &Pool) -> Result<HashMap<(i64, i64), i64>, sqlx::Error> {
    Ok(sqlx::query_as::<_, (i64, i64, i64)>(
        "SELECT school_id, major_id, COUNT(*) FROM advisors GROUP BY school_id, major_id",
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|(s, m, n)| ((s, m), n))
    .collect())
}
