//! The stored form of a client's identity. Every per-client rule (review
//! rate limits and duplicates, one report and one 有用 per client, chat
//! turns, admin login throttling) keys on the client's network address, but
//! the address itself is never written: what is stored is a keyed code of
//! it, `k:` and 32 hex digits of HMAC-SHA256(secret, address).
//!
//! - The same address always gives the same code, so every rule works as it
//!   did on the address.
//! - Without the secret the code says nothing about the address: an IPv4
//!   address is one of 2³², and a plain hash of it would be undone by trying
//!   them all; a keyed hash cannot be tried without the key.
//! - The secret is one per database (`client_key_secret`), drawn from the
//!   operating system the first time a server starts on it ([`ensure`], under
//!   the setup lock at start-up), so every instance over that database makes
//!   the same code for one client. It is never logged or shown.
//!
//! Rows written before this (`ip:<address>`) are rewritten at start
//! ([`rewrite_addresses`]), so no address is left in the database.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::db::Pool;

/// How many bytes of the HMAC a stored key keeps: 128 bits, far past any
/// chance of two clients sharing one.
const KEY_BYTES: usize = 16;

/// The prefix of every stored client key made by [`ClientKeys::key_of`].
pub const PREFIX: &str = "k:";

/// The prefix of the keys of older versions, which held the address itself.
pub const OLD_PREFIX: &str = "ip:";

/// The secret client keys are made with; cheap to clone, never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientKeys {
    secret: [u8; 32],
}

impl std::fmt::Debug for ClientKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClientKeys(…)")
    }
}

impl ClientKeys {
    /// A new random secret, from the operating system.
    pub fn random() -> Result<ClientKeys, getrandom::Error> {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret)?;
        Ok(ClientKeys { secret })
    }

    /// The stored key of the client at `address` (its canonical text:
    /// `203.0.113.7`, `2001:db8::1`).
    pub fn key_of(&self, address: &str) -> String {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.secret).expect("HMAC takes a key of any length");
        mac.update(address.as_bytes());
        let code = mac.finalize().into_bytes();
        let mut key = String::with_capacity(PREFIX.len() + 2 * KEY_BYTES);
        key.push_str(PREFIX);
        key.push_str(&hex(&code[..KEY_BYTES]));
        key
    }

    /// The stored form of a key as an older version stored it: `ip:<address>`
    /// becomes [`ClientKeys::key_of`] the address; anything else is left.
    pub fn rewritten(&self, stored: &str) -> Option<String> {
        stored
            .strip_prefix(OLD_PREFIX)
            .map(|address| self.key_of(address))
    }

    /// An audit line's actor as an older version wrote it, `name（ip:…）`
    /// (`http::admin`: the name the admin gave and the admin's client key),
    /// with the key rewritten; `None` when it holds no old key.
    pub fn rewritten_actor(&self, actor: &str) -> Option<String> {
        let (name, key) = actor.strip_suffix('）')?.rsplit_once('（')?;
        Some(format!("{name}（{}）", self.rewritten(key)?))
    }

    fn to_hex(&self) -> String {
        hex(&self.secret)
    }

    fn from_hex(text: &str) -> Option<ClientKeys> {
        let text = text.trim();
        if text.len() != 64 || !text.is_ascii() {
            return None;
        }
        let mut secret = [0u8; 32];
        for (i, byte) in secret.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(ClientKeys { secret })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The database's secret, made and stored first if it has none. Safe when
/// instances race: the first row written is the one every instance reads.
/// A secret that is not 64 hex digits (edited by hand) is an error: a new
/// one would silently make every client a new client.
pub async fn ensure(pool: &Pool) -> Result<ClientKeys, sqlx::Error> {
    if let Some(keys) = read(pool).await? {
        return Ok(keys);
    }
    let fresh = ClientKeys::random().map_err(|e| sqlx::Error::Io(std::io::Error::other(e)))?;
    sqlx::query(
        "INSERT INTO client_key_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING",
    )
    .bind(fresh.to_hex())
    .execute(pool)
    .await?;
    read(pool).await?.ok_or(sqlx::Error::RowNotFound)
}

async fn read(pool: &Pool) -> Result<Option<ClientKeys>, sqlx::Error> {
    let stored: Option<String> =
        sqlx::query_scalar("SELECT secret FROM client_key_secret WHERE id = 1")
            .fetch_optional(pool)
            .await?;
    stored
        .map(|s| {
            ClientKeys::from_hex(&s).ok_or_else(|| {
                sqlx::Error::Decode("client_key_secret.secret 不是 64 位十六进制数".into())
            })
        })
        .transpose()
}

/// The columns that hold a client key: every table a client's request
/// writes with its identity. (`admin_audit.actor` holds one too, inside
/// the text: see [`ClientKeys::rewritten_actor`].)
pub const CLIENT_COLUMNS: &[(&str, &str)] = &[
    ("reviews", "client_key"),
    ("review_reports", "client_key"),
    ("review_votes", "client_key"),
    ("correction_requests", "client_key"),
    ("rate_windows", "client"),
];

/// Rows of `table` whose `column` is an older version's key (`ip:…`): a
/// range of the text, so an index on the column serves it.
fn old_keys(table: &str, column: &str) -> String {
    format!("SELECT {column} FROM {table} WHERE {column} >= 'ip:' AND {column} < 'ip;'")
}

/// The audit lines whose actor carries an older version's key.
const OLD_ACTORS: &str = "SELECT id, actor FROM admin_audit WHERE actor LIKE '%（ip:%'";

/// Rewrites every client key an older version stored as the address
/// (`ip:203.0.113.7`) to its keyed code, in every table that holds one
/// ([`CLIENT_COLUMNS`], and the admin's key in the audit log's actors), in
/// one write transaction. Returns how many keys were rewritten: distinct
/// addresses, and audit lines. Nothing to do is one read of each client
/// column (a range of its index where one leads with it) and no write, so
/// it runs at every start (under the setup lock).
///
/// The mapping is one-to-one, so two old rows never become one. But an
/// instance of this version may already have written the new key of an
/// address beside an older instance's row of the same address (both
/// running during an upgrade): then the one vote, report or counter that
/// the uniqueness rules allow is the new row, the old one is dropped, and
/// the review's 有用 count loses the vote counted twice (its report count
/// follows by the table's trigger).
pub async fn rewrite_addresses(pool: &Pool, keys: &ClientKeys) -> Result<u64, sqlx::Error> {
    let union = CLIENT_COLUMNS
        .iter()
        .map(|(table, column)| old_keys(table, column))
        .collect::<Vec<_>>()
        .join(" UNION ");
    let any: Option<String> = sqlx::query_scalar(&format!("{union} LIMIT 1"))
        .fetch_optional(pool)
        .await?;
    let actor: Option<(i64, String)> = sqlx::query_as(&format!("{OLD_ACTORS} LIMIT 1"))
        .fetch_optional(pool)
        .await?;
    if any.is_none() && actor.is_none() {
        return Ok(0);
    }
    let mut tx = crate::db::begin_write(pool).await?;
    let actors: Vec<(i64, String)> = sqlx::query_as(OLD_ACTORS).fetch_all(&mut *tx).await?;
    let mut audit_lines = 0;
    for (id, actor) in actors {
        if let Some(new) = keys.rewritten_actor(&actor) {
            sqlx::query("UPDATE admin_audit SET actor = $1 WHERE id = $2")
                .bind(new)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            audit_lines += 1;
        }
    }
    let old: Vec<String> = sqlx::query_scalar(&union).fetch_all(&mut *tx).await?;
    if old.is_empty() {
        tx.commit().await?;
        return Ok(audit_lines);
    }
    // The mapping as a table of this connection, so that each table is
    // rewritten by one statement whatever the number of addresses.
    sqlx::query("DROP TABLE IF EXISTS client_key_rewrite")
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "CREATE TEMPORARY TABLE client_key_rewrite (old TEXT PRIMARY KEY, new TEXT NOT NULL)",
    )
    .execute(&mut *tx)
    .await?;
    for chunk in old.chunks(500) {
        let values = (0..chunk.len())
            .map(|i| format!("(${}, ${})", 2 * i + 1, 2 * i + 2))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!("INSERT INTO client_key_rewrite (old, new) VALUES {values}");
        let mut insert = sqlx::query(&sql);
        for stored in chunk {
            let new = keys.rewritten(stored).unwrap_or_else(|| stored.clone());
            insert = insert.bind(stored.clone()).bind(new);
        }
        insert.execute(&mut *tx).await?;
    }
    for sql in [
        // 有用: a vote under both keys counts once.
        "UPDATE reviews SET helpful_count = helpful_count - d.n \
         FROM (SELECT o.review_id, COUNT(*) AS n FROM review_votes o \
               JOIN client_key_rewrite m ON m.old = o.client_key \
               JOIN review_votes h ON h.review_id = o.review_id AND h.client_key = m.new \
               GROUP BY o.review_id) AS d \
         WHERE reviews.id = d.review_id",
        "DELETE FROM review_votes WHERE EXISTS (SELECT 1 FROM client_key_rewrite m \
             JOIN review_votes h ON h.client_key = m.new \
             WHERE m.old = review_votes.client_key AND h.review_id = review_votes.review_id)",
        "DELETE FROM review_reports WHERE EXISTS (SELECT 1 FROM client_key_rewrite m \
             JOIN review_reports h ON h.client_key = m.new \
             WHERE m.old = review_reports.client_key AND h.review_id = review_reports.review_id)",
        "DELETE FROM rate_windows WHERE EXISTS (SELECT 1 FROM client_key_rewrite m \
             JOIN rate_windows h ON h.client = m.new \
             WHERE m.old = rate_windows.client AND h.scope = rate_windows.scope)",
    ] {
        sqlx::query(sql).execute(&mut *tx).await?;
    }
    for (table, column) in CLIENT_COLUMNS {
        sqlx::query(&format!(
            "UPDATE {table} SET {column} = \
                 (SELECT m.new FROM client_key_rewrite m WHERE m.old = {table}.{column}) \
             WHERE {column} IN (SELECT old FROM client_key_rewrite)"
        ))
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query("DROP TABLE client_key_rewrite")
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(old.len() as u64 + audit_lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_stable_keyed_and_hides_the_address() {
        let keys = ClientKeys::random().unwrap();
        let a = keys.key_of("203.0.113.7");
        assert_eq!(a, keys.key_of("203.0.113.7"));
        assert_ne!(a, keys.key_of("203.0.113.8"));
        assert!(a.starts_with(PREFIX) && a.len() == 2 + 32, "{a}");
        // The address is not in it (its hex digits may hold "203" by chance).
        assert!(!a.contains("203.0.113") && !a.contains("2030113"), "{a}");
        // Another secret, another key: without it the key cannot be made.
        assert_ne!(a, ClientKeys::random().unwrap().key_of("203.0.113.7"));
        assert_eq!(keys.rewritten("ip:203.0.113.7"), Some(a));
        assert_eq!(keys.rewritten("k:00"), None);
        assert_eq!(keys.rewritten("local"), None);
        // The admin's key inside an audit line's actor.
        assert_eq!(
            keys.rewritten_actor("小王（ip:203.0.113.7）"),
            Some(format!("小王（{}）", keys.key_of("203.0.113.7")))
        );
        assert_eq!(
            keys.rewritten_actor("（ip:1.2.3.4）（ip:203.0.113.7）"),
            Some(format!("（ip:1.2.3.4）（{}）", keys.key_of("203.0.113.7")))
        );
        assert_eq!(keys.rewritten_actor("小王（k:00）"), None);
        assert_eq!(keys.rewritten_actor("小王"), None);
    }

    #[test]
    fn the_secret_is_stored_as_hex_and_read_back() {
        let keys = ClientKeys::random().unwrap();
        let text = keys.to_hex();
        assert_eq!(text.len(), 64);
        assert_eq!(ClientKeys::from_hex(&text), Some(keys.clone()));
        assert_eq!(ClientKeys::from_hex("abc"), None);
        assert_eq!(ClientKeys::from_hex(&"zz".repeat(32)), None);
        assert!(!format!("{keys:?}").contains(&text[..8]));
    }

    #[test]
    fn a_known_vector() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        let mut secret = [0u8; 32];
        secret[..4].copy_from_slice(b"Jefe");
        // HMAC pads a short key with zeros: the same as "Jefe" itself.
        let keys = ClientKeys { secret };
        assert_eq!(
            keys.key_of("what do ya want for nothing?"),
            "k:5bdcc146bf60754e6a042426089575c7"
        );
    }
}
