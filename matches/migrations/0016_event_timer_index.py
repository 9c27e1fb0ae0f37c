"""The moves a turn timer made, indexed: a player's view of a timed match lists its own,
which read every event of the match.

Built concurrently, partition by partition, so that a store in use keeps taking writes
while it is made (a partitioned table takes no ``CREATE INDEX CONCURRENTLY`` of its own:
the index is made on the parent alone, then on each partition concurrently, each attached
to it, after which it is valid).
"""

from typing import Any

from django.db import migrations, models

INDEX = "golf_event_timer_idx"
TABLE = "golf_matchevent"
DEFINITION = "(match_id, seq) WHERE (actor)::text LIKE 'timer%'"  # (sent without parameters)


def create(apps: Any, schema_editor: Any) -> None:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = %s ORDER BY 1",
            [TABLE],
        )
        partitions = [row[0] for row in cursor.fetchall()]
        if not partitions:
            cursor.execute(
                f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {INDEX} ON {TABLE} {DEFINITION}"
            )
            return
        cursor.execute(f"CREATE INDEX IF NOT EXISTS {INDEX} ON ONLY {TABLE} {DEFINITION}")
        for partition in partitions:
            name = f"{partition}_timer_idx"
            cursor.execute(
                f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON {partition} {DEFINITION}"
            )
            cursor.execute(
                "SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                "WHERE c.relname = %s",
                [name],
            )
            if cursor.fetchone() is None:  # (not attached by an earlier, interrupted run)
                cursor.execute(f"ALTER INDEX {INDEX} ATTACH PARTITION {name}")


def drop(apps: Any, schema_editor: Any) -> None:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX IF EXISTS {INDEX}")  # (its partitions' with it)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("golf", "0015_match_com_turns_charged_to"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(create, drop)],
            state_operations=[
                migrations.AddIndex(
                    model_name="matchevent",
                    index=models.Index(
                        condition=models.Q(("actor__startswith", "timer")),
                        fields=["match", "seq"],
                        name=INDEX,
                    ),
                ),
            ],
        ),
    ]
