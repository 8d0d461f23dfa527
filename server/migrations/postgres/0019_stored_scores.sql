-- Mirrors sqlite/0019_stored_scores.sql (its comments say why): stored
-- Bayesian scores under a stored prior, one index per sort, a pair's
-- statistics kept by triggers, the overview's indexes.
ALTER TABLE advisors ADD COLUMN score_overall DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE advisors ADD COLUMN score_academic DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE advisors ADD COLUMN score_funding DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE advisors ADD COLUMN score_relationship DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE advisors ADD COLUMN score_prospects DOUBLE PRECISION NOT NULL DEFAULT 0;

CREATE TABLE score_prior (
    id                BIGINT PRIMARY KEY CHECK (id = 1),
    weight            DOUBLE PRECISION NOT NULL,
    mean_overall      DOUBLE PRECISION NOT NULL,
    mean_academic     DOUBLE PRECISION NOT NULL,
    mean_funding      DOUBLE PRECISION NOT NULL,
    mean_relationship DOUBLE PRECISION NOT NULL,
    mean_prospects    DOUBLE PRECISION NOT NULL
);
INSERT INTO score_prior VALUES (1, 8.0, 3.5, 3.5, 3.5, 3.5, 3.5);
UPDATE score_prior SET
    mean_overall = s.sum_overall::double precision / s.review_count,
    mean_academic = s.sum_academic::double precision / s.review_count,
    mean_funding = s.sum_funding::double precision / s.review_count,
    mean_relationship = s.sum_relationship::double precision / s.review_count,
    mean_prospects = s.sum_prospects::double precision / s.review_count
FROM site_stats AS s WHERE s.id = 1 AND s.review_count > 0;
UPDATE advisors SET
    score_overall = (p.weight * p.mean_overall + sum_overall) / (p.weight + review_count),
    score_academic = (p.weight * p.mean_academic + sum_academic) / (p.weight + review_count),
    score_funding = (p.weight * p.mean_funding + sum_funding) / (p.weight + review_count),
    score_relationship = (p.weight * p.mean_relationship + sum_relationship) / (p.weight + review_count),
    score_prospects = (p.weight * p.mean_prospects + sum_prospects) / (p.weight + review_count)
FROM score_prior AS p WHERE p.id = 1;

CREATE INDEX advisors_rank_overall
    ON advisors (school_id, major_id, score_overall DESC, review_count DESC, id);
CREATE INDEX advisors_rank_academic
    ON advisors (school_id, major_id, score_academic DESC, review_count DESC, id);
CREATE INDEX advisors_rank_funding
    ON advisors (school_id, major_id, score_funding DESC, review_count DESC, id);
CREATE INDEX advisors_rank_relationship
    ON advisors (school_id, major_id, score_relationship DESC, review_count DESC, id);
CREATE INDEX advisors_rank_prospects
    ON advisors (school_id, major_id, score_prospects DESC, review_count DESC, id);
CREATE INDEX advisors_rank_reviews
    ON advisors (school_id, major_id, review_count DESC, id);
DROP INDEX advisors_school_major;

CREATE TABLE pair_stats (
    school_id   BIGINT NOT NULL,
    major_id    BIGINT NOT NULL,
    advisors    BIGINT NOT NULL DEFAULT 0,
    reviews     BIGINT NOT NULL DEFAULT 0,
    sum_overall BIGINT NOT NULL DEFAULT 0,
    hist_1      BIGINT NOT NULL DEFAULT 0,
    hist_2      BIGINT NOT NULL DEFAULT 0,
    hist_3      BIGINT NOT NULL DEFAULT 0,
    hist_4      BIGINT NOT NULL DEFAULT 0,
    hist_5      BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (school_id, major_id)
);
INSERT INTO pair_stats
SELECT school_id, major_id, COUNT(*), SUM(review_count), SUM(sum_overall),
       SUM(hist_1), SUM(hist_2), SUM(hist_3), SUM(hist_4), SUM(hist_5)
FROM advisors GROUP BY school_id, major_id;

-- One function for the three triggers: take the old row out of its pair,
-- put the new row into its pair.
CREATE FUNCTION pair_stats_follow_advisor() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE pair_stats SET advisors = advisors - 1, reviews = reviews - OLD.review_count,
            sum_overall = sum_overall - OLD.sum_overall,
            hist_1 = hist_1 - OLD.hist_1, hist_2 = hist_2 - OLD.hist_2, hist_3 = hist_3 - OLD.hist_3,
            hist_4 = hist_4 - OLD.hist_4, hist_5 = hist_5 - OLD.hist_5
        WHERE school_id = OLD.school_id AND major_id = OLD.major_id;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO pair_stats (school_id, major_id) VALUES (NEW.school_id, NEW.major_id)
            ON CONFLICT (school_id, major_id) DO NOTHING;
        UPDATE pair_stats SET advisors = advisors + 1, reviews = reviews + NEW.review_count,
            sum_overall = sum_overall + NEW.sum_overall,
            hist_1 = hist_1 + NEW.hist_1, hist_2 = hist_2 + NEW.hist_2, hist_3 = hist_3 + NEW.hist_3,
            hist_4 = hist_4 + NEW.hist_4, hist_5 = hist_5 + NEW.hist_5
        WHERE school_id = NEW.school_id AND major_id = NEW.major_id;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER pair_stats_advisor_insert AFTER INSERT ON advisors
    FOR EACH ROW EXECUTE FUNCTION pair_stats_follow_advisor();
CREATE TRIGGER pair_stats_advisor_delete AFTER DELETE ON advisors
    FOR EACH ROW EXECUTE FUNCTION pair_stats_follow_advisor();
CREATE TRIGGER pair_stats_advisor_update
    AFTER UPDATE OF school_id, major_id, review_count, sum_overall, hist_1, hist_2, hist_3, hist_4, hist_5
    ON advisors
    FOR EACH ROW EXECUTE FUNCTION pair_stats_follow_advisor();

CREATE INDEX advisors_most_reviewed
    ON advisors (school_id, major_id, review_count DESC, name, id) WHERE review_count > 0;
CREATE INDEX advisors_best_academic
    ON advisors (school_id, major_id, (sum_academic * 1.0 / review_count) DESC, review_count DESC, name, id)
    WHERE review_count >= 3;
CREATE INDEX advisors_best_funding
    ON advisors (school_id, major_id, (sum_funding * 1.0 / review_count) DESC, review_count DESC, name, id)
    WHERE review_count >= 3;
CREATE INDEX advisors_best_relationship
    ON advisors (school_id, major_id, (sum_relationship * 1.0 / review_count) DESC, review_count DESC, name, id)
    WHERE review_count >= 3;
CREATE INDEX advisors_best_prospects
    ON advisors (school_id, major_id, (sum_prospects * 1.0 / review_count) DESC, review_count DESC, name, id)
    WHERE review_count >= 3;
-- advisor_tags stays as it is: PostgreSQL tables are heaps either way, and
-- its primary key (advisor_id, tag) already reads one advisor's tags.
