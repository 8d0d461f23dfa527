-- The name search at a million advisors: a query's prefix range over
-- advisor_name_terms read every matching row ("wang": tens of thousands)
-- before choosing the best twenty. Each term is now stored cut at each of
-- its syllable ends (its heads, `text::names::heads`), with the advisor's
-- review count, so that a query looks up each head it may stop in by
-- equality and reads its first rows already in the order results are
-- shown (`store::search`). `class`: 0 the whole of a term at the name's
-- start, 1 a part of one, 2 a term inside the name. The rows are written
-- by `store::search::index_missing` (at start for every advisor that has
-- none, so this migration leaves them to the next start) and go with
-- their advisor; the trigger keeps the count in the review's transaction.
DROP TABLE advisor_name_terms;
CREATE TABLE advisor_name_heads (
    head         TEXT NOT NULL,
    class        INTEGER NOT NULL,
    review_count INTEGER NOT NULL,
    advisor_id   INTEGER NOT NULL REFERENCES advisors(id) ON DELETE CASCADE,
    PRIMARY KEY (head, class, review_count DESC, advisor_id)
) WITHOUT ROWID;
CREATE INDEX advisor_name_heads_advisor ON advisor_name_heads (advisor_id);
CREATE TRIGGER advisor_name_heads_count AFTER UPDATE OF review_count ON advisors
WHEN NEW.review_count <> OLD.review_count
BEGIN
    UPDATE advisor_name_heads SET review_count = NEW.review_count WHERE advisor_id = NEW.id;
END;
