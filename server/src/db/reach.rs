//! A database that does not answer at start, waited for and named: each
//! failed attempt logged at once with the host and the driver's error, a
//! few retries, then a failure that names both (sqlx alone waited 30 s in
//! silence and said "pool timed out").

use std::time::Duration;

use super::{redacted, SetupError};

/// How a PostgreSQL server that does not answer at start is waited for:
/// each attempt's limit, and the pauses between attempts (their number is
/// the retries). About 40 s in all, enough for a database container that
/// starts beside the site, and every failed attempt is logged at once with
/// the host and the error, instead of 30 s of silence and "pool timed out".
pub struct Retries {
    pub attempt: Duration,
    pub pauses: &'static [Duration],
}

/// [`Retries`] at start (the site and every tool).
pub const START_RETRIES: Retries = Retries {
    attempt: Duration::from_secs(5),
    pauses: &[
        Duration::from_secs(1),
        Duration::from_secs(2),
        Duration::from_secs(4),
        Duration::from_secs(8),
        Duration::from_secs(8),
    ],
};

/// Waits until one connection to `url` opens, trying as `retries` says;
/// each failure logged with the host and the driver's error. Fails with
/// both when the last attempt fails.
pub async fn reachable(url: &str, retries: &Retries) -> Result<(), SetupError> {
    use sqlx::Connection;
    let host = host_of(url);
    let attempts = retries.pauses.len() + 1;
    let mut attempt = 0;
    loop {
        attempt += 1;
        let error =
            match tokio::time::timeout(retries.attempt, sqlx::AnyConnection::connect(url)).await {
                Ok(Ok(conn)) => {
                    let _ = conn.close().await;
                    if attempt > 1 {
                        tracing::info!(%host, attempt, "the database answers");
                    }
                    return Ok(());
                }
                Ok(Err(e)) => e.to_string(),
                Err(_) => format!("no answer within {} s", retries.attempt.as_secs()),
            };
        let Some(pause) = retries.pauses.get(attempt - 1) else {
            return Err(SetupError::Unreachable {
                host,
                error,
                attempts,
            });
        };
        tracing::warn!(
            %host,
            %error,
            attempt,
            attempts,
            "the database cannot be reached; retrying in {} s",
            pause.as_secs()
        );
        tokio::time::sleep(*pause).await;
    }
}

/// `host:port` of a database URL, for messages (never the password).
pub fn host_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) => format!(
            "{}:{}",
            u.host_str().unwrap_or("localhost"),
            u.port().unwrap_or(5432)
        ),
        Err(_) => redacted(url),
    }
}
