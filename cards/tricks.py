"""Helpers for trick-taking games (Hearts, Ninety-Nine): following suit and winning a trick.

A trick is the cards played to it, in order, with the seat that played each; the first
card's suit is the suit led. Ranks count ace high.

>>> follow_suit(["2H", "KS", "9H", "3C"], "H")
['2H', '9H']
>>> follow_suit(["KS", "3C"], "H")
['KS', '3C']
>>> trick_winner([(1, "9H"), (2, "KH"), (3, "2S"), (0, "AD")], trump=None)
2
>>> trick_winner([(1, "9H"), (2, "KH"), (3, "2S"), (0, "AD")], trump="S")
3
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cards.deck import CardCode

RANK_ORDER = "23456789TJQKA"  # low to high, ace high


def suit_of(card: CardCode) -> str:
    return card[1]


def rank_value(card: CardCode) -> int:
    """2 for a two, ..., 14 for an ace."""
    return RANK_ORDER.index(card[0]) + 2


def follow_suit(hand: Iterable[CardCode], led: str | None) -> list[CardCode]:
    """The cards of ``hand`` that may be played to a trick led in ``led``: that suit if the
    hand holds it, else any card (and any card when leading: ``led`` is ``None``)."""
    cards = list(hand)
    same = [c for c in cards if suit_of(c) == led]
    return same if same else cards


def trick_winner(plays: Sequence[tuple[int, CardCode]], trump: str | None) -> int:
    """The seat that wins ``plays``: the highest trump, else the highest card of the suit
    led."""
    led = suit_of(plays[0][1])

    def strength(play: tuple[int, CardCode]) -> tuple[int, int]:
        suit = suit_of(play[1])
        return (2 if suit == trump else 1 if suit == led else 0, rank_value(play[1]))

    return max(plays, key=strength)[0]
