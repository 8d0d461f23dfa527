//! Start-up: the database opened, migrated, seeded and indexed before the
//! site serves, with the secret of the stored client keys made and no
//! client address left in it (`store::client_keys`). It sits above `db`
//! (which knows no data), `demo` (what an empty database is seeded with)
//! and `store` (the name index, the client keys), so none of them has to
//! call the others.

use crate::db::{self, Pool, SetupError};
pub use crate::demo::Seeding;
use crate::store::client_keys;

/// Connects, migrates, and seeds an empty database with the demo data.
/// Returns the pool and whether anything was seeded. See [`open_with`].
pub async fn open(url: &str) -> Result<(Pool, bool), SetupError> {
    open_with(url, Seeding::Demo).await
}

/// Connects, migrates, seeds an empty database with `seeding`, makes the
/// client-key secret and rewrites stored addresses, under the setup lock
/// (`db::open_prepared`), with the default pool size. Returns the
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
        // The secret client keys are made with, drawn by the first instance
        // (the others wait for the lock, then read it), and no address left
        // from a version that stored it.
        let keys = client_keys::ensure(pool)
            .await
            .map_err(|e| SetupError::Config(format!("无法读取或生成客户端标识的密钥: {e}")))?;
        let rewritten = client_keys::rewrite_addresses(pool, &keys)
            .await
            .map_err(|e| SetupError::Config(format!("改写旧的客户端标识失败: {e}")))?;
        if rewritten > 0 {
            tracing::info!(keys = rewritten, "stored client addresses replaced by keys");
        }
        Ok(seeded)
    })
    .await
}
