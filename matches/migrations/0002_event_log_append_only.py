"""The event log is append-only: the database itself refuses UPDATE and DELETE on events."""

from django.db import migrations

PG_CREATE = """
CREATE OR REPLACE FUNCTION golf_matchevent_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'golf_matchevent is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER golf_matchevent_no_update_delete
    BEFORE UPDATE OR DELETE ON golf_matchevent
    FOR EACH ROW EXECUTE FUNCTION golf_matchevent_append_only();
"""
PG_DROP = """
DROP TRIGGER IF EXISTS golf_matchevent_no_update_delete ON golf_matchevent;
DROP FUNCTION IF EXISTS golf_matchevent_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("golf", "0001_initial")]

    operations = [migrations.RunSQL(PG_CREATE, PG_DROP)]
