"""What one seat, or a spectator, may see (section 5 of the rules reference): views of a
state and redacted events. Everything that leaves the engine for a player goes through
:func:`view_for` or :func:`redact_event`.

* a hand: its owner (others and spectators: its size), every hand once the match ended;
* a pass: its passer, and its receiver once everyone has chosen (``passes_exchanged``);
* cards played, who won each trick and the points in it, hearts broken, whose turn it
  is, the removed cards, the totals: everyone;
* legal actions: only the seat's own;
* the seed: nobody until the match has ended;
* undo never un-sees: the undo seat still sees, in ``seen``, every card an undone COM
  play showed it, back in that COM's hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cards.deck import CardCode
from cards.seating import at_table, reader, waiting
from hearts.actions import Action
from hearts.decide import can_undo, legal_actions
from hearts.events import (
    CardsDealt,
    CardsPassed,
    DealScored,
    Event,
    MatchAborted,
    MatchFinished,
    MatchStarted,
    PassesExchanged,
    TrickWon,
    event_payload,
)
from hearts.rules import DIRECTIONS, JackOfDiamonds, Seat
from hearts.state import Phase, State


@dataclass(frozen=True, slots=True)
class View:
    """A state as seen from ``seat`` (``None``: a spectator)."""

    seat: Seat | None
    version: int
    phase: Phase
    deal: int
    deals: int
    dealer: Seat
    players: tuple[str, ...]
    seats_to_act: tuple[Seat, ...]
    direction: str
    hand: tuple[CardCode, ...]
    hands: tuple[tuple[CardCode, ...] | None, ...]  # None: hidden (see ``hand_sizes``)
    hand_sizes: tuple[int, ...]
    removed: tuple[CardCode, ...]
    passed: tuple[CardCode, ...] | None  # the seat's own pass (chosen or sent)
    passed_to: Seat | None
    received: tuple[CardCode, ...] | None  # once everyone has chosen
    received_from: Seat | None
    passes_chosen: tuple[bool, ...]
    leader: Seat | None
    to_act: Seat | None
    trick: tuple[tuple[Seat, CardCode], ...]
    tricks: tuple[TrickWon, ...]
    taken: tuple[int, ...]
    jack: Seat | None
    hearts_broken: bool
    totals: tuple[int, ...]
    deal_scores: tuple[tuple[int, ...], ...]
    last_deal: DealScored | None
    target_score: int
    winners: tuple[Seat, ...]
    end_reason: str | None
    legal_actions: tuple[Action, ...]
    undo_available: bool
    seen: tuple[tuple[Seat, CardCode], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "hearts",
            "seat": self.seat,
            "version": self.version,
            "phase": self.phase.value,
            "deal": self.deal,
            "deals": self.deals,
            "dealer": self.dealer,
            "players": list(self.players),
            "seats_to_act": list(self.seats_to_act),
            "direction": self.direction,
            "hand": list(self.hand),
            "hands": [None if h is None else list(h) for h in self.hands],
            "hand_sizes": list(self.hand_sizes),
            "removed": list(self.removed),
            "pass": None
            if self.passed is None
            else {
                "cards": list(self.passed),
                "to": self.passed_to,
                "received": None if self.received is None else list(self.received),
                "from": self.received_from,
            },
            "passes_chosen": list(self.passes_chosen),
            "leader": self.leader,
            "to_act": self.to_act,
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "tricks": [event_payload(t) for t in self.tricks],
            "taken": list(self.taken),
            "jack": self.jack,
            "hearts_broken": self.hearts_broken,
            "totals": list(self.totals),
            "deal_scores": [list(s) for s in self.deal_scores],
            "last_deal": None if self.last_deal is None else event_payload(self.last_deal),
            "target_score": self.target_score,
            "winners": list(self.winners),
            "end_reason": self.end_reason,
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "undo_available": self.undo_available,
            "seen": [{"seat": s, "card": c} for s, c in self.seen],
        }


def view_for(state: State, seat: Seat | None) -> View:
    """The view of ``seat``; ``None`` (or a seat not at the table) gets a spectator's."""
    if not at_table(seat, state.seats):
        seat = None
    n = state.seats
    own = seat is not None and bool(state.hands)
    passed = passed_to = received = received_from = None
    if seat is not None and state.passes and state.passes[seat] is not None:
        passed, passed_to = state.passes[seat], state.receiver(seat)
        if state.received:
            received, received_from = state.received[seat], state.giver(seat)
    seen = state.seen if seat is not None and seat == state.undo_seat else ()
    return View(
        seat=seat,
        version=state.version,
        phase=state.phase,
        deal=state.deal,
        deals=state.rules.deal_limit(n),
        dealer=state.dealer,
        players=state.players,
        seats_to_act=state.seats_to_act(),
        direction=state.direction,
        hand=state.hands[seat] if own and seat is not None else (),
        hands=tuple(
            hand if state.ended or s == seat else None for s, hand in enumerate(state.hands)
        ),
        hand_sizes=tuple(len(h) for h in state.hands),
        removed=state.removed,
        passed=passed,
        passed_to=passed_to,
        received=received,
        received_from=received_from,
        passes_chosen=tuple(p is not None for p in state.passes)
        if state.phase is Phase.PASSING
        else (),
        # nobody acts while a seat is open; nor is it said who leads the first trick: the
        # holder of the opening card, whose seat a player joining would know
        leader=None if waiting(state.players) else state.leader,
        to_act=None if waiting(state.players) else state.to_act,
        trick=state.trick_plays(),
        tricks=state.tricks,
        taken=state.taken,
        # who took the jack of diamonds, where it counts (its trick, in ``tricks``, says so
        # anyway): a client shows the jack's -10 only then
        jack=state.jack if state.rules.jack_of_diamonds is not JackOfDiamonds.OFF else None,
        hearts_broken=state.hearts_broken,
        totals=state.totals,
        deal_scores=state.deal_scores,
        last_deal=state.last_deal,
        target_score=state.rules.target_score,
        winners=state.winners,
        end_reason=state.end_reason,
        legal_actions=tuple(legal_actions(state, seat)) if seat is not None else (),
        undo_available=seat is not None and can_undo(state, seat),
        seen=seen,
    )


def redact_event(event: Event, seat: Seat | None, *, match_ended: bool) -> dict[str, Any]:
    """The payload of ``event`` as ``seat`` may see it (``None``: a spectator).

    Once the match has ended every event is shown in full. Before that: no seed; of a
    deal, only the reader's own hand (the others as ``null`` cards: their sizes); of a
    chosen pass, the cards only for the passer; of the exchange, only the reader's own
    pass and the cards it received.
    """
    payload = event_payload(event)
    if match_ended:
        return payload
    seat = reader(seat)
    if isinstance(event, MatchStarted | MatchFinished | MatchAborted):
        payload["seed"] = None  # the last two only ever come at the end: a safety net
    elif isinstance(event, CardsDealt):
        payload["hands"] = [
            list(hand) if s == seat else [None] * len(hand) for s, hand in enumerate(event.hands)
        ]
    elif isinstance(event, CardsPassed):
        if event.seat != seat:
            payload["cards"] = [None] * len(event.cards)
    elif isinstance(event, PassesExchanged):
        giver = None
        if seat is not None and 0 <= seat < len(event.passes):  # else a spectator
            giver = (seat - (DIRECTIONS[event.direction] or 0)) % len(event.passes)
        payload["passes"] = [
            list(cards) if s in (seat, giver) else [None] * len(cards)
            for s, cards in enumerate(event.passes)
        ]
    return payload
