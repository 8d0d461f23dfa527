//! Start-up: the database opened, migrated, seeded and indexed before the
//! site serves. It sits above `db` (which knows no data), `demo` (what an
//! empty database is seeded with) and `store` (the name index), so none of
//! them has to call the others.

use crate::db::{self, Pool, SetupError};
pub use crate::demo::Seeding;

/// Connects, migrates, and seeds an empty database with the demo data.
/// Returns the pool and whether anything was seeded. See [`open_with`].
pub async fn open(url: &str) -> Result<(Pool, bool), SetupError> {
    open_with(url, Seeding::Demo).await
}

/// Connects, migrates, and seeds an empty database with `seeding`, under the
/// setup lock (`db::open_prepared`), with the default pool size. Returns the
/// pool and whether anything was seeded.
pub async fn open_with(url: &str, seeding: Seeding) -> Result<(Pool, bool), SetupError> {
    open_sized(url, seeding, db::DEFAULT_MAX_CONNECTIONS).await
}

/// [`open_with`] with a pool of at most `max_connections`
/// (`DATABASE_MAX_CONNECTIONS`, from the configuration).
pub async fn open_sized(
    url: &str,
    seeding: Seeding,
    max_connections: u32,
) -> Result<(Pool, bool), SetupError> {
    db::open_prepared(url, max_connections, async |pool: &Pool| {
        let seeded = crate::demo::seed_if_empty(pool, seeding).await?;
        // Advisors written by any path (demo, `server seed`, `server import`,
        // an older version) become findable by name.
        let indexed = crate::store::search::index_missing_in(pool).await?;
        if indexed > 0 {
            tracing::info!(advisors = indexed, "name search indexed");
        }
        Ok(seeded)
    })
    .await
}
