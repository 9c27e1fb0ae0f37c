"""Ninety-Nine COM strength and speed: the arena over the comparisons the product promises.

    .venv/bin/python bench/ninety_nine_ai.py [--deals 2000] [--jobs 2] [--seed 1]

Three players, the ``ninety-nine`` preset, ``--deals`` deals a table, the entries rotated
round the seats over the same deals (``ninety_nine.arena``: each deal is played three
times so that every entry plays every hand):

* ``hard, normal, normal``: hard scores at least 1.5 times the normal seats' mean points
  per deal, and makes its contract in at least 60% of its deals;
* ``normal, easy, easy``: normal beats easy, and ``easy, random, random``: easy beats
  random, each by the paired difference per deal (the entry's points less the mean of
  the other level's two entries, over the same deals) with its 95% interval clear of
  zero;
* decision time (over the hard table, the bid decisions included): normal median < 2 ms;
  hard median < 300 ms and 95th percentile < 1 s.

Prints each table's arena figures (contract success rate, premium bids made and their
success rate per level), then every target with PASS or FAIL; the exit status is 0 only
when all pass.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ninety_nine.arena import Tally, print_summary, run_arena, summary
from ninety_nine.rules import Rules


def table(entries: list[str], deals: int, seed: int, jobs: int) -> tuple[dict[str, Any], Tally]:
    began = time.perf_counter()
    tally = run_arena(Rules.from_preset("ninety-nine"), entries, deals, seed, jobs)
    result = summary(tally, entries)
    print(
        f"\n== ninety-nine, 3 players: {', '.join(entries)} ({deals} deals, "
        f"{time.perf_counter() - began:.0f} s)",
        flush=True,
    )
    print_summary(result)
    return result, tally


def paired(tally: Tally, entries: list[str], better: str, worse: str) -> tuple[float, float, float]:
    """Per deal: ``better``'s mean points less ``worse``'s (over their entries); the mean
    and its 95% interval."""
    ours = [i for i, e in enumerate(entries) if e == better]
    theirs = [i for i, e in enumerate(entries) if e == worse]
    diffs = [
        statistics.fmean(tally.points[i][d] for i in ours)
        - statistics.fmean(tally.points[i][d] for i in theirs)
        for d in range(len(tally.points[0]))
    ]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return mean, mean - half, mean + half


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    checks: list[tuple[str, bool, str]] = []
    hard_entries = ["hard", "normal", "normal"]
    hard, hard_tally = table(hard_entries, args.deals, args.seed, args.jobs)
    rows = {row["entry"]: row for row in hard["entries"]}
    hard_mean = rows[0]["mean_points"]
    normal_mean = statistics.fmean(rows[i]["mean_points"] for i in (1, 2))
    ratio = hard_mean / normal_mean
    checks.append(
        (
            "hard scores >= 1.5x the normal seats' mean points/deal",
            ratio >= 1.5,
            f"{hard_mean:.3f} vs {normal_mean:.3f} ({ratio:.2f}x)",
        )
    )
    levels = hard["levels"]
    rate = levels["hard"]["contract_rate"]
    checks.append(
        (
            "hard makes its contract in >= 60% of deals",
            rate >= 0.6,
            f"{100 * rate:.1f}% of {levels['hard']['plays']}",
        )
    )
    low, high = paired(hard_tally, hard_entries, "hard", "normal")[1:]
    checks.append(
        (
            "hard beats normal (paired 95% CI)",
            low > 0,
            f"{paired(hard_tally, hard_entries, 'hard', 'normal')[0]:+.3f} points/deal "
            f"(95% CI {low:+.3f}..{high:+.3f})",
        )
    )
    for better, worse in (("normal", "easy"), ("easy", "random")):
        entries = [better, worse, worse]
        _, tally = table(entries, args.deals, args.seed, args.jobs)
        mean, low, high = paired(tally, entries, better, worse)
        checks.append(
            (
                f"{better} beats {worse} (paired 95% CI)",
                low > 0,
                f"{mean:+.3f} points/deal (95% CI {low:+.3f}..{high:+.3f})",
            )
        )
    normal, hard_t = levels["normal"], levels["hard"]
    checks += [
        (
            "normal median decision < 2 ms",
            normal["median_ms"] < 2,
            f"{normal['median_ms']:.3f} ms",
        ),
        (
            "hard median decision < 300 ms",
            hard_t["median_ms"] < 300,
            f"{hard_t['median_ms']:.3f} ms (bids: {hard_t['bid_median_ms']:.3f} ms)",
        ),
        (
            "hard p95 decision < 1 s",
            hard_t["p95_ms"] < 1000,
            f"{hard_t['p95_ms']:.3f} ms (bids: {hard_t['bid_p95_ms']:.3f} ms)",
        ),
    ]
    print("\n== targets")
    for name, ok, figure in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {name}  {figure}".rstrip())
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
