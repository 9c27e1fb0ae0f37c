"""What a seat asks for: lay aside three bid cards, make (or pass) a premium bid, play a
card.

JSON forms: ``{"type": "bid", "cards": ["6C", "JH", "9D"]}``, ``{"type": "pass"}``,
``{"type": "declare"}``, ``{"type": "reveal"}``, ``{"type": "play", "card": "AS"}``.
Bid cards are kept in the pack's display order, whatever order they come in.

>>> action_from_json({"type": "bid", "cards": ["9D", "6C", "JH"]})
Bid(cards=('6C', 'JH', '9D'))
>>> action_from_json(Play("AS").to_json())
Play(card='AS')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from cards.deck import CardCode
from cards.errors import MalformedActionError
from ninety_nine.pack import BID_SIZE, PACK_SET, sort_hand

DECLARE, REVEAL, PASS = "declare", "reveal", "pass"


@dataclass(frozen=True, slots=True)
class Bid:
    """Lay these three of your twelve cards aside, face down: their suits are your
    contract."""

    cards: tuple[CardCode, ...]
    type: ClassVar[str] = "bid"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class Pass:
    """Make no premium bid."""

    type: ClassVar[str] = PASS

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class Declare:
    """Bid a premium of 30: your bid cards are shown before the play."""

    type: ClassVar[str] = DECLARE

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class Reveal:
    """Bid a premium of 60: your bid cards and your whole hand are shown."""

    type: ClassVar[str] = REVEAL

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` to the trick."""

    card: CardCode
    type: ClassVar[str] = "play"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "card": self.card}


Action: TypeAlias = Bid | Pass | Declare | Reveal | Play
ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls for cls in (Bid, Pass, Declare, Reveal, Play)
}
PREMIUM_ACTIONS: dict[str, Action] = {PASS: Pass(), DECLARE: Declare(), REVEAL: Reveal()}
_FIELDS = {"bid": {"type", "cards"}, "play": {"type", "card"}}


def _card(value: Any) -> CardCode:
    if not isinstance(value, str):
        raise MalformedActionError("a card is a card code such as 'TD'")
    if value not in PACK_SET:
        raise MalformedActionError(f"{value[:8]!r} is not a card of the pack (6 to ace, e.g. 'TD')")
    return value


def action_from_json(data: object) -> Action:
    """Parse an action's JSON form; :class:`MalformedActionError` when it is not one."""
    if not isinstance(data, Mapping):
        raise MalformedActionError("an action is an object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise MalformedActionError(f"'type' must be one of {sorted(ACTION_TYPES)}")
    extra = sorted(str(k) for k in set(data) - _FIELDS.get(kind, {"type"}))
    if extra:
        raise MalformedActionError(f"unexpected field {extra[0]!r} for a {kind!r} action")
    if kind == "play":
        if "card" not in data:
            raise MalformedActionError("a 'play' action needs its 'card'")
        return Play(_card(data["card"]))
    if kind == "bid":
        cards = data.get("cards")
        if not isinstance(cards, list) or len(cards) != BID_SIZE:
            raise MalformedActionError(f"'cards' must be a list of {BID_SIZE} cards")
        parsed = sort_hand(_card(c) for c in cards)
        if len(set(parsed)) != BID_SIZE:
            raise MalformedActionError("the bid cards must be three different cards")
        return Bid(parsed)
    return PREMIUM_ACTIONS[kind]
