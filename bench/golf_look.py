"""Golf ``hard``'s look ahead, measured (docs/benchmarks.md, "hard's evaluation looks
beyond its turn").

    .venv/bin/python bench/golf_look.py --positions
    .venv/bin/python bench/golf_look.py --holes 2000 --seed 1 --look 1.5:1 --look 2.5:0
    .venv/bin/python bench/golf_look.py --holes 2000 --seed 1 --scaled 0.5:0.5
    .venv/bin/python bench/golf_look.py --holes 600 --seed 5 --budget confidence=2

``--positions`` prints, for ten positions where a drawn 9 to Q may go into a face-down
spot, "swap minus discard" by the one-turn evaluation and by ``hard``'s (lower favours
the swap). ``--look DRAWS:REVEAL`` plays the evaluation alone with that look (``normal``'s
moves, ``golf.com.policies.normal_policy``) against ``normal``; ``--scaled A:REVEAL`` the
same with ``A`` later draws for each face-down card of the grid that has fewest (at most
3); ``--budget k=v[,k=v]`` plays ``hard`` with those fields of its search budget changed
against ``normal``. Two-player six-card golf; each prints the arena's figures and the
share of decided holes won.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import decided_share, table  # the COM benchmark beside this one

from golf.actions import DrawFromStock, RevealCard
from golf.com.evaluate import ONE_TURN, Evaluator, Lookahead
from golf.com.policies import POLICIES, normal_policy
from golf.com.search import DEFAULT_BUDGET, Budget, search_policy
from golf.decide import decide, start_match
from golf.rules import Rules
from golf.state import COM, Phase, evolve, replay
from golf.views import View, view_for

# (the seat's grid, the card drawn, the face-down spot): the placements whose evaluation
# the issue questioned, from `hard` against `normal` on arena seed 7
POSITIONS = [
    ("? 6 8 / ? ? ?", "T", 3),
    ("? A ? / 3 ? ?", "J", 5),
    ("? ? 9 / ? J ?", "T", 0),
    ("A 6 5 / ? 8 ?", "Q", 5),
    ("6 ? J / ? ? J", "Q", 4),
    ("6 ? ? / ? 5 ?", "Q", 5),
    ("4 ? K / ? ? ?", "T", 4),
    ("? 2 ? / 5 ? ?", "J", 5),
    ("A ? 5 / A ? 5", "Q", 1),
    ("? ? 4 / A ? ?", "T", 4),
]
OPPONENT = (None, "4S", None, "7H", None, None)  # ? 4 ? / 7 ? ?


def drawn_view(rules: Rules) -> View:
    """Seat 0's view of a real two-player deal once it has drawn from the stock."""
    state = replay(start_match(rules, [COM, COM], bytes(32)))
    while state.phase is Phase.FLIPS:
        seat = state.seats_to_act()[0]
        hidden = [p for p, c in enumerate(view_for(state, seat).grids[seat]) if c is None]
        for event in decide(state, seat, RevealCard(hidden[0])):
            state = evolve(state, event)
    for event in decide(state, 0, DrawFromStock()):
        state = evolve(state, event)
    return view_for(state, 0)


def positions() -> None:
    rules = Rules.from_preset("six-card")
    base = drawn_view(rules)
    suits = "CDHS"
    print(f"swap minus discard (points; lower favours the swap), opponent {OPPONENT}")
    print(f"{'grid':15} drawn spot  one turn  hard's look {DEFAULT_BUDGET.look}")
    for grid, rank, spot in POSITIONS:
        ranks = [r for r in grid.split() if r != "/"]
        mine = tuple(None if r == "?" else r + suits[i % 4] for i, r in enumerate(ranks))
        view = dataclasses.replace(base, grids=(mine, OPPONENT), drawn_card=rank + "S")
        figures = []
        for look in (ONE_TURN, DEFAULT_BUDGET.look):
            ev = Evaluator.from_view(view, rules, look=look)
            figures.append(ev.swap_value(spot, rank) - ev.discard_value(rank, None))
        print(f"{grid:15} {rank:>5} {spot:>4}  {figures[0]:+8.2f}  {figures[1]:+8.2f}")


def scaled_policy(per_card: float, reveal: float, view: View, rules: Rules, rng: Any) -> Any:
    fewest = min(sum(c is None for c in grid) for grid in view.grids)
    look = Lookahead(draws=min(3.0, per_card * max(fewest, 1)), reveal=reveal)
    return normal_policy(view, rules, rng, look)


def budget_of(text: str) -> Budget:
    fields = {f.name: f for f in dataclasses.fields(Budget)}
    changes: dict[str, Any] = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        if name not in fields or name == "look":
            raise SystemExit(f"--budget: no field {name!r}; one of {sorted(fields)}")
        changes[name] = type(getattr(DEFAULT_BUDGET, name))(value)
    return dataclasses.replace(DEFAULT_BUDGET, **changes)


def pair(text: str) -> tuple[float, float]:
    first, _, second = text.partition(":")
    return float(first), float(second)


def main() -> int:
    parser = argparse.ArgumentParser(description=" ".join((__doc__ or "").split("\n\n")[0].split()))
    parser.add_argument("--positions", action="store_true")
    parser.add_argument("--look", action="append", default=[], type=pair)
    parser.add_argument("--scaled", action="append", default=[], type=pair)
    parser.add_argument("--budget", action="append", default=[])
    parser.add_argument("--holes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.positions:
        positions()
    entries: list[str] = []
    # the arena finds a policy by name in POLICIES (its worker processes are forked)
    for draws, reveal in args.look:
        name = f"look {draws}:{reveal}"
        POLICIES[name] = functools.partial(
            normal_policy, look=Lookahead(draws=draws, reveal=reveal)
        )
        entries.append(name)
    for per_card, reveal in args.scaled:
        name = f"scaled {per_card}:{reveal}"
        POLICIES[name] = functools.partial(scaled_policy, per_card, reveal)
        entries.append(name)
    for text in args.budget:
        name = f"hard {text}"
        POLICIES[name] = functools.partial(search_policy, budget=budget_of(text))
        entries.append(name)
    for name in entries:
        result = table("six-card", [name, "normal"], args.holes, args.seed, args.jobs)
        print(f"{name}: {100 * decided_share(result):.1f}% of the decided holes won")
    return 0


if __name__ == "__main__":
    sys.exit(main())
