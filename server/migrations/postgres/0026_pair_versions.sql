-- Mirrors sqlite/0026_pair_versions.sql: a version per (school, major),
-- moved by every change of what its ranking pages show, so that instances
-- reuse a rendered page only while it is current.
CREATE TABLE pair_versions (
    school_id BIGINT NOT NULL,
    major_id  BIGINT NOT NULL,
    version   BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (school_id, major_id)
);
INSERT INTO pair_versions (school_id, major_id) SELECT school_id, major_id FROM pair_stats;

CREATE FUNCTION pair_versions_bump(school BIGINT, major BIGINT) RETURNS void LANGUAGE sql AS $$
    INSERT INTO pair_versions AS v (school_id, major_id, version) VALUES (school, major, 1)
        ON CONFLICT (school_id, major_id) DO UPDATE SET version = v.version + 1;
$$;

CREATE FUNCTION pair_versions_follow_advisor() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM pair_versions_bump(OLD.school_id, OLD.major_id);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        PERFORM pair_versions_bump(NEW.school_id, NEW.major_id);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER pair_versions_advisor AFTER INSERT OR UPDATE OR DELETE ON advisors
    FOR EACH ROW EXECUTE FUNCTION pair_versions_follow_advisor();

CREATE FUNCTION pair_versions_follow_tag() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    advisor BIGINT;
BEGIN
    IF TG_OP = 'DELETE' THEN
        advisor := OLD.advisor_id;
    ELSE
        advisor := NEW.advisor_id;
    END IF;
    PERFORM pair_versions_bump(a.school_id, a.major_id) FROM advisors a WHERE a.id = advisor;
    RETURN NULL;
END
$$;
CREATE TRIGGER pair_versions_tag AFTER INSERT OR UPDATE OR DELETE ON advisor_tags
    FOR EACH ROW EXECUTE FUNCTION pair_versions_follow_tag();
