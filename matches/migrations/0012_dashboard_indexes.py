"""Indexes for the operators' dashboard (ops/selectors.py): matches counted by game and
status from an index alone, the active matches by turn start with the columns the stall
check reads, and the few seats of a COM whose turn it is. Built concurrently: a store in
use keeps taking writes while they are made."""

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("golf", "0011_match_operator_permissions"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="match",
            index=models.Index(fields=["game", "status"], name="golf_match_game_status_idx"),
        ),
        AddIndexConcurrently(
            model_name="match",
            index=models.Index(
                condition=models.Q(("status", "active")),
                fields=["turn_started_at"],
                include=("id", "game", "version", "phase", "turn_timeout", "round_pause_seconds"),
                name="golf_match_active_turn_idx",
            ),
        ),
        AddIndexConcurrently(
            model_name="seat",
            index=models.Index(
                condition=models.Q(("kind", "com"), ("to_act", True)),
                fields=["match"],
                name="golf_seat_com_turn_idx",
            ),
        ),
    ]
