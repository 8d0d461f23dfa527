-- Reads that do not grow with the data (issue 12).
--
-- Every ranking sorts by a Bayesian average that needs the site-wide mean
-- (the prior). Computing it per request means scoring every advisor of a
-- pair on every page view: 5,000 advisors of one pair cost ~90 ms. Instead
-- each advisor carries its five Bayesian scores, and one index per sort
-- reads a page of a pair in order.
--
-- The prior moves with every review on the site. The scores are computed
-- with the prior stored in `score_prior`, not the live one; every write of
-- an aggregate (`reviews::submit::add_to_aggregates`) refreshes the scores
-- of the advisor it touched and, when any live mean has drifted from the
-- stored one by more than `store::scores::PRIOR_DRIFT` (0.01 stars),
-- stores the live prior and recomputes every advisor in the same
-- transaction. A ranking is therefore exactly the order of the stored
-- prior, which is never more than 0.01 stars from the live one.
ALTER TABLE advisors ADD COLUMN score_overall REAL NOT NULL DEFAULT 0;
ALTER TABLE advisors ADD COLUMN score_academic REAL NOT NULL DEFAULT 0;
ALTER TABLE advisors ADD COLUMN score_funding REAL NOT NULL DEFAULT 0;
ALTER TABLE advisors ADD COLUMN score_relationship REAL NOT NULL DEFAULT 0;
ALTER TABLE advisors ADD COLUMN score_prospects REAL NOT NULL DEFAULT 0;

-- The prior the stored scores were computed with (one row).
CREATE TABLE score_prior (
    id                INTEGER PRIMARY KEY CHECK (id = 1),
    weight            REAL NOT NULL,
    mean_overall      REAL NOT NULL,
    mean_academic     REAL NOT NULL,
    mean_funding      REAL NOT NULL,
    mean_relationship REAL NOT NULL,
    mean_prospects    REAL NOT NULL
);
-- ranking::PRIOR_WEIGHT and ranking::FALLBACK_MEAN until the first refresh.
INSERT INTO score_prior VALUES (1, 8.0, 3.5, 3.5, 3.5, 3.5, 3.5);
UPDATE score_prior SET
    mean_overall = s.sum_overall * 1.0 / s.review_count,
    mean_academic = s.sum_academic * 1.0 / s.review_count,
    mean_funding = s.sum_funding * 1.0 / s.review_count,
    mean_relationship = s.sum_relationship * 1.0 / s.review_count,
    mean_prospects = s.sum_prospects * 1.0 / s.review_count
FROM site_stats AS s WHERE s.id = 1 AND s.review_count > 0;
UPDATE advisors SET
    score_overall = (p.weight * p.mean_overall + sum_overall) / (p.weight + review_count),
    score_academic = (p.weight * p.mean_academic + sum_academic) / (p.weight + review_count),
    score_funding = (p.weight * p.mean_funding + sum_funding) / (p.weight + review_count),
    score_relationship = (p.weight * p.mean_relationship + sum_relationship) / (p.weight + review_count),
    score_prospects = (p.weight * p.mean_prospects + sum_prospects) / (p.weight + review_count)
FROM score_prior AS p WHERE p.id = 1;

-- One index per sort, in `ranking::compare`'s order (score, then more
-- reviews, then the lower id): a page is one range of one index, the rank
-- of an advisor is a count over the part of that range above it.
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
-- Every (school, major) lookup is served by the prefix of the indexes above.
DROP INDEX advisors_school_major;

-- A pair's statistics (数据概览) from stored sums, not from its advisors:
-- the sums of its advisors' aggregate columns, kept by triggers on every
-- change of those columns (and on advisors added or removed), in the
-- statement's own transaction, whatever path wrote them.
CREATE TABLE pair_stats (
    school_id   INTEGER NOT NULL,
    major_id    INTEGER NOT NULL,
    advisors    INTEGER NOT NULL DEFAULT 0,
    reviews     INTEGER NOT NULL DEFAULT 0,
    sum_overall INTEGER NOT NULL DEFAULT 0,
    hist_1      INTEGER NOT NULL DEFAULT 0,
    hist_2      INTEGER NOT NULL DEFAULT 0,
    hist_3      INTEGER NOT NULL DEFAULT 0,
    hist_4      INTEGER NOT NULL DEFAULT 0,
    hist_5      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (school_id, major_id)
);
INSERT INTO pair_stats
SELECT school_id, major_id, COUNT(*), SUM(review_count), SUM(sum_overall),
       SUM(hist_1), SUM(hist_2), SUM(hist_3), SUM(hist_4), SUM(hist_5)
FROM advisors GROUP BY school_id, major_id;

CREATE TRIGGER pair_stats_advisor_insert AFTER INSERT ON advisors
BEGIN
    INSERT INTO pair_stats (school_id, major_id) VALUES (NEW.school_id, NEW.major_id)
        ON CONFLICT (school_id, major_id) DO NOTHING;
    UPDATE pair_stats SET advisors = advisors + 1, reviews = reviews + NEW.review_count,
        sum_overall = sum_overall + NEW.sum_overall,
        hist_1 = hist_1 + NEW.hist_1, hist_2 = hist_2 + NEW.hist_2, hist_3 = hist_3 + NEW.hist_3,
        hist_4 = hist_4 + NEW.hist_4, hist_5 = hist_5 + NEW.hist_5
    WHERE school_id = NEW.school_id AND major_id = NEW.major_id;
END;
CREATE TRIGGER pair_stats_advisor_delete AFTER DELETE ON advisors
BEGIN
    UPDATE pair_stats SET advisors = advisors - 1, reviews = reviews - OLD.review_count,
        sum_overall = sum_overall - OLD.sum_overall,
        hist_1 = hist_1 - OLD.hist_1, hist_2 = hist_2 - OLD.hist_2, hist_3 = hist_3 - OLD.hist_3,
        hist_4 = hist_4 - OLD.hist_4, hist_5 = hist_5 - OLD.hist_5
    WHERE school_id = OLD.school_id AND major_id = OLD.major_id;
END;
CREATE TRIGGER pair_stats_advisor_update
AFTER UPDATE OF school_id, major_id, review_count, sum_overall, hist_1, hist_2, hist_3, hist_4, hist_5
ON advisors
BEGIN
    UPDATE pair_stats SET advisors = advisors - 1, reviews = reviews - OLD.review_count,
        sum_overall = sum_overall - OLD.sum_overall,
        hist_1 = hist_1 - OLD.hist_1, hist_2 = hist_2 - OLD.hist_2, hist_3 = hist_3 - OLD.hist_3,
        hist_4 = hist_4 - OLD.hist_4, hist_5 = hist_5 - OLD.hist_5
    WHERE school_id = OLD.school_id AND major_id = OLD.major_id;
    INSERT INTO pair_stats (school_id, major_id) VALUES (NEW.school_id, NEW.major_id)
        ON CONFLICT (school_id, major_id) DO NOTHING;
    UPDATE pair_stats SET advisors = advisors + 1, reviews = reviews + NEW.review_count,
        sum_overall = sum_overall + NEW.sum_overall,
        hist_1 = hist_1 + NEW.hist_1, hist_2 = hist_2 + NEW.hist_2, hist_3 = hist_3 + NEW.hist_3,
        hist_4 = hist_4 + NEW.hist_4, hist_5 = hist_5 + NEW.hist_5
    WHERE school_id = NEW.school_id AND major_id = NEW.major_id;
END;

-- The advisors the overview names, each one index seek: the most reviewed
-- (then the name, then the id), and the best exact average on each
-- dimension among those with at least RankingStats::MIN_REVIEWS (3)
-- reviews (then more reviews, the name, the id).
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

-- A ranking page reads the tags of its advisors: clustered by advisor (no
-- rowid), one seek reads all of one advisor's tags from adjacent rows
-- instead of one index probe and one table read per tag (2.3 ms → a
-- fraction for a page of 20 at a million reviews).
CREATE TABLE advisor_tags_clustered (
    advisor_id INTEGER NOT NULL REFERENCES advisors(id) ON DELETE CASCADE,
    tag        TEXT NOT NULL,
    count      INTEGER NOT NULL,
    PRIMARY KEY (advisor_id, tag)
) WITHOUT ROWID;
INSERT INTO advisor_tags_clustered SELECT advisor_id, tag, count FROM advisor_tags;
DROP TABLE advisor_tags;
ALTER TABLE advisor_tags_clustered RENAME TO advisor_tags;
