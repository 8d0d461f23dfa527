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

use crate::db::Pool;
use crate::store::dataset;

/// The seed of the demo dataset. Changing it changes every advisor and review.
pub const DEMO_SEED: u64 = 20_260_112;

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
    if dataset::school_count(pool).await? > 0 {
        return Ok(false);
    }
    let data = match seeding {
        Seeding::Demo => generate::generate(DEMO_SEED),
        Seeding::CatalogOnly => generate::catalog(),
    };
    dataset::write(pool, &data).await?;
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
    if dataset::school_count(pool).await? > 0 {
        return Err(SeedError::NotEmpty);
    }
    let mut data = generate::generate(DEMO_SEED);
    scale::grow(&mut data, advisors, reviews, DEMO_SEED);
    dataset::write_at_scale(pool, &data).await?;
    Ok((data.advisors.len(), data.reviews.len()))
}

/// 是否推荐报考 of the demo's reviews, by position: about three in five
/// writers answer, and their answer follows what they rated (4–5 yes, 1–2
/// no; a 3 leans on 师生关系, what students weigh most).
pub(crate) fn answer_recommend(reviews: &mut [generate::ReviewSeed]) {
    for (index, r) in reviews.iter_mut().enumerate() {
        let yes = match r.overall {
            4..=5 => true,
            1..=2 => false,
            _ => r.relationship >= 4,
        };
        r.recommend = (index % 5 < 3).then_some(yes);
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    #[error("数据库里已经有数据了：请换一个新的数据库文件（--db），已有数据不会被改动")]
    NotEmpty,
    #[error("写入数据失败：{0}")]
    Database(#[from] sqlx::Error),
}
