"""A match's log counts its events from 1 (``Match.version`` is the last one's number), so
the store refuses an event numbered 0, as it refuses a repeated number. On the partitioned
table the check is added to every partition."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("golf", "0012_dashboard_indexes"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="matchevent",
            constraint=models.CheckConstraint(
                condition=models.Q(("seq__gte", 1)), name="golf_event_seq_from_one"
            ),
        ),
    ]
