"""``python manage.py sweep_matches [--older-than SECONDS]``: re-enqueue stalled work.

The same sweep Celery beat runs every ``SWEEP_INTERVAL_SECONDS``: active matches left
waiting on a COM longer than the threshold, or on a human past their turn timeout, get
their task enqueued again. Safe to run at any time.
"""

from __future__ import annotations

import argparse
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from matches.tasks import sweep_report

REFUSED = "the broker did not take it (the next sweep tries again)"


def _seconds(text: str) -> float:
    """0 or more seconds, at most a year."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 366 * 24 * 3600:  # (NaN is neither)
        raise argparse.ArgumentTypeError(f"seconds from 0 to a year, not {text}")
    return value


class Command(BaseCommand):
    help = (
        "Publish the outbox's overdue COM turns and turn timers, and re-enqueue those of "
        "stalled matches."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--older-than",
            type=_seconds,
            default=None,
            help="seconds a match must have waited to count as stalled (default "
            "COM_STALL_SECONDS); a stalled match's work sent in the last that many seconds, "
            "by beat or by hand, is not sent again, unless it is 0",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        swept = sweep_report(options["older_than"])
        for followup in swept.republished:
            what = f"{followup.match_id} at version {followup.version}: {followup.kind}"
            said = "published again from the outbox" if followup.sent else REFUSED
            self.stdout.write(f"{what} {said}")
        for (match_id, version, kind), sent in swept.stalled:
            said = "re-enqueued" if sent else REFUSED
            self.stdout.write(f"{match_id} at version {version}: {kind} {said}")
        self.stdout.write(
            f"{len(swept.republished)} from the outbox, {len(swept.stalled)} stalled match(es)"
        )
