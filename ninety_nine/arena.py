"""Pit COM levels against each other and measure them.

    python -m ninety_nine.arena --deals 2000 --seats hard,normal,normal --seed 1 \\
        [--jobs 2] [--set NAME=VALUE] [--json]

Each arena deal is a one-deal match dealt from a seed derived from ``--seed`` and the deal
number, with the dealer and the trumps set by the deal number (dealer ``i mod 3``; the
trumps cycling through no trumps, clubs, hearts, spades, diamonds, so every trump rule
is played alike). The deal is played three times, the entries of ``--seats`` rotated
round the seats, so each entry plays every hand of every deal and the deal's luck
cancels out of the comparisons. Prints, per entry: mean points per deal with a 95%
interval; per pair of entries: the paired difference over the same deals with its 95%
interval; per level: the contract success rate, the premium bids made and how many
succeeded, and the median, mean and 95th-percentile decision time (and the same of the
bid decisions alone).
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
from cards.shuffle import commitment_of
from ninety_nine.com import POLICIES
from ninety_nine.decide import decide
from ninety_nine.events import DealScored, DealStarted, MatchStarted
from ninety_nine.pack import deal_hands
from ninety_nine.rules import SEATS, Rules
from ninety_nine.state import Phase, State, evolve
from ninety_nine.views import view_for

TRUMP_CYCLE: tuple[str | None, ...] = (None, "C", "H", "S", "D")


@dataclass
class LevelTally:
    """What one level did: deals played, contracts made, premiums bid and made, times."""

    plays: int = 0
    made: int = 0
    declared: int = 0
    declared_made: int = 0
    revealed: int = 0
    revealed_made: int = 0
    times: list[float] = field(default_factory=list)
    bid_times: list[float] = field(default_factory=list)  # the bid decisions among them

    def merge(self, other: LevelTally) -> None:
        self.plays += other.plays
        self.made += other.made
        self.declared += other.declared
        self.declared_made += other.declared_made
        self.revealed += other.revealed
        self.revealed_made += other.revealed_made
        self.times.extend(other.times)
        self.bid_times.extend(other.bid_times)


@dataclass
class Tally:
    points: list[list[float]]  # per entry, per deal: mean points over the rotations
    levels: dict[str, LevelTally] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        for mine, theirs in zip(self.points, other.points, strict=True):
            mine.extend(theirs)
        for level, tally in other.levels.items():
            self.levels.setdefault(level, LevelTally()).merge(tally)


def _digest(*parts: object) -> bytes:
    return hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()


def deal_state(rules: Rules, seed: int, deal: int) -> State:
    """Arena deal ``deal``: a match of one deal, its dealer and trumps set by ``deal``."""
    match_seed = _digest("ninety-nine-arena", seed, deal)
    dealer = deal % SEATS
    trumps = TRUMP_CYCLE[deal % len(TRUMP_CYCLE)]
    started = MatchStarted(rules, (COM,) * SEATS, match_seed.hex(), commitment_of(match_seed))
    dealt = DealStarted(1, dealer, trumps, deal_hands(match_seed, 1, dealer))
    return evolve(evolve(None, started), dealt)


def play_deal(
    rules: Rules, levels: Sequence[str], state: State, rng: random.Random, tally: Tally
) -> DealScored:
    """Play ``state``'s deal out with ``levels[seat]`` at each seat."""
    scored: DealScored | None = None
    while scored is None:
        seat = state.seats_to_act()[0]
        level = levels[seat]
        view = view_for(state, seat)
        began = time.perf_counter()
        action = POLICIES[level](view, random.Random(rng.getrandbits(64)))
        took = time.perf_counter() - began
        level_tally = tally.levels.setdefault(level, LevelTally())
        level_tally.times.append(took)
        if state.phase is Phase.BIDDING:
            level_tally.bid_times.append(took)
        for event in decide(state, seat, action):
            if isinstance(event, DealScored):
                scored = event
                break
            state = evolve(state, event)
    for seat, level in enumerate(levels):
        t = tally.levels[level]
        t.plays += 1
        t.made += scored.made[seat]
        if scored.premium_seat == seat:
            won = scored.made[seat]
            if scored.premium == "reveal":
                t.revealed += 1
                t.revealed_made += won
            else:
                t.declared += 1
                t.declared_made += won
    return scored


def run_chunk(args: tuple[dict[str, Any], list[str], int, int, int]) -> Tally:
    rules_json, entries, seed, start, stop = args
    rules = Rules.from_json(rules_json)
    tally = Tally([[] for _ in entries])
    for deal in range(start, stop):
        rng = random.Random(int.from_bytes(_digest("rng", seed, deal)[:8], "big"))
        state = deal_state(rules, seed, deal)
        sums = [0.0] * len(entries)
        for rotation in range(SEATS):
            # seat s is played by entry (s + rotation) % 3
            entry_at = [(s + rotation) % SEATS for s in range(SEATS)]
            levels = [entries[e] for e in entry_at]
            scored = play_deal(rules, levels, state, rng, tally)
            for seat, entry in enumerate(entry_at):
                sums[entry] += scored.points[seat].total
        for entry, total in enumerate(sums):
            tally.points[entry].append(total / SEATS)
    return tally


def run_arena(rules: Rules, entries: Sequence[str], deals: int, seed: int, jobs: int = 1) -> Tally:
    if len(entries) != SEATS:
        raise EngineError(f"an arena table has {SEATS} entries")
    rules = rules.from_json({**rules.to_json(), "max_deals": 1})
    total = Tally([[] for _ in entries])
    chunk = max(1, math.ceil(deals / (jobs * 8)))
    parts = [
        (rules.to_json(), list(entries), seed, start, min(deals, start + chunk))
        for start in range(0, deals, chunk)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=min(jobs, len(parts))) as pool:
            for tally in pool.map(run_chunk, parts):
                total.merge(tally)
    else:
        for part in parts:
            total.merge(run_chunk(part))
    return total


def _interval(values: Sequence[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def _percentile(ordered: Sequence[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(tally: Tally, entries: Sequence[str]) -> dict[str, Any]:
    rows = []
    for i, level in enumerate(entries):
        mean, lo, hi = _interval(tally.points[i])
        rows.append(
            {
                "entry": i,
                "level": level,
                "deals": len(tally.points[i]),
                "mean_points": round(mean, 3),
                "ci95": [round(lo, 3), round(hi, 3)],
            }
        )
    pairs = []
    for a in range(len(entries)):
        for b in range(a + 1, len(entries)):
            diffs = [x - y for x, y in zip(tally.points[a], tally.points[b], strict=True)]
            mean, lo, hi = _interval(diffs)
            pairs.append(
                {"a": a, "b": b, "mean": round(mean, 3), "ci95": [round(lo, 3), round(hi, 3)]}
            )
    levels = {}
    for level, t in sorted(tally.levels.items()):
        ordered = sorted(t.times)
        bids = sorted(t.bid_times) or [0.0]
        levels[level] = {
            "plays": t.plays,
            "contract_rate": round(t.made / t.plays, 4) if t.plays else 0.0,
            "declared": t.declared,
            "declared_made": t.declared_made,
            "revealed": t.revealed,
            "revealed_made": t.revealed_made,
            "decisions": len(ordered),
            "median_ms": round(1000 * statistics.median(ordered), 3),
            "mean_ms": round(1000 * statistics.fmean(ordered), 3),
            "p95_ms": round(1000 * _percentile(ordered, 0.95), 3),
            "bid_median_ms": round(1000 * statistics.median(bids), 3),
            "bid_p95_ms": round(1000 * _percentile(bids, 0.95), 3),
        }
    return {"entries": rows, "paired": pairs, "levels": levels}


def _rate(made: int, tried: int) -> str:
    return f"{made}/{tried} made ({100 * made / tried:.1f}%)" if tried else "0 made"


def print_summary(result: dict[str, Any]) -> None:
    for row in result["entries"]:
        lo, hi = row["ci95"]
        print(
            f"entry {row['entry']} {row['level']:>6}: {row['mean_points']:7.3f} points/deal "
            f"(95% CI {lo:.3f}..{hi:.3f}) over {row['deals']} deals x 3 seats"
        )
    for pair in result["paired"]:
        a, b = result["entries"][pair["a"]], result["entries"][pair["b"]]
        lo, hi = pair["ci95"]
        print(
            f"entry {pair['a']} {a['level']} minus entry {pair['b']} {b['level']}, same deals: "
            f"{pair['mean']:+.3f} points/deal (95% CI {lo:+.3f}..{hi:+.3f})"
        )
    for level, t in result["levels"].items():
        print(
            f"level {level:>6}: contracts made {100 * t['contract_rate']:.1f}% of "
            f"{t['plays']}; declared {t['declared']}, {_rate(t['declared_made'], t['declared'])}; "
            f"revealed {t['revealed']}, {_rate(t['revealed_made'], t['revealed'])}"
        )
    for level, t in result["levels"].items():
        print(
            f"decision time {level:>6}: median {t['median_ms']:.3f} ms, mean {t['mean_ms']:.3f} "
            f"ms, p95 {t['p95_ms']:.3f} ms over {t['decisions']} decisions (bids: median "
            f"{t['bid_median_ms']:.3f} ms, p95 {t['bid_p95_ms']:.3f} ms)"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--deals", type=positive_int, default=2000)
    parser.add_argument("--seats", default="hard,normal,normal", help="a level per seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=positive_int, default=1)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    entries = [s.strip() for s in args.seats.split(",")]
    unknown = [e for e in entries if e not in POLICIES]
    if unknown:
        print(f"error: unknown level {unknown[0]!r}; one of {sorted(POLICIES)}", file=sys.stderr)
        return 2
    if len(entries) == 1:
        entries *= SEATS
    try:
        rules = Rules.from_preset("ninety-nine", **parse_overrides(args.set))
        tally = run_arena(rules, entries, args.deals, args.seed, args.jobs)
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
