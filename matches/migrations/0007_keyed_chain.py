"""Keyed hash chains for new matches (older matches keep their unkeyed chain, unchanged),
and TRUNCATE of the event log refused like UPDATE and DELETE.

A deliberate wipe of the log (never needed by the service; the test suite's database
flush) must first say so in its session: ``SET golf.allow_truncate = 'on'``.
"""

from django.db import migrations, models

TRUNCATE_CREATE = """
CREATE OR REPLACE FUNCTION golf_matchevent_no_truncate() RETURNS trigger AS $$
BEGIN
    IF current_setting('golf.allow_truncate', true) IS DISTINCT FROM 'on' THEN
        RAISE EXCEPTION 'golf_matchevent is append-only: TRUNCATE is not allowed'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER golf_matchevent_no_truncate
    BEFORE TRUNCATE ON golf_matchevent
    FOR EACH STATEMENT EXECUTE FUNCTION golf_matchevent_no_truncate();
"""
TRUNCATE_DROP = """
DROP TRIGGER IF EXISTS golf_matchevent_no_truncate ON golf_matchevent;
DROP FUNCTION IF EXISTS golf_matchevent_no_truncate();
"""


class Migration(migrations.Migration):
    dependencies = [("golf", "0006_followup_outbox")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="chain_key_id",
            field=models.CharField(
                blank=True,
                help_text="the key of the log's keyed hash chain; empty for an older, unkeyed chain",
                max_length=32,
            ),
        ),
        migrations.RunSQL(TRUNCATE_CREATE, TRUNCATE_DROP),
    ]
