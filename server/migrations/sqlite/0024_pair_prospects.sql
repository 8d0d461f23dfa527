-- A place's figures ("计算机专业好就业吗": the 学生前途 average of a major
-- across every school) from stored sums: pair_stats gains the sum of its
-- advisors' prospects ratings, so a school or a major alone adds up its
-- pairs (a few hundred rows at most) instead of reading every advisor.
ALTER TABLE pair_stats ADD COLUMN sum_prospects INTEGER NOT NULL DEFAULT 0;
UPDATE pair_stats SET sum_prospects = (
    SELECT COALESCE(SUM(a.sum_prospects), 0) FROM advisors a
    WHERE a.school_id = pair_stats.school_id AND a.major_id = pair_stats.major_id
);
-- A major alone reads its pairs through this index.
CREATE INDEX pair_stats_major ON pair_stats (major_id);

DROP TRIGGER pair_stats_advisor_insert;
DROP TRIGGER pair_stats_advisor_delete;
DROP TRIGGER pair_stats_advisor_update;
CREATE TRIGGER pair_stats_advisor_insert AFTER INSERT ON advisors
BEGIN
    INSERT INTO pair_stats (school_id, major_id) VALUES (NEW.school_id, NEW.major_id)
        ON CONFLICT (school_id, major_id) DO NOTHING;
    UPDATE pair_stats SET advisors = advisors + 1, reviews = reviews + NEW.review_count,
        sum_overall = sum_overall + NEW.sum_overall, sum_prospects = sum_prospects + NEW.sum_prospects,
        hist_1 = hist_1 + NEW.hist_1, hist_2 = hist_2 + NEW.hist_2, hist_3 = hist_3 + NEW.hist_3,
        hist_4 = hist_4 + NEW.hist_4, hist_5 = hist_5 + NEW.hist_5
    WHERE school_id = NEW.school_id AND major_id = NEW.major_id;
END;
CREATE TRIGGER pair_stats_advisor_delete AFTER DELETE ON advisors
BEGIN
    UPDATE pair_stats SET advisors = advisors - 1, reviews = reviews - OLD.review_count,
        sum_overall = sum_overall - OLD.sum_overall, sum_prospects = sum_prospects - OLD.sum_prospects,
        hist_1 = hist_1 - OLD.hist_1, hist_2 = hist_2 - OLD.hist_2, hist_3 = hist_3 - OLD.hist_3,
        hist_4 = hist_4 - OLD.hist_4, hist_5 = hist_5 - OLD.hist_5
    WHERE school_id = OLD.school_id AND major_id = OLD.major_id;
END;
CREATE TRIGGER pair_stats_advisor_update
AFTER UPDATE OF school_id, major_id, review_count, sum_overall, sum_prospects,
    hist_1, hist_2, hist_3, hist_4, hist_5
ON advisors
BEGIN
    UPDATE pair_stats SET advisors = advisors - 1, reviews = reviews - OLD.review_count,
        sum_overall = sum_overall - OLD.sum_overall, sum_prospects = sum_prospects - OLD.sum_prospects,
        hist_1 = hist_1 - OLD.hist_1, hist_2 = hist_2 - OLD.hist_2, hist_3 = hist_3 - OLD.hist_3,
        hist_4 = hist_4 - OLD.hist_4, hist_5 = hist_5 - OLD.hist_5
    WHERE school_id = OLD.school_id AND major_id = OLD.major_id;
    INSERT INTO pair_stats (school_id, major_id) VALUES (NEW.school_id, NEW.major_id)
        ON CONFLICT (school_id, major_id) DO NOTHING;
    UPDATE pair_stats SET advisors = advisors + 1, reviews = reviews + NEW.review_count,
        sum_overall = sum_overall + NEW.sum_overall, sum_prospects = sum_prospects + NEW.sum_prospects,
        hist_1 = hist_1 + NEW.hist_1, hist_2 = hist_2 + NEW.hist_2, hist_3 = hist_3 + NEW.hist_3,
        hist_4 = hist_4 + NEW.hist_4, hist_5 = hist_5 + NEW.hist_5
    WHERE school_id = NEW.school_id AND major_id = NEW.major_id;
END;
