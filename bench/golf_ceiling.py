"""How far Golf's determinized search gets against ``normal`` when it is let see cards no
fair player can: a measure of how much of the target is left to skill (docs/benchmarks.md).

The search is ``hard`` on every table but the two-player six-card one, where ``hard`` now
plays the learned value (``golf/com/value.py``); this bench still measures the search there,
as it did when the search was ``hard`` everywhere (the figures in docs/benchmarks.md).

    .venv/bin/python bench/golf_ceiling.py --holes 2000 --seed 1 [--sees none,own,all] [--jobs 2]

Two-player six-card golf, the arena's holes (the same deals and seats as
``python -m golf.arena --seats hard,normal``). For each of ``--sees``, the search plays
``normal`` unchanged (budget, candidates, rollouts), but its samples of the unseen cards
keep what it is let see at its true place:

* ``none``: nothing (the search as it is, the control);
* ``own``: its own face-down cards;
* ``all``: every face-down card of both grids (the stock is still shuffled anew).

Prints each one's arena figures and its share of the decided holes. Nothing here is a COM
level: a seat that reads the state is a measuring device, never a player.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cards.deck import rank_of
from golf.actions import Action
from golf.arena import Tally, by_level, print_summary, run_arena, summary
from golf.com import search
from golf.com.knowledge import Knowledge
from golf.rules import Rules
from golf.state import State
from golf.views import View

RULES = Rules.from_preset("six-card").with_overrides(holes=1)
SEES = ("none", "own", "all")
ENTRIES = ["hard", "normal"]
FAIR = search._determinize  # the sampler the search has, before a seer stands in for it


def seer(state: State, sees: str) -> Callable[[View, Rules, random.Random, Knowledge], search._Sim]:
    """A sampler of the unseen cards that leaves the cards ``sees`` names where they are."""

    def determinize(view: View, rules: Rules, rng: random.Random, know: Knowledge) -> search._Sim:
        sim = FAIR(view, rules, rng, know)  # the fair sample, then mended
        me = view.seat
        shown = [s for s in range(len(sim.grids)) if sees == "all" or (sees == "own" and s == me)]
        # every place whose card was drawn (hidden cells, the stock) until its true card is
        # set: each true card trades places with a card of its rank still drawn, which keeps
        # the cards not shown dealt at random among the places not shown
        rows = [*sim.grids, sim.stock]  # the stock is the last row
        drawn = [(s, p) for s in range(len(sim.grids)) for p, up in enumerate(sim.up[s]) if not up]
        drawn += [(len(sim.grids), i) for i in range(len(sim.stock))]
        for s in shown:
            grid = sim.grids[s]
            for p, up in enumerate(sim.up[s]):
                if up:
                    continue
                drawn.remove((s, p))  # set now: no longer a place to trade with
                true = rank_of(state.grids[s][p])
                for row, i in drawn:
                    if grid[p] != true and rows[row][i] == true:
                        rows[row][i], grid[p] = grid[p], true
                        break
        return sim

    return determinize


def searched(state: State, level: str, view: View, rules: Rules, rng: random.Random) -> Action:
    """The arena's move for ``level``, the determinized search standing in for ``hard``."""
    if level != "hard":
        return by_level(state, level, view, rules, rng)
    return search.search_policy(view, rules, rng)


def seeing(
    sees: str, state: State, level: str, view: View, rules: Rules, rng: random.Random
) -> Action:
    """:func:`searched`, the search sampling through a seer of ``state``."""
    if level != "hard" or sees == "none":
        return searched(state, level, view, rules, rng)
    with mock.patch.object(search, "_determinize", seer(state, sees)):
        return searched(state, level, view, rules, rng)


def play(sees: str, holes: int, seed: int, jobs: int) -> Tally:
    """The arena's ``hard, normal`` holes with ``hard`` let see what ``sees`` names."""
    return run_arena(RULES, ENTRIES, holes, seed, jobs, partial(seeing, sees))


def main() -> int:
    parser = argparse.ArgumentParser(description=" ".join((__doc__ or "").split("\n\n")[0].split()))
    parser.add_argument("--holes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sees", default=",".join(SEES), help="any of none, own, all")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    chosen = [s.strip() for s in args.sees.split(",")]
    if any(s not in SEES for s in chosen):
        parser.error(f"--sees takes {', '.join(SEES)}")
    for sees in chosen:
        total = play(sees, args.holes, args.seed, args.jobs)
        result = summary(total, ENTRIES)
        first, second = (e["win_rate"] for e in result["entries"])
        print(f"\n== hard sees {sees}: {args.holes} holes, seed {args.seed}")
        print_summary({**result, "decision_time": {}})
        print(f"hard wins {100 * first / (first + second):.1f}% of the decided holes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
