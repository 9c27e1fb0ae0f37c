"""COM strength and speed: the arena over the comparisons the product promises.

    .venv/bin/python bench/ai.py [--holes 2000] [--nine-holes 1500] [--jobs 2] [--seed 1]

Two-player six-card: hard vs normal, normal vs greedy (a one-ply baseline, not a level
players choose), normal vs easy, easy vs random (levels alternate seats hole by hole).
Three-player nine-card: hard, normal and greedy at one table, and greedy, easy and
random at another. Prints each table's arena figures, then every target with PASS or
FAIL:

* hard beats normal: at least 75% of the decided (not tied) holes, and >= 1.5 points
  per hole lower;
* normal wins at least 60% of the decided holes against greedy;
* normal beats easy and easy beats random by a clear margin (the paired difference
  over the same holes is below zero with 95% confidence);
* the same order in three-player nine-card golf (hard < normal < greedy < easy < random
  in points, each step with the paired 95% interval clear of zero);
* decision time: normal median < 2 ms; hard median < 100 ms and p95 < 250 ms.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golf.arena import print_summary, run_arena, summary
from golf.rules import Rules


def table(preset: str, entries: list[str], holes: int, seed: int, jobs: int) -> dict[str, Any]:
    started = time.perf_counter()
    result = summary(run_arena(Rules.from_preset(preset), entries, holes, seed, jobs), entries)
    print(
        f"\n== {preset}, {len(entries)} players: {', '.join(entries)} ({holes} holes, "
        f"{time.perf_counter() - started:.0f} s)"
    )
    print_summary(result)
    return result


def apart(result: dict[str, Any], better: int, worse: int) -> bool:
    """``better`` scores lower than ``worse`` on the same holes, beyond the 95% interval."""
    for pair in result["paired"]:
        if (pair["a"], pair["b"]) == (better, worse):
            return bool(pair["ci95"][1] < 0)
        if (pair["a"], pair["b"]) == (worse, better):
            return bool(pair["ci95"][0] > 0)
    raise KeyError((better, worse))


def decided_share(result: dict[str, Any]) -> float:
    """Of the holes one of two entries won outright, the share the first one won."""
    first, second = (e["win_rate"] for e in result["entries"])
    return float(first / (first + second)) if first + second else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--holes", type=int, default=2000)
    parser.add_argument("--nine-holes", type=int, default=1500, help="holes per nine-card table")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    h, j, s = args.holes, args.jobs, args.seed

    hard_normal = table("six-card", ["hard", "normal"], h, s, j)
    normal_greedy = table("six-card", ["normal", "greedy"], h, s, j)
    normal_easy = table("six-card", ["normal", "easy"], h, s, j)
    easy_random = table("six-card", ["easy", "random"], h, s, j)
    nine = table("nine-card", ["hard", "normal", "greedy"], args.nine_holes, s, j)
    nine_floor = table("nine-card", ["greedy", "easy", "random"], args.nine_holes, s, j)

    hn = hard_normal["entries"]
    n9 = nine["entries"]
    times = {**normal_easy["decision_time"], **hard_normal["decision_time"]}
    hard_share, normal_share = decided_share(hard_normal), decided_share(normal_greedy)
    checks = [
        (
            "six-card: hard wins >= 75% of decided holes vs normal",
            hard_share >= 0.75,
            f"{100 * hard_share:.1f}%",
        ),
        (
            "six-card: normal wins >= 60% of decided holes vs greedy",
            normal_share >= 0.60,
            f"{100 * normal_share:.1f}%",
        ),
        (
            "six-card: hard >= 1.5 points/hole lower than normal",
            hn[1]["mean_points"] - hn[0]["mean_points"] >= 1.5,
            f"{hn[1]['mean_points'] - hn[0]['mean_points']:.2f} points",
        ),
        ("six-card: normal beats easy (paired 95% CI)", apart(normal_easy, 0, 1), ""),
        ("six-card: easy beats random (paired 95% CI)", apart(easy_random, 0, 1), ""),
        (
            "nine-card x3: hard < normal < greedy (paired 95% CIs)",
            apart(nine, 0, 1) and apart(nine, 1, 2),
            " < ".join(f"{r['mean_points']:.2f}" for r in n9),
        ),
        (
            "nine-card x3: greedy < easy < random (paired 95% CIs)",
            apart(nine_floor, 0, 1) and apart(nine_floor, 1, 2),
            " < ".join(f"{r['mean_points']:.2f}" for r in nine_floor["entries"]),
        ),
        (
            "normal median decision < 2 ms",
            times["normal"]["median_ms"] < 2,
            f"{times['normal']['median_ms']:.3f} ms",
        ),
        (
            "hard median decision < 100 ms",
            times["hard"]["median_ms"] < 100,
            f"{times['hard']['median_ms']:.3f} ms",
        ),
        (
            "hard p95 decision < 250 ms",
            times["hard"]["p95_ms"] < 250,
            f"{times['hard']['p95_ms']:.3f} ms",
        ),
    ]
    print("\n== targets")
    for name, ok, figure in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {name}  {figure}".rstrip())
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
