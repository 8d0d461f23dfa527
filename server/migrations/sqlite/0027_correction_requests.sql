-- Requests for a correction or removal (the /correction form): a named
-- person asks the moderators to look at a page. Listed on the admin page,
-- newest first, while open; marking one handled records who and when (and
-- a line in admin_audit). The client key counts a client's requests for
-- the form's rate limit, as reviews.client_key does for reviews.
CREATE TABLE correction_requests (
    id         INTEGER PRIMARY KEY,
    subject    TEXT NOT NULL,      -- the advisor's name or the page's link
    requester  TEXT NOT NULL,      -- 本人 / 学生 / 其他
    details    TEXT NOT NULL,
    contact    TEXT NOT NULL,
    client_key TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    status     TEXT NOT NULL DEFAULT 'open',   -- open / handled
    handled_at TEXT,
    handled_by TEXT
);
CREATE INDEX correction_requests_open ON correction_requests (id DESC) WHERE status = 'open';
CREATE INDEX correction_requests_client ON correction_requests (client_key, created_at);
