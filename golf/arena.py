"""Pit COM levels against each other and measure them.

    python -m golf.arena --preset six-card --players 2 --holes 2000 \\
        --seats hard,normal --seed 1 [--jobs 2] [--set NAME=VALUE] [--json]

(``--seats`` takes the levels ``random``, ``easy``, ``normal`` (or ``medium``) and ``hard``.)

Each hole is a one-hole match dealt from a seed derived from ``--seed`` and the hole
number. The levels rotate round the seats hole by hole, so each level starts equally
often. Prints, for each entry of ``--seats``: mean points per hole with a 95% confidence
interval, win rate (lowest hole score alone) and tie rate (lowest, shared), and the
median, mean and 95th-percentile decision time of each level.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cards.cli import parse_overrides, positive_int
from golf.actions import Action
from golf.com.policies import LEVEL_ALIASES, POLICIES, resolve_level
from golf.decide import decide, start_match
from golf.errors import EngineError
from golf.events import HoleScored
from golf.rules import PRESETS, Rules
from golf.state import COM, State, evolve, replay
from golf.views import View, view_for

#: How a seat's move is chosen: (state, level, view, rules, rng) -> action. The arena's
#: levels read the view alone; a bench may stand a measuring device in (bench/golf_ceiling.py).
Chooser = Callable[[State, str, View, Rules, random.Random], Action]


def by_level(state: State, level: str, view: View, rules: Rules, rng: random.Random) -> Action:
    """The COM level's move, from the view alone."""
    return POLICIES[resolve_level(level)](view, rules, rng)


@dataclass
class Tally:
    scores: list[list[int]] = field(default_factory=list)  # per entry
    wins: list[int] = field(default_factory=list)
    ties: list[int] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)

    def record(self, scores: Sequence[int], entry_at: Sequence[int]) -> None:
        """One hole's scores, seat by seat, for the entries ``entry_at`` seated there."""
        best = min(scores)
        winners = [s for s, v in enumerate(scores) if v == best]
        for seat, score in enumerate(scores):
            entry = entry_at[seat]
            self.scores[entry].append(score)
            if seat in winners:
                if len(winners) == 1:
                    self.wins[entry] += 1
                else:
                    self.ties[entry] += 1

    def merge(self, other: Tally) -> None:
        for mine, theirs in zip(self.scores, other.scores, strict=True):
            mine.extend(theirs)
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.ties = [a + b for a, b in zip(self.ties, other.ties, strict=True)]
        for level, values in other.times.items():
            self.times.setdefault(level, []).extend(values)


def _seed(base: int, *parts: int) -> bytes:
    return hashlib.sha256(":".join(str(p) for p in (base, *parts)).encode()).digest()


def play_hole(
    rules: Rules,
    entries: Sequence[str],
    seed: int,
    hole: int,
    tally: Tally,
    choose: Chooser = by_level,
) -> None:
    """One hole with ``entries`` rotated round the seats by ``hole``; results into ``tally``."""
    n = len(entries)
    # seat s is played by entry (s + hole) % n
    entry_at = [(s + hole) % n for s in range(n)]
    state = replay(start_match(rules, [COM] * n, _seed(seed, hole)))
    rng = random.Random(int.from_bytes(_seed(seed, hole, 1)[:8], "big"))
    scored: HoleScored | None = None
    while not state.ended:
        seat = state.seats_to_act()[0]
        level = entries[entry_at[seat]]
        view = view_for(state, seat)
        started = time.perf_counter()
        action = choose(state, level, view, rules, random.Random(rng.getrandbits(64)))
        tally.times.setdefault(level, []).append(time.perf_counter() - started)
        for event in decide(state, seat, action):
            state = evolve(state, event)
            if isinstance(event, HoleScored):
                scored = event
    assert scored is not None
    tally.record(scored.scores, entry_at)


def run_chunk(args: tuple[dict[str, Any], list[str], int, int, int, Chooser]) -> Tally:
    rules_json, entries, seed, start, stop, choose = args
    rules = Rules.from_json(rules_json)
    n = len(entries)
    tally = Tally([[] for _ in range(n)], [0] * n, [0] * n, {})
    for hole in range(start, stop):
        play_hole(rules, entries, seed, hole, tally, choose)
    return tally


def run_arena(
    rules: Rules,
    entries: Sequence[str],
    holes: int,
    seed: int,
    jobs: int = 1,
    choose: Chooser = by_level,
) -> Tally:
    n = len(entries)
    rules = rules.with_overrides(holes=1)
    rules.validate_for(n)
    total = Tally([[] for _ in range(n)], [0] * n, [0] * n, {})
    chunk = max(1, math.ceil(holes / (jobs * 4)))
    parts = [
        (rules.to_json(), list(entries), seed, start, min(holes, start + chunk), choose)
        for start in range(0, holes, chunk)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=min(jobs, len(parts))) as pool:
            for tally in pool.map(run_chunk, parts):
                total.merge(tally)
    else:
        for part in parts:
            total.merge(run_chunk(part))
    return total


def summary(tally: Tally, entries: Sequence[str]) -> dict[str, Any]:
    rows = []
    for i, level in enumerate(entries):
        scores = tally.scores[i]
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
        rows.append(
            {
                "entry": i,
                "level": level,
                "holes": len(scores),
                "mean_points": round(mean, 3),
                "ci95": [round(mean - half, 3), round(mean + half, 3)],
                "win_rate": round(tally.wins[i] / len(scores), 4),
                "tie_rate": round(tally.ties[i] / len(scores), 4),
            }
        )
    times = {}
    for level, values in sorted(tally.times.items()):
        ordered = sorted(values)
        times[level] = {
            "decisions": len(values),
            "median_ms": round(1000 * statistics.median(ordered), 3),
            "mean_ms": round(1000 * statistics.fmean(ordered), 3),
            "p95_ms": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
        }
    pairs = []
    for a in range(len(entries)):
        for b in range(a + 1, len(entries)):
            mean, lo, hi = paired_difference(tally, a, b)
            pairs.append(
                {"a": a, "b": b, "mean": round(mean, 3), "ci95": [round(lo, 3), round(hi, 3)]}
            )
    return {"entries": rows, "decision_time": times, "paired": pairs}


def paired_difference(tally: Tally, a: int, b: int) -> tuple[float, float, float]:
    """Mean of entry ``a``'s hole score minus entry ``b``'s on the same holes, with its 95%
    confidence interval. Both played every hole, so the deal's luck cancels out."""
    diffs = [x - y for x, y in zip(tally.scores[a], tally.scores[b], strict=True)]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return mean, mean - half, mean + half


def print_summary(result: dict[str, Any]) -> None:
    for row in result["entries"]:
        lo, hi = row["ci95"]
        print(
            f"seat entry {row['entry']} {row['level']:>6}: {row['mean_points']:7.3f} points/hole "
            f"(95% CI {lo:.3f}..{hi:.3f}), win rate {100 * row['win_rate']:.1f}%, "
            f"ties {100 * row['tie_rate']:.1f}% over {row['holes']} holes"
        )
    for pair in result["paired"]:
        a, b = result["entries"][pair["a"]], result["entries"][pair["b"]]
        lo, hi = pair["ci95"]
        print(
            f"entry {pair['a']} {a['level']} minus entry {pair['b']} {b['level']}, same holes: "
            f"{pair['mean']:+.3f} points/hole (95% CI {lo:+.3f}..{hi:+.3f})"
        )
    for level, t in result["decision_time"].items():
        print(
            f"decision time {level:>6}: median {t['median_ms']:.3f} ms, "
            f"mean {t['mean_ms']:.3f} ms, p95 {t['p95_ms']:.3f} ms over {t['decisions']} decisions"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--preset", default="six-card", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--holes", type=positive_int, default=2000)
    parser.add_argument("--seats", default="hard,normal", help="levels, one per seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=positive_int, default=1)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    entries = [s.strip() for s in args.seats.split(",")]
    unknown = [e for e in entries if e not in POLICIES and e not in LEVEL_ALIASES]
    if unknown:
        known = sorted([*POLICIES, *LEVEL_ALIASES])
        print(f"error: unknown level {unknown[0]!r}; one of {known}", file=sys.stderr)
        return 2
    entries = [resolve_level(e) for e in entries]
    if len(entries) == 1:
        entries = entries * args.players
    if len(entries) != args.players:
        print("error: --seats must name one level per player", file=sys.stderr)
        return 2
    try:
        rules = Rules.from_preset(args.preset, **parse_overrides(args.set))
        tally = run_arena(rules, entries, args.holes, args.seed, args.jobs)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    result = summary(tally, entries)
    if args.json:
        print(json.dumps(result))
    else:
        print_summary(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
