"""What one seat, or a spectator, may see: views of a state and redacted events.

The "who sees what" table of the rules (section 5) is enforced here, and only here:

* a hand: its owner; everyone, once its owner's reveal stands (for the rest of the deal);
* bid cards (so the contract): their owner; everyone, once they are the standing premium
  bid's, and at the end of the deal for those who made their contract;
* whether a seat has bid, every premium call, the trumps, every card played, the tricks
  won and the scores: everyone;
* everything (every hand as dealt, every bid, the seed): everyone, once the match ended.

Everything that leaves the engine for a player goes through :func:`view_for` or
:func:`redact_event`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cards.deck import CardCode
from cards.seating import at_table, reader
from ninety_nine.actions import REVEAL, Action
from ninety_nine.decide import legal_actions
from ninety_nine.events import (
    BidMade,
    DealScored,
    DealStarted,
    Event,
    MatchAborted,
    MatchFinished,
    MatchStarted,
    Plays,
    TrickWon,
    event_payload,
)
from ninety_nine.pack import contract_of
from ninety_nine.rules import SEATS, Seat
from ninety_nine.state import Phase, State

Cards = tuple[CardCode, ...]


@dataclass(frozen=True, slots=True)
class View:
    """A state as ``seat`` (``None``: a spectator) may see it. ``hands``, ``dealt``,
    ``bid_cards`` and ``contracts`` hold ``None`` where the viewer may not look."""

    seat: Seat | None
    version: int
    phase: Phase
    deal: int
    most_deals: int
    target_score: int
    premium_bids: bool
    dealer: Seat
    trumps: str | None
    players: tuple[str, ...]
    seats_to_act: tuple[Seat, ...]
    dealt: tuple[Cards | None, ...]
    hands: tuple[Cards | None, ...]
    hand_sizes: tuple[int, ...]
    has_bid: tuple[bool, ...]
    bid_cards: tuple[Cards | None, ...]
    contracts: tuple[int | None, ...]
    calls: tuple[str | None, ...]
    premium_seat: Seat | None
    premium: str | None
    premium_shown: bool
    leader: Seat
    trick: Plays
    tricks: tuple[TrickWon, ...]
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    deal_scores: tuple[tuple[int, ...], ...]
    last_deal: DealScored | None
    winners: tuple[Seat, ...]
    end_reason: str | None
    legal_actions: tuple[Action, ...]

    @property
    def eldest(self) -> Seat:
        return (self.dealer + 1) % SEATS

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "ninety-nine",
            "seat": self.seat,
            "version": self.version,
            "phase": self.phase.value,
            "deal": self.deal,
            "most_deals": self.most_deals,
            "target_score": self.target_score,
            "premium_bids": self.premium_bids,
            "dealer": self.dealer,
            "eldest": self.eldest,
            "trumps": self.trumps,
            "players": list(self.players),
            "seats_to_act": list(self.seats_to_act),
            "dealt": [None if h is None else list(h) for h in self.dealt],
            "hands": [None if h is None else list(h) for h in self.hands],
            "hand_sizes": list(self.hand_sizes),
            "has_bid": list(self.has_bid),
            "bid_cards": [None if b is None else list(b) for b in self.bid_cards],
            "contracts": list(self.contracts),
            "premium": {
                "calls": list(self.calls),
                "seat": self.premium_seat,
                "kind": self.premium,
                "shown": self.premium_shown,
            },
            "trick": {"leader": self.leader, "plays": _plays(self.trick)},
            "tricks": [_trick(t) for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "totals": list(self.totals),
            "deal_scores": [list(s) for s in self.deal_scores],
            "last_deal": None if self.last_deal is None else event_payload(self.last_deal),
            "winners": list(self.winners),
            "end_reason": self.end_reason,
            "legal_actions": [a.to_json() for a in self.legal_actions],
        }


def _plays(plays: Plays) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": card} for seat, card in plays]


def _trick(t: TrickWon) -> dict[str, Any]:
    return {"trick": t.trick, "leader": t.leader, "plays": _plays(t.plays), "winner": t.winner}


def view_for(state: State, seat: Seat | None) -> View:
    """The view of ``seat``; ``None`` (or a seat not at the table) gets a spectator's."""
    if not at_table(seat, SEATS):
        seat = None
    everything = state.ended
    shown = state.premium_seat if state.shown else None
    revealer = shown if state.premium == REVEAL else None
    dealt = tuple(h if everything or s == seat else None for s, h in enumerate(state.dealt))
    hands = tuple(
        h if everything or s in (seat, revealer) else None for s, h in enumerate(state.hands)
    )
    bids = tuple(
        b if b and (everything or s in (seat, shown)) else None for s, b in enumerate(state.bids)
    )
    return View(
        seat=seat,
        version=state.version,
        phase=state.phase,
        deal=state.deal,
        most_deals=state.rules.most_deals,
        target_score=state.rules.target_score,
        premium_bids=state.rules.premium_bids,
        dealer=state.dealer,
        trumps=state.trumps,
        players=state.players,
        seats_to_act=state.seats_to_act(),
        dealt=dealt,
        hands=hands,
        hand_sizes=tuple(len(h) for h in state.hands),
        has_bid=tuple(bool(b) for b in state.bids),
        bid_cards=bids,
        contracts=tuple(None if b is None else contract_of(b) for b in bids),
        calls=state.calls,
        premium_seat=state.premium_seat,
        premium=state.premium,
        premium_shown=state.shown,
        leader=state.leader,
        trick=state.trick,
        tricks=state.tricks,
        tricks_won=state.tricks_won,
        totals=state.totals,
        deal_scores=state.deal_scores,
        last_deal=state.last_deal,
        winners=state.winners,
        end_reason=state.end_reason,
        legal_actions=tuple(legal_actions(state, seat)) if seat is not None else (),
    )


def redact_event(event: Event, seat: Seat | None, *, match_ended: bool) -> dict[str, Any]:
    """The payload of ``event`` as ``seat`` may see it (``None``: a spectator).

    Once the match has ended every event is shown whole. Before that the seed, the other
    seats' dealt hands and the other seats' bid cards are ``None`` (their sizes stay).
    """
    payload = event_payload(event)
    if match_ended:
        return payload
    seat = reader(seat)
    if isinstance(event, MatchStarted | MatchFinished | MatchAborted):
        payload["seed"] = None  # the last two only ever come at the end: a safety net
    elif isinstance(event, DealStarted):
        payload["hands"] = [
            list(h) if s == seat else [None] * len(h) for s, h in enumerate(event.hands)
        ]
    elif isinstance(event, BidMade) and event.seat != seat:
        payload["cards"] = [None] * len(event.cards)
    return payload
