-- Mirrors sqlite/0025_tags_top.sql: a card's top tags, one seek per advisor.
CREATE INDEX advisor_tags_top ON advisor_tags (advisor_id, count DESC, tag);
