"""A game-neutral read model: a match's rounds (Golf calls them holes), COM levels named
by each game, matches filtered by game."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("golf", "0007_keyed_chain")]

    operations = [
        migrations.RenameField(model_name="match", old_name="hole", new_name="round"),
        migrations.RenameField(model_name="match", old_name="holes", new_name="rounds"),
        migrations.AlterField(
            model_name="match",
            name="round",
            field=models.PositiveSmallIntegerField(default=0, help_text="read model: 1-based"),
        ),
        migrations.AlterField(
            model_name="match",
            name="rounds",
            field=models.PositiveSmallIntegerField(
                default=0, help_text="read model: rounds planned"
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="game",
            field=models.CharField(default="golf", help_text="the registry's name", max_length=32),
        ),
        migrations.AlterField(
            model_name="seat",
            name="com_level",
            field=models.CharField(
                blank=True, help_text="a COM's level, one of its game's levels", max_length=16
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["game", "-created_at"], name="golf_match_game_idx"),
        ),
    ]
