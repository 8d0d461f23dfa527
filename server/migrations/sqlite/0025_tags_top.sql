-- A ranking card's three most frequent tags: one seek per advisor, its
-- first rows already in order (count, then the tag), instead of every
-- tag of the page's advisors numbered by a window and sorted.
CREATE INDEX advisor_tags_top ON advisor_tags (advisor_id, count DESC, tag);
