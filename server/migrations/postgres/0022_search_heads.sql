-- Mirrors sqlite/0022_search_heads.sql: a one-character name query (a
-- surname) read straight from an index.
CREATE INDEX advisors_head ON advisors (substr(name, 1, 1), review_count DESC, id);
