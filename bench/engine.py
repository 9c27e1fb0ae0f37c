"""Engine throughput: replay speed over recorded full matches, and random playouts per second.

    .venv/bin/python bench/engine.py [--matches 200] [--preset six-card] [--players 4]

Prints events replayed per second (target: 100,000 or more) and random full matches
played per second. Matches are recorded first (random legal moves, fixed seeds), then
replayed from their event lists.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golf import Rules, replay
from golf.simulate import play_random, seed_bytes


def main() -> None:
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

    best = float("inf")
    for _ in range(args.repeat):
        started = time.perf_counter()
        for log in logs:
            replay(log)
        best = min(best, time.perf_counter() - started)

    print(f"preset={args.preset} players={args.players} holes={rules.holes} matches={args.matches}")
    print(f"events per match (mean): {events / args.matches:.0f}")
    print(
        f"replay: {events / best:,.0f} events/s "
        f"({events} events in {best:.3f} s, best of {args.repeat})"
    )
    print(
        f"random playouts: {args.matches / play_seconds:.1f} full matches/s "
        f"({events / play_seconds:,.0f} events/s including decide and move choice)"
    )


if __name__ == "__main__":
    main()
