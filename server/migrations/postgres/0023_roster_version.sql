-- Mirrors sqlite/0023_roster_version.sql: the roster version (bumped by
-- `server import`, polled by running instances) as a row.
CREATE TABLE roster_version (
    id      BIGINT PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO roster_version (id, version) VALUES (1, 0);
