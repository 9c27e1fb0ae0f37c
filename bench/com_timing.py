"""Whether a COM's move times tell a reader its hand: forced plays against free ones.

    .venv/bin/python bench/com_timing.py [--game hearts] [--level hard] [--matches 2]
                                         [--even-ms 1000]

One human (playing its first legal card) against ``hard`` COMs, the COMs moving as the
service moves them (eagerly here, on one process, as a worker would: ``decided_evenly``).
Every COM play is then read as a stranger reads the events, and split by what the rules
hide: forced (the seat had one legal card; in Hearts or Ninety-Nine, while following suit,
it is void in the suit led) or free. Prints, for each, the median time since the event
before it, and how many free plays were slower than every forced one: with
``--even-ms 0`` (moves taken as soon as decided) nearly all are, telling the forced ones
apart; with the default, about as many as chance would have (the moves' times are the
COMs' recent slowest, whatever the hand).
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
    args = parser.parse_args()
    with setup(eager=True):
        from django.conf import settings
        from django.contrib.auth import get_user_model

        from games import get_game
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
        for number in range(args.matches):
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
            print(f"  match {number + 1} of {args.matches}: {match.version} events", flush=True)
        print(f"{args.game} {args.level} COMs, COM_EVEN_TIMING_MS={args.even_ms}")
        for name, gaps in (("forced", forced), ("free", free)):
            median = statistics.median(gaps)
            print(f"{name} plays: {len(gaps)}, median {median:.0f} ms after the event before")
        slower = sum(gap > max(forced) for gap in free)
        print(f"free plays slower than every forced one: {slower} of {len(free)}")


if __name__ == "__main__":
    main()
