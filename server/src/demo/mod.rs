//! Demo data: a realistic, fictional dataset (real universities and majors,
//! made-up advisors and reviews) generated from a fixed seed and written into an
//! empty database on first start, so the site is useful the moment it runs.
//!
//! Two parts, seeded apart: the catalog (schools, majors and the names
//! students use for them — what the site needs to work at all) and the
//! demo advisors with their reviews. `DEMO_DATA=off` ([`Seeding`]) seeds the
//! catalog only, for a site whose advisors come from `server import`.

pub mod catalog_data;
pub mod generate;
pub mod scale;

use crate::db::{Conn, Pool};
use crate::store::sql::Sql;

use generate::DemoData;

/// The seed of the demo dataset. Changing it changes every advisor and review.
pub const DEMO_SEED: u64 = 20_260_112;

/// Rows per multi-row INSERT: well under SQLite's bound-parameter limit.
const CHUNK: usize = 400;

/// What an empty database is seeded with: the `DEMO_DATA` variable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seeding {
    /// The catalog, the demo advisors and their reviews (`DEMO_DATA` unset,
    /// empty or `on`).
    #[default]
    Demo,
    /// The catalog only — schools, majors and their aliases; the review
    /// tags come with the schema — and no advisor (`DEMO_DATA=off`).
    CatalogOnly,
}

impl Seeding {
    /// The variable that chooses.
    pub const VARIABLE: &'static str = "DEMO_DATA";

    /// `DEMO_DATA` from the environment.
    pub fn from_env() -> Result<Seeding, String> {
        Seeding::parse(std::env::var(Self::VARIABLE).ok().as_deref())
    }

    /// A value of `DEMO_DATA`: unset, empty or `on` is the demo, `off` the
    /// catalog only (either case). Anything else is refused rather than
    /// guessed at: a typo must not put fictional advisors into a
    /// production database, where they would be hard to take out again.
    pub fn parse(value: Option<&str>) -> Result<Seeding, String> {
        match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            None | Some("" | "on") => Ok(Seeding::Demo),
            Some("off") => Ok(Seeding::CatalogOnly),
            Some(_) => Err(format!(
                "{} 只能是 off（空数据库只写入学校和专业目录）或 on（写入演示数据，默认），现在是「{}」",
                Self::VARIABLE,
                value.unwrap_or_default().trim()
            )),
        }
    }
}

/// Seeds the database if it has no schools yet (as `seeding` says).
/// Returns whether it did. A database that has schools is left alone, so
/// `DEMO_DATA` matters only on the first start.
pub async fn seed_if_empty(pool: &Pool, seeding: Seeding) -> Result<bool, sqlx::Error> {
    let schools: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM schools")
        .fetch_one(pool)
        .await?;
    if schools > 0 {
        return Ok(false);
    }
    let data = match seeding {
        Seeding::Demo => generate::generate(DEMO_SEED),
        Seeding::CatalogOnly => generate::catalog(),
    };
    let mut tx = crate::db::begin_write(pool).await?;
    insert(&mut tx, &data).await?;
    crate::db::resync_ids(&mut tx, crate::db::Backend::of(pool)).await?;
    crate::store::rebuild_aggregates(&mut tx).await?;
    tx.commit().await?;
    Ok(true)
}

/// Writes the demo grown to `advisors` advisors and `reviews` reviews
/// ([`scale`]) into an empty database, in one transaction, aggregates and
/// stored scores rebuilt from the reviews. Refuses a database that has data.
pub async fn seed_at_scale(
    pool: &Pool,
    advisors: usize,
    reviews: usize,
) -> Result<(usize, usize), SeedError> {
    let schools: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM schools")
        .fetch_one(pool)
        .await?;
    if schools > 0 {
        return Err(SeedError::NotEmpty);
    }
    let mut data = generate::generate(DEMO_SEED);
    scale::grow(&mut data, advisors, reviews, DEMO_SEED);
    let backend = crate::db::Backend::of(pool);
    if backend == crate::db::Backend::Postgres {
        let mut tx = crate::db::begin_write(pool).await?;
        insert(&mut tx, &data).await?;
        crate::db::resync_ids(&mut tx, backend).await?;
        crate::store::rebuild_aggregates(&mut tx).await?;
        crate::store::search::index_missing(&mut tx).await?;
        tx.commit().await?;
        // Fresh statistics for the planner, as autovacuum would take later.
        sqlx::query("ANALYZE").execute(pool).await?;
        return Ok((data.advisors.len(), data.reviews.len()));
    }
    // SQLite: one connection with a page cache large enough for the indexes
    // being built (its default is 2 MB): a million rows into indexes that
    // fit in memory instead of being read back from disk on every insert.
    let mut conn = pool.acquire().await?;
    sqlx::query("PRAGMA cache_size = -524288")
        .execute(&mut *conn)
        .await?;
    let written = async {
        let mut tx = sqlx::Connection::begin_with(&mut *conn, "BEGIN IMMEDIATE").await?;
        insert(&mut tx, &data).await?;
        crate::store::rebuild_aggregates(&mut tx).await?;
        crate::store::search::index_missing(&mut tx).await?;
        tx.commit().await
    }
    .await;
    sqlx::query("PRAGMA cache_size = -2000")
        .execute(&mut *conn)
        .await?;
    written?;
    Ok((data.advisors.len(), data.reviews.len()))
}

/// 是否推荐报考 of a demo review: about three in five writers answer, and
/// their answer follows what they rated (4–5 yes, 1–2 no; a 3 leans on
/// 师生关系, what students weigh most).
fn demo_recommend(index: usize, r: &generate::ReviewSeed) -> Option<bool> {
    if index % 5 >= 3 {
        return None;
    }
    Some(match r.overall {
        4..=5 => true,
        1..=2 => false,
        _ => r.relationship >= 4,
    })
}

#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    #[error("数据库里已经有数据了：请换一个新的数据库文件（--db），已有数据不会被改动")]
    NotEmpty,
    #[error("写入数据失败：{0}")]
    Database(#[from] sqlx::Error),
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
    for (i, chunk) in data.schools.chunks(CHUNK).enumerate() {
        let mut qb = Sql::new("INSERT INTO schools (id, name, city, tier, popularity) ");
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
        let mut qb = Sql::new("INSERT INTO school_aliases (school_id, alias) ");
        qb.push_values(chunk, |b, (s, a)| {
            b.push_bind(*s).push_bind(*a);
        });
        qb.push(" ON CONFLICT DO NOTHING");
        qb.build().execute(&mut *conn).await?;
    }

    for (i, chunk) in data.majors.chunks(CHUNK).enumerate() {
        let mut qb = Sql::new("INSERT INTO majors (id, name, category) ");
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
        let mut qb = Sql::new("INSERT INTO major_aliases (major_id, alias) ");
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
    for (i, chunk) in data.advisors.chunks(CHUNK).enumerate() {
        let mut qb = Sql::new("INSERT INTO advisors (id, name, title, school_id, major_id, bio) ");
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
        let mut qb = Sql::new("INSERT INTO advisor_directions (advisor_id, position, direction) ");
        qb.push_values(chunk, |b, (a, p, d)| {
            b.push_bind(*a).push_bind(*p).push_bind(*d);
        });
        qb.build().execute(&mut *conn).await?;
    }

    for (i, chunk) in data.reviews.chunks(CHUNK).enumerate() {
        let mut qb = Sql::new(
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
                .push_bind(demo_recommend(i * CHUNK + j, r).map(i64::from));
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
        let mut qb = Sql::new("INSERT INTO review_tags (review_id, tag) ");
        qb.push_values(chunk, |b, (r, t)| {
            b.push_bind(*r).push_bind(*t);
        });
        qb.push(" ON CONFLICT DO NOTHING");
        qb.build().execute(&mut *conn).await?;
    }
    Ok(())
}
