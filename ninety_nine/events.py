"""What happened in a match: past-tense, frozen events that round-trip through JSON.

Three events record what a seat did (``bid_made``, ``premium_called``, ``card_played``);
every other one follows by the rules from the events before it (and the seed) and is
recomputed by the audit. Each has a stable ``name`` and a ``version``; stored payloads
are read through the kernel's :class:`~cards.events.EventCodec`, which upcasts old ones.

Deals count from 1, tricks from 1 within a deal; a trick's ``plays`` are ``(seat,
card)`` pairs in the order played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from cards.deck import CardCode
from cards.events import EventCodec
from cards.seating import SeatHandedOver, SeatTaken
from ninety_nine.rules import Rules, Seat

Hands: TypeAlias = tuple[tuple[CardCode, ...], ...]
Plays: TypeAlias = tuple[tuple[Seat, CardCode], ...]


@dataclass(frozen=True, slots=True)
class Points:
    """What one seat scored in a deal: a point a trick, the bonus for an exact contract,
    and the premium (won, or paid by a failed premium bidder)."""

    tricks: int
    bonus: int
    premium: int

    @property
    def total(self) -> int:
        return self.tricks + self.bonus + self.premium

    def to_json(self) -> dict[str, int]:
        return {
            "tricks": self.tricks,
            "bonus": self.bonus,
            "premium": self.premium,
            "total": self.total,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Points:
        return cls(int(data["tricks"]), int(data["bonus"]), int(data["premium"]))


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """The table is set: rules, each seat's kind (``human`` or ``com``), the secret seed
    (hex) and its public SHA-256 commitment (hex)."""

    rules: Rules
    players: tuple[str, ...]
    seed: str
    commitment: str
    name: ClassVar[str] = "match_started"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class DealStarted:
    """Deal ``deal``: its dealer, its trump suit (``None``: no trumps) and the 12 cards of
    each seat, from the seed (label ``ninety-nine/deal/<deal>``)."""

    deal: int
    dealer: Seat
    trumps: str | None
    hands: Hands
    name: ClassVar[str] = "deal_started"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class BidMade:
    """``seat`` laid ``cards`` aside, face down, as its bid."""

    seat: Seat
    cards: tuple[CardCode, ...]
    name: ClassVar[str] = "bid_made"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class PremiumCalled:
    """``seat`` said ``call``: ``pass``, ``declare`` or ``reveal``."""

    seat: Seat
    call: str
    name: ClassVar[str] = "premium_called"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class PremiumShown:
    """The premium round is over and ``seat`` holds the premium bid ``premium``: its bid
    ``cards`` (so its ``contract``) are turned face up, and for a reveal its ``hand``."""

    seat: Seat
    premium: str
    cards: tuple[CardCode, ...]
    contract: int
    hand: tuple[CardCode, ...]
    name: ClassVar[str] = "premium_shown"
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
    """Trick ``trick`` of the deal, led by ``leader``, went to ``winner``."""

    trick: int
    leader: Seat
    plays: Plays
    winner: Seat
    name: ClassVar[str] = "trick_won"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class DealScored:
    """The deal's nine tricks are played. ``made`` says who won exactly the tricks bid;
    ``bid_cards`` and ``contracts`` are shown for them and for the premium bidder
    (``None`` for the others, who keep theirs face down)."""

    deal: int
    tricks: tuple[int, ...]
    made: tuple[bool, ...]
    contracts: tuple[int | None, ...]
    bid_cards: tuple[tuple[CardCode, ...] | None, ...]
    premium_seat: Seat | None
    premium: str | None
    points: tuple[Points, ...]
    totals: tuple[int, ...]
    name: ClassVar[str] = "deal_scored"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """A total reached the target (or the last deal was played). The seed is revealed."""

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


Event: TypeAlias = (
    MatchStarted
    | DealStarted
    | BidMade
    | PremiumCalled
    | PremiumShown
    | CardPlayed
    | TrickWon
    | DealScored
    | MatchFinished
    | MatchAborted
    | SeatTaken
    | SeatHandedOver
)
#: The events that record a seat's own move (``seat`` made it), not what the rules do.
SEAT_MOVES = (SeatTaken, BidMade, PremiumCalled, CardPlayed)
EVENT_TYPES: tuple[type[Event], ...] = (
    MatchStarted,
    DealStarted,
    BidMade,
    PremiumCalled,
    PremiumShown,
    CardPlayed,
    TrickWon,
    DealScored,
    MatchFinished,
    MatchAborted,
    SeatTaken,
    SeatHandedOver,
)
EVENT_NAMES: tuple[str, ...] = tuple(cls.name for cls in EVENT_TYPES)


def _points(data: Any) -> tuple[Points, ...]:
    return tuple(Points.from_json(item) for item in data)


CODEC = EventCodec(EVENT_TYPES, decode={"rules": Rules.from_json, "points": _points})


def event_payload(event: Event) -> dict[str, Any]:
    """The event's fields as JSON-ready data (without its name and version)."""
    return CODEC.payload(event)


def event_from_row(name: str, version: int, payload: Mapping[str, Any]) -> Event:
    """A stored event, upcast to the current version of its type."""
    event: Event = CODEC.from_payload(name, version, payload)
    return event
