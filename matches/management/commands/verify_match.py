"""``python manage.py verify_match <id> [<id> ...]`` or ``--all``: check stored match logs.

For each match: sequence numbers without gaps, the hash chain, a full replay, and for
ended matches that the revealed seed matches its commitment and reproduces every deal
and reshuffle. Exits 1 when any match has a fault.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.models import Match
from matches.verify import verify_match


class Command(BaseCommand):
    help = "Verify matches' event logs (sequence, hash chain, replay, seed and deals)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", help="match ids")
        parser.add_argument("--all", action="store_true", help="verify every match")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["all"]:
            matches = Match.objects.order_by("created_at").iterator()
        elif options["match_ids"]:
            matches = []
            for match_id in options["match_ids"]:
                try:
                    matches.append(Match.objects.get(pk=match_id))
                except (Match.DoesNotExist, ValueError):
                    raise CommandError(f"no match {match_id}") from None
        else:
            raise CommandError("name match ids or use --all")
        total = faulty = 0
        for match in matches:
            report = verify_match(match)
            total += 1
            faulty += not report.ok
            for line in report.lines():
                self.stdout.write(line)
        summary = f"{total} match(es) verified, {faulty} with faults"
        if faulty:
            self.stderr.write(summary)
            raise SystemExit(1)
        self.stdout.write(self.style.SUCCESS(summary))
