-- Schools, majors and the names students actually use for them.
-- Aliases are many-to-many on purpose: "交大" names four schools, and the
-- agent must ask instead of guessing.

CREATE TABLE schools (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    city        TEXT NOT NULL,
    tier        TEXT NOT NULL,            -- 985 / 211 / 双一流 / 科研院所
    popularity  INTEGER NOT NULL DEFAULT 0 -- orders "popular schools" on the home page
);

CREATE TABLE school_aliases (
    alias     TEXT NOT NULL,
    school_id INTEGER NOT NULL REFERENCES schools(id) ON DELETE CASCADE,
    PRIMARY KEY (alias, school_id)
);

CREATE TABLE majors (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL UNIQUE,
    category TEXT NOT NULL                -- 工学 / 理学 / 经济学 / 法学 / 医学 …
);

CREATE TABLE major_aliases (
    alias    TEXT NOT NULL,
    major_id INTEGER NOT NULL REFERENCES majors(id) ON DELETE CASCADE,
    PRIMARY KEY (alias, major_id)
);

-- The review tags of the site, with the preference they speak to, so that the
-- recommender can match "导师温和一点" against what students wrote.
CREATE TABLE tags (
    name TEXT PRIMARY KEY,
    kind TEXT NOT NULL                    -- personality / style / funding / other
);

INSERT INTO tags (name, kind) VALUES
    ('温和', 'personality'), ('严格', 'personality'), ('放养', 'personality'),
    ('负责', 'personality'), ('平易近人', 'personality'), ('要求高', 'personality'),
    ('耐心', 'personality'), ('push', 'personality'),
    ('理论型', 'style'), ('工程型', 'style'), ('产业型', 'style'),
    ('经费充足', 'funding'), ('经费一般', 'funding'), ('经费紧张', 'funding'),
    ('补助高', 'funding'),
    ('学术大牛', 'other'), ('组会多', 'other'), ('实习自由', 'other'),
    ('毕业顺利', 'other'), ('推荐信给力', 'other'), ('人品好', 'other');
