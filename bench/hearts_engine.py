"""Hearts engine throughput beside Golf's, measured in the same run.

    .venv/bin/python bench/hearts_engine.py [--matches 100] [--repeat 5]

Records full matches with random legal moves (Hearts: ``hearts-classic``, 4 players, to
100 points; Golf: ``six-card``, 4 players, 9 holes), then replays each event list from
scratch, best of ``--repeat`` passes. Prints the events replayed per second of each and
each beside the machine's ceiling (the same events as tuples folded into a dict by a bare
loop), and the target: Hearts at least as fast as Golf.
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
from hearts.rules import Rules
from hearts.simulate import play, seed_bytes
from hearts.state import replay


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    began = time.perf_counter()
    hearts_rules = Rules.from_preset("hearts-classic")
    hearts_logs = [
        [e for e, _ in play(hearts_rules, 4, seed_bytes(i), random.Random(i))]
        for i in range(args.matches)
    ]
    hearts_play = time.perf_counter() - began
    golf_rules = golf.Rules.from_preset("six-card")
    golf_logs = [
        [e for e, _ in play_random(golf_rules, 4, seed_bytes(i), random.Random(i))]
        for i in range(args.matches)
    ]
    hearts_events = sum(len(log) for log in hearts_logs)
    golf_events = sum(len(log) for log in golf_logs)

    (hearts_rate, hearts_ceiling), (golf_rate, golf_ceiling) = rates(
        args.repeat, (hearts_logs, replay), (golf_logs, golf.replay)
    )
    print(
        f"hearts-classic, 4 players, {args.matches} random matches: "
        f"{hearts_events / args.matches:.0f} events a match"
    )
    print(
        f"golf six-card, 4 players, {args.matches} random matches: "
        f"{golf_events / args.matches:.0f} events a match"
    )
    print(
        f"hearts replay: {hearts_rate:,.0f} events/s (best of {args.repeat}), "
        f"{hearts_rate / hearts_ceiling:.1%} of the ceiling's {hearts_ceiling:,.0f}"
    )
    print(
        f"golf replay:   {golf_rate:,.0f} events/s (best of {args.repeat}), "
        f"{golf_rate / golf_ceiling:.1%} of the ceiling's {golf_ceiling:,.0f}"
    )
    print(
        f"hearts random playouts: {args.matches / hearts_play:.1f} full matches/s "
        f"({hearts_events / hearts_play:,.0f} events/s with decide and move choice)"
    )
    ok = hearts_rate >= golf_rate
    print(
        f"{'PASS' if ok else 'FAIL'}  hearts replays at least as fast as golf "
        f"({hearts_rate / golf_rate:.2f}x)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
