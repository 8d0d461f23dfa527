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
