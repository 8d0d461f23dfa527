-- Mirrors sqlite/0005_review_coach.sql: the review coach's checkpoints.
CREATE TABLE review_coach_checkpoints (
    session_id TEXT COLLATE "C" PRIMARY KEY REFERENCES chat_sessions (id) ON DELETE CASCADE,
    state      TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL DEFAULT strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
);
