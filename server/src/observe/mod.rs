//! What the operator sees of the running site, apart from what it serves:
//! the metrics every part counts where the event happens, one line each
//! ([`metrics`], `GET /metrics` when `METRICS` or `METRICS_ADDR` turn it on),
//! and what a log line may say about a client ([`client_tag`]).
//!
//! It knows nothing of the site (no database, no HTTP): it is the lowest
//! layer, so that the model client (`llm`), the posting rules and the
//! agent's turn can all count through it without importing each other.

pub mod metrics;

pub use self::metrics::{
    coach_route, db_pool, degraded, http_panic, http_request, model_call, review_refused,
    review_written, transcription, turn, ModelCall,
};

/// A client key (`k:5bdc…`, `local`: `http::client`) as a log line may
/// carry it: a short tag that is the same for one client within this
/// process, so lines of one client can be followed, but that cannot be
/// matched with the key stored in the database (the tag is a keyed hash of
/// the key; its key is random per process and never written).
pub fn client_tag(key: &str) -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::OnceLock;
    static KEY: OnceLock<std::collections::hash_map::RandomState> = OnceLock::new();
    let mut h = KEY
        .get_or_init(std::collections::hash_map::RandomState::new)
        .build_hasher();
    h.write(key.as_bytes());
    format!("c-{:08x}", h.finish() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_tag_is_stable_and_hides_the_address() {
        let a = client_tag("ip:203.0.113.7");
        assert_eq!(a, client_tag("ip:203.0.113.7"));
        assert_ne!(a, client_tag("ip:203.0.113.8"));
        assert!(a.starts_with("c-") && a.len() == 10, "{a}");
        assert!(!a.contains("203"), "{a}");
    }
}
