"""A seat handed to a COM (its player left, or staff handed it over) keeps who held it:
the account's admin page still lists the match, and a search by username finds it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("golf", "0013_event_seq_from_one"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="handed_from",
            field=models.ForeignKey(
                blank=True,
                help_text="the player who held this seat before a COM: who left it, or whose seat staff handed over",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
