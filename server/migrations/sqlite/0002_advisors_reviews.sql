-- Advisors carry their review aggregates, maintained on every write, so that a
-- ranking never scans reviews: it reads one index range of advisors.

CREATE TABLE advisors (
    id                 INTEGER PRIMARY KEY,
    name               TEXT NOT NULL,
    title              TEXT NOT NULL,      -- 教授 / 副教授 / 研究员 / 讲师
    school_id          INTEGER NOT NULL REFERENCES schools(id),
    major_id           INTEGER NOT NULL REFERENCES majors(id),
    bio                TEXT NOT NULL,
    -- aggregates of published reviews
    review_count       INTEGER NOT NULL DEFAULT 0,
    sum_overall        INTEGER NOT NULL DEFAULT 0,
    sum_academic       INTEGER NOT NULL DEFAULT 0,
    sum_funding        INTEGER NOT NULL DEFAULT 0,
    sum_relationship   INTEGER NOT NULL DEFAULT 0,
    sum_prospects      INTEGER NOT NULL DEFAULT 0,
    hist_1             INTEGER NOT NULL DEFAULT 0,  -- overall-score histogram
    hist_2             INTEGER NOT NULL DEFAULT 0,
    hist_3             INTEGER NOT NULL DEFAULT 0,
    hist_4             INTEGER NOT NULL DEFAULT 0,
    hist_5             INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX advisors_school_major ON advisors (school_id, major_id);
CREATE INDEX advisors_name ON advisors (name);

-- Research directions, one row each, in the advisor's own order.
CREATE TABLE advisor_directions (
    advisor_id INTEGER NOT NULL REFERENCES advisors(id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    direction  TEXT NOT NULL,
    PRIMARY KEY (advisor_id, position)
);
CREATE INDEX advisor_directions_direction ON advisor_directions (direction);

CREATE TABLE reviews (
    id               INTEGER PRIMARY KEY,
    advisor_id       INTEGER NOT NULL REFERENCES advisors(id) ON DELETE CASCADE,
    academic         INTEGER NOT NULL CHECK (academic BETWEEN 1 AND 5),
    funding          INTEGER NOT NULL CHECK (funding BETWEEN 1 AND 5),
    relationship     INTEGER NOT NULL CHECK (relationship BETWEEN 1 AND 5),
    prospects        INTEGER NOT NULL CHECK (prospects BETWEEN 1 AND 5),
    overall          INTEGER NOT NULL CHECK (overall BETWEEN 1 AND 5),
    text             TEXT NOT NULL,
    relation         TEXT NOT NULL,        -- 在读 / 已毕业 / 了解
    created_at       TEXT NOT NULL,        -- ISO-8601 date or timestamp (UTC)
    status           TEXT NOT NULL DEFAULT 'published' -- published / hidden
);
CREATE INDEX reviews_advisor_created ON reviews (advisor_id, status, created_at DESC, id DESC);

CREATE TABLE review_tags (
    review_id INTEGER NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
    tag       TEXT NOT NULL REFERENCES tags(name),
    PRIMARY KEY (review_id, tag)
);

-- Tag counts per advisor over published reviews (aggregate, maintained on write).
CREATE TABLE advisor_tags (
    advisor_id INTEGER NOT NULL REFERENCES advisors(id) ON DELETE CASCADE,
    tag        TEXT NOT NULL,
    count      INTEGER NOT NULL,
    PRIMARY KEY (advisor_id, tag)
);

-- Site-wide sums: the prior of the Bayesian average, kept with the aggregates.
CREATE TABLE site_stats (
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    review_count     INTEGER NOT NULL DEFAULT 0,
    sum_overall      INTEGER NOT NULL DEFAULT 0,
    sum_academic     INTEGER NOT NULL DEFAULT 0,
    sum_funding      INTEGER NOT NULL DEFAULT 0,
    sum_relationship INTEGER NOT NULL DEFAULT 0,
    sum_prospects    INTEGER NOT NULL DEFAULT 0
);
INSERT INTO site_stats (id) VALUES (1);
