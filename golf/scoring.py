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

Matching by point value (Flick Nines, 3x3): a row of 10, J and Q scores 0, and so does a
row of three -2s:

>>> flick = Rules.from_preset("flick-nines")
>>> score_grid(["TS", "JH", "QC", "2D", "2C", "2H", "5S", "6S", "7S"], flick)
18
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cards.deck import CardCode, is_card_code
from golf.errors import EngineError
from golf.rules import Rules, Seat


def score_grid(cards: Sequence[CardCode], rules: Rules) -> int:
    """Points of a whole grid given its card codes in position order.

    Every card in a matched line (all cards of the line share a rank, or with ``match_by:
    value`` a point value) scores 0, once even when it lies in two matched lines; with
    ``negative_pairs_keep_value`` a matched line of negative cards keeps its value.
    """
    if len(cards) != rules.cells:
        raise EngineError(f"a {rules.grid[0]}x{rules.grid[1]} grid has {rules.cells} cards")
    if not all(is_card_code(c) for c in cards):
        raise EngineError("every card must be a card code such as 'KS' or 'XR'")
    table = rules.value_table()
    keys = rules.match_keys()
    values = [table[c[0]] for c in cards]
    zeroed: set[int] = set()
    for line in rules.line_positions():
        first = keys[cards[line[0]][0]]
        if all(keys[cards[p][0]] == first for p in line):
            if rules.negative_pairs_keep_value and values[line[0]] < 0:
                continue
            zeroed.update(line)
    return sum(v for p, v in enumerate(values) if p not in zeroed)


def face_up_total(cards: Sequence[CardCode], face_up: Sequence[bool], rules: Rules) -> int:
    """The points of the face-up cards of a grid, summed as they are (no matched lines):
    the running figure a player watches, not the grid's score.

    >>> face_up_total(["KS", "5H", "JC", "KD", "5C", "2H"], [True] * 3 + [False] * 3,
    ...               Rules.from_preset("six-card"))
    15
    """
    table = rules.value_table()
    return sum(table[c[0]] for c, up in zip(cards, face_up, strict=True) if up)


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
