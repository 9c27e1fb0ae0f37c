"""The match list of one player must not grow with the matches of others.

    .venv/bin/python bench/match_list.py [--others 10000] [--own 0] [--samples 50]

Uses a fresh database (``golf_bench_list``) on embedded PostgreSQL and Redis under
``var/bench`` (``bench/_django.py``). One player sits in 5 matches; the store is then
filled with ``--others`` aborted lobbies of other accounts (their open seats stay: a match
is never deleted), copies of one real lobby. Prints the median time of the player's
``GET /api/matches`` (the first page, its count included) before and after the filling,
and their ratio. With ``--own N``, the player's own history then grows by N aborted
matches (as creating and aborting lobbies at the rate allowed makes 43,000 a day), and
the list is timed again: its cost grows with the player's own matches, which it counts
and sorts, so a list counts more against the account's rate (``lists``) the more matches
it has; the bench prints that price, the time of the count that sets it, and what a
minute of lists at the rate can cost the database at that history.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid

from _django import setup


def fields_of(row: object) -> dict[str, object]:
    return {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields}  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--others", type=int, default=10_000)
    parser.add_argument("--own", type=int, default=0)
    parser.add_argument("--samples", type=int, default=50)
    args = parser.parse_args()
    with setup("golf_bench_list", fresh=True):
        from django.contrib.auth import get_user_model
        from django.db import connection
        from rest_framework.test import APIClient

        from api.views import LIST_MATCHES_PER_COUNT
        from matches.models import Match, Seat
        from matches.selectors import own_matches
        from matches.services import match_abort, match_create

        User = get_user_model()
        me, other = User.objects.create_user("player"), User.objects.create_user("other")
        for _ in range(5):
            match_create(creator=me, seats=[{"type": "me"}, {"type": "open"}])
        client = APIClient(HTTP_HOST="localhost")
        client.force_authenticate(me)

        def median_ms() -> float:
            times = []
            for _ in range(args.samples):
                start = time.perf_counter()
                response = client.get("/api/matches", {"mine": "false"})
                times.append(time.perf_counter() - start)
                assert response.status_code == 200, response.status_code
            return statistics.median(times) * 1000

        before = median_ms()
        print(f"{Match.objects.count():,} matches: list {before:.2f} ms (median of {args.samples})")

        def store_copies(owner: object, count: int, whose: str) -> None:
            """``count`` copies of an aborted lobby of ``owner``'s (its seats with it)."""
            lobby = match_create(creator=owner, seats=[{"type": "me"}, {"type": "open"}])
            match_abort(match_id=lobby.id, user=owner, reason="bench")
            row, seats = Match.objects.get(pk=lobby.pk), list(Seat.objects.filter(match=lobby))
            done = 0
            while done < count:
                batch = min(2000, count - done)
                copies = [Match(**{**fields_of(row), "id": uuid.uuid4()}) for _ in range(batch)]
                Match.objects.bulk_create(copies)
                Seat.objects.bulk_create(
                    Seat(**{**fields_of(seat), "id": None, "match_id": copy.pk})
                    for copy in copies
                    for seat in seats
                )
                done += batch
                print(f"  {done:,} aborted lobbies of {whose} stored", flush=True)
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")

        store_copies(other, args.others, "others")
        after = median_ms()
        print(f"{Match.objects.count():,} matches: list {after:.2f} ms (median of {args.samples})")
        print(f"ratio {after / before:.2f} (the same list, {args.others:,} others' matches more)")
        if args.own:
            store_copies(me, args.own, "the player's")
            own = median_ms()
            print(
                f"{Match.objects.count():,} matches, {args.own + 6:,} the player's: list "
                f"{own:.2f} ms (median of {args.samples}); ratio {own / before:.2f} to 5 of its own"
            )
            counts = []
            for _ in range(args.samples):
                start = time.perf_counter()
                read = own_matches(me)
                counts.append(time.perf_counter() - start)
            price = 1 + read // LIST_MATCHES_PER_COUNT
            rate = 120  # THROTTLE_LISTS's default, a minute
            print(
                f"price: {price} against the lists rate ({read:,} matches read; counted in "
                f"{statistics.median(counts) * 1000:.2f} ms, median of {args.samples}): at "
                f"{rate} a minute, {rate // price} lists, {rate // price * own / 1000:.1f} s "
                "of the database a minute"
            )


if __name__ == "__main__":
    main()
