-- Moderation at scale (issue 18). Numbered after the issue so that it does
-- not collide with migrations written at the same time.
--
-- Reports per review, kept on the review by triggers (so every way a report
-- is written or deleted keeps them, in the same statement's transaction),
-- and a partial index in the admin list's order: the reported reviews,
-- most reports first, then the most recently reported — read one page at
-- a time by keyset, never by grouping all reports.
ALTER TABLE reviews ADD COLUMN report_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE reviews ADD COLUMN last_reported_at TEXT;
UPDATE reviews
SET report_count = (SELECT COUNT(*) FROM review_reports p WHERE p.review_id = reviews.id),
    last_reported_at = (SELECT MAX(created_at) FROM review_reports p WHERE p.review_id = reviews.id)
WHERE id IN (SELECT review_id FROM review_reports);
CREATE INDEX reviews_reported ON reviews (report_count DESC, last_reported_at DESC, id DESC)
    WHERE report_count > 0;

CREATE TRIGGER review_reports_count_insert AFTER INSERT ON review_reports
BEGIN
    UPDATE reviews SET report_count = report_count + 1,
                       last_reported_at = max(coalesce(last_reported_at, ''), NEW.created_at)
    WHERE id = NEW.review_id;
END;
CREATE TRIGGER review_reports_count_delete AFTER DELETE ON review_reports
BEGIN
    UPDATE reviews SET report_count = max(report_count - 1, 0) WHERE id = OLD.review_id;
END;

-- Every admin action: who, what, when, why. Written in the transaction of
-- the action itself; kept when the review is deleted (no foreign key).
CREATE TABLE admin_audit (
    id        INTEGER PRIMARY KEY,
    at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    actor     TEXT NOT NULL,
    action    TEXT NOT NULL,          -- hide / restore
    review_id INTEGER NOT NULL,
    changed   INTEGER NOT NULL,       -- 0: the review already was so
    reason    TEXT NOT NULL DEFAULT ''
);

-- Near-duplicate texts across advisors: MinHash band signatures of every
-- review written on the site (src/reviews/repeated.rs). A new review whose
-- text shares a band with a review of another advisor is compared exactly;
-- nearly the same text on several advisors is flagged for review.
CREATE TABLE review_signatures (
    review_id INTEGER NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
    band      INTEGER NOT NULL,
    PRIMARY KEY (band, review_id)
) WITHOUT ROWID;
CREATE INDEX review_signatures_review ON review_signatures (review_id);
