-- The roster version (bumped by `server import`, polled by running
-- instances to reload their caches) was SQLite's `PRAGMA user_version`,
-- which PostgreSQL has no equivalent of: it becomes a row both backends
-- share, carrying over the value it had.
CREATE TABLE roster_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO roster_version (id, version) SELECT 1, user_version FROM pragma_user_version;
