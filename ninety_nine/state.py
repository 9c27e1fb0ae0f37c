"""The state of a match and the one fold that builds it, ``evolve(state, event)``.

Live play and replay share :func:`evolve`, so a match is nothing but its events. States
are frozen; evolving returns a new one. ``evolve`` trusts its events (``decide`` and the
audit check them).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias

from cards.deck import CardCode
from cards.errors import EngineError
from cards.frozen import fold_in_place
from cards.frozen import replaced as _replace  # the hot path's copy of a state
from cards.seating import (
    SeatHandedOver,
    SeatTaken,
    seat_handed_over_changes,
    seat_taken_changes,
    waiting,
)
from ninety_nine.actions import PASS, REVEAL
from ninety_nine.events import (
    BidMade,
    CardPlayed,
    DealScored,
    DealStarted,
    Event,
    Hands,
    MatchAborted,
    MatchFinished,
    MatchStarted,
    Plays,
    PremiumCalled,
    PremiumShown,
    TrickWon,
)
from ninety_nine.pack import TRICKS, contract_of
from ninety_nine.rules import SEATS, Rules, Seat

Changes: TypeAlias = dict[str, Any]


class Phase(enum.Enum):
    NOT_DEALT = "not_dealt"  # before each deal (passing: the next deal follows at once)
    BIDDING = "bidding"  # every seat that has not bid may bid, all at once
    PREMIUM = "premium"  # ``to_act`` passes, declares or reveals, in turn from eldest
    PLAYING = "playing"  # ``to_act`` plays a card
    DEAL_OVER = "deal_over"  # nine tricks played, waiting to be scored
    FINISHED = "finished"
    ABORTED = "aborted"


ENDED = frozenset({Phase.FINISHED, Phase.ABORTED})


@dataclass(frozen=True)
class State:
    """One playthrough at one point; ``version`` counts the events folded in."""

    rules: Rules
    players: tuple[str, ...]
    seed: bytes
    version: int = 0
    phase: Phase = Phase.NOT_DEALT
    deal: int = 0
    dealer: Seat = 0
    trumps: str | None = None
    dealt: Hands = ()  # each seat's 12 cards as dealt
    hands: Hands = ()  # the cards in each hand now
    bids: Hands = ()  # each seat's bid cards; () until it has bid
    calls: tuple[str | None, ...] = ()  # each seat's premium call this deal
    premium_seat: Seat | None = None
    premium: str | None = None  # "declare" or "reveal"
    shown: bool = False  # the premium bidder's cards are face up
    to_act: Seat | None = None
    leader: Seat = 0
    trick: Plays = ()  # the trick being played
    tricks: tuple[TrickWon, ...] = ()  # this deal's tricks so far
    tricks_won: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    deal_scores: tuple[tuple[int, ...], ...] = ()
    last_deal: DealScored | None = None
    winners: tuple[Seat, ...] = ()
    end_reason: str | None = None

    @property
    def ended(self) -> bool:
        return self.phase in ENDED

    @property
    def eldest(self) -> Seat:
        return (self.dealer + 1) % SEATS

    @property
    def contracts(self) -> tuple[int | None, ...]:
        return tuple(contract_of(b) if b else None for b in self.bids)

    def seats_to_act(self) -> tuple[Seat, ...]:
        """The seats that have something to do now: every seat yet to bid while bidding;
        none while a seat is open."""
        if waiting(self.players):
            return ()
        if self.phase is Phase.BIDDING:
            return tuple(s for s, bid in enumerate(self.bids) if not bid)
        if self.phase in (Phase.PREMIUM, Phase.PLAYING) and self.to_act is not None:
            return (self.to_act,)
        return ()

    def next_caller(self) -> Seat | None:
        """The seat to make its premium call next, or ``None`` when the premium round is
        over: everyone has called, or a reveal left nothing to bid."""
        if self.premium == REVEAL:
            return None
        for offset in range(SEATS):
            seat = (self.eldest + offset) % SEATS
            if self.calls[seat] is None:
                return seat
        return None


def _set(seq: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:index], value, *seq[index + 1 :])


def _without(hand: tuple[CardCode, ...], cards: Iterable[CardCode]) -> tuple[CardCode, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


# --- one function per event: each returns the fields that change ------------------------------
def _deal_started(s: State, e: DealStarted) -> Changes:
    return {
        "phase": Phase.BIDDING,
        "deal": e.deal,
        "dealer": e.dealer,
        "trumps": e.trumps,
        "dealt": e.hands,
        "hands": e.hands,
        "bids": ((),) * SEATS,
        "calls": (None,) * SEATS,
        "premium_seat": None,
        "premium": None,
        "shown": False,
        "to_act": None,
        "leader": (e.dealer + 1) % SEATS,
        "trick": (),
        "tricks": (),
        "tricks_won": (0,) * SEATS,
    }


def _bid_made(s: State, e: BidMade) -> Changes:
    bids = _set(s.bids, e.seat, e.cards)
    changes: Changes = {
        "bids": bids,
        "hands": _set(s.hands, e.seat, _without(s.hands[e.seat], e.cards)),
    }
    if all(bids):
        if s.rules.premium_bids:
            changes.update(phase=Phase.PREMIUM, to_act=s.eldest)
        else:
            changes.update(phase=Phase.PLAYING, to_act=s.leader)
    return changes


def _premium_called(s: State, e: PremiumCalled) -> Changes:
    changes: Changes = {"calls": _set(s.calls, e.seat, e.call)}
    if e.call != PASS:
        changes.update(premium_seat=e.seat, premium=e.call)
    after = _replace(s, changes)
    caller = after.next_caller()
    if caller is not None:
        changes["to_act"] = caller
    elif after.premium_seat is None:
        changes.update(phase=Phase.PLAYING, to_act=s.leader)
    else:
        changes["to_act"] = None  # the premium bidder's cards are shown next
    return changes


def _premium_shown(s: State, e: PremiumShown) -> Changes:
    return {"shown": True, "phase": Phase.PLAYING, "to_act": s.leader}


def _card_played(s: State, e: CardPlayed) -> Changes:
    trick = (*s.trick, (e.seat, e.card))
    hand = s.hands[e.seat]
    i = hand.index(e.card)
    return {
        "hands": _set(s.hands, e.seat, hand[:i] + hand[i + 1 :]),
        "trick": trick,
        "to_act": (e.seat + 1) % SEATS if len(trick) < SEATS else None,
    }


def _trick_won(s: State, e: TrickWon) -> Changes:
    tricks = (*s.tricks, e)
    over = len(tricks) == TRICKS
    return {
        "tricks": tricks,
        "tricks_won": _set(s.tricks_won, e.winner, s.tricks_won[e.winner] + 1),
        "trick": (),
        "leader": e.winner,
        "phase": Phase.DEAL_OVER if over else Phase.PLAYING,
        "to_act": None if over else e.winner,
    }


def _deal_scored(s: State, e: DealScored) -> Changes:
    return {
        "phase": Phase.NOT_DEALT,
        "to_act": None,
        "totals": e.totals,
        "deal_scores": (*s.deal_scores, tuple(p.total for p in e.points)),
        "last_deal": e,
    }


def _match_finished(s: State, e: MatchFinished) -> Changes:
    reason = "target" if max(e.totals) >= s.rules.target_score else "deal_limit"
    return {"phase": Phase.FINISHED, "to_act": None, "winners": e.winners, "end_reason": reason}


def _match_aborted(s: State, e: MatchAborted) -> Changes:
    return {"phase": Phase.ABORTED, "to_act": None, "end_reason": e.reason}


_EVOLVERS: dict[type, Callable[[Any, Any], Changes]] = {
    SeatTaken: seat_taken_changes,
    SeatHandedOver: seat_handed_over_changes,
    DealStarted: _deal_started,
    BidMade: _bid_made,
    PremiumCalled: _premium_called,
    PremiumShown: _premium_shown,
    CardPlayed: _card_played,
    TrickWon: _trick_won,
    DealScored: _deal_scored,
    MatchFinished: _match_finished,
    MatchAborted: _match_aborted,
}


def evolve(state: State | None, event: Event) -> State:
    """Apply one event; ``state`` is ``None`` only for the first, ``match_started``."""
    if state is None:
        if isinstance(event, MatchStarted):
            return State(
                rules=event.rules,
                players=event.players,
                seed=bytes.fromhex(event.seed),
                version=1,
                totals=(0,) * len(event.players),
            )
        raise EngineError("the first event must be match_started")
    return _replace(state, _changes(state, event))  # a second match_started raises there


def _changes(state: State, event: Event) -> Changes:
    """The fields ``event`` changes in ``state`` (any event but the first)."""
    if isinstance(event, MatchStarted):
        raise EngineError("match_started must be the first event")
    changes = _EVOLVERS[type(event)](state, event)
    changes["version"] = state.version + 1
    return changes


def replay(events: Iterable[Event], state: State | None = None) -> State:
    """Fold ``events`` into a state, from scratch or on top of ``state`` (a snapshot): the
    state :func:`evolve` gives event by event. Only the last version is kept, so the fold
    copies the state once and changes that copy in place (``state`` is left as it was)."""
    folded = fold_in_place(events, state, evolve, _changes)
    if folded is None:
        raise EngineError("no events to replay")
    return folded
