-- Mirrors sqlite/0024_pair_prospects.sql: pair_stats keeps the sum of its
-- advisors' prospects ratings, so a school's or a major's figures add up
-- its pairs instead of reading every advisor.
ALTER TABLE pair_stats ADD COLUMN sum_prospects BIGINT NOT NULL DEFAULT 0;
UPDATE pair_stats SET sum_prospects = (
    SELECT COALESCE(SUM(a.sum_prospects), 0) FROM advisors a
    WHERE a.school_id = pair_stats.school_id AND a.major_id = pair_stats.major_id
);
CREATE INDEX pair_stats_major ON pair_stats (major_id);

CREATE OR REPLACE FUNCTION pair_stats_follow_advisor() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE pair_stats SET advisors = advisors - 1, reviews = reviews - OLD.review_count,
            sum_overall = sum_overall - OLD.sum_overall, sum_prospects = sum_prospects - OLD.sum_prospects,
            hist_1 = hist_1 - OLD.hist_1, hist_2 = hist_2 - OLD.hist_2, hist_3 = hist_3 - OLD.hist_3,
            hist_4 = hist_4 - OLD.hist_4, hist_5 = hist_5 - OLD.hist_5
        WHERE school_id = OLD.school_id AND major_id = OLD.major_id;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO pair_stats (school_id, major_id) VALUES (NEW.school_id, NEW.major_id)
            ON CONFLICT (school_id, major_id) DO NOTHING;
        UPDATE pair_stats SET advisors = advisors + 1, reviews = reviews + NEW.review_count,
            sum_overall = sum_overall + NEW.sum_overall, sum_prospects = sum_prospects + NEW.sum_prospects,
            hist_1 = hist_1 + NEW.hist_1, hist_2 = hist_2 + NEW.hist_2, hist_3 = hist_3 + NEW.hist_3,
            hist_4 = hist_4 + NEW.hist_4, hist_5 = hist_5 + NEW.hist_5
        WHERE school_id = NEW.school_id AND major_id = NEW.major_id;
    END IF;
    RETURN NULL;
END
$$;
DROP TRIGGER pair_stats_advisor_update ON advisors;
CREATE TRIGGER pair_stats_advisor_update
    AFTER UPDATE OF school_id, major_id, review_count, sum_overall, sum_prospects,
        hist_1, hist_2, hist_3, hist_4, hist_5
    ON advisors
    FOR EACH ROW EXECUTE FUNCTION pair_stats_follow_advisor();
