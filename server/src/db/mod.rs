//! Opening the database: SQLite (the zero-setup default: one file, created
//! on first run) or PostgreSQL (`DATABASE_URL=postgres://…`, for instances on
//! several machines), chosen by the URL's scheme. The embedded migrations of
//! that backend (`migrations/sqlite`, `migrations/postgres`: the same versions,
//! the same tables) are applied under the setup lock, and so is whatever the
//! caller prepares next (start-up seeds and indexes: `crate::startup`; this
//! module knows no data of the site).
//!
//! Both go through sqlx's `Any` driver, so every query in `store` is written
//! once: `$1`-numbered parameters (both read them), values of the storage
//! classes both have (64-bit integers, doubles, text), and the few SQLite
//! functions the queries use defined in PostgreSQL by its first migration
//! (`strftime`, `group_concat`). What differs is here: connection settings,
//! how a write transaction takes the writers' lock, and the setup lock.
use std::str::FromStr;
use std::sync::Once;
use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::pool::PoolConnection;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::Executor;

mod ids;
mod reach;

pub use ids::ids_never_reused;
pub use reach::{host_of, reachable, Retries, START_RETRIES};

/// The pool every module queries through (SQLite or PostgreSQL).
pub type Pool = sqlx::AnyPool;
/// The database type of [`Pool`], for transactions and executors.
pub type Db = sqlx::Any;
/// One connection of the pool (inside a transaction or not).
pub type Conn = sqlx::AnyConnection;
/// A transaction begun by [`begin_write`].
pub type Tx = sqlx::Transaction<'static, Db>;

/// Where the database lives when `DATABASE_URL` is not set (git-ignored).
pub const DEFAULT_DATABASE_URL: &str = "sqlite://data/advisor.db";

/// Connections per instance unless `DATABASE_MAX_CONNECTIONS` says otherwise.
pub const DEFAULT_MAX_CONNECTIONS: u32 = 8;

/// Which database a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend of `url` by its scheme (`sqlite:` or `postgres:`/`postgresql:`).
    pub fn of_url(url: &str) -> Result<Backend, SetupError> {
        let scheme = url.split(':').next().unwrap_or_default();
        match scheme {
            "sqlite" => Ok(Backend::Sqlite),
            "postgres" | "postgresql" => Ok(Backend::Postgres),
            _ => Err(SetupError::Config(format!(
                "DATABASE_URL 应以 sqlite:// 或 postgres:// 开头，收到的是 {scheme}:"
            ))),
        }
    }

    /// The backend of an open connection.
    pub fn of_conn(conn: &Conn) -> Backend {
        match conn.backend_name() {
            "PostgreSQL" => Backend::Postgres,
            _ => Backend::Sqlite,
        }
    }

    /// The backend a pool was opened on.
    pub fn of(pool: &Pool) -> Backend {
        match pool.connect_options().database_url.scheme() {
            "postgres" | "postgresql" => Backend::Postgres,
            _ => Backend::Sqlite,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("无法打开数据库 {url}: {source}")]
    Connect { url: String, source: sqlx::Error },
    #[error("数据库 {host} 无法连接（试了 {attempts} 次）：{error}")]
    Unreachable {
        host: String,
        error: String,
        attempts: usize,
    },
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

/// The lock PostgreSQL writers take (`pg_advisory_xact_lock`), and the one
/// instances take while they migrate and seed (`pg_advisory_lock`).
const WRITERS_LOCK: i64 = 0x4144_5649_5352_0001;
const SETUP_LOCK: i64 = 0x4144_5649_5352_0002;

fn install_drivers() {
    static DRIVERS: Once = Once::new();
    DRIVERS.call_once(sqlx::any::install_default_drivers);
}

/// A value of `DATABASE_MAX_CONNECTIONS` (connections per instance,
/// 1–1000), or the Chinese sentence that says what is wrong with it.
pub fn parse_max_connections(v: &str) -> Result<u32, String> {
    v.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=1000).contains(n))
        .ok_or_else(|| {
            format!("DATABASE_MAX_CONNECTIONS 应为 1 到 1000 之间的整数，收到的是 {v:?}")
        })
}

/// How long a SQLite writer waits for the write lock before the request
/// fails (503). Half the request deadline (`http::security`, 30 s): on a
/// busy machine 5 s refused acknowledged-looking writes (a review writer
/// under two CPU hogs and a build got 503), while the deadline still bounds
/// every request.
pub const BUSY_TIMEOUT_MS: u32 = 15_000;

/// Connects with the settings a web server wants. SQLite: the file and its
/// folder are created if needed, WAL for concurrent readers, foreign keys
/// on, a busy timeout ([`BUSY_TIMEOUT_MS`]) instead of immediate "database
/// is locked" errors,
/// and 16 MB of page cache per connection (SQLite's default is 2 MB: at a
/// hundred thousand advisors the indexes a page reads stay cached).
/// PostgreSQL: the URL as given (host, database, user, `sslmode`…).
/// [`DEFAULT_MAX_CONNECTIONS`] connections at most; see [`connect_with`].
pub async fn connect(url: &str) -> Result<Pool, SetupError> {
    connect_with(url, DEFAULT_MAX_CONNECTIONS).await
}

/// [`connect`] with at most `max` connections (`DATABASE_MAX_CONNECTIONS`,
/// which the configuration reads: `crate::config` hands it down).
pub async fn connect_with(url: &str, max: u32) -> Result<Pool, SetupError> {
    install_drivers();
    let connect_err = |source| SetupError::Connect {
        url: redacted(url),
        source,
    };
    let max = max.max(1);
    match Backend::of_url(url)? {
        Backend::Postgres => {
            reachable(url, &START_RETRIES).await?;
            AnyPoolOptions::new()
                .max_connections(max)
                .idle_timeout(Some(Duration::from_secs(600)))
                .max_lifetime(Some(Duration::from_secs(3600)))
                .acquire_timeout(ACQUIRE_TIMEOUT)
                .after_release(|conn, _| Box::pin(reusable(conn)))
                .connect(url)
                .await
                .map_err(connect_err)
        }
        Backend::Sqlite => {
            let options = SqliteConnectOptions::from_str(url).map_err(connect_err)?;
            let in_memory = url.contains(":memory:") || url.contains("mode=memory");
            if !in_memory {
                let path = options.get_filename();
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|source| SetupError::Directory {
                        dir: dir.display().to_string(),
                        source,
                    })?;
                }
            }
            // The Any driver reads SQLite's options from the URL alone:
            // `mode=rwc` creates the file; the rest is set on each connection.
            let url = if url.contains("mode=") {
                url.to_string()
            } else if url.contains('?') {
                format!("{url}&mode=rwc")
            } else {
                format!("{url}?mode=rwc")
            };
            let common = format!(
                "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}; PRAGMA cache_size = -16384;"
            );
            let pragmas: std::sync::Arc<str> = if in_memory {
                common.into()
            } else {
                format!("{common} PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;").into()
            };
            // An in-memory database exists once per connection: keep exactly one.
            AnyPoolOptions::new()
                .test_before_acquire(false)
                .max_connections(if in_memory { 1 } else { max })
                .min_connections(if in_memory { 1 } else { 0 })
                .idle_timeout((!in_memory).then_some(Duration::from_secs(600)))
                .max_lifetime((!in_memory).then_some(Duration::from_secs(3600)))
                .acquire_timeout(ACQUIRE_TIMEOUT)
                .after_release(|conn, _| Box::pin(reusable(conn)))
                .after_connect(move |conn, _| {
                    let pragmas = pragmas.clone();
                    Box::pin(async move {
                        conn.execute(sqlx::raw_sql(&pragmas)).await?;
                        Ok(())
                    })
                })
                .connect(&url)
                .await
                .map_err(connect_err)
        }
    }
}

/// How long a request waits for a connection of the pool before it is
/// refused (503). sqlx's default is 30 s, the whole request deadline: a
/// database that stopped answering held every request until the deadline
/// (408) instead of a prompt 503 that `/readyz` and the proxy understand.
/// SQLite's writers wait on the busy timeout, not here.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// Whether a connection handed back to the pool may serve again: it must
/// answer, and it must not be inside a transaction.
///
/// A transaction dropped without commit queues its `ROLLBACK`; when that
/// rollback fails the connection stays "inside" it. SQLite does this after
/// `database or disk is full`: SQLite has already rolled the transaction
/// back itself, sqlx's `ROLLBACK` then fails ("no transaction is active"),
/// and sqlx keeps counting one open transaction. Returned to the pool, that
/// connection refused every later write with "attempted to call begin_with
/// at non-zero transaction depth" until the process restarted, long after
/// the disk had room again. On SQLite a ping waits for the queued rollback
/// (the worker runs a connection's commands in order); a connection still
/// inside a transaction after it is closed here, and the pool opens a fresh
/// one when it needs one. Every call site is covered, whatever path dropped
/// the transaction.
async fn reusable(conn: &mut Conn) -> Result<bool, sqlx::Error> {
    use sqlx::Connection;
    // PostgreSQL counts the queued rollback at once (sqlx pings every
    // released connection itself afterwards, which sends it); SQLite's
    // worker counts it only once it has run it, so wait for that there.
    // A connection that counts no transaction has no rollback queued (a
    // commit is counted when it returns): it is released without the
    // round trip to its worker, which every chat turn paid.
    if Backend::of_conn(conn) == Backend::Sqlite && conn.is_in_transaction() {
        conn.ping().await?;
    }
    if conn.is_in_transaction() {
        tracing::warn!(
            "a database connection was still inside a failed transaction; it is closed, not reused"
        );
        crate::observe::metrics::db_connection_discarded();
        return Ok(false);
    }
    Ok(true)
}

/// `url` without its password, for error messages and logs.
pub fn redacted(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_string(),
    }
}

/// A write transaction that holds the writers' lock from its first
/// statement, so that writers queue instead of failing or interleaving.
///
/// SQLite: `BEGIN IMMEDIATE`. A deferred transaction reads first and
/// upgrades to a write lock later, and an upgrade that meets another writer
/// fails at once with "database is locked" — the busy timeout cannot help it
/// — so under concurrent writers most of them would be refused. Taking the
/// lock at the start makes writers queue for at most the busy timeout.
///
/// PostgreSQL: `BEGIN` and a transaction-scoped advisory lock. The write
/// paths read aggregates, the stored prior and duplicates before they write
/// (a rate limit, a repeated review, a drifted prior); one writer at a time,
/// as on SQLite, keeps those reads true until commit on every instance.
/// Readers never wait for it.
/// Every transaction that writes begins here or in [`begin_own_rows`].
pub async fn begin_write(pool: &Pool) -> Result<Tx, sqlx::Error> {
    match Backend::of(pool) {
        Backend::Sqlite => pool.begin_with("BEGIN IMMEDIATE").await,
        Backend::Postgres => {
            let mut tx = pool.begin().await?;
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(WRITERS_LOCK)
                .execute(&mut *tx)
                .await?;
            Ok(tx)
        }
    }
}

/// A write transaction whose statements touch only rows of their own
/// request and read nothing they then rely on: a chat turn's session, its
/// messages and checkpoint, a counter bumped in one statement. SQLite: as
/// [`begin_write`] (one writer at a time is SQLite's rule). PostgreSQL: a
/// plain `BEGIN`; row locks order two writes of one row, and turns of
/// different sessions never wait for each other or for a review's write.
pub async fn begin_own_rows(pool: &Pool) -> Result<Tx, sqlx::Error> {
    match Backend::of(pool) {
        Backend::Sqlite => begin_write(pool).await,
        Backend::Postgres => pool.begin().await,
    }
}

/// Applies the migrations of the pool's backend embedded in the binary
/// (`server/migrations/sqlite` or `server/migrations/postgres`), then makes
/// sure no id is ever given twice ([`ids_never_reused`]).
pub async fn migrate(pool: &Pool) -> Result<(), SetupError> {
    match Backend::of(pool) {
        Backend::Sqlite => {
            sqlx::migrate!("./migrations/sqlite").run(pool).await?;
            let rebuilt = ids_never_reused(pool).await?;
            if rebuilt > 0 {
                tracing::info!(tables = rebuilt, "ids are never reused (AUTOINCREMENT)");
            }
        }
        Backend::Postgres => sqlx::migrate!("./migrations/postgres").run(pool).await?,
    }
    Ok(())
}

/// After rows were written with their ids (the demo, `server seed`),
/// PostgreSQL's identity sequences are moved past the largest id so that the
/// next row without one does not collide. SQLite needs nothing: its next
/// rowid is always past the largest.
pub async fn resync_ids(conn: &mut Conn, backend: Backend) -> Result<(), sqlx::Error> {
    if backend == Backend::Sqlite {
        return Ok(());
    }
    for table in ["schools", "majors", "advisors", "reviews"] {
        sqlx::query(&format!(
            "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
             COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
        ))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Connects, migrates, and runs `prepare` (the start-up's seeding) while
/// holding the setup lock; returns the pool and what `prepare` returned.
///
/// Several instances may start at once on one database: migrating and
/// preparing happen under an exclusive lock, so the first instance migrates
/// and seeds while the others wait, then find nothing left to do. SQLite: a
/// lock on a file beside the database (`<file>.setup-lock`; SQLite's own
/// locks cannot do this: each migration is its own transaction, and two
/// instances that both read "0019 not applied" would both apply it).
/// PostgreSQL: a session advisory lock held on one connection meanwhile.
///
/// The pool keeps at most `max_connections` connections ([`connect_with`]).
pub async fn open_prepared<T>(
    url: &str,
    max_connections: u32,
    prepare: impl AsyncFnOnce(&Pool) -> Result<T, SetupError>,
) -> Result<(Pool, T), SetupError> {
    let pool = connect_with(url, max_connections).await?;
    let lock = SetupLock::take(&pool).await?;
    let done = async {
        migrate(&pool).await?;
        prepare(&pool).await
    }
    .await;
    lock.release().await;
    let done = done?;
    Ok((pool, done))
}

/// The setup lock an instance holds while it migrates and seeds.
enum SetupLock {
    /// An in-memory SQLite database, which no other process can open.
    None,
    File(std::fs::File),
    Postgres(PoolConnection<Db>),
}

impl SetupLock {
    /// Waits until no other instance holds it.
    async fn take(pool: &Pool) -> Result<SetupLock, SetupError> {
        if Backend::of(pool) == Backend::Postgres {
            let mut conn = pool.acquire().await?;
            sqlx::query("SELECT pg_advisory_lock($1)")
                .bind(SETUP_LOCK)
                .execute(&mut *conn)
                .await?;
            return Ok(SetupLock::Postgres(conn));
        }
        let url = pool.connect_options().database_url.to_string();
        let options = SqliteConnectOptions::from_str(&url)?;
        let path = options.get_filename().to_path_buf();
        if path.as_os_str().is_empty()
            || path.to_string_lossy().contains(":memory:")
            || url.contains("mode=memory")
        {
            return Ok(SetupLock::None);
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
        Ok(SetupLock::File(file))
    }

    async fn release(self) {
        match self {
            SetupLock::None => {}
            SetupLock::File(file) => drop(file),
            SetupLock::Postgres(conn) => Self::unlock(conn).await,
        }
    }

    async fn unlock(mut conn: PoolConnection<Db>) {
        {
            let unlocked = sqlx::query("SELECT pg_advisory_unlock($1)")
                .bind(SETUP_LOCK)
                .execute(&mut *conn)
                .await;
            if unlocked.is_err() {
                // A session lock lives as long as its connection: close it.
                let _ = sqlx::Connection::close(conn.detach()).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_never_reaches_a_log_line() {
        assert_eq!(
            redacted("postgres://site:s3cret@db.internal:5432/advisors"),
            "postgres://site:***@db.internal:5432/advisors"
        );
        assert_eq!(
            redacted("sqlite://data/advisor.db"),
            "sqlite://data/advisor.db"
        );
    }

    #[test]
    fn the_scheme_chooses_the_backend_and_anything_else_is_refused_in_chinese() {
        assert_eq!(Backend::of_url("sqlite://x.db").unwrap(), Backend::Sqlite);
        assert_eq!(
            Backend::of_url("postgresql://h/db").unwrap(),
            Backend::Postgres
        );
        let err = Backend::of_url("mysql://h/db").unwrap_err().to_string();
        assert!(err.contains("DATABASE_URL 应以"), "{err}");
    }
}
