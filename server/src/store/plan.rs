//! How the database means to read a statement, for the tests that hold the
//! hot reads to one index range and no sorting step.
//!
//! SQLite: `EXPLAIN QUERY PLAN`; a sort shows as `USE TEMP B-TREE`.
//! PostgreSQL: `EXPLAIN (COSTS OFF)` with sequential scans and sorts priced
//! out (`enable_seqscan`, `enable_sort` off for that transaction). Its
//! planner chooses by statistics, and on the demo's few hundred rows a
//! sequential scan always wins; priced out, a plan still holds a `Sort`
//! node when no index gives the order, so what is checked is that an index
//! serves the statement in order, whatever the table's size.

use crate::db::{Backend, Pool};

/// The lines of a plan.
#[derive(Clone, Debug)]
pub struct QueryPlan {
    pub lines: Vec<String>,
    backend: Backend,
}

impl QueryPlan {
    /// Whether a line names an index whose name contains `index`.
    pub fn uses(&self, index: &str) -> bool {
        self.lines.iter().any(|l| l.contains(index))
    }

    /// Whether the rows are sorted after they are read.
    pub fn sorts(&self) -> bool {
        self.lines.iter().any(|l| match self.backend {
            Backend::Sqlite => l.contains("TEMP B-TREE"),
            Backend::Postgres => {
                let node = l.trim_start().trim_start_matches("->").trim_start();
                node.starts_with("Sort") || node.starts_with("Incremental Sort")
            }
        })
    }
}

/// The plan of `sql` (a statement with its values written in, no parameters).
pub async fn explain(pool: &Pool, sql: &str) -> Result<QueryPlan, sqlx::Error> {
    let backend = Backend::of(pool);
    let lines = match backend {
        Backend::Sqlite => {
            let rows: Vec<(i64, i64, i64, String)> =
                sqlx::query_as(&format!("EXPLAIN QUERY PLAN {sql}"))
                    .fetch_all(pool)
                    .await?;
            rows.into_iter().map(|r| r.3).collect()
        }
        Backend::Postgres => {
            let mut tx = pool.begin().await?;
            sqlx::raw_sql("SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off")
                .execute(&mut *tx)
                .await?;
            let lines: Vec<String> = sqlx::query_scalar(&format!("EXPLAIN (COSTS OFF) {sql}"))
                .fetch_all(&mut *tx)
                .await?;
            tx.rollback().await?;
            lines
        }
    };
    Ok(QueryPlan { lines, backend })
}
