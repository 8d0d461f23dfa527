-- What students expect of a review site (issue 14): finding an advisor by
-- name, saying a review helped, and whether the writer recommends applying.

-- Name search (`store::search`): every advisor's name as prefix-searchable
-- terms, one B-tree range per query whatever the number of advisors. A
-- substring of a name is a prefix of one of its suffixes, so each suffix of
-- the name is a term (张三丰 → 张三丰, 三丰, 丰), and so is its pinyin from
-- each syllable on (zhangsanfeng, sanfeng, feng) and its initials
-- (zsf). `pos` is where the term starts in the name: 0 is the name's start,
-- which is how a match ranks above a match inside the name. Rows are
-- written by `store::search::index_missing` for every advisor that has none
-- (after the demo seed, an import, at start), and go with their advisor.
CREATE TABLE advisor_name_terms (
    term       TEXT NOT NULL,
    advisor_id INTEGER NOT NULL REFERENCES advisors(id) ON DELETE CASCADE,
    pos        INTEGER NOT NULL,
    PRIMARY KEY (term, advisor_id)
) WITHOUT ROWID;
CREATE INDEX advisor_name_terms_advisor ON advisor_name_terms (advisor_id);

-- 有用: one vote per client and review, taken back by deleting it. The
-- review's count is kept in the same transaction as the vote
-- (`store::votes`), so sorting by it is one index range.
CREATE TABLE review_votes (
    review_id  INTEGER NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
    client_key TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (review_id, client_key)
) WITHOUT ROWID;
ALTER TABLE reviews ADD COLUMN helpful_count INTEGER NOT NULL DEFAULT 0;
CREATE INDEX reviews_advisor_helpful
    ON reviews (advisor_id, status, helpful_count DESC, created_at DESC, id DESC);
CREATE INDEX reviews_advisor_relation
    ON reviews (advisor_id, status, relation, created_at DESC, id DESC);

-- 是否推荐报考: 1 yes, 0 no, NULL not answered. The advisor's share is two
-- aggregates kept with the others (`reviews::submit::add_to_aggregates`).
ALTER TABLE reviews ADD COLUMN recommend INTEGER CHECK (recommend IN (0, 1));
ALTER TABLE advisors ADD COLUMN recommend_yes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE advisors ADD COLUMN recommend_answered INTEGER NOT NULL DEFAULT 0;
