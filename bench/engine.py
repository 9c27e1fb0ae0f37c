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
from collections.abc import Callable, Sequence
from dataclasses import astuple
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golf import Rules, replay
from golf.simulate import play_random, seed_bytes

TARGET = 250_000


def best_of(repeat: int, logs: Sequence[Sequence[object]], fold: Callable[..., object]) -> float:
    """The fastest of ``repeat`` passes of ``fold`` over every log, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for log in logs:
            fold(log)
        best = min(best, time.perf_counter() - started)
    return best


def bare_fold(log: Sequence[tuple[str, tuple[object, ...]]]) -> dict[str, object]:
    """The least a fold can do: each event's fields into a dict, a counter bumped."""
    state: dict[str, object] = {}
    version = 0
    for name, values in log:
        state[name] = values
        version += 1
    state["version"] = version
    return state


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

    best = best_of(args.repeat, logs, replay)
    tuples = [[(event.name, astuple(event)) for event in log] for log in logs]
    ceiling = best_of(args.repeat, tuples, bare_fold)

    print(f"preset={args.preset} players={args.players} holes={rules.holes} matches={args.matches}")
    print(f"events per match (mean): {events / args.matches:.0f}")
    print(
        f"replay: {events / best:,.0f} events/s "
        f"({events} events in {best:.3f} s, best of {args.repeat})"
    )
    print(
        f"ceiling: {events / ceiling:,.0f} events/s (the same events as tuples into a dict); "
        f"replay at {ceiling / best:.0%} of it"
    )
    print(
        f"random playouts: {args.matches / play_seconds:.1f} full matches/s "
        f"({events / play_seconds:,.0f} events/s including decide and move choice)"
    )
    ok = events / best >= TARGET
    print(f"{'PASS' if ok else 'FAIL'}  replay >= {TARGET:,} events/s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
