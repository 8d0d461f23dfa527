//! Writing a generated dataset (`crate::demo`: the demo, or the demo grown
//! to scale) into an empty database: multi-row INSERTs with the rows'
//! positions as ids, then the aggregates rebuilt from the reviews, in one
//! write transaction.

use crate::db::{Backend, Conn, Pool};
pub mod data;

pub use data::DemoData;

use super::sql::Sql;

/// Rows per multi-row INSERT: well under either backend's bound-parameter
/// limit (SQLite 32,766, PostgreSQL 65,535) at ten columns.
const CHUNK: usize = 400;

/// How many schools there are (0: an empty database).
pub async fn school_count(pool: &Pool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM schools")
        .fetch_one(pool)
        .await
}

/// Writes `data` and its aggregates in one write transaction.
pub async fn write(pool: &Pool, data: &DemoData) -> Result<(), sqlx::Error> {
    let mut tx = crate::db::begin_write(pool).await?;
    insert(&mut tx, data).await?;
    crate::db::resync_ids(&mut tx, Backend::of(pool)).await?;
    super::rebuild_aggregates(&mut tx).await?;
    tx.commit().await
}

/// [`write`] for a dataset of a million reviews, and the name search's
/// terms with it, in one write transaction (`server seed`). Maintaining a
/// dozen secondary indexes row by row is most of the cost of a load this
/// size, so the tables' own secondary indexes are dropped first and built
/// again from their stored definitions once the rows are in (a sort
/// instead of a million random index insertions), and the per-row
/// triggers are set aside while they would only repeat what
/// [`super::rebuild_aggregates`] computes in bulk. All of it is inside the transaction: a failed load
/// leaves the schema as it was. SQLite: on one connection with a page
/// cache large enough for the indexes being built (its default is 2 MB).
/// PostgreSQL: then fresh planner statistics, as autovacuum would gather
/// later.
pub async fn write_at_scale(pool: &Pool, data: &DemoData) -> Result<(), sqlx::Error> {
    let backend = Backend::of(pool);
    if backend == Backend::Postgres {
        let mut tx = crate::db::begin_write(pool).await?;
        load_at_scale(&mut tx, backend, data).await?;
        tx.commit().await?;
        sqlx::query("ANALYZE").execute(pool).await?;
        return Ok(());
    }
    let mut conn = pool.acquire().await?;
    sqlx::query("PRAGMA cache_size = -524288")
        .execute(&mut *conn)
        .await?;
    let written = async {
        let mut tx = sqlx::Connection::begin_with(&mut *conn, "BEGIN IMMEDIATE").await?;
        load_at_scale(&mut tx, backend, data).await?;
        tx.commit().await
    }
    .await;
    sqlx::query("PRAGMA cache_size = -2000")
        .execute(&mut *conn)
        .await?;
    written
}

/// The body of [`write_at_scale`], inside its transaction.
async fn load_at_scale(
    conn: &mut Conn,
    backend: Backend,
    data: &DemoData,
) -> Result<(), sqlx::Error> {
    let phase = Phases::start();
    let deferred = defer_indexes_and_triggers(&mut *conn, backend).await?;
    insert(&mut *conn, data).await?;
    crate::db::resync_ids(&mut *conn, backend).await?;
    phase.done("rows inserted");
    super::rebuild_aggregates(&mut *conn).await?;
    phase.done("aggregates rebuilt");
    super::search::index_missing(&mut *conn).await?;
    phase.done("name terms written");
    for sql in deferred.indexes.iter().chain(&deferred.triggers) {
        sqlx::query(sql).execute(&mut *conn).await?;
    }
    phase.done("indexes built");
    Ok(())
}

/// Elapsed time of a load's phases, logged.
struct Phases(std::time::Instant);

impl Phases {
    fn start() -> Phases {
        Phases(std::time::Instant::now())
    }

    fn done(&self, what: &str) {
        tracing::info!(
            seconds = self.0.elapsed().as_secs_f64(),
            "bulk load: {what}"
        );
    }
}

/// The tables a bulk load writes (their secondary indexes and triggers
/// are set aside during it), as an SQL list.
macro_rules! loaded_tables {
    () => {
        "'advisors', 'advisor_directions', 'reviews', 'review_tags', 'advisor_tags', 'advisor_name_heads'"
    };
}
const LOADED_TABLES: &str = loaded_tables!();

/// Which rows of `sqlite_master` are the loaded tables' own indexes and
/// triggers (not the automatic indexes of their keys), indexes first.
const SQLITE_LOADED_OBJECTS: &str = concat!(
    "WHERE type IN ('index', 'trigger') AND sql IS NOT NULL AND tbl_name IN (",
    loaded_tables!(),
    ") ORDER BY type, name"
);

/// The secondary indexes and triggers of the tables a bulk load writes, as
/// `kind name` lines in order (the tests hold a load to putting every one
/// back).
pub async fn load_schema(pool: &Pool) -> Result<Vec<String>, sqlx::Error> {
    let sql = match Backend::of(pool) {
        Backend::Sqlite => {
            format!("SELECT type || ' ' || name FROM sqlite_master {SQLITE_LOADED_OBJECTS}")
        }
        Backend::Postgres => format!(
            "SELECT 'index ' || indexname FROM pg_indexes \
             WHERE schemaname = current_schema() AND tablename IN ({LOADED_TABLES}) \
             UNION ALL \
             SELECT 'trigger ' || t.tgname || CASE WHEN t.tgenabled = 'D' THEN ' disabled' ELSE '' END \
             FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid \
             WHERE NOT t.tgisinternal AND c.relname IN ({LOADED_TABLES}) ORDER BY 1"
        ),
    };
    sqlx::query_scalar(&sql).fetch_all(pool).await
}

/// What [`defer_indexes_and_triggers`] set aside: the statements that put
/// it back, indexes first.
struct Deferred {
    indexes: Vec<String>,
    triggers: Vec<String>,
}

/// Drops the loaded tables' non-unique secondary indexes and sets their
/// triggers aside (unique ones stay: `ON CONFLICT` relies on them), and
/// returns how to put them back, read from the database's own catalog so
/// that the migrations stay the one definition.
async fn defer_indexes_and_triggers(
    conn: &mut Conn,
    backend: Backend,
) -> Result<Deferred, sqlx::Error> {
    let mut deferred = Deferred {
        indexes: Vec::new(),
        triggers: Vec::new(),
    };
    match backend {
        Backend::Sqlite => {
            let rows: Vec<(String, String, String)> = sqlx::query_as(&format!(
                "SELECT type, name, sql FROM sqlite_master {SQLITE_LOADED_OBJECTS}"
            ))
            .fetch_all(&mut *conn)
            .await?;
            for (kind, name, sql) in rows {
                let unique = sql
                    .trim_start()
                    .to_ascii_uppercase()
                    .starts_with("CREATE UNIQUE");
                if kind == "index" && unique {
                    continue;
                }
                sqlx::query(&format!("DROP {} \"{name}\"", kind.to_ascii_uppercase()))
                    .execute(&mut *conn)
                    .await?;
                match kind.as_str() {
                    "index" => deferred.indexes.push(sql),
                    _ => deferred.triggers.push(sql),
                }
            }
        }
        Backend::Postgres => {
            let rows: Vec<(String, String)> = sqlx::query_as(&format!(
                "SELECT CAST(i.indexname AS TEXT), i.indexdef FROM pg_indexes i \
                 WHERE i.schemaname = current_schema() AND i.tablename IN ({LOADED_TABLES}) \
                   AND i.indexdef NOT LIKE 'CREATE UNIQUE%' ORDER BY i.indexname"
            ))
            .fetch_all(&mut *conn)
            .await?;
            for (name, def) in rows {
                sqlx::query(&format!("DROP INDEX \"{name}\""))
                    .execute(&mut *conn)
                    .await?;
                deferred.indexes.push(def);
            }
            let tables: Vec<(String,)> = sqlx::query_as(&format!(
                "SELECT DISTINCT CAST(c.relname AS TEXT) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid \
                 WHERE NOT t.tgisinternal AND c.relname IN ({LOADED_TABLES}) ORDER BY 1"
            ))
            .fetch_all(&mut *conn)
            .await?;
            for (table,) in tables {
                sqlx::query(&format!("ALTER TABLE \"{table}\" DISABLE TRIGGER USER"))
                    .execute(&mut *conn)
                    .await?;
                deferred
                    .triggers
                    .push(format!("ALTER TABLE \"{table}\" ENABLE TRIGGER USER"));
            }
        }
    }
    Ok(deferred)
}

/// Inserts a generated dataset; ids are positions + 1, so references between
/// the generated rows (indices) carry over unchanged.
pub async fn insert(conn: &mut Conn, data: &DemoData) -> Result<(), sqlx::Error> {
    insert_catalog(&mut *conn, data).await?;
    insert_advisors_and_reviews(conn, data).await
}

/// Row `i` of a generated table is id `i + 1`.
fn id(i: usize) -> i64 {
    i as i64 + 1
}

/// The schools and majors of a dataset with their aliases.
pub async fn insert_catalog(conn: &mut Conn, data: &DemoData) -> Result<(), sqlx::Error> {
    let backend = Backend::of_conn(conn);
    for (i, chunk) in data.schools.chunks(CHUNK).enumerate() {
        let mut qb = Sql::for_backend(
            backend,
            "INSERT INTO schools (id, name, city, tier, popularity) ",
        );
        qb.push_values(chunk.iter().enumerate(), |b, (j, s)| {
            b.push_bind(id(i * CHUNK + j))
                .push_bind(s.name)
                .push_bind(s.city)
                .push_bind(s.tier)
                .push_bind(s.popularity);
        });
        qb.build().execute(&mut *conn).await?;
    }
    let school_aliases: Vec<(i64, &str)> = data
        .schools
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.aliases.iter().map(move |a| (id(i), *a)))
        .collect();
    for chunk in school_aliases.chunks(CHUNK) {
        let mut qb = Sql::for_backend(backend, "INSERT INTO school_aliases (school_id, alias) ");
        qb.push_values(chunk, |b, (s, a)| {
            b.push_bind(*s).push_bind(*a);
        });
        qb.push(" ON CONFLICT DO NOTHING");
        qb.build().execute(&mut *conn).await?;
    }

    for (i, chunk) in data.majors.chunks(CHUNK).enumerate() {
        let mut qb = Sql::for_backend(backend, "INSERT INTO majors (id, name, category) ");
        qb.push_values(chunk.iter().enumerate(), |b, (j, m)| {
            b.push_bind(id(i * CHUNK + j))
                .push_bind(m.name)
                .push_bind(m.category);
        });
        qb.build().execute(&mut *conn).await?;
    }
    let major_aliases: Vec<(i64, &str)> = data
        .majors
        .iter()
        .enumerate()
        .flat_map(|(i, m)| m.aliases.iter().map(move |a| (id(i), *a)))
        .collect();
    for chunk in major_aliases.chunks(CHUNK) {
        let mut qb = Sql::for_backend(backend, "INSERT INTO major_aliases (major_id, alias) ");
        qb.push_values(chunk, |b, (m, a)| {
            b.push_bind(*m).push_bind(*a);
        });
        qb.push(" ON CONFLICT DO NOTHING");
        qb.build().execute(&mut *conn).await?;
    }
    Ok(())
}

/// The advisors of a dataset, their directions, reviews and review tags
/// (the catalog must be in already; aggregates are left to
/// [`crate::store::rebuild_aggregates`]).
pub async fn insert_advisors_and_reviews(
    conn: &mut Conn,
    data: &DemoData,
) -> Result<(), sqlx::Error> {
    let backend = Backend::of_conn(conn);
    for (i, chunk) in data.advisors.chunks(CHUNK).enumerate() {
        let mut qb = Sql::for_backend(
            backend,
            "INSERT INTO advisors (id, name, title, school_id, major_id, bio) ",
        );
        qb.push_values(chunk.iter().enumerate(), |b, (j, a)| {
            b.push_bind(id(i * CHUNK + j))
                .push_bind(&a.name)
                .push_bind(a.title)
                .push_bind(id(a.school))
                .push_bind(id(a.major))
                .push_bind(&a.bio);
        });
        qb.build().execute(&mut *conn).await?;
    }
    let directions: Vec<(i64, i64, &str)> = data
        .advisors
        .iter()
        .enumerate()
        .flat_map(|(i, a)| {
            a.directions
                .iter()
                .enumerate()
                .map(move |(p, d)| (id(i), p as i64, d.as_str()))
        })
        .collect();
    for chunk in directions.chunks(CHUNK) {
        let mut qb = Sql::for_backend(
            backend,
            "INSERT INTO advisor_directions (advisor_id, position, direction) ",
        );
        qb.push_values(chunk, |b, (a, p, d)| {
            b.push_bind(*a).push_bind(*p).push_bind(*d);
        });
        qb.build().execute(&mut *conn).await?;
    }

    for (i, chunk) in data.reviews.chunks(CHUNK).enumerate() {
        let mut qb = Sql::for_backend(
            backend,
            "INSERT INTO reviews (id, advisor_id, academic, funding, relationship, prospects, overall, \
             text, relation, created_at, recommend) ",
        );
        qb.push_values(chunk.iter().enumerate(), |b, (j, r)| {
            b.push_bind(id(i * CHUNK + j))
                .push_bind(id(r.advisor))
                .push_bind(r.academic as i64)
                .push_bind(r.funding as i64)
                .push_bind(r.relationship as i64)
                .push_bind(r.prospects as i64)
                .push_bind(r.overall as i64)
                .push_bind(&r.text)
                .push_bind(r.relation)
                .push_bind(&r.created_at)
                .push_bind(r.recommend.map(i64::from));
        });
        qb.build().execute(&mut *conn).await?;
    }
    let tags: Vec<(i64, &str)> = data
        .reviews
        .iter()
        .enumerate()
        .flat_map(|(i, r)| r.tags.iter().map(move |t| (id(i), *t)))
        .collect();
    for chunk in tags.chunks(CHUNK) {
        let mut qb = Sql::for_backend(backend, "INSERT INTO review_tags (review_id, tag) ");
        qb.push_values(chunk, |b, (r, t)| {
            b.push_bind(*r).push_bind(*t);
        });
        qb.push(" ON CONFLICT DO NOTHING");
        qb.build().execute(&mut *conn).await?;
    }
    Ok(())
}
