"""Whether a COM's move times tell a reader its hand: forced plays against free ones.

    .venv/bin/python bench/com_timing.py [--game hearts] [--level hard] [--matches 2]
                                         [--even-ms 1000] [--new-process-per-match [--unshared]]

One human (playing its first legal card) against ``hard`` COMs, the COMs moving as the
service moves them (eagerly here, on one process, as a worker would: ``decided_evenly``).
Every COM play is then read as a stranger reads the events, and split by what the rules
hide: forced (the seat had one legal card; in Hearts or Ninety-Nine, while following suit,
it is void in the suit led) or free. Prints, for each, the median time since the event
before it, how many free plays were slower than every forced one, and the share of
(free, forced) pairs in which the free one came later (50%: the times tell nothing;
overall, and among each match's first ``--early`` COM plays): with
``--even-ms 0`` (moves taken as soon as decided) nearly all are, telling the forced ones
apart; with the default, about as many as chance would have (the moves' times are the
COMs' recent slowest, whatever the hand). ``--new-process-per-match`` plays each match
on a newly started worker process (no decision times of its own, only the floor the
processes before it published in the shared cache; ``--unshared``: not even that).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
from datetime import datetime

from _django import setup

SEATS = {"hearts": 4, "ninety-nine": 3}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--game", default="hearts", choices=sorted(SEATS))
    parser.add_argument("--level", default="hard")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--even-ms", type=int, default=1000, help="COM_EVEN_TIMING_MS")
    parser.add_argument(
        "--new-process-per-match",
        action="store_true",
        help="each match on a newly started worker process (no decision times of its own)",
    )
    parser.add_argument(
        "--early", type=int, default=30, help="each match's first COM plays, counted apart"
    )
    parser.add_argument(
        "--unshared",
        action="store_true",
        help="with --new-process-per-match: a new process does not read the shared floor",
    )
    args = parser.parse_args()
    with setup(eager=True):
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.core.cache import cache

        from games import get_game
        from matches import services
        from matches.selectors import events_for, match_view
        from matches.services import match_act, match_create
        from matches.store import state_at

        settings.COM_EVEN_TIMING_MS = args.even_ms
        game = get_game(args.game)
        users = get_user_model().objects
        human = users.create_user(f"timing-{datetime.now().timestamp()}", password="x" * 12)
        stranger = users.create_user(f"reader-{datetime.now().timestamp()}", password="x" * 12)
        forced: list[float] = []
        free: list[float] = []
        early: dict[bool, list[float]] = {True: [], False: []}  # each match's first plays
        cache.clear()
        for number in range(args.matches):
            if args.new_process_per_match:
                fresh = services.DecisionTimes(shared=None if args.unshared else cache)
                services.decision_times = fresh
            coms = [{"type": "com", "level": args.level}] * (SEATS[args.game] - 1)
            match = match_create(
                creator=human, game=args.game, rules={"max_deals": 2}, seats=[{"type": "me"}, *coms]
            )
            while True:
                match.refresh_from_db()
                view = match_view(match, human)
                if match.ended or not view["legal_actions"]:
                    break
                match_act(match_id=match.id, user=human, action=view["legal_actions"][0])
            events = events_for(match, stranger, after=0, limit=5000)
            plays = 0
            for before, event in itertools.pairwise(events):
                if event["type"] != "card_played" or not event["actor"].startswith("com:"):
                    continue
                gap = datetime.fromisoformat(event["created_at"]) - datetime.fromisoformat(
                    before["created_at"]
                )
                state = state_at(match, event["seq"] - 1)
                choices = [
                    a
                    for a in game.legal_actions(state, event["seat"])
                    if a.to_json()["type"] == "play"
                ]
                (forced if len(choices) == 1 else free).append(gap.total_seconds() * 1000)
                if plays < args.early:
                    early[len(choices) == 1].append(gap.total_seconds() * 1000)
                plays += 1
            print(f"  match {number + 1} of {args.matches}: {match.version} events", flush=True)
        process = (
            (" a new process a match" + (", not reading the shared floor" if args.unshared else ""))
            if args.new_process_per_match
            else " one process"
        )
        print(f"{args.game} {args.level} COMs, COM_EVEN_TIMING_MS={args.even_ms},{process}")
        for name, gaps in (("forced", forced), ("free", free)):
            median = statistics.median(gaps)
            print(f"{name} plays: {len(gaps)}, median {median:.0f} ms after the event before")
        slower = sum(gap > max(forced) for gap in free)
        print(f"free plays slower than every forced one: {slower} of {len(free)}")
        print(f"a free play slower than a forced one: {later_share(free, forced):.0%} of pairs")
        print(
            f"  among each match's first {args.early} COM plays ({len(early[True])} forced, "
            f"{len(early[False])} free): {later_share(early[False], early[True]):.0%} of pairs"
        )


def later_share(free: list[float], forced: list[float]) -> float:
    """The share of (free, forced) pairs in which the free play came later (ties: half):
    50% when the times tell nothing, 100% when every free one comes after every forced one
    (the area under the curve of a reader telling them apart by time)."""
    if not free or not forced:
        return float("nan")
    later = sum((a > b) + 0.5 * (a == b) for a in free for b in forced)
    return later / (len(free) * len(forced))


if __name__ == "__main__":
    main()
