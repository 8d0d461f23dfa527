-- The review coach's checkpoints (seed 003 `MemorySaver`, in SQLite): one
-- graph state per chat session, written after every coached turn, so a
-- reload resumes the draft. Deleted with the session.
CREATE TABLE review_coach_checkpoints (
    session_id TEXT PRIMARY KEY REFERENCES chat_sessions (id) ON DELETE CASCADE,
    state      TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
