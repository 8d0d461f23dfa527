-- Mirrors sqlite/0028_client_key_secret.sql: the secret the stored client
-- keys are made with (`store::client_keys`), one row per database.
CREATE TABLE client_key_secret (
    id     BIGINT PRIMARY KEY CHECK (id = 1),
    secret TEXT COLLATE "C" NOT NULL
);
