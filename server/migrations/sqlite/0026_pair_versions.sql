-- A version per (school, major), moved by every change of what a ranking
-- page shows: an advisor of the pair added, removed, moved or changed
-- (scores, counts, name, title), or a tag count of one of them. Instances
-- keep rendered ranking pages in memory and reuse one only while its
-- pair's version is the one it was rendered at, read in the same statement
-- as the pair's size: a page costs one row, and every instance sees every
-- other's writes. Kept by triggers, in the writing statement's own
-- transaction, whatever path wrote. Its own table: the aggregates'
-- rebuild empties pair_stats, and a version must never go back.
CREATE TABLE pair_versions (
    school_id INTEGER NOT NULL,
    major_id  INTEGER NOT NULL,
    version   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (school_id, major_id)
) WITHOUT ROWID;
INSERT INTO pair_versions (school_id, major_id) SELECT school_id, major_id FROM pair_stats;

CREATE TRIGGER pair_versions_advisor_insert AFTER INSERT ON advisors
BEGIN
    INSERT INTO pair_versions (school_id, major_id, version) VALUES (NEW.school_id, NEW.major_id, 1)
        ON CONFLICT (school_id, major_id) DO UPDATE SET version = pair_versions.version + 1;
END;
CREATE TRIGGER pair_versions_advisor_delete AFTER DELETE ON advisors
BEGIN
    UPDATE pair_versions SET version = version + 1
    WHERE school_id = OLD.school_id AND major_id = OLD.major_id;
END;
CREATE TRIGGER pair_versions_advisor_update AFTER UPDATE ON advisors
BEGIN
    UPDATE pair_versions SET version = version + 1
    WHERE school_id = OLD.school_id AND major_id = OLD.major_id;
    INSERT INTO pair_versions (school_id, major_id, version) VALUES (NEW.school_id, NEW.major_id, 1)
        ON CONFLICT (school_id, major_id) DO UPDATE SET version = pair_versions.version + 1;
END;
CREATE TRIGGER pair_versions_tag_insert AFTER INSERT ON advisor_tags
BEGIN
    UPDATE pair_versions SET version = version + 1
    WHERE school_id = (SELECT school_id FROM advisors WHERE id = NEW.advisor_id)
      AND major_id = (SELECT major_id FROM advisors WHERE id = NEW.advisor_id);
END;
CREATE TRIGGER pair_versions_tag_update AFTER UPDATE ON advisor_tags
BEGIN
    UPDATE pair_versions SET version = version + 1
    WHERE school_id = (SELECT school_id FROM advisors WHERE id = NEW.advisor_id)
      AND major_id = (SELECT major_id FROM advisors WHERE id = NEW.advisor_id);
END;
CREATE TRIGGER pair_versions_tag_delete AFTER DELETE ON advisor_tags
BEGIN
    UPDATE pair_versions SET version = version + 1
    WHERE school_id = (SELECT school_id FROM advisors WHERE id = OLD.advisor_id)
      AND major_id = (SELECT major_id FROM advisors WHERE id = OLD.advisor_id);
END;
