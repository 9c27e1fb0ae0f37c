"""What a seat asks for. Actions are imperative; the events they cause are past tense.

JSON form: ``{"type": "swap", "position": 4}`` and so on, with types ``reveal``,
``draw``, ``take_discard``, ``swap``, ``discard`` (optional ``flip``: a position to turn
face up), ``undo`` and ``next`` (ready for the next hole, in the pause after a hole).

>>> action_from_json({"type": "discard", "flip": 3})
DiscardDrawn(flip=3)
>>> action_from_json(SwapCard(2).to_json())
SwapCard(position=2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from golf.errors import MalformedActionError
from golf.rules import Position


@dataclass(frozen=True, slots=True)
class RevealCard:
    """Turn up one of your own face-down cards (the initial flips before the first turn)."""

    position: Position
    type: ClassVar[str] = "reveal"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "position": self.position}


@dataclass(frozen=True, slots=True)
class DrawFromStock:
    """Draw the top card of the stock; only you see it."""

    type: ClassVar[str] = "draw"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile."""

    type: ClassVar[str] = "take_discard"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class SwapCard:
    """Put the card in hand face up at ``position``; the card there goes to the discard pile."""

    position: Position
    type: ClassVar[str] = "swap"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "position": self.position}


@dataclass(frozen=True, slots=True)
class DiscardDrawn:
    """Discard the card in hand, turning up the face-down card at ``flip`` if given."""

    flip: Position | None = None
    type: ClassVar[str] = "discard"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "flip": self.flip}


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back your last swap or discard and the COM turns after it."""

    type: ClassVar[str] = "undo"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class Next:
    """Ready for the next hole: acknowledge the scored hole (phase ``hole_over``)."""

    type: ClassVar[str] = "next"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


Action: TypeAlias = RevealCard | DrawFromStock | TakeDiscard | SwapCard | DiscardDrawn | Undo | Next
ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (RevealCard, DrawFromStock, TakeDiscard, SwapCard, DiscardDrawn, Undo, Next)
}


def _position(data: Mapping[str, Any], key: str, *, optional: bool = False) -> Position | None:
    value = data.get(key)
    if value is None:
        if optional:
            return None
        raise MalformedActionError(f"'{key}' is required for a {data.get('type')!r} action")
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedActionError(f"'{key}' must be an integer position")
    return value


def action_from_json(data: object) -> Action:
    """Parse the JSON form of an action; raise :class:`MalformedActionError` if it is not one."""
    if not isinstance(data, Mapping):
        raise MalformedActionError("an action must be an object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise MalformedActionError(f"'type' must be one of {sorted(ACTION_TYPES)}")
    allowed = {"type", "position"} if kind in ("reveal", "swap") else {"type"}
    if kind == "discard":
        allowed = {"type", "flip"}
    extra = sorted(map(str, set(data) - allowed))
    if extra:
        raise MalformedActionError(f"unexpected field {extra[0]!r} for a {kind!r} action")
    if kind == "reveal":
        return RevealCard(_position(data, "position"))  # type: ignore[arg-type]
    if kind == "swap":
        return SwapCard(_position(data, "position"))  # type: ignore[arg-type]
    if kind == "discard":
        return DiscardDrawn(_position(data, "flip", optional=True))
    if kind == "draw":
        return DrawFromStock()
    if kind == "take_discard":
        return TakeDiscard()
    if kind == "next":
        return Next()
    return Undo()
