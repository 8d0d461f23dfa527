//! The read service behind the pages, the JSON API and the agent's tools.
//! Every reader goes through [`Site`], so a name resolves, a ranking is
//! ordered and a row is shaped into the shared read models (`app::model`)
//! the same way wherever it is shown: what the agent says is what the page
//! shows. It also holds what is read on every turn and changes seldom —
//! the catalog, the pairs' directories, rendered ranking pages and the
//! recommender's candidates — each cache kept at the version it was read
//! at, so it is never wrong, only sometimes cold.
//!
//! This file holds [`Site`] itself: loading it, noticing a changed roster,
//! the pool and the catalog. The reads, one concept a file:
//! - `catalog.rs`: schools and majors as the API lists them; a school by
//!   any of its names.
//! - `directory.rs`: the names and directions of a pair, kept in memory,
//!   and forgetting them with what was built from them.
//! - `ranking.rs`: a ranking by what the student typed, its pages and
//!   their cache; the priors and the top of a pair.
//! - `advisor.rs`: one advisor — row, detail page, reviews — and the
//!   checks of an advisor id and a review query.
//! - `compare.rs`: advisors side by side.
//! - `stats.rs`: what a pair's reviews add up to, and the home page's
//!   figures.
//! - `candidates.rs`: the recommender's candidates of a pair and their cache.
//! - `page_context.rs`: the page the browser reports, checked against the
//!   database.

mod advisor;
mod candidates;
mod catalog;
mod compare;
mod directory;
mod page_context;
mod ranking;
mod stats;

use std::sync::Arc;

use app::error::ApiError;

use crate::catalog::Catalog;
use crate::db::Pool;
use crate::store;

pub use advisor::{check_review_query, parse_advisor_id, REVIEW_PAGE_SIZE};
pub use candidates::GroupFacts;
pub use directory::Directory;
pub use ranking::{PairVersions, RANKING_PAGE_SIZE};
pub use stats::stats_of;

use candidates::FactsCache;
use directory::Directories;
use ranking::PageCache;

/// The highest page number accepted; beyond it a request is malformed.
pub const MAX_PAGE: u32 = 10_000;
/// How often a running server looks for a changed roster
/// ([`Site::refresh_if_changed`]): an import shows within this time.
pub const ROSTER_POLL: std::time::Duration = std::time::Duration::from_secs(2);

pub(crate) fn db_error(e: sqlx::Error) -> ApiError {
    tracing::error!(error = %e, "database error");
    ApiError::unavailable("数据加载失败了，请稍后再试。")
}

/// The read service; one per process, shared by the pages, the API and
/// the agent (`Arc<Site>`).
pub struct Site {
    pool: Pool,
    catalog: Arc<Catalog>,
    directories: std::sync::RwLock<Directories>,
    /// Rendered ranking pages and the pair version each was rendered at
    /// ([`Site::ranking_page`]).
    pages: std::sync::Mutex<PageCache>,
    /// The recommender's candidates of a pair at a pair version.
    facts: std::sync::Mutex<FactsCache>,
    /// The roster version ([`store::roster`]) the caches were loaded at;
    /// held while they are reloaded, so reloads take turns.
    roster_seen: tokio::sync::Mutex<i64>,
    /// The database's secret for stored client keys
    /// ([`store::client_keys`]), read once here; the router hands it to
    /// the middleware that names each request's client.
    client_keys: store::client_keys::ClientKeys,
}

impl Site {
    /// Loads the catalog and the client-key secret; the pool must already
    /// be migrated (start-up has made the secret; a pool migrated by hand
    /// gets one here, as start-up would).
    pub async fn load(pool: Pool) -> Result<Site, sqlx::Error> {
        // The version first: an import that lands while the catalog loads
        // is then seen as a change by the next refresh.
        let roster = store::roster::version(&pool).await?;
        let catalog = Arc::new(Catalog::load(&pool).await?);
        let client_keys = store::client_keys::ensure(&pool).await?;
        Ok(Site {
            client_keys,
            pool,
            catalog,
            directories: Default::default(),
            pages: Default::default(),
            facts: Default::default(),
            roster_seen: tokio::sync::Mutex::new(roster),
        })
    }

    /// Reloads what the site caches about the roster — which pairs have
    /// advisors and how many, each pair's names and directions — when the
    /// roster version in the database has moved (an import, by this
    /// process or another). Returns whether it did. The server calls this
    /// every [`ROSTER_POLL`]; it costs one read of a header field.
    pub async fn refresh_if_changed(&self) -> Result<bool, sqlx::Error> {
        let mut seen = self.roster_seen.lock().await;
        let now = store::roster::version(&self.pool).await?;
        if now == *seen {
            return Ok(false);
        }
        self.catalog
            .set_offered(Catalog::load_offered(&self.pool).await?);
        self.invalidate_directories();
        *seen = now;
        Ok(true)
    }

    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// What a client's identity is stored as (`http::client` makes it).
    pub fn client_keys(&self) -> &store::client_keys::ClientKeys {
        &self.client_keys
    }
}
