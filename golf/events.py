"""What happened in a match. Events are past tense, frozen, and round-trip through JSON.

Every event type has a stable ``name`` and a ``version``. Stored logs are read through
:func:`event_from_json`, which first runs the registered *upcasters* to bring an older
version of a payload up to the current one (see ``docs/events.md``).

Hole numbers count from 1. Card lists are in draw order (stock) or bottom-to-top
(discard pile); grids are in position order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from cards.deck import CardCode
from cards.events import EventCodec
from cards.seating import SeatHandedOver, SeatTaken
from golf.rules import Position, Rules, Seat

Grids: TypeAlias = tuple[tuple[CardCode, ...], ...]


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """The table is set: rules, the kind of each seat (``human`` or ``com``), the secret
    seed (hex) and its public SHA-256 commitment (hex), and how its reshuffles are labelled
    (``reshuffle``, :func:`golf.dealing.reshuffle_label`: ``pile``, or ``count`` in the
    matches that began before version 2)."""

    rules: Rules
    players: tuple[str, ...]
    seed: str
    commitment: str
    reshuffle: str = "pile"
    name: ClassVar[str] = "match_started"
    version: ClassVar[int] = 2


@dataclass(frozen=True, slots=True)
class HoleDealt:
    """Hole ``hole`` is dealt by ``dealer``: every grid face down, the discard pile's first
    card and the stock in order (each reader sees only what its view allows)."""

    hole: int
    dealer: Seat
    grids: Grids
    discard: CardCode
    stock: tuple[CardCode, ...]
    name: ClassVar[str] = "hole_dealt"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class CardRevealed:
    """An initial flip: ``seat`` turned up its card at ``position``."""

    seat: Seat
    position: Position
    card: CardCode
    name: ClassVar[str] = "card_revealed"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """``seat`` drew ``card`` from ``source`` (``stock`` or ``discard``)."""

    seat: Seat
    source: str
    card: CardCode
    name: ClassVar[str] = "card_drawn"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class CardSwapped:
    """``seat`` placed ``card`` face up at ``position``; ``replaced`` went to the discard pile."""

    seat: Seat
    position: Position
    card: CardCode
    replaced: CardCode
    name: ClassVar[str] = "card_swapped"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """``seat`` discarded the card in hand, and turned up ``flip_card`` at ``flip_position``
    when it flipped one."""

    seat: Seat
    card: CardCode
    flip_position: Position | None = None
    flip_card: CardCode | None = None
    name: ClassVar[str] = "card_discarded"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class StockReshuffled:
    """The stock ran out: the discard pile but its top card became ``stock`` (draw order)."""

    hole: int
    count: int
    stock: tuple[CardCode, ...]
    name: ClassVar[str] = "stock_reshuffled"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class FinalTurnsBegan:
    """``seat``'s grid is all face up: each other seat has ``turns_left`` turns in all."""

    seat: Seat
    turns_left: int
    name: ClassVar[str] = "final_turns_began"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class HoleScored:
    """The hole ended (``reason``: ``grid_complete``, ``final_turns_done``, ``max_turns`` or
    ``stock_exhausted``); every card is shown and scored."""

    hole: int
    reason: str
    grids: Grids
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    name: ClassVar[str] = "hole_scored"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class HoleAcknowledged:
    """In the pause after hole ``hole`` was scored, human ``seat`` asked for the next hole
    (the action ``next``)."""

    hole: int
    seat: Seat
    name: ClassVar[str] = "hole_acknowledged"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """The last hole was scored. The seed is revealed so anyone can verify the deals."""

    totals: tuple[int, ...]
    winners: tuple[Seat, ...]
    seed: str
    name: ClassVar[str] = "match_finished"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class MatchAborted:
    """The match was stopped before its end; the seed is revealed."""

    reason: str
    seed: str
    name: ClassVar[str] = "match_aborted"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class Undone:
    """``seat`` took back its last swap or discard: ``events`` events are undone and the
    state is again the one right after its draw."""

    seat: Seat
    events: int
    name: ClassVar[str] = "undone"
    version: ClassVar[int] = 1


Event: TypeAlias = (
    MatchStarted
    | HoleDealt
    | CardRevealed
    | CardDrawn
    | CardSwapped
    | CardDiscarded
    | StockReshuffled
    | FinalTurnsBegan
    | HoleScored
    | HoleAcknowledged
    | MatchFinished
    | MatchAborted
    | Undone
    | SeatTaken
    | SeatHandedOver
)
#: The events that record a seat's own move (``seat`` made it), not what the rules do. An
#: undo is not among them: it names the seat whose move it takes back, and in a local
#: match the player of any seat may take back the last one's.
SEAT_MOVES = (SeatTaken, CardRevealed, CardDrawn, CardSwapped, CardDiscarded, HoleAcknowledged)
EVENT_TYPES: dict[str, type[Event]] = {
    cls.name: cls
    for cls in (
        MatchStarted,
        HoleDealt,
        CardRevealed,
        CardDrawn,
        CardSwapped,
        CardDiscarded,
        StockReshuffled,
        FinalTurnsBegan,
        HoleScored,
        HoleAcknowledged,
        MatchFinished,
        MatchAborted,
        Undone,
        SeatTaken,
        SeatHandedOver,
    )
}

CODEC = EventCodec(EVENT_TYPES.values(), decode={"rules": Rules.from_json})
Payload: TypeAlias = dict[str, Any]
Upcaster: TypeAlias = Callable[[Payload], Payload]
#: ``(name, version) -> function`` turning a payload of that version into the next one.
UPCASTERS = CODEC.upcasters
register_upcaster = CODEC.upcaster


@register_upcaster("match_started", 1)
def _reshuffles_by_count(payload: Payload) -> Payload:
    """A match begun before version 2 labels each reshuffle by its count alone."""
    return {**payload, "reshuffle": "count"}


def event_payload(event: Event) -> Payload:
    """The event's fields as JSON-ready data (without its name and version)."""
    return CODEC.payload(event)


def event_to_json(event: Event) -> Payload:
    return {"type": event.name, "version": event.version, "data": event_payload(event)}


def event_from_payload(name: str, version: int, payload: Mapping[str, Any]) -> Event:
    """Rebuild an event from its stored name, version and payload, upcasting as needed."""
    event: Event = CODEC.from_payload(name, version, payload)
    return event


def event_from_json(data: Mapping[str, Any]) -> Event:
    return event_from_payload(data["type"], data["version"], data["data"])
