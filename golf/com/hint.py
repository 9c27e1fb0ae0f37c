"""Hints for human players: the move the ``hard`` COM would make, with a short reason.

A hint is computed from the asking player's view alone, like every COM decision, and is
deterministic for a given view.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from cards.deck import rank_of
from golf.actions import (
    Action,
    DiscardDrawn,
    DrawFromStock,
    Next,
    RevealCard,
    SwapCard,
    TakeDiscard,
)
from golf.com.knowledge import Knowledge
from golf.com.policies import hard_policy
from golf.rules import FinalTurns, Rules
from golf.views import View

RANK_NAMES = {
    "A": "ace",
    "T": "10",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "X": "joker",
}


@dataclass(frozen=True, slots=True)
class Hint:
    action: Action
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"action": self.action.to_json(), "reason": self.reason}


def card_name(code: str) -> str:
    r = rank_of(code)
    return RANK_NAMES.get(r, r)


def _where(rules: Rules, position: int) -> str:
    row, col = divmod(position, rules.cols)
    return f"row {row + 1}, column {col + 1}"


def _matched_line(rules: Rules, grid: list[str | None], position: int, card: str) -> str | None:
    """Name a line through ``position`` that ``card`` completes as a matched line."""
    for line in rules.line_positions():
        if position not in line:
            continue
        others = [grid[q] for q in line if q != position]
        key = rules.match_key(card)
        if all(c is not None and rules.match_key(c) == key for c in others):
            if all(q % rules.cols == position % rules.cols for q in line):
                return f"column {position % rules.cols + 1}"
            return f"row {position // rules.cols + 1}"
    return None


def _seed_for(view: View) -> int:
    key = f"hint:{view.seat}:{view.version}:{view.hole}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big")


def hint(view: View, rules: Rules) -> Hint:
    """The suggested action for the seat whose view this is, and why."""
    if view.seat is None or not view.legal_actions:
        raise ValueError("a hint needs the view of a seat that has something to do")
    action = hard_policy(view, rules, random.Random(_seed_for(view)))
    return Hint(action, explain(view, rules, action))


def _points(n: int) -> str:
    """``1 point``, ``-2 points``, ``0 points``."""
    return f"{n} point" if n == 1 else f"{n} points"


def explain(view: View, rules: Rules, action: Action) -> str:
    assert view.seat is not None
    grid = list(view.grids[view.seat])
    values = rules.value_table()
    if isinstance(action, Next):
        return f"The hole is scored: go on to hole {view.hole + 1} of {view.holes}."
    if isinstance(action, RevealCard):
        return (
            f"Turn up the card at {_where(rules, action.position)}: it shares no line with a "
            "face-up card yet, so pairs will be easier to see."
        )
    top = view.discard[-1] if view.discard else None
    if isinstance(action, TakeDiscard):
        assert top is not None
        for p in range(rules.cells):
            line = _matched_line(rules, grid, p, top)
            if line is not None:
                return f"Take the {card_name(top)} from the discard pile: it matches your {line}."
        return (
            f"Take the {card_name(top)} from the discard pile: at "
            f"{_points(values[rank_of(top)])} it is better than what it would replace."
        )
    if isinstance(action, DrawFromStock):
        if top is None:
            return "Draw from the stock: the discard pile is empty."
        return f"Draw from the stock: the {card_name(top)} on the discard pile would not help."
    card = view.drawn_card
    assert card is not None
    if isinstance(action, SwapCard):
        where = _where(rules, action.position)
        line = _matched_line(rules, grid, action.position, card)
        completes = [c for c in grid if c is None] == [None] and grid[action.position] is None
        ending = ""
        if completes and view.finisher is None:
            ending = (
                " This turns up your last card and ends the hole."
                if rules.final_turns is FinalTurns.NONE
                else " This turns up your last card: the others each have one more turn."
            )
        if line is not None:
            return f"Put the {card_name(card)} at {where}: it matches your {line}.{ending}"
        old = grid[action.position]
        if old is not None:
            saved = values[rank_of(old)] - values[rank_of(card)]
            swap = f"Swap the {card_name(card)} for the {card_name(old)} at {where}"
            if saved > 0:
                return f"{swap}: it saves {_points(saved)}.{ending}"
            now = "it saves nothing now" if saved == 0 else f"it costs {_points(-saved)} now"
            return f"{swap}: {now}, but plays out better over the rest of the hole.{ending}"
        unseen = Knowledge.from_view(view, rules).mean
        why = (
            "it is likely lower than the unseen card"
            if values[rank_of(card)] < unseen
            else "one card fewer to turn up before you can go out"
        )
        return (
            f"Put the {card_name(card)} ({_points(values[rank_of(card)])}) in place of the "
            f"face-down card at {where}: {why}.{ending}"
        )
    if isinstance(action, DiscardDrawn):
        flip = (
            f" and turn up the card at {_where(rules, action.flip)}"
            if action.flip is not None
            else ""
        )
        return f"Discard the {card_name(card)}{flip}: it would not lower your grid."
    return "Undo your last move."
