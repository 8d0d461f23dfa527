-- Reviews written on the site (the demo data has none of these columns
-- set): who wrote it (a client key for duplicates and rate limits), the hash
-- of the writer's secret edit token, and when it was last edited. Reports
-- flag a review for the admin; they hide nothing by themselves.
ALTER TABLE reviews ADD COLUMN client_key TEXT;
ALTER TABLE reviews ADD COLUMN edit_token_hash TEXT;
ALTER TABLE reviews ADD COLUMN updated_at TEXT;
CREATE INDEX reviews_client_created ON reviews (client_key, created_at);

CREATE TABLE review_reports (
    id         INTEGER PRIMARY KEY,
    review_id  INTEGER NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
    client_key TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (review_id, client_key)
);
