//! Opening the database: the file is created on first run, the embedded
//! migrations are applied, and an empty database gets the demo data (or,
//! with `DEMO_DATA=off`, the school/major catalog alone). SQLite by
//! default (one file, nothing to install); every query lives in `store`, so a
//! PostgreSQL deployment changes this module and that one only.

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

pub use crate::demo::Seeding;

/// Where the database lives when `DATABASE_URL` is not set (git-ignored).
pub const DEFAULT_DATABASE_URL: &str = "sqlite://data/advisor.db";

#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("无法打开数据库 {url}: {source}")]
    Connect { url: String, source: sqlx::Error },
    #[error("无法创建数据库目录 {dir}: {source}")]
    Directory { dir: String, source: std::io::Error },
    #[error("无法取得数据库的启动锁 {path}: {source}")]
    Lock {
        path: String,
        source: std::io::Error,
    },
    #[error("数据库迁移失败: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("写入演示数据失败: {0}")]
    Seed(#[from] sqlx::Error),
    #[error("{0}")]
    Config(String),
}

/// Connects (creating the file and its folder if needed) with the settings a
/// web server wants from SQLite: WAL for concurrent readers, foreign keys on,
/// and a busy timeout instead of immediate "database is locked" errors.
pub async fn connect(url: &str) -> Result<SqlitePool, SetupError> {
    let connect_err = |source| SetupError::Connect {
        url: url.to_string(),
        source,
    };
    let options = SqliteConnectOptions::from_str(url)
        .map_err(connect_err)?
        .create_if_missing(true)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(5))
        // 16 MB of page cache per connection (SQLite's default is 2 MB): at
        // a hundred thousand advisors the indexes a page reads stay cached.
        .pragma("cache_size", "-16384");
    let in_memory = url.contains(":memory:") || url.contains("mode=memory");
    let options = if in_memory {
        options
    } else {
        let path = options.get_filename();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| SetupError::Directory {
                dir: dir.display().to_string(),
                source,
            })?;
        }
        options
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
    };
    // An in-memory database exists once per connection: keep exactly one.
    let max = if in_memory { 1 } else { 8 };
    SqlitePoolOptions::new()
        .max_connections(max)
        .min_connections(if in_memory { 1 } else { 0 })
        .idle_timeout(if in_memory {
            None
        } else {
            Some(Duration::from_secs(600))
        })
        .max_lifetime(if in_memory {
            None
        } else {
            Some(Duration::from_secs(3600))
        })
        .connect_with(options)
        .await
        .map_err(connect_err)
}

/// A write transaction that holds SQLite's write lock from its first
/// statement (`BEGIN IMMEDIATE`). A deferred transaction reads first and
/// upgrades to a write lock later, and an upgrade that meets another writer
/// fails at once with "database is locked" — the busy timeout cannot help it
/// — so under concurrent writers most of them would be refused. Taking the
/// lock at the start makes writers queue for at most the busy timeout.
/// Every transaction that writes begins here.
pub async fn begin_write(
    pool: &SqlitePool,
) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, sqlx::Error> {
    pool.begin_with("BEGIN IMMEDIATE").await
}

/// Applies the migrations embedded in the binary (`server/migrations`).
pub async fn migrate(pool: &SqlitePool) -> Result<(), SetupError> {
    sqlx::migrate!("./migrations").run(pool).await?;
    Ok(())
}

/// Connects, migrates, and seeds an empty database as `DEMO_DATA` says
/// ([`Seeding::from_env`]: the demo, or with `off` the catalog only).
/// Returns the pool and whether anything was seeded. See [`open_with`].
pub async fn open(url: &str) -> Result<(SqlitePool, bool), SetupError> {
    let seeding = Seeding::from_env().map_err(SetupError::Config)?;
    open_with(url, seeding).await
}

/// Connects, migrates, and seeds an empty database with `seeding`.
/// Returns the pool and whether anything was seeded.
///
/// Several instances may start at once on one database file: migrating
/// and seeding happen under an exclusive lock on a file beside the
/// database (`<file>.setup-lock`), so the first instance migrates and
/// seeds while the others wait, then find nothing left to do. (SQLite's own
/// locks cannot do this: each migration is its own transaction, and two
/// instances that both read "0019 not applied" would both apply it.)
pub async fn open_with(url: &str, seeding: Seeding) -> Result<(SqlitePool, bool), SetupError> {
    let pool = connect(url).await?;
    let lock = setup_lock(&pool).await?;
    migrate(&pool).await?;
    let seeded = crate::demo::seed_if_empty(&pool, seeding).await?;
    // Advisors written by any path (demo, `server seed`, `server import`, an
    // older version) become findable by name.
    let indexed = crate::store::search::index_missing_in(&pool).await?;
    if indexed > 0 {
        tracing::info!(advisors = indexed, "name search indexed");
    }
    drop(lock);
    Ok((pool, seeded))
}

/// The exclusive setup lock of a database file (none for an in-memory
/// database, which no other process can open). Released when dropped.
async fn setup_lock(pool: &SqlitePool) -> Result<Option<std::fs::File>, SetupError> {
    let path = pool.connect_options().get_filename().to_path_buf();
    if path.as_os_str().is_empty() || path.to_string_lossy().contains(":memory:") {
        return Ok(None);
    }
    let mut lock_path = path.into_os_string();
    lock_path.push(".setup-lock");
    let lock_err = |source: std::io::Error| SetupError::Lock {
        path: std::path::PathBuf::from(&lock_path).display().to_string(),
        source,
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(lock_err)?;
    // Blocking until the instance that holds it has migrated and seeded.
    let file = tokio::task::spawn_blocking(move || file.lock().map(|()| file))
        .await
        .map_err(|e| lock_err(std::io::Error::other(e)))?
        .map_err(lock_err)?;
    Ok(Some(file))
}
