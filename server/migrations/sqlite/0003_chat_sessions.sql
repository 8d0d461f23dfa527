-- Agent sessions (seed 000 §5.2): the form, the last page context, the agent's
-- working memory and the persona, with the conversation history beside them.

CREATE TABLE chat_sessions (
    id            TEXT PRIMARY KEY,           -- random, 32 hex characters
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    persona       TEXT NOT NULL DEFAULT 'analysis',
    form          TEXT NOT NULL,              -- JSON: UserForm
    page_context  TEXT NOT NULL,              -- JSON: PageContext as last sent
    memory        TEXT NOT NULL               -- JSON: the agent's working memory
);
CREATE INDEX chat_sessions_updated ON chat_sessions (updated_at);

CREATE TABLE chat_messages (
    id          INTEGER PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
    role        TEXT NOT NULL,                -- user / assistant / system
    content     TEXT NOT NULL,
    agent       TEXT,                         -- persona that answered (assistant)
    intent      TEXT,                         -- JSON: IntentResult (assistant)
    tool_calls  TEXT,                         -- JSON: executed tool calls (assistant)
    events      TEXT,                         -- JSON: events of the turn (assistant)
    error       TEXT,                         -- JSON: ErrorInfo of a degraded turn
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX chat_messages_session ON chat_messages (session_id, id);
