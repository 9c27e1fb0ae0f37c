"""``python manage.py verify_match <id> [<id> ...]`` or ``--all [--jobs N]``: check stored
match logs.

For each match: sequence numbers without gaps, the hash chain, a full replay, and for
ended matches that the revealed seed matches its commitment and reproduces every deal
and reshuffle; then that the caches of a sound log (the snapshot, the read model, the
rules served) agree with it, and with ``--repair`` writes those that do not again.
Matches are verified by ``--jobs`` processes at once (each match by one process, within
one transaction of its own); reports print in the order of the matches'
creation. Exits 1 when any match has a fault. A fault may quote what the seed deals;
while a match runs, its card codes and seeds are masked (as in the admin) unless
``--unmasked`` is given, so a report can go to a shared log.
"""

from __future__ import annotations

import functools
import itertools
import logging
import multiprocessing
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from matches.models import Match
from matches.services import match_rebuild
from matches.verify import Report, report_lines, verify_match_now

BATCH = 50  # matches a process verifies per task
logger = logging.getLogger(__name__)


def _verify_batch(
    match_ids: list[Any], unmasked: bool = False, repair: bool = False
) -> list[tuple[bool, list[str], bool]]:
    """Each match's (ok, report lines, whether it was repaired), in the order of
    ``match_ids``. With ``repair``, a sound log's caches that disagree with it are written
    again, and verified again."""
    results = []
    for match_id in match_ids:
        match, report = _verify_now(match_id)
        lines = report.lines() if unmasked else report_lines(report, match)
        repaired = repair and bool(report.caches) and not report.faults
        if repaired:
            rebuilt = match_rebuild(match_id=match_id)
            match, report = _verify_now(match_id)
            written = ", ".join(rebuilt) or "nothing (mended meanwhile: by a write, or a repair)"
            lines += [
                f"  repaired: {written} written again from the log; verified again:",
                *(report.lines() if unmasked else report_lines(report, match)),
            ]
        results.append((report.ok, lines, repaired))
    return results


def _verify_now(match_id: Any) -> tuple[Match, Report]:
    """The match and its report as of one moment (:func:`verify_match_now`)."""
    try:
        return verify_match_now(match_id)
    except Exception as exc:  # one match's: a fault of its own, the others verified on
        logger.exception("match %s could not be verified", match_id)
        report = Report(str(match_id))
        report.faults.append(f"it could not be verified ({type(exc).__name__})")
        return Match.objects.get(pk=match_id), report


def _batches(ids: Iterable[Any]) -> Iterator[list[Any]]:
    it = iter(ids)
    while batch := list(itertools.islice(it, BATCH)):
        yield batch


class Command(BaseCommand):
    help = "Verify matches' event logs (sequence, hash chain, replay, seed and deals)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", help="match ids")
        parser.add_argument("--all", action="store_true", help="verify every match")
        parser.add_argument(
            "--jobs",
            type=int,
            default=0,
            help="processes verifying at once (default 0: one per CPU, at most 8)",
        )
        parser.add_argument(
            "--repair",
            action="store_true",
            help="write again from the log the caches (snapshot, read model, rules served) "
            "of each match whose log is sound but whose caches disagree with it",
        )
        parser.add_argument(
            "--unmasked",
            action="store_true",
            help="quote the card codes and seeds in the faults of running matches too",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["all"] and options["match_ids"]:
            raise CommandError("give match ids or --all, not both", returncode=2)
        if options["all"]:
            ids: list[Any] = list(
                Match.objects.order_by("created_at", "id").values_list("id", flat=True)
            )
        elif options["match_ids"]:
            ids = []
            for match_id in options["match_ids"]:
                try:
                    ids.append(Match.objects.only("id").get(pk=match_id).id)
                except (Match.DoesNotExist, ValidationError, ValueError):  # (not a UUID)
                    raise CommandError(f"no match {match_id}") from None
        else:
            raise CommandError("name match ids or use --all")
        jobs = options["jobs"]
        if jobs < 0:
            raise CommandError("--jobs must be 0 (one per CPU) or more")
        jobs = min(jobs or min(os.cpu_count() or 1, 8), max(1, len(ids) // BATCH + 1))
        total = faulty = repaired = 0
        for results in self._results(ids, jobs, options["unmasked"], options["repair"]):
            for ok, lines, mended in results:
                total += 1
                faulty += not ok
                repaired += mended
                for line in lines:
                    self.stdout.write(line)
        summary = f"{total} match(es) verified, {faulty} with faults"
        if options["repair"]:
            summary += f", {repaired} repaired"
        if faulty:
            self.stderr.write(summary)
            raise SystemExit(1)
        self.stdout.write(self.style.SUCCESS(summary))

    def _results(
        self, ids: list[Any], jobs: int, unmasked: bool, repair: bool
    ) -> Iterator[list[tuple[bool, list[str], bool]]]:
        verify = functools.partial(_verify_batch, unmasked=unmasked, repair=repair)
        if jobs == 1:
            yield from map(verify, _batches(ids))
            return
        # forked processes open connections of their own: none may inherit this one's,
        # nor its pool of them (psycopg's pool)
        for opened in connections.all(initialized_only=True):
            opened.close()
            if getattr(opened, "pool", None) is not None:
                opened.close_pool()
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            yield from pool.map(verify, _batches(ids))
