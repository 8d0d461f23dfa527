-- Many instances (issue 12): what decides behaviour lives in the database,
-- not in one process's memory, so that a student whose requests alternate
-- between instances meets one site. Sessions, coach checkpoints, reviews
-- and report deduplication were already here; these two were not.

-- Refused review-form submissions, shown once on the form again
-- (`reviews::form::Drafts`, `store::drafts`): kept ten minutes.
CREATE TABLE review_drafts (
    id         TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,   -- unix seconds
    review     TEXT NOT NULL,      -- the typed review, JSON
    errors     TEXT NOT NULL       -- [[field, message], …], JSON
);
CREATE INDEX review_drafts_created ON review_drafts (created_at);

-- Fixed-window counters per client (`http::limits`, `store::limits`): chat
-- turns per minute, wrong admin tokens per quarter hour.
CREATE TABLE rate_windows (
    scope      TEXT NOT NULL,      -- chat / admin_failures
    client     TEXT NOT NULL,
    started_ms INTEGER NOT NULL,   -- when the window began, unix milliseconds
    count      INTEGER NOT NULL,
    PRIMARY KEY (scope, client)
);
CREATE INDEX rate_windows_started ON rate_windows (scope, started_ms);
