-- Mirrors sqlite/0021_search_votes_recommend.sql: the name search's terms,
-- 有用 votes, 是否推荐报考.
CREATE TABLE advisor_name_terms (
    term       TEXT COLLATE "C" NOT NULL,
    advisor_id BIGINT NOT NULL REFERENCES advisors(id) ON DELETE CASCADE,
    pos        BIGINT NOT NULL,
    PRIMARY KEY (term, advisor_id)
);
CREATE INDEX advisor_name_terms_advisor ON advisor_name_terms (advisor_id);

CREATE TABLE review_votes (
    review_id  BIGINT NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
    client_key TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (review_id, client_key)
);
ALTER TABLE reviews ADD COLUMN helpful_count BIGINT NOT NULL DEFAULT 0;
CREATE INDEX reviews_advisor_helpful
    ON reviews (advisor_id, status, helpful_count DESC, created_at DESC, id DESC);
CREATE INDEX reviews_advisor_relation
    ON reviews (advisor_id, status, relation, created_at DESC, id DESC);

ALTER TABLE reviews ADD COLUMN recommend BIGINT CHECK (recommend IN (0, 1));
ALTER TABLE advisors ADD COLUMN recommend_yes BIGINT NOT NULL DEFAULT 0;
ALTER TABLE advisors ADD COLUMN recommend_answered BIGINT NOT NULL DEFAULT 0;
