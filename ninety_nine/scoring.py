"""Scoring a deal, the next deal's trumps, and the match's winners.

>>> made, points = score_deal((3, 4, 2), (3, 4, 2), premium_seat=None, premium=None)
>>> made, [p.total for p in points]
((True, True, True), [13, 14, 12])
>>> made, points = score_deal((9, 1, 2), (9, 0, 0), premium_seat=0, premium="reveal")
>>> [p.total for p in points]  # the most one player can score in a deal
[99, 0, 0]
>>> made, points = score_deal((8, 0, 0), (9, 0, 0), premium_seat=0, premium="declare")
>>> [(p.tricks, p.bonus, p.premium) for p in points]  # a failed declaration pays 30 each
[(9, 0, 0), (0, 20, 30), (0, 20, 30)]
>>> next_trumps((True, False, True))
'H'
"""

from __future__ import annotations

from collections.abc import Sequence

from ninety_nine.actions import DECLARE, REVEAL
from ninety_nine.events import Points
from ninety_nine.pack import TRUMPS_AFTER
from ninety_nine.rules import Seat

#: The bonus for an exact contract, by how many players made theirs (1, 2 or 3).
BONUS: dict[int, int] = {1: 30, 2: 20, 3: 10}
PREMIUM: dict[str, int] = {DECLARE: 30, REVEAL: 60}


def score_deal(
    contracts: Sequence[int],
    tricks: Sequence[int],
    premium_seat: Seat | None,
    premium: str | None,
) -> tuple[tuple[bool, ...], tuple[Points, ...]]:
    """Who made their contract, and each seat's points with their parts.

    A point a trick; a bonus to each player who won exactly the tricks bid (30 if only
    one did, 20 each if two, 10 each if all three); a premium bidder who made it scores
    the premium (30 declare, 60 reveal), one who failed pays it to each other player.
    """
    made = tuple(t == c for t, c in zip(tricks, contracts, strict=True))
    bonus = BONUS.get(sum(made), 0)
    premiums = [0] * len(tricks)
    if premium_seat is not None and premium is not None:
        value = PREMIUM[premium]
        if made[premium_seat]:
            premiums[premium_seat] = value
        else:
            premiums = [0 if s == premium_seat else value for s in range(len(tricks))]
    points = tuple(
        Points(t, bonus if m else 0, p) for t, m, p in zip(tricks, made, premiums, strict=True)
    )
    return made, points


def next_trumps(made: Sequence[bool]) -> str:
    """The trump suit after a deal in which ``made`` says who made their contract: clubs
    if all three did, hearts if two, spades if one, diamonds if none."""
    return TRUMPS_AFTER[sum(made)]


def winners_of(totals: Sequence[int]) -> tuple[Seat, ...]:
    """The seats with the highest total (ties share the win)."""
    best = max(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)
