//! Who is in a (school, major) and what they research, kept in memory:
//! the agent reads it on every turn and the ranking cards and the detail
//! page show the directions. It changes only when advisors are added or
//! edited, and forgetting it also forgets what was built from it (the
//! rendered ranking pages, the recommender's candidates).

use std::sync::Arc;

use app::error::ApiError;

use crate::store;

use super::{db_error, Site};

/// Who is in one (school, major) and what they research: names and
/// directions change only when advisors are added or edited, not with
/// reviews, so the agent reads them from memory on every turn.
#[derive(Debug, Default)]
pub struct Directory {
    pub advisors: Vec<(i64, String)>,
    pub directions: std::collections::HashMap<i64, Vec<String>>,
    /// Every direction of the pair with how many advisors research it, most
    /// common first (then by name): the chips the agent offers.
    pub common_directions: Vec<(usize, String)>,
}

impl Directory {
    pub fn new(
        advisors: Vec<(i64, String)>,
        directions: std::collections::HashMap<i64, Vec<String>>,
    ) -> Directory {
        let mut tally: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for d in directions.values().flatten() {
            *tally.entry(d.as_str()).or_default() += 1;
        }
        let mut common_directions: Vec<(usize, String)> =
            tally.into_iter().map(|(d, n)| (n, d.to_string())).collect();
        common_directions.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        Directory {
            advisors,
            directions,
            common_directions,
        }
    }
}

/// The cached directories, and a generation that moves on each time they
/// are forgotten: a directory read from the database before that is not
/// kept after it.
#[derive(Default)]
pub(super) struct Directories {
    pub(super) generation: u64,
    pub(super) by_pair: std::collections::HashMap<(i64, i64), Arc<Directory>>,
}

impl Site {
    /// The names and directions of one (school, major), cached in memory.
    pub async fn directory(
        &self,
        school_id: i64,
        major_id: i64,
    ) -> Result<Arc<Directory>, ApiError> {
        let key = (school_id, major_id);
        let generation = {
            let m = self.directories.read().unwrap_or_else(|e| e.into_inner());
            if let Some(d) = m.by_pair.get(&key) {
                return Ok(d.clone());
            }
            m.generation
        };
        let rows = store::advisors_in(&self.pool, school_id, major_id)
            .await
            .map_err(db_error)?;
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let directions = store::directions_of(&self.pool, &ids)
            .await
            .map_err(db_error)?;
        let directory = Arc::new(Directory::new(
            rows.into_iter().map(|r| (r.id, r.name)).collect(),
            directions,
        ));
        let mut m = self.directories.write().unwrap_or_else(|e| e.into_inner());
        // Forgotten while it was read: it may predate the change.
        if m.generation == generation {
            m.by_pair.insert(key, directory.clone());
        }
        Ok(directory)
    }

    /// Forgets cached directories (after advisors are added or edited), and
    /// what was built from them: the rendered ranking pages, whose cards
    /// show the directions, and the recommender's candidates.
    pub fn invalidate_directories(&self) {
        let mut m = self.directories.write().unwrap_or_else(|e| e.into_inner());
        m.by_pair.clear();
        m.generation = m.generation.wrapping_add(1);
        let mut pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        pages.by_key.clear();
        let mut facts = self.facts.lock().unwrap_or_else(|e| e.into_inner());
        facts.by_key.clear();
    }
}
