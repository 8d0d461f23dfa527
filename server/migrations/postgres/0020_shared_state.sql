-- Mirrors sqlite/0020_shared_state.sql: refused review forms and per-client
-- counters, in the database so that every instance sees them.
CREATE TABLE review_drafts (
    id         TEXT COLLATE "C" PRIMARY KEY,
    created_at BIGINT NOT NULL,
    review     TEXT COLLATE "C" NOT NULL,
    errors     TEXT COLLATE "C" NOT NULL
);
CREATE INDEX review_drafts_created ON review_drafts (created_at);

CREATE TABLE rate_windows (
    scope      TEXT COLLATE "C" NOT NULL,
    client     TEXT COLLATE "C" NOT NULL,
    started_ms BIGINT NOT NULL,
    count      BIGINT NOT NULL,
    PRIMARY KEY (scope, client)
);
CREATE INDEX rate_windows_started ON rate_windows (scope, started_ms);
