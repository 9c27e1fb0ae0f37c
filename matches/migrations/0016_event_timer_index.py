"""The moves a turn timer made, indexed: a player's view of a timed match lists its own,
which read every event of the match."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("golf", "0015_match_com_turns_charged_to"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="matchevent",
            index=models.Index(
                condition=models.Q(("actor__startswith", "timer")),
                fields=["match", "seq"],
                name="golf_event_timer_idx",
            ),
        ),
    ]
