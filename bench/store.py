"""The cost of one action must grow neither with the match's log nor with the store.

    .venv/bin/python bench/store.py [--samples 200] [--events 10000000 [--jobs 2]]

Uses its own database (``golf_bench``, or a fresh ``golf_bench_store`` with ``--events``)
on embedded PostgreSQL and Redis under ``var/bench`` (see ``bench/_django.py``). Prints
the median time of one action through the service on matches with about 10 events and
on one with 2,000 or more, their ratio (target < 1.3), appends per second over a run
of actions, and the state at a past version of the long match replayed from the start
against from the checkpoint before it.

With ``--events N`` it then measures an action on fresh matches in a store of a few
thousand events, fills the store with finished matches up to N events, measures again
(target: ratio < 1.3), and times ``verify_match --all`` over the whole store in
``--jobs`` processes against one process on a sample. The filling matches are copies of
a few real finished matches (each with its own id, timestamps and keyed hash chain, so
they verify); it refuses to start when the disk lacks room for them (about 600 bytes an
event with the indexes) and prints its progress.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import time
import uuid
from datetime import UTC
from io import StringIO
from pathlib import Path

from _django import setup


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument(
        "--events", type=int, default=0, help="fill the store to this many events (0: do not)"
    )
    parser.add_argument("--jobs", type=int, default=0, help="verify_match processes (0: CPUs)")
    args = parser.parse_args()
    if args.events:
        room = shutil.disk_usage(Path(__file__).resolve().parents[1] / "var").free
        if room < 2 * BYTES_PER_EVENT * args.events:
            raise SystemExit(
                f"bench: {args.events:,} events need about {BYTES_PER_EVENT * args.events:,}"
                f" bytes and twice that free; {room:,} are free"
            )
    database = "golf_bench_store" if args.events else "golf_bench"
    with setup(database, fresh=bool(args.events)):
        from django.contrib.auth import get_user_model

        from golf import legal_actions
        from matches.services import match_act, match_create, match_join
        from matches.store import load_state

        User = get_user_model()
        run = time.time_ns()
        users = [User.objects.create_user(f"bench-{run}-{i}") for i in range(6)]
        rng = random.Random(2)

        def new_match(players: int, holes: int):  # type: ignore[no-untyped-def]
            match = match_create(
                creator=users[0],
                rules={"holes": holes},
                seats=[{"type": "me"}] + [{"type": "open"}] * (players - 1),
            )
            for user in users[1:players]:
                match_join(match_id=match.id, user=user)
            match.refresh_from_db()
            return match

        def step(match, linger: bool = False) -> float:  # type: ignore[no-untyped-def]
            state = load_state(match)
            seat = rng.choice(state.seats_to_act())
            actions = legal_actions(state, seat)
            if linger:  # mostly draw and discard, so the hole runs long
                calm = [a for a in actions if a.type in ("draw", "discard", "reveal")]
                actions = calm if calm and rng.random() < 0.95 else actions
            action = rng.choice(actions).to_json()
            started = time.perf_counter()
            match_act(match_id=match.id, user=users[seat], action=action)
            elapsed = time.perf_counter() - started
            match.refresh_from_db()
            return elapsed

        long_match = new_match(6, 18)
        appended_before = long_match.version
        fill_seconds = 0.0
        while long_match.version < 2000:
            fill_seconds += step(long_match, linger=True)
        appends = long_match.version - appended_before

        # the same table (six players, 18 holes) so that only the length of the log differs
        shorts = [new_match(6, 18) for _ in range(args.samples)]
        for match in shorts:
            while match.version < 10:
                step(match, linger=True)
        short_times, long_times = [], []
        for match in shorts:  # interleave so both see the same machine load
            short_times.append(step(match, linger=True))
            long_times.append(step(long_match, linger=True))
        past_cold, past_warm = past_states(long_match, rng, args.samples)
        if args.events:
            fill_and_measure(args, new_match, step, users)
    short_med = statistics.median(short_times)
    long_med = statistics.median(long_times)
    print(
        f"action on a ~10-event match:    median {1000 * short_med:.2f} ms ({args.samples} samples)"
    )
    print(
        f"action on a {long_match.version}-event match: median {1000 * long_med:.2f} ms "
        f"({args.samples} samples)"
    )
    print(f"ratio long/short: {long_med / short_med:.2f} (target < 1.3)")
    print(
        f"appends: {appends / fill_seconds:.0f} events/s "
        f"({appends} events by one client, time inside the service call)"
    )
    print(
        f"state at a past version of the {long_match.version}-event match: median "
        f"{1000 * past_cold:.2f} ms replayed from the start, {1000 * past_warm:.2f} ms from "
        f"the checkpoint before it (ratio {past_cold / past_warm:.1f})"
    )


def past_states(match, rng: random.Random, samples: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Median seconds of ``state_at`` on random past versions of ``match``: with nothing
    kept (no checkpoint, no state this process read before), and with the checkpoints a
    first replay of the whole log kept (the state last read forgotten each time)."""
    from django.core.cache import caches

    from matches import store

    versions = [rng.randrange(1, match.version) for _ in range(samples)]
    marks = range(store.CHECKPOINT_EVERY, match.version, store.CHECKPOINT_EVERY)

    def timed(version: int, warm: bool) -> float:
        store._prefixes.clear()
        if not warm:
            caches["states"].delete_many([store._checkpoint_key(match, m) for m in marks])
        started = time.perf_counter()
        store.state_at(match, version)
        return time.perf_counter() - started

    store.state_at(match, match.version - 1)  # keeps every checkpoint
    warm = [timed(v, True) for v in versions]
    cold = [timed(v, False) for v in versions]
    return statistics.median(cold), statistics.median(warm)


BYTES_PER_EVENT = 600  # an event row with its indexes, rounded up (the run prints it)
COPIES_PER_TRANSACTION = 200


def fill_and_measure(args, new_match, step, users) -> None:  # type: ignore[no-untyped-def]
    """The store-size part of the benchmark (see the module's doc)."""
    from django.core.management import call_command
    from django.db import connection, transaction

    from matches.models import Match, Seat
    from matches.services import match_create
    from matches.store import EVENT_COLUMNS, chain_key
    from matches.verify import verify_match

    def action_median(label: str) -> float:
        matches = [new_match(2, 9) for _ in range(args.samples)]
        for match in matches:
            while match.version < 10:
                step(match)
        times = [step(match) for match in matches]
        median = statistics.median(times)
        print(f"action, {label}: median {1000 * median:.2f} ms ({len(times)} samples)", flush=True)
        return median

    def store_events() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM golf_matchevent")
            return int(cursor.fetchone()[0])

    print(f"\n== a store of {args.events:,} events", flush=True)
    templates = []
    for players, holes in ((2, 9), (3, 9), (4, 18), (2, 18)):
        match = match_create(
            creator=users[0],
            spectate=True,
            rules={"holes": holes},
            seats=[{"type": "com", "level": "normal"}] * players,
        )
        match.refresh_from_db()
        assert match.ended, "a COM match plays to its end (eager tasks)"
        templates.append(Template(match))
    small = action_median(f"store of {store_events():,} events")

    key = chain_key(templates[0].match.chain_key_id)
    started = time.perf_counter()
    filled = first = store_events()
    next_report = first + 1_000_000
    copies = 0
    while filled < args.events:
        with transaction.atomic(), connection.cursor() as cursor:
            matches, seats, rows = [], [], []
            for i in range(COPIES_PER_TRANSACTION):
                match, match_seats, match_rows = templates[i % len(templates)].copy(key)
                matches.append(match)
                seats += match_seats
                rows += match_rows
            Match.objects.bulk_create(matches)
            Seat.objects.bulk_create(seats)
            with cursor.cursor.copy(
                f"COPY golf_matchevent ({', '.join(EVENT_COLUMNS)}) FROM STDIN"
            ) as copy:
                for row in rows:
                    copy.write_row(row)
        if copies == 0:  # the copies' chains are the store's own
            report = verify_match(matches[0])
            assert report.ok, report.lines()
        copies += len(matches)
        filled += len(rows)
        if filled >= next_report or filled >= args.events:
            elapsed = time.perf_counter() - started
            print(
                f"  {filled:,} events ({copies:,} copied matches) after {elapsed:.0f} s: "
                f"{(filled - first) / elapsed:,.0f} events/s",
                flush=True,
            )
            next_report += 1_000_000
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE golf_matchevent")
        cursor.execute(  # the partitions' tables and indexes (the parent holds no rows)
            "SELECT coalesce(sum(pg_total_relation_size(inhrelid)), 0) FROM pg_inherits "
            "WHERE inhparent = 'golf_matchevent'::regclass"
        )
        size = int(cursor.fetchone()[0])
    total = store_events()
    print(f"store: {total:,} events, event table {size / 1e9:.2f} GB ({size / total:.0f} B/event)")
    large = action_median(f"store of {total:,} events")
    print(f"ratio large store / small store: {large / small:.2f} (target < 1.3)", flush=True)

    sample = list(Match.objects.filter(status="finished").order_by("?")[:200])
    started = time.perf_counter()
    sample_events = sum(verify_match(match).events for match in sample)
    one = sample_events / (time.perf_counter() - started)
    print(f"verify, one process, {len(sample)} matches: {one:,.0f} events/s", flush=True)
    out = StringIO()
    started = time.perf_counter()
    call_command("verify_match", "--all", "--jobs", str(args.jobs), stdout=out)
    elapsed = time.perf_counter() - started
    summary = out.getvalue().strip().splitlines()[-1]
    print(
        f"verify_match --all --jobs {args.jobs or os.cpu_count()}: {summary} in {elapsed:.0f} s "
        f"({total / elapsed:,.0f} events/s, {total / elapsed / one:.2f}x one process)"
    )


class Template:
    """A finished match, copied under new ids with a keyed hash chain of each copy's own.

    The chain is computed here as ``matches.store`` does (an HMAC over the canonical JSON
    of each row), with the payloads' JSON written once; the first copy is checked by
    ``verify_match``, so a drift from the store's chain stops the benchmark.
    """

    def __init__(self, match) -> None:  # type: ignore[no-untyped-def]
        from matches.store import canonical_json

        self.match = match
        self.seats = list(match.seats.all())
        self.events = [
            (e.seq, json.dumps(e.type), e.type, e.version, canonical_json(e.payload),
             json.dumps(e.actor, ensure_ascii=False), e.actor)
            for e in match.events.order_by("seq")
        ]  # fmt: skip

    def copy(self, key: bytes):  # type: ignore[no-untyped-def]
        import hashlib
        import hmac

        from django.utils import timezone

        from matches.models import Match, Seat
        from matches.store import chain_start

        now = timezone.now()
        fields = {f.attname: getattr(self.match, f.attname) for f in Match._meta.concrete_fields}
        match = Match(**{**fields, "id": uuid.uuid4()})
        match.created_at = match.updated_at = match.ended_at = now
        seats = [
            Seat(**{
                f.attname: getattr(seat, f.attname)
                for f in Seat._meta.concrete_fields if f.attname != "id"
            } | {"match_id": match.id})
            for seat in self.seats
        ]  # fmt: skip
        stamp = now.astimezone(UTC).isoformat(timespec="microseconds")
        match_text = str(match.id)
        previous = chain_start(match)
        rows = []
        for seq, type_json, type_, version, payload, actor_json, actor in self.events:
            event_id = uuid.uuid4()
            body = (
                f'{{"actor":{actor_json},"created_at":"{stamp}","id":"{event_id}",'
                f'"match":"{match_text}","payload":{payload},"seq":{seq},'
                f'"type":{type_json},"version":{version}}}'
            )
            previous = hmac.new(key, (previous + body).encode(), hashlib.sha256).hexdigest()
            rows.append((event_id, match.id, seq, type_, version, payload, actor, now, previous))
        match.last_hash = previous
        return match, seats, rows


if __name__ == "__main__":
    main()
