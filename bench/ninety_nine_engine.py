"""Ninety-Nine engine throughput beside Golf's, measured in the same run.

    .venv/bin/python bench/ninety_nine_engine.py [--matches 100] [--repeat 5]

Records full matches with random legal moves (Ninety-Nine: the ``ninety-nine`` preset, 3
players, to 100 points; Golf: ``six-card``, 4 players, 9 holes), then replays each event
list from scratch, best of ``--repeat`` passes. Prints the events replayed per second of
each beside the machine's ceiling (the same events as tuples folded into a dict by a
bare loop), and the target: Ninety-Nine at least as fast as Golf.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _fold import rates

import golf
from golf.simulate import play_random
from ninety_nine.rules import Rules
from ninety_nine.simulate import play, seed_bytes
from ninety_nine.state import replay


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    began = time.perf_counter()
    rules = Rules.from_preset("ninety-nine")
    logs = [
        [e for e, _ in play(rules, seed_bytes(i), "random", random.Random(i))]
        for i in range(args.matches)
    ]
    playing = time.perf_counter() - began
    golf_rules = golf.Rules.from_preset("six-card")
    golf_logs = [
        [e for e, _ in play_random(golf_rules, 4, seed_bytes(i), random.Random(i))]
        for i in range(args.matches)
    ]
    events = sum(len(log) for log in logs)
    golf_events = sum(len(log) for log in golf_logs)

    (rate, ceiling), (golf_rate, golf_ceiling) = rates(
        args.repeat, (logs, replay), (golf_logs, golf.replay)
    )
    print(
        f"ninety-nine, 3 players, {args.matches} random matches: "
        f"{events / args.matches:.0f} events a match"
    )
    print(
        f"golf six-card, 4 players, {args.matches} random matches: "
        f"{golf_events / args.matches:.0f} events a match"
    )
    print(
        f"ninety-nine replay: {rate:,.0f} events/s (best of {args.repeat}), "
        f"{rate / ceiling:.1%} of the ceiling's {ceiling:,.0f}"
    )
    print(
        f"golf replay:        {golf_rate:,.0f} events/s (best of {args.repeat}), "
        f"{golf_rate / golf_ceiling:.1%} of the ceiling's {golf_ceiling:,.0f}"
    )
    print(
        f"ninety-nine random playouts: {args.matches / playing:.1f} full matches/s "
        f"({events / playing:,.0f} events/s with decide and move choice)"
    )
    ok = rate >= golf_rate
    print(
        f"{'PASS' if ok else 'FAIL'}  ninety-nine replays at least as fast as golf "
        f"({rate / golf_rate:.2f}x)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
