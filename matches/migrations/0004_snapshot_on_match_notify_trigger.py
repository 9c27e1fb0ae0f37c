"""The state snapshot moves onto the match row (written with the read model on every
change, so loading a match needs no replay), seats get a read model on the match, and
PostgreSQL notifies listeners whenever a match's version changes."""

from django.db import migrations, models

NOTIFY_CREATE = """
CREATE OR REPLACE FUNCTION golf_match_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('golf_match_events', NEW.id::text || ':' || NEW.version::text);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER golf_match_version_notify
    AFTER UPDATE OF version ON golf_match
    FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version)
    EXECUTE FUNCTION golf_match_notify();
"""
NOTIFY_DROP = """
DROP TRIGGER IF EXISTS golf_match_version_notify ON golf_match;
DROP FUNCTION IF EXISTS golf_match_notify();
"""


def fill_seat_users(apps, schema_editor):
    Match = apps.get_model("golf", "Match")
    for match in Match.objects.all():
        users = dict(match.seats.values_list("index", "user_id"))
        match.seat_users = [users.get(i) for i in range(len(users))]
        match.save(update_fields=["seat_users"])


class Migration(migrations.Migration):
    dependencies = [("golf", "0003_match_last_hash")]

    operations = [
        migrations.DeleteModel(name="MatchSnapshot"),
        migrations.AddField(
            model_name="match",
            name="snapshot",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="match",
            name="snapshot_version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="match",
            name="seat_users",
            field=models.JSONField(
                default=list,
                help_text="read model: each seat's user id, null for a COM or open seat",
            ),
        ),
        migrations.RunPython(fill_seat_users, migrations.RunPython.noop),
        migrations.RunSQL(NOTIFY_CREATE, NOTIFY_DROP),
    ]
