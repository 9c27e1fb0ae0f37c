"""What a seat asks for: pass three cards, play a card, or take back its last card.

JSON: ``{"type": "pass", "cards": ["QS", "AH", "KH"]}``, ``{"type": "play", "card": "2C"}``,
``{"type": "undo"}``. The cards of a pass are kept in hand order, whatever order they
came in.

>>> action_from_json({"type": "pass", "cards": ["AH", "QS", "2C"]})
PassCards(cards=('2C', 'QS', 'AH'))
>>> action_from_json(PlayCard("QS").to_json())
PlayCard(card='QS')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias, TypeGuard

from cards.deck import JOKER_CODES, CardCode, is_card_code
from cards.errors import MalformedActionError
from hearts.scoring import sort_hand

PASS_SIZE = 3


@dataclass(frozen=True, slots=True)
class PassCards:
    """Pass three cards of your hand (in a passing deal, before the first trick)."""

    cards: tuple[CardCode, ...]
    type: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a card of your hand to the trick."""

    card: CardCode
    type: ClassVar[str] = "play"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "card": self.card}


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back your last card played and the COM plays after it."""

    type: ClassVar[str] = "undo"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


Action: TypeAlias = PassCards | PlayCard | Undo
_FIELDS = {"pass": {"type", "cards"}, "play": {"type", "card"}, "undo": {"type"}}


def _is_hearts_card(value: object) -> TypeGuard[CardCode]:
    """A card of the 52 Hearts is played with (no joker)."""
    return is_card_code(value) and value not in JOKER_CODES


def action_from_json(data: object) -> Action:
    """Parse an action; :class:`~cards.errors.MalformedActionError` when it is not one."""
    if not isinstance(data, Mapping):
        raise MalformedActionError("an action is an object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise MalformedActionError(f"'type' must be one of {sorted(_FIELDS)}")
    extra = sorted(map(str, set(data) - _FIELDS[kind]))
    if extra:
        raise MalformedActionError(f"unexpected field {extra[0]!r} for a {kind!r} action")
    if kind == "undo":
        return Undo()
    if kind == "play":
        return PlayCard(_card(data.get("card"), "'card'"))
    cards = data.get("cards")
    if not isinstance(cards, list | tuple) or len(cards) != PASS_SIZE:
        raise MalformedActionError("'cards' must list three different card codes")
    codes = [_card(c, "each of 'cards'") for c in cards]
    if len(set(codes)) != PASS_SIZE:
        raise MalformedActionError("'cards' must list three different card codes")
    return PassCards(sort_hand(codes))


def _card(value: object, what: str) -> CardCode:
    """``value`` as a card code of the pack, or a message naming ``what`` was wrong."""
    if not isinstance(value, str):
        raise MalformedActionError(f"{what} must be a card code such as 'QS'")
    if not _is_hearts_card(value):
        raise MalformedActionError(
            f"{value[:8]!r} is not a card code: a rank (2-9, T, J, Q, K, A) and a suit "
            "(C, D, H, S), such as 'QS' or 'TH'"
        )
    return value
