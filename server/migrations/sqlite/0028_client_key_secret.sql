-- No client address is stored: the client key of reviews, reports, 有用
-- votes, correction requests and rate windows is a keyed hash of the
-- address (`store::client_keys`: `k:` + HMAC-SHA256(secret, address)).
-- This is the secret, one per database so that every instance makes the
-- same key for one client: 32 random bytes as hex, written by the first
-- server that starts (under the setup lock), never shown or logged.
-- Keys an older version stored as `ip:<address>` are rewritten at start.
CREATE TABLE client_key_secret (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
);
