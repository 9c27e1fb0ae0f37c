"""Pit COM levels against each other and measure them.

    python -m hearts.arena --preset hearts-classic --players 4 --deals 2000 \\
        --seats hard,normal,normal,normal --seed 1 [--jobs 2] [--set NAME=VALUE] [--json]
        [--rotations 1|all]

Each deal is a one-deal match dealt from a seed derived from ``--seed`` and the deal
number, passing as the rules pass in that deal of a match (``rotate``: left, right,
across, hold, ...). The entries of ``--seats`` rotate round the seats deal by deal, so
over the same deals every level sits in every seat equally often. With ``--rotations
all`` every deal is played once for each rotation instead, so each entry plays every
hand of every deal and the luck of the hands falls alike on all (an entry's score for a
deal is then its mean over the rotations): the same expectation, a much narrower
interval, at the players' number times the time. Prints, for each
entry and each level: mean points per deal (the deal's score, moon shots included) with
a 95% interval; for each pair of levels the paired difference of their mean points over
the same deals with its 95% interval; moon shots attempted (a seat that had taken every
point so far, at least 17 of them) and made, per level; and each level's decision time
(median, mean, 95th percentile).
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
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cards.cli import parse_overrides, positive_int
from cards.errors import EngineError
from cards.protocol import COM
from hearts.com.heuristic import MOON_GO
from hearts.com.policies import POLICIES
from hearts.decide import decide, start_match
from hearts.events import DealScored, TrickWon
from hearts.rules import PRESETS, Passing, Rules
from hearts.scoring import card_points
from hearts.state import State, replay
from hearts.views import view_for


@dataclass
class Results:
    """Per entry: each deal's score (in deal order); per level: moon shots and timings."""

    scores: list[list[float]]
    attempted: dict[str, int] = field(default_factory=dict)
    made: dict[str, int] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)
    rotations: int = 1  # the games a deal was played (its score per entry is their mean)

    def merge(self, other: Results) -> None:
        for mine, theirs in zip(self.scores, other.scores, strict=True):
            mine.extend(theirs)
        for tally in ("attempted", "made"):
            ours, new = getattr(self, tally), getattr(other, tally)
            for level, count in new.items():
                ours[level] = ours.get(level, 0) + count
        for level, values in other.times.items():
            self.times.setdefault(level, []).extend(values)


def _digest(*parts: object) -> bytes:
    return hashlib.sha256(":".join(map(str, parts)).encode()).digest()


def deal_rules(rules: Rules, deal: int, players: int) -> Rules:
    """The one-deal rules that play deal ``deal`` of a match under ``rules``."""
    direction = rules.direction(deal, players)
    passing = Passing.NONE.value if direction == "hold" else direction
    return rules.with_overrides(max_deals=1, passing=passing, players=players)


def deal_start(rules: Rules, base: int, deal: int, players: int) -> tuple[Rules, State]:
    """Deal ``deal`` of the arena's seed ``base`` as the arena plays it: its one-deal rules
    and the state before the first move (benches measure on the same deals)."""
    one = deal_rules(rules, deal, players)
    return one, replay(start_match(one, [COM] * players, _digest(base, deal)))


def play_deal(
    rules: Rules, entries: Sequence[str], base: int, deal: int, out: Results, turn: int = 0
) -> list[int]:
    """Deal ``deal`` with ``entries`` rotated round the seats by ``deal`` (and ``turn``):
    each entry's score, in entry order (the moon shots and timings go to ``out``)."""
    n = len(entries)
    entry_at = [(s + deal + turn) % n for s in range(n)]
    by_entry = [0] * n
    one, state = deal_start(rules, base, deal, n)
    rng = random.Random(int.from_bytes(_digest(base, deal, "moves")[:8], "big"))
    taken = [0] * n
    attempted: set[int] = set()
    while not state.ended:
        seat = state.seats_to_act()[0]
        level = entries[entry_at[seat]]
        view = view_for(state, seat)
        began = time.perf_counter()
        action = POLICIES[level](view, one, random.Random(rng.getrandbits(64)))
        out.times.setdefault(level, []).append(time.perf_counter() - began)
        for event in decide(state, seat, action):
            state = replay([event], state)
            if isinstance(event, TrickWon):
                taken[event.winner] += sum(card_points(c) for c in event.cards)
                total = sum(taken)
                if total >= MOON_GO and taken[event.winner] == total:
                    attempted.add(event.winner)
            elif isinstance(event, DealScored):
                for s in range(n):
                    by_entry[entry_at[s]] = event.scores[s]
                if event.moon is not None:
                    level_of = entries[entry_at[event.moon]]
                    out.made[level_of] = out.made.get(level_of, 0) + 1
    for s in attempted:
        level_of = entries[entry_at[s]]
        out.attempted[level_of] = out.attempted.get(level_of, 0) + 1
    return by_entry


def run_chunk(part: tuple[dict[str, Any], list[str], int, int, int, int]) -> Results:
    rules_json, entries, base, start, stop, rotations = part
    rules = Rules.from_json(rules_json)
    out = Results([[] for _ in entries])
    for deal in range(start, stop):
        played = [play_deal(rules, entries, base, deal, out, turn) for turn in range(rotations)]
        for entry, scores in enumerate(zip(*played, strict=True)):
            out.scores[entry].append(scores[0] if rotations == 1 else statistics.fmean(scores))
    return out


def run_arena(
    rules: Rules,
    entries: Sequence[str],
    deals: int,
    seed: int,
    jobs: int = 1,
    rotations: int = 1,
) -> Results:
    """Play deals 1..``deals``, ``jobs`` processes at a time, each deal once for each of
    its first ``rotations`` rotations of the entries round the seats."""
    rules.validate_for(len(entries))
    if not 1 <= rotations <= len(entries):
        raise ValueError(f"rotations must be between 1 and {len(entries)}")
    total = Results([[] for _ in entries], rotations=rotations)
    size = max(1, math.ceil(deals / (jobs * 8)))
    parts = [
        (rules.to_json(), list(entries), seed, start, min(deals + 1, start + size), rotations)
        for start in range(1, deals + 1, size)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=min(jobs, len(parts))) as pool:
            for part in pool.map(run_chunk, parts):
                total.merge(part)
    else:
        for part_args in parts:
            total.merge(run_chunk(part_args))
    return total


def _interval(values: Sequence[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def level_means(results: Results, entries: Sequence[str]) -> dict[str, list[float]]:
    """Each level's mean score per deal (over its entries at that deal)."""
    deals = len(results.scores[0])
    by_level: dict[str, list[int]] = {}
    for i, level in enumerate(entries):
        by_level.setdefault(level, []).append(i)
    return {
        level: [statistics.fmean(results.scores[i][d] for i in idx) for d in range(deals)]
        for level, idx in by_level.items()
    }


def summary(results: Results, entries: Sequence[str]) -> dict[str, Any]:
    def rounded(values: tuple[float, float, float]) -> dict[str, Any]:
        mean, lo, hi = values
        return {"mean": round(mean, 3), "ci95": [round(lo, 3), round(hi, 3)]}

    deals = len(results.scores[0])
    rows = [
        {"entry": i, "level": level, "deals": deals, **rounded(_interval(results.scores[i]))}
        for i, level in enumerate(entries)
    ]
    means = level_means(results, entries)
    levels = {level: rounded(_interval(values)) for level, values in means.items()}
    names = list(means)
    paired = []
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            diffs = [x - y for x, y in zip(means[names[a]], means[names[b]], strict=True)]
            paired.append({"a": names[a], "b": names[b], **rounded(_interval(diffs))})
    seats = {level: entries.count(level) * deals * results.rotations for level in names}
    moon = {
        level: {
            "attempted": results.attempted.get(level, 0),
            "made": results.made.get(level, 0),
            "seat_deals": seats[level],
        }
        for level in names
    }
    times = {}
    for level, values in sorted(results.times.items()):
        ordered = sorted(values)
        times[level] = {
            "decisions": len(ordered),
            "median_ms": round(1000 * statistics.median(ordered), 3),
            "mean_ms": round(1000 * statistics.fmean(ordered), 3),
            "p95_ms": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
        }
    return {
        "entries": rows,
        "levels": levels,
        "paired": paired,
        "moon": moon,
        "decision_time": times,
    }


def print_summary(result: dict[str, Any]) -> None:
    for row in result["entries"]:
        lo, hi = row["ci95"]
        print(
            f"entry {row['entry']} {row['level']:>6}: {row['mean']:7.3f} points/deal "
            f"(95% CI {lo:.3f}..{hi:.3f}) over {row['deals']} deals"
        )
    for level, row in result["levels"].items():
        lo, hi = row["ci95"]
        print(f"level {level:>6}: {row['mean']:7.3f} points/deal (95% CI {lo:.3f}..{hi:.3f})")
    for pair in result["paired"]:
        lo, hi = pair["ci95"]
        print(
            f"{pair['a']} minus {pair['b']}, same deals: {pair['mean']:+.3f} points/deal "
            f"(95% CI {lo:+.3f}..{hi:+.3f})"
        )
    for level, moon in result["moon"].items():
        print(
            f"moon {level:>6}: attempted {moon['attempted']}, made {moon['made']} "
            f"in {moon['seat_deals']} seat-deals"
        )
    for level, t in result["decision_time"].items():
        print(
            f"decision time {level:>6}: median {t['median_ms']:.3f} ms, "
            f"mean {t['mean_ms']:.3f} ms, p95 {t['p95_ms']:.3f} ms over {t['decisions']} decisions"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--preset", default="hearts-classic", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=positive_int, default=2000)
    parser.add_argument("--seats", default="hard,normal,normal,normal", help="a level a seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=positive_int, default=1)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument(
        "--rotations",
        choices=("1", "all"),
        default="1",
        help="'all': each deal once per rotation of the entries round the seats",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    entries = [s.strip() for s in args.seats.split(",")]
    unknown = [e for e in entries if e not in POLICIES]
    if unknown:
        print(f"error: unknown level {unknown[0]!r}; one of {sorted(POLICIES)}", file=sys.stderr)
        return 2
    if len(entries) == 1:
        entries = entries * args.players
    if len(entries) != args.players:
        print("error: --seats must name one level a player", file=sys.stderr)
        return 2
    try:
        rules = Rules.from_preset(args.preset, **parse_overrides(args.set))
        rotations = len(entries) if args.rotations == "all" else 1
        results = run_arena(rules, entries, args.deals, args.seed, args.jobs, rotations)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    result = summary(results, entries)
    if args.json:
        print(json.dumps(result))
    else:
        print_summary(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
