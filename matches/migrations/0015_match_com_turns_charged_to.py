"""Whose COM_TURNS_PER_MINUTE a match's COM turns count toward: the account whose move
they answer (before, always the match's creator's: another who joined it and played fast
spent the creator's turns)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("golf", "0014_seat_handed_from"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="com_turns_charged_to",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                db_index=False,
                help_text="the account whose move the COMs' next turns answer (the last to act or join): they count toward its COM_TURNS_PER_MINUTE; empty: the creator's",
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
