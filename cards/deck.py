"""Cards and their two-character notation.

A card is written as rank + suit: rank one of ``A23456789TJQK``, suit one of ``SHDC``
(``"KS"`` is the king of spades, ``"TD"`` the ten of diamonds). Jokers are ``"XR"`` and
``"XB"`` (red and black). The engine keeps cards as these codes: they are compact,
hashable and JSON-ready. With several decks the same code occurs more than once.

>>> Card.from_code("TD")
Card(rank=<Rank.TEN: 'T'>, suit=<Suit.DIAMONDS: 'D'>)
>>> Card.from_code("TD").code
'TD'
>>> rank_of("XB") == rank_of("XR")
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeAlias, TypeGuard

CardCode: TypeAlias = str


class Rank(enum.Enum):
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    JOKER = "X"


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


STANDARD_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)
JOKER_CODES: tuple[CardCode, ...] = ("XR", "XB")
_VALID_CODES = frozenset(r.value + s.value for r in STANDARD_RANKS for s in Suit) | set(JOKER_CODES)


class CardError(ValueError):
    """A card code that is not in the notation."""


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. ``suit`` is ``None`` for a joker, whose colour is kept in ``color``."""

    rank: Rank
    suit: Suit | None = None
    color: str | None = None

    def __repr__(self) -> str:
        if self.rank is Rank.JOKER:
            return f"Card(rank={self.rank!r}, color={self.color!r})"
        return f"Card(rank={self.rank!r}, suit={self.suit!r})"

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Parse a two-character code; raise :class:`CardError` for anything else."""
        if not isinstance(code, str) or code not in _VALID_CODES:
            raise CardError(f"not a card code: {code!r}")
        if code in JOKER_CODES:
            return cls(Rank.JOKER, None, code[1])
        return cls(Rank(code[0]), Suit(code[1]))

    @property
    def code(self) -> CardCode:
        if self.rank is Rank.JOKER:
            return "X" + (self.color or "R")
        assert self.suit is not None
        return f"{self.rank.value}{self.suit.value}"


def is_card_code(value: object) -> bool:
    return isinstance(value, str) and value in _VALID_CODES


def are_card_codes(value: object) -> TypeGuard[tuple[CardCode, ...]]:
    """Whether ``value`` is a tuple of card codes, as an action holds its cards (an action
    built in Python skips the JSON parser's checks).

    >>> are_card_codes(("2C", "QS")), are_card_codes(["2C"]), are_card_codes(("2C", None))
    (True, False, False)
    """
    return isinstance(value, tuple) and all(is_card_code(c) for c in value)


def rank_of(code: CardCode) -> str:
    """The rank character of a card code (``"X"`` for both jokers).

    Two cards *match* when their ranks are equal.
    """
    return code[0]


def build_deck(decks: int, jokers: bool) -> tuple[CardCode, ...]:
    """The unshuffled cards of ``decks`` decks in canonical order.

    Each deck lists suits S, H, D, C, each from ace to king, then ``XR``, ``XB`` when
    jokers are in play. Shuffles start from this order (see ``docs/dealing.md``).

    >>> len(build_deck(1, False)), len(build_deck(2, True))
    (52, 108)
    """
    one = [r.value + s.value for s in Suit for r in STANDARD_RANKS]
    if jokers:
        one.extend(JOKER_CODES)
    return tuple(one * decks)
