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
SQLITE_CREATE = [
    """CREATE TRIGGER golf_matchevent_no_update BEFORE UPDATE ON golf_matchevent
       BEGIN SELECT RAISE(ABORT, 'golf_matchevent is append-only: UPDATE is not allowed'); END;""",
    """CREATE TRIGGER golf_matchevent_no_delete BEFORE DELETE ON golf_matchevent
       BEGIN SELECT RAISE(ABORT, 'golf_matchevent is append-only: DELETE is not allowed'); END;""",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS golf_matchevent_no_update;",
    "DROP TRIGGER IF EXISTS golf_matchevent_no_delete;",
]


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_CREATE, params=None)
    elif schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_CREATE:
            schema_editor.execute(statement)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_DROP, params=None)
    elif schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_DROP:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("golf", "0001_initial")]

    operations = [migrations.RunPython(create, drop)]
