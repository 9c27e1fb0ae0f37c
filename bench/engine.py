"""Engine throughput: replay speed over recorded full matches, and random playouts per second.

    .venv/bin/python bench/engine.py [--matches 200] [--preset six-card] [--players 4]

Prints events replayed per second (target: 250,000 or more) beside the machine's ceiling
in the same run (the same events, as tuples, folded into a dict by a bare loop), and random
full matches played per second. Matches are recorded first (random legal moves, fixed
seeds), then replayed from their event lists.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _fold import rates

from golf import Rules, replay
from golf.simulate import play_random, seed_bytes

TARGET = 250_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--preset", default="six-card")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3, help="replay passes; the best is kept")
    args = parser.parse_args()
    rules = Rules.from_preset(args.preset)

    started = time.perf_counter()
    logs = [
        [event for event, _ in play_random(rules, args.players, seed_bytes(i), random.Random(i))]
        for i in range(args.matches)
    ]
    play_seconds = time.perf_counter() - started
    events = sum(len(log) for log in logs)

    ((rate, ceiling),) = rates(args.repeat, (logs, replay))

    print(f"preset={args.preset} players={args.players} holes={rules.holes} matches={args.matches}")
    print(f"events per match (mean): {events / args.matches:.0f}")
    print(f"replay: {rate:,.0f} events/s ({events} events, best of {args.repeat})")
    print(
        f"ceiling: {ceiling:,.0f} events/s (the same events as tuples into a dict); "
        f"replay at {rate / ceiling:.1%} of it"
    )
    print(
        f"random playouts: {args.matches / play_seconds:.1f} full matches/s "
        f"({events / play_seconds:,.0f} events/s including decide and move choice)"
    )
    ok = rate >= TARGET
    print(f"{'PASS' if ok else 'FAIL'}  replay >= {TARGET:,} events/s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
