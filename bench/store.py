"""The cost of one action must not grow with the log: a 10-event match vs a 2,000-event one.

    .venv/bin/python bench/store.py [--samples 200]

Uses its own database (``golf_bench``) on embedded PostgreSQL and Redis under
``var/bench`` (see ``bench/_django.py``). Prints the median time of one action through
the service on matches with about 10 events and on one with 2,000 or more, their ratio
(target < 1.3), and appends per second over a run of actions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _django import setup


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    with setup():
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


if __name__ == "__main__":
    main()
