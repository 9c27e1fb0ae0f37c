"""Scoring a grid and the outcome of a match.

Examples from the rules reference (six-card defaults), cards in position order
(top row, then bottom row):

>>> from golf.rules import Rules
>>> six = Rules.from_preset("six-card")
>>> score_grid(["KS", "5H", "JC", "KD", "5C", "2H"], six)
8
>>> score_grid(["8S", "KH", "2C", "8D", "AC", "5H"], six)
4
>>> score_grid(["2S", "KH", "KC", "2D", "KD", "KS"], six)
0
>>> keep = six.with_overrides(negative_pairs_keep_value=True)
>>> score_grid(["2S", "KH", "KC", "2D", "KD", "KS"], keep)
-4
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cards.deck import CardCode, is_card_code
from golf.errors import EngineError
from golf.rules import Rules, Seat


def score_grid(cards: Sequence[CardCode], rules: Rules) -> int:
    """Points of a whole grid given its card codes in position order.

    Every card in a matched line (all cards of the line share a rank) scores 0, once
    even when it lies in two matched lines; with ``negative_pairs_keep_value`` a
    matched line of negative cards keeps its value.
    """
    if len(cards) != rules.cells:
        raise EngineError(f"a {rules.grid[0]}x{rules.grid[1]} grid has {rules.cells} cards")
    if not all(is_card_code(c) for c in cards):
        raise EngineError("every card must be a card code such as 'KS' or 'XR'")
    table = rules.value_table()
    values = [table[c[0]] for c in cards]
    zeroed: set[int] = set()
    for line in rules.line_positions():
        first = cards[line[0]][0]
        if all(cards[p][0] == first for p in line):
            if rules.negative_pairs_keep_value and values[line[0]] < 0:
                continue
            zeroed.update(line)
    return sum(v for p, v in enumerate(values) if p not in zeroed)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result so far: each finished hole's scores, the running totals, and (once the
    match is over) the winners - every seat tied on the lowest total."""

    hole_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    winners: tuple[Seat, ...]
    finished: bool

    def to_json(self) -> dict[str, object]:
        return {
            "hole_scores": [list(s) for s in self.hole_scores],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "finished": self.finished,
        }


def winners_of(totals: Sequence[int]) -> tuple[Seat, ...]:
    """Every seat with the lowest total; ties share the win.

    >>> winners_of([12, 7, 7, 30])
    (1, 2)
    """
    best = min(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)
