-- The name search's one-character queries (a surname: 张, 王): the
-- advisors whose name starts with it, most reviewed first, straight from
-- an index (`store::search::advisors_matching`). Through the terms table
-- such a query gathered and sorted every 张 of the site — thousands at
-- 100,000 advisors, 11 ms p95; here it reads the first twenty entries.
CREATE INDEX advisors_head ON advisors (substr(name, 1, 1), review_count DESC, id);
