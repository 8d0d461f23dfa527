//! A statement built piece by piece (an `IN` list, optional filters, a
//! multi-row `INSERT`), with numbered parameters (`$1`, `$2`…) that both
//! SQLite and PostgreSQL read.
//!
//! sqlx's own `QueryBuilder` writes the placeholders of its database type,
//! and for the `Any` driver that is SQLite's `?`, which PostgreSQL rejects;
//! this is the same idea with the one placeholder syntax both backends share.
//!
//! Except for statements of thousands of values (the bulk loads):
//! [`Sql::for_backend`] writes SQLite's anonymous `?` there. sqlx binds a
//! SQLite statement by asking the name of each parameter, and SQLite finds
//! a numbered parameter's name by a linear search of all of them, so a
//! statement of n numbered parameters costs n²/2 string comparisons to
//! bind: at 4,400 values a statement that was 63% of `server seed`'s time.

use std::fmt::{Display, Write};

use sqlx::any::AnyArguments;
use sqlx::query::{Query, QueryAs, QueryScalar};
use sqlx::{Any, Arguments, Encode, Type};

use crate::db::Backend;

/// SQL text and its bound values, in order.
#[derive(Default)]
pub struct Sql<'a> {
    text: String,
    args: AnyArguments<'a>,
    count: usize,
    /// `?` rather than `$n` (SQLite only).
    anonymous: bool,
}

impl<'a> Sql<'a> {
    pub fn new(init: impl Into<String>) -> Sql<'a> {
        Sql {
            text: init.into(),
            args: AnyArguments::default(),
            count: 0,
            anonymous: false,
        }
    }

    /// A statement for `backend` alone, with its cheapest placeholders:
    /// `?` on SQLite (see the module doc), `$n` on PostgreSQL. Values are
    /// then only ever added with [`Sql::push_bind`], in order.
    pub fn for_backend(backend: Backend, init: impl Into<String>) -> Sql<'a> {
        Sql {
            anonymous: backend == Backend::Sqlite,
            ..Sql::new(init)
        }
    }

    /// Appends SQL text as it is (never a value from a user: bind those).
    pub fn push(&mut self, text: impl Display) -> &mut Self {
        let _ = write!(self.text, "{text}");
        self
    }

    /// Appends the next placeholder and binds `value` to it.
    pub fn push_bind<T>(&mut self, value: T) -> &mut Self
    where
        T: 'a + Encode<'a, Any> + Type<Any>,
    {
        self.count += 1;
        if self.anonymous {
            self.text.push('?');
        } else {
            let _ = write!(self.text, "${}", self.count);
        }
        // Encoding into the Any driver's buffer does not fail for the
        // scalar types it supports (the only ones it accepts).
        let _ = self.args.add(value);
        self
    }

    /// Appends a whole statement written with its own `$1`…`$n` (a
    /// statement kept as a constant, also run alone), its placeholders moved
    /// past the values bound so far; then bind its `n` values in order with
    /// [`Sql::bind`]. Statements so appended, separated by `;`, make one
    /// batch that SQLite runs in one call (a numbered parameter names the
    /// batch's value of that number, whichever statement it is in).
    pub fn push_numbered(&mut self, statement: &str) -> &mut Self {
        let base = self.count;
        let mut rest = statement;
        while let Some(at) = rest.find('$') {
            self.text.push_str(&rest[..at]);
            let digits = rest[at + 1..]
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len() - at - 1);
            match rest[at + 1..at + 1 + digits].parse::<usize>() {
                Ok(n) => {
                    let _ = write!(self.text, "${}", base + n);
                }
                Err(_) => self.text.push('$'),
            }
            rest = &rest[at + 1 + digits..];
        }
        self.text.push_str(rest);
        self
    }

    /// Binds the next value of a statement appended with
    /// [`Sql::push_numbered`] (no text is added).
    pub fn bind<T>(&mut self, value: T) -> &mut Self
    where
        T: 'a + Encode<'a, Any> + Type<Any>,
    {
        debug_assert!(!self.anonymous, "numbered statements only");
        self.count += 1;
        let _ = self.args.add(value);
        self
    }

    /// Values pushed with `separator` between them (an `IN (…)` list).
    pub fn separated<'s>(&'s mut self, separator: &'static str) -> Separated<'s, 'a> {
        Separated {
            sql: self,
            separator,
            first: true,
        }
    }

    /// `VALUES (…), (…)`: one parenthesised row per item, its values pushed
    /// by `row` with commas between them.
    pub fn push_values<I, F>(&mut self, rows: I, mut row: F) -> &mut Self
    where
        I: IntoIterator,
        F: FnMut(&mut Separated<'_, 'a>, I::Item),
    {
        self.push("VALUES ");
        for (i, item) in rows.into_iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            self.push("(");
            row(&mut self.separated(", "), item);
            self.push(")");
        }
        self
    }

    /// The SQL text so far.
    pub fn sql(&self) -> &str {
        &self.text
    }

    /// The statement, with the values bound so far (they move into it).
    pub fn build(&mut self) -> Query<'_, Any, AnyArguments<'_>> {
        sqlx::query_with(&self.text, std::mem::take(&mut self.args))
    }

    /// The statement, its rows read as `T`.
    pub fn build_query_as<T>(&mut self) -> QueryAs<'_, Any, T, AnyArguments<'_>>
    where
        T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow>,
    {
        sqlx::query_as_with(&self.text, std::mem::take(&mut self.args))
    }

    /// The statement, its first column read as `T`.
    pub fn build_query_scalar<T>(&mut self) -> QueryScalar<'_, Any, T, AnyArguments<'_>>
    where
        (T,): for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow>,
    {
        sqlx::query_scalar_with(&self.text, std::mem::take(&mut self.args))
    }
}

/// A yes/no column. Both backends store flags as 0/1 integers (SQLite has
/// no boolean type, and sqlx's `Any` driver decodes by the value's type), so
/// a row struct reads one as this and serialises it as a JSON boolean.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Flag(pub bool);

impl Type<Any> for Flag {
    fn type_info() -> sqlx::any::AnyTypeInfo {
        <i64 as Type<Any>>::type_info()
    }

    fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
        <i64 as Type<Any>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, Any> for Flag {
    fn decode(value: sqlx::any::AnyValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        Ok(Flag(<i64 as sqlx::Decode<'r, Any>>::decode(value)? != 0))
    }
}

/// Values pushed with a separator between them; see [`Sql::separated`].
pub struct Separated<'s, 'a> {
    sql: &'s mut Sql<'a>,
    separator: &'static str,
    first: bool,
}

impl<'a> Separated<'_, 'a> {
    pub fn push_bind<T>(&mut self, value: T) -> &mut Self
    where
        T: 'a + Encode<'a, Any> + Type<Any>,
    {
        if !self.first {
            self.sql.push(self.separator);
        }
        self.first = false;
        self.sql.push_bind(value);
        self
    }

    /// Appends text without a separator before it.
    pub fn push_unseparated(&mut self, text: impl Display) -> &mut Self {
        self.sql.push(text);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_in_order_across_pieces() {
        let mut sql = Sql::new("SELECT id FROM advisors WHERE id IN (");
        let mut list = sql.separated(", ");
        for id in [3i64, 5, 8] {
            list.push_bind(id);
        }
        sql.push(") AND name = ").push_bind("王");
        assert_eq!(
            sql.sql(),
            "SELECT id FROM advisors WHERE id IN ($1, $2, $3) AND name = $4"
        );
    }

    #[test]
    fn values_are_one_row_per_item() {
        let mut sql = Sql::new("INSERT INTO t (a, b) ");
        sql.push_values([(1i64, "x"), (2, "y")], |row, (a, b)| {
            row.push_bind(a).push_bind(b);
        });
        assert_eq!(sql.sql(), "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)");
    }

    #[test]
    fn a_statement_for_sqlite_alone_has_anonymous_placeholders() {
        let rows = [(1i64, "x"), (2, "y")];
        let mut sql = Sql::for_backend(Backend::Sqlite, "INSERT INTO t (a, b) ");
        sql.push_values(rows, |row, (a, b)| {
            row.push_bind(a).push_bind(b);
        });
        assert_eq!(sql.sql(), "INSERT INTO t (a, b) VALUES (?, ?), (?, ?)");
        let mut sql = Sql::for_backend(Backend::Postgres, "INSERT INTO t (a, b) ");
        sql.push_values(rows, |row, (a, b)| {
            row.push_bind(a).push_bind(b);
        });
        assert_eq!(sql.sql(), "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)");
    }

    #[test]
    fn numbered_statements_in_a_batch_are_moved_past_the_values_before_them() {
        let mut sql = Sql::new("BEGIN IMMEDIATE; ");
        sql.push_numbered("UPDATE t SET a = $2 WHERE b = $1 OR c = $2; ")
            .bind(1i64)
            .bind("x");
        sql.push("INSERT INTO u (a) ");
        sql.push_values([7i64], |row, a| {
            row.push_bind(a);
        });
        sql.push("; ")
            .push_numbered("DELETE FROM v WHERE a = $1 AND p = '$'; COMMIT")
            .bind(9i64);
        assert_eq!(
            sql.sql(),
            "BEGIN IMMEDIATE; UPDATE t SET a = $2 WHERE b = $1 OR c = $2; \
             INSERT INTO u (a) VALUES ($3); DELETE FROM v WHERE a = $4 AND p = '$'; COMMIT"
        );
    }
}
