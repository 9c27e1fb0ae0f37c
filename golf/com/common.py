"""What every COM level shares: the actions a COM considers, and how it makes its initial
flips (blind, so the only choice is where)."""

from __future__ import annotations

import random

from golf.actions import Action, RevealCard, Undo
from golf.rules import Rules
from golf.views import View


def playable(view: View) -> list[Action]:
    """The legal actions a COM considers (a COM never undoes)."""
    actions: list[Action] = [a for a in view.legal_actions if not isinstance(a, Undo)]
    if not actions:
        raise ValueError("the seat has no action to take in this view")
    return actions


def spread_flip(view: View, rules: Rules, rng: random.Random) -> Action:
    """Reveal a card in a line with no face-up card yet, so later pairs are easier to see."""
    assert view.seat is not None
    grid = view.grids[view.seat]
    options = [a for a in playable(view) if isinstance(a, RevealCard)]
    lines = rules.line_positions() or tuple((p,) for p in range(rules.cells))

    def crowding(action: RevealCard) -> int:
        return sum(
            1 for line in lines if action.position in line for q in line if grid[q] is not None
        )

    fewest = min(crowding(a) for a in options)
    return rng.choice([a for a in options if crowding(a) == fewest])
