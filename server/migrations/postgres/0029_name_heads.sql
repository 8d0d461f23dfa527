-- Mirrors sqlite/0029_name_heads.sql: the name search's heads, looked up
-- by equality in result order, instead of the terms' prefix ranges.
DROP TABLE advisor_name_terms;
CREATE TABLE advisor_name_heads (
    head         TEXT COLLATE "C" NOT NULL,
    class        BIGINT NOT NULL,
    review_count BIGINT NOT NULL,
    advisor_id   BIGINT NOT NULL REFERENCES advisors(id) ON DELETE CASCADE
);
CREATE INDEX advisor_name_heads_order
    ON advisor_name_heads (head, class, review_count DESC, advisor_id);
CREATE INDEX advisor_name_heads_advisor ON advisor_name_heads (advisor_id);

CREATE FUNCTION advisor_name_heads_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE advisor_name_heads SET review_count = NEW.review_count WHERE advisor_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER advisor_name_heads_count
    AFTER UPDATE OF review_count ON advisors
    FOR EACH ROW WHEN (NEW.review_count IS DISTINCT FROM OLD.review_count)
    EXECUTE FUNCTION advisor_name_heads_count();
