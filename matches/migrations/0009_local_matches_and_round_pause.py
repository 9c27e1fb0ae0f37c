"""Local (pass-and-play) matches, in which one account holds every human seat, and a
bound on the pause between rounds."""

from django.db import migrations, models
from django.db.models import Q


def refuse_local_matches(apps, schema_editor):
    """Going back: the schema before this one holds one seat per account in a match, so
    a local match (one account in every human seat) has no place in it."""
    local = apps.get_model("golf", "Match").objects.filter(local=True).count()
    if local:
        raise RuntimeError(
            f"cannot migrate back before 0009: {local} local (pass-and-play) matches exist, "
            "and the older schema cannot hold them (one account seated more than once); "
            "a match's log is kept for good, so this database stays at 0009 or later"
        )


class Migration(migrations.Migration):
    dependencies = [("golf", "0008_game_neutral_read_model")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="local",
            field=models.BooleanField(
                default=False, help_text="pass-and-play: the creator plays every human seat"
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="round_pause_seconds",
            field=models.PositiveIntegerField(
                blank=True,
                null=True,
                help_text="seconds the pause after a round waits for the humans to say they "
                "are ready before the server says it for them; null: it waits for them",
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="shared",
            field=models.BooleanField(
                default=False,
                help_text="a human seat of a local match: its user holds the others too",
            ),
        ),
        migrations.RemoveConstraint(model_name="seat", name="golf_seat_one_per_user"),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                condition=Q(user__isnull=False, shared=False),
                fields=("match", "user"),
                name="golf_seat_one_per_user",
            ),
        ),
        migrations.RunPython(migrations.RunPython.noop, refuse_local_matches),
    ]
