"""What happened in a Hearts match. Events are past tense, frozen, and stored through the
kernel's :class:`~cards.events.EventCodec` as ``(name, version, payload)``.

Two kinds: a seat's action (``cards_passed``, ``card_played``, ``undone``) and the events
the rules derive (the deal, the exchange of passes, a trick's winner, a deal's scores,
the end). Deals count from 1; a hand is listed in :func:`~hearts.scoring.hand_order`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from cards.deck import CardCode
from cards.events import EventCodec
from cards.seating import SeatHandedOver, SeatTaken
from hearts.rules import Rules, Seat

Hands: TypeAlias = tuple[tuple[CardCode, ...], ...]


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """The table is set: rules, each seat's kind (``human``/``com``), the secret seed
    (hex) and its public SHA-256 commitment."""

    rules: Rules
    players: tuple[str, ...]
    seed: str
    commitment: str
    name: ClassVar[str] = "match_started"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """Deal ``deal``: each seat's hand, the removed cards, and where this deal's passes go
    (``left``, ``right``, ``across``, or ``hold``: no passing)."""

    deal: int
    dealer: Seat
    hands: Hands
    removed: tuple[CardCode, ...]
    direction: str
    name: ClassVar[str] = "cards_dealt"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class CardsPassed:
    """``seat`` chose the three ``cards`` it passes to seat ``to`` (hidden from the
    receiver until everyone has chosen: see ``passes_exchanged``)."""

    seat: Seat
    to: Seat
    cards: tuple[CardCode, ...]
    name: ClassVar[str] = "cards_passed"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class PassesExchanged:
    """Everyone had chosen: ``passes[s]`` went from seat ``s`` to its receiver."""

    deal: int
    direction: str
    passes: Hands
    name: ClassVar[str] = "passes_exchanged"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card`` to the trick."""

    seat: Seat
    card: CardCode
    name: ClassVar[str] = "card_played"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class TrickWon:
    """Trick ``trick`` (from 1 in the deal), led by ``leader`` (``cards`` in play order,
    the leader's first) went to ``winner`` with ``points`` in it."""

    trick: int
    leader: Seat
    cards: tuple[CardCode, ...]
    winner: Seat
    points: int
    name: ClassVar[str] = "trick_won"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class DealScored:
    """The deal's last trick was taken. ``taken[s]``: the heart and queen of spades points
    seat ``s`` took in tricks (26 in all); ``jack``: the seat that took the jack of
    diamonds, when it counts; ``moon``: the seat that took all 26, when shooting the moon
    is on; ``scores``: what each seat scores for the deal; ``totals``: the running totals."""

    deal: int
    taken: tuple[int, ...]
    jack: Seat | None
    moon: Seat | None
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    name: ClassVar[str] = "deal_scored"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """A total reached the target (or the last deal was played): the lowest totals win.
    The seed is revealed so anyone can verify every deal."""

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
    """``seat`` took back its last card played: the ``events`` events since are undone."""

    seat: Seat
    events: int
    name: ClassVar[str] = "undone"
    version: ClassVar[int] = 1


Event: TypeAlias = (
    MatchStarted
    | CardsDealt
    | CardsPassed
    | PassesExchanged
    | CardPlayed
    | TrickWon
    | DealScored
    | MatchFinished
    | MatchAborted
    | Undone
    | SeatTaken
    | SeatHandedOver
)
#: The events that record a seat's own move (``seat`` made it), not what the rules do. An
#: undo is not among them: it names the seat whose move it takes back, not who asked.
SEAT_MOVES = (SeatTaken, CardsPassed, CardPlayed)
EVENT_TYPES: tuple[type[Event], ...] = (
    MatchStarted,
    CardsDealt,
    CardsPassed,
    PassesExchanged,
    CardPlayed,
    TrickWon,
    DealScored,
    MatchFinished,
    MatchAborted,
    Undone,
    SeatTaken,
    SeatHandedOver,
)
CODEC = EventCodec(EVENT_TYPES, decode={"rules": Rules.from_json})


def event_payload(event: Event) -> dict[str, Any]:
    return CODEC.payload(event)


def event_from_payload(name: str, version: int, payload: Mapping[str, Any]) -> Event:
    event: Event = CODEC.from_payload(name, version, payload)
    return event
