"""``python manage.py sweep_matches [--older-than SECONDS]``: re-enqueue stalled work.

The same sweep Celery beat runs every ``SWEEP_INTERVAL_SECONDS``: active matches left
waiting on a COM longer than the threshold, or on a human past their turn timeout, get
their task enqueued again. Safe to run at any time.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from matches.tasks import sweep


class Command(BaseCommand):
    help = "Re-enqueue COM turns and turn timers of stalled matches."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--older-than",
            type=float,
            default=None,
            help="seconds a match must have waited (default COM_STALL_SECONDS)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        stalled = sweep(options["older_than"])
        for match_id, version, kind in stalled:
            self.stdout.write(f"{match_id} at version {version}: {kind} re-enqueued")
        self.stdout.write(f"{len(stalled)} stalled match(es)")
