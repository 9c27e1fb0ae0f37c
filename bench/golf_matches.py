"""Whole two-player six-card matches, ``hard`` against ``normal``: what the levels are for.

    .venv/bin/python bench/golf_matches.py [--matches 300] [--holes 9] [--seed 1] [--jobs 2]
        [--hard value|search]

The arena (``bench/ai.py``) plays one-hole matches: every hole there is a match's last, played
for the win. In a match of nine holes ``hard`` plays the first eight for points and only the
last for the match (``golf/com/value.py``). This plays whole matches, the levels changing
seats match by match, and prints the share of the decided matches each wins, the points a
hole, and ``hard``'s decision time. ``--hard search`` stands the determinized search (``hard``
on the other tables) in for it, to compare the two on the same deals.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golf.com.policies import POLICIES
from golf.com.search import search_policy
from golf.decide import decide, start_match
from golf.rules import Rules
from golf.state import COM, evolve, replay
from golf.views import view_for


def play(args: tuple[int, int, int, str]) -> tuple[list[float], list[int], list[float]]:
    """One match: hard's share of the win (1, 1/2, 0), points a hole of hard and of normal,
    hard's decision times."""
    seed, number, holes, hard = args
    rules = Rules.from_preset("six-card", holes=holes)
    digest = hashlib.sha256(f"{seed}:{number}".encode()).digest()
    state = replay(start_match(rules, [COM, COM], digest))
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    hard_seat = number % 2
    times = []
    while not state.ended:
        seat = state.seats_to_act()[0]
        view = view_for(state, seat)
        if seat == hard_seat:
            began = time.perf_counter()
            chooser = search_policy if hard == "search" else POLICIES["hard"]
            action = chooser(view, rules, random.Random(rng.getrandbits(64)))
            times.append(time.perf_counter() - began)
        else:
            action = POLICIES["normal"](view, rules, random.Random(rng.getrandbits(64)))
        for event in decide(state, seat, action):
            state = evolve(state, event)
    mine, theirs = state.totals[hard_seat], state.totals[1 - hard_seat]
    share = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    return [share], [mine, theirs], times


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--holes", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hard", choices=("value", "search"), default="value")
    args = parser.parse_args()
    jobs = [(args.seed, n, args.holes, args.hard) for n in range(args.matches)]
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, jobs, chunksize=4))
    shares = [r[0][0] for r in results]
    won, lost = shares.count(1.0), shares.count(0.0)
    hard_points = [r[1][0] / args.holes for r in results]
    normal_points = [r[1][1] / args.holes for r in results]
    diffs = [a - b for a, b in zip(hard_points, normal_points, strict=True)]
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    times = sorted(t for r in results for t in r[2])
    print(
        f"{args.matches} matches of {args.holes} holes, hard ({args.hard}) against normal, "
        f"seed {args.seed} ({time.perf_counter() - began:.0f} s)"
    )
    print(
        f"hard won {won}, lost {lost}, tied {len(shares) - won - lost}: "
        f"{100 * won / max(1, won + lost):.1f}% of the decided matches"
    )
    print(
        f"points a hole: hard {statistics.fmean(hard_points):.3f}, normal "
        f"{statistics.fmean(normal_points):.3f}, hard minus normal "
        f"{statistics.fmean(diffs):+.3f} (95% CI {statistics.fmean(diffs) - half:+.3f}.."
        f"{statistics.fmean(diffs) + half:+.3f})"
    )
    print(
        f"decision time hard: median {1000 * statistics.median(times):.3f} ms, "
        f"p95 {1000 * times[int(0.95 * len(times))]:.3f} ms over {len(times)} decisions"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
