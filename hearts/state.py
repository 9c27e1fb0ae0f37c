"""The state of a Hearts match and the one fold that builds it, ``evolve(state, event)``,
shared by live play and replay. States are frozen; evolving returns a new one.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeAlias

from cards.deck import CardCode
from cards.errors import EngineError
from cards.frozen import fold_in_place
from cards.frozen import replaced as _copy  # the hot path's copy of a state
from cards.protocol import COM, HUMAN
from cards.seating import (
    SeatHandedOver,
    SeatTaken,
    seat_handed_over_changes,
    seat_taken_changes,
    waiting,
)
from hearts.events import (
    CardPlayed,
    CardsDealt,
    CardsPassed,
    DealScored,
    Event,
    Hands,
    MatchAborted,
    MatchFinished,
    MatchStarted,
    PassesExchanged,
    TrickWon,
    Undone,
)
from hearts.rules import DIRECTIONS, Rules, Seat
from hearts.scoring import JACK_OF_DIAMONDS, QUEEN_OF_SPADES, card_points, sort_hand

__all__ = ["COM", "HUMAN", "Phase", "State", "evolve", "opening_card", "replay"]


class Phase(enum.Enum):
    NOT_DEALT = "not_dealt"  # before the first deal, and between deals
    PASSING = "passing"  # every seat that has not chosen its three cards may act
    PLAYING = "playing"  # ``to_act`` plays (no one when a full trick waits to be taken)
    DEAL_OVER = "deal_over"  # all cards played, waiting to be scored
    FINISHED = "finished"
    ABORTED = "aborted"


def opening_card(removed: Iterable[CardCode]) -> CardCode:
    """The card that leads the first trick: the 2 of clubs, or the 3 when it is removed."""
    return "3C" if "2C" in removed else "2C"


@dataclass(frozen=True)
class State:
    """One playthrough at one point; ``version`` counts the events folded in. Hands are
    in hand order; ``trick`` holds the cards of the trick in play, the leader's first."""

    rules: Rules
    players: tuple[str, ...]
    seed: bytes
    version: int = 0
    phase: Phase = Phase.NOT_DEALT
    deal: int = 0
    dealer: Seat = 0
    direction: str = "hold"
    hands: Hands = ()
    removed: tuple[CardCode, ...] = ()
    passes: tuple[tuple[CardCode, ...] | None, ...] = ()  # each seat's chosen pass
    received: Hands = ()  # after the exchange
    leader: Seat | None = None
    to_act: Seat | None = None
    trick: tuple[CardCode, ...] = ()
    tricks: tuple[TrickWon, ...] = ()  # taken in this deal
    taken: tuple[int, ...] = ()  # heart and queen points taken in this deal
    jack: Seat | None = None  # who took the jack of diamonds this deal
    hearts_broken: bool = False
    totals: tuple[int, ...] = ()
    deal_scores: tuple[tuple[int, ...], ...] = ()
    last_deal: DealScored | None = None
    winners: tuple[Seat, ...] = ()
    end_reason: str | None = None
    undo_point: State | None = None
    undo_depth: int = 0
    # Cards the undo seat saw played in undone plays, back in a COM's hand: (seat, card).
    seen: tuple[tuple[Seat, CardCode], ...] = ()

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def ended(self) -> bool:
        return self.phase is Phase.FINISHED or self.phase is Phase.ABORTED

    @property
    def undo_seat(self) -> Seat | None:
        """The lone human seat that may undo, when the rules allow undo."""
        if not self.rules.undo:
            return None
        humans = [s for s, kind in enumerate(self.players) if kind == HUMAN]
        return humans[0] if len(humans) == 1 else None

    @property
    def first_trick(self) -> bool:
        return not self.tricks

    def receiver(self, seat: Seat) -> Seat:
        """Where ``seat``'s pass goes in this deal."""
        offset = DIRECTIONS[self.direction]
        return (seat + (offset or 0)) % self.seats

    def giver(self, seat: Seat) -> Seat:
        """Whose pass ``seat`` receives in this deal."""
        offset = DIRECTIONS[self.direction]
        return (seat - (offset or 0)) % self.seats

    def seats_to_act(self) -> tuple[Seat, ...]:
        if waiting(self.players):
            return ()
        if self.phase is Phase.PASSING:
            return tuple(s for s, chosen in enumerate(self.passes) if chosen is None)
        if self.phase is Phase.PLAYING and self.to_act is not None:
            return (self.to_act,)
        return ()

    def trick_plays(self) -> tuple[tuple[Seat, CardCode], ...]:
        """The trick in play as ``(seat, card)`` pairs."""
        if self.leader is None:
            return ()
        n = self.seats
        return tuple(((self.leader + i) % n, c) for i, c in enumerate(self.trick))


Changes: TypeAlias = dict[str, Any]


def _put(seq: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:index], value, *seq[index + 1 :])


def _holder(hands: Hands, card: CardCode) -> Seat:
    return next(s for s, hand in enumerate(hands) if card in hand)


# --- one function per event: each returns the fields that change ---------------------------
def _dealt(s: State, e: CardsDealt) -> Changes:
    n = s.seats
    passing = e.direction != "hold"
    leader = None if passing else _holder(e.hands, opening_card(e.removed))
    return {
        "phase": Phase.PASSING if passing else Phase.PLAYING,
        "deal": e.deal,
        "dealer": e.dealer,
        "direction": e.direction,
        "hands": e.hands,
        "removed": e.removed,
        "passes": (None,) * n,
        "received": (),
        "leader": leader,
        "to_act": leader,
        "trick": (),
        "tricks": (),
        "taken": (0,) * n,
        "jack": None,
        "hearts_broken": False,
        "end_reason": None,
    }


def _passed(s: State, e: CardsPassed) -> Changes:
    return {"passes": _put(s.passes, e.seat, e.cards)}


def _exchanged(s: State, e: PassesExchanged) -> Changes:
    n = s.seats
    offset = DIRECTIONS[e.direction] or 0
    received = tuple(e.passes[(r - offset) % n] for r in range(n))
    hands = tuple(
        sort_hand([c for c in hand if c not in e.passes[r]] + list(received[r]))
        for r, hand in enumerate(s.hands)
    )
    leader = _holder(hands, opening_card(s.removed))
    return {
        "phase": Phase.PLAYING,
        "hands": hands,
        "passes": e.passes,
        "received": received,
        "leader": leader,
        "to_act": leader,
    }


def _played(s: State, e: CardPlayed) -> Changes:
    seat, card = e.seat, e.card
    trick = (*s.trick, card)
    hand = s.hands[seat]
    at = hand.index(card)
    seats = len(s.players)
    changes: Changes = {
        "hands": _put(s.hands, seat, hand[:at] + hand[at + 1 :]),
        "trick": trick,
        "to_act": None if len(trick) == seats else (seat + 1) % seats,
    }
    if not s.hearts_broken and (card[1] == "H" or card == QUEEN_OF_SPADES):
        changes["hearts_broken"] = True
    if s.seen:
        changes["seen"] = tuple(mark for mark in s.seen if mark != (seat, card))
    if seat == s.undo_seat:
        # The moment before a human's play is where an undo returns to.
        changes["undo_point"] = _copy(s, {"undo_point": None, "undo_depth": 0})
    return changes


def _trick_won(s: State, e: TrickWon) -> Changes:
    hearts = sum(card_points(c) for c in e.cards)
    more = any(s.hands)
    changes: Changes = {
        "trick": (),
        "tricks": (*s.tricks, e),
        "taken": _put(s.taken, e.winner, s.taken[e.winner] + hearts) if hearts else s.taken,
        "leader": e.winner if more else None,
        "to_act": e.winner if more else None,
    }
    if JACK_OF_DIAMONDS in e.cards:
        changes["jack"] = e.winner
    if not more:
        changes["phase"] = Phase.DEAL_OVER
    return changes


def _scored(s: State, e: DealScored) -> Changes:
    return {
        "phase": Phase.NOT_DEALT,
        "leader": None,
        "to_act": None,
        "totals": e.totals,
        "deal_scores": (*s.deal_scores, e.scores),
        "last_deal": e,
        "undo_point": None,
        "seen": (),
    }


def _finished(s: State, e: MatchFinished) -> Changes:
    reason = "target" if max(e.totals) >= s.rules.target_score else "deal_limit"
    return {"phase": Phase.FINISHED, "to_act": None, "winners": e.winners, "end_reason": reason}


def _aborted(s: State, e: MatchAborted) -> Changes:
    return {"phase": Phase.ABORTED, "to_act": None, "end_reason": e.reason, "undo_point": None}


def _undone(s: State, e: Undone) -> Changes:
    """Back to the undo point, which the undo seat now knows better: undo never un-sees.
    Every card a COM played since is in its hand again and stays visible to the undo
    seat (``seen``), here and in the point (so that undoing to it again keeps them)."""
    point = s.undo_point
    if point is None:
        raise EngineError("undone without an undo point")
    seen = set(point.seen)
    for seat, (before, now) in enumerate(zip(point.hands, s.hands, strict=True)):
        if seat != e.seat:
            seen.update((seat, c) for c in before if c not in now)
    marked = _copy(point, {"seen": tuple(sorted(seen))})
    return {**marked.__dict__, "undo_point": marked}


_EVOLVERS: dict[type, Callable[[Any, Any], Changes]] = {
    SeatTaken: seat_taken_changes,
    # (the undo point goes: an undo back to it would give the seat back to its player)
    SeatHandedOver: partial(seat_handed_over_changes, undo_point=None),
    CardsDealt: _dealt,
    CardsPassed: _passed,
    PassesExchanged: _exchanged,
    CardPlayed: _played,
    TrickWon: _trick_won,
    DealScored: _scored,
    MatchFinished: _finished,
    MatchAborted: _aborted,
    Undone: _undone,
}


def evolve(state: State | None, event: Event) -> State:
    """Apply one event; ``state`` is ``None`` only for the first, ``match_started``."""
    if state is None:
        if type(event) is MatchStarted:
            return State(
                rules=event.rules,
                players=event.players,
                seed=bytes.fromhex(event.seed),
                version=1,
                totals=(0,) * len(event.players),
            )
        raise EngineError("the first event must be match_started")
    return _copy(state, _changes(state, event))  # a second match_started raises there


def _changes(state: State, event: Event) -> Changes:
    """The fields ``event`` changes in ``state`` (any event but the first)."""
    if type(event) is MatchStarted:
        raise EngineError("match_started must be the first event")
    changes = _EVOLVERS[type(event)](state, event)
    changes["version"] = state.version + 1
    if "undo_point" in changes or type(event) is Undone:
        changes["undo_depth"] = 0 if type(event) is Undone or changes["undo_point"] is None else 1
    elif state.undo_point is not None:
        changes["undo_depth"] = state.undo_depth + 1
    return changes


def replay(events: Iterable[Event], state: State | None = None) -> State:
    """Fold ``events`` into a state, from scratch or on top of ``state`` (a snapshot): the
    state :func:`evolve` gives event by event. Only the last version is kept, so the fold
    copies the state once and changes that copy in place (``state`` is left as it was)."""
    folded = fold_in_place(events, state, evolve, _changes)
    if folded is None:
        raise EngineError("no events to replay")
    return folded
