"""What one seat, or a spectator, may see: views of a state and redacted events.

This module is where the "who sees what" table of the rules reference is enforced:

* a face-down grid card: nobody, not even its owner;
* a face-up grid card, every discard: everyone;
* the card just drawn from the stock: only the seat that drew it, until placed;
* the stock: its size only;
* the deck order and the seed: nobody until the match has ended;
* every card in the grids: everyone once the match has ended (an aborted one too: its
  seed and every event are public then);
* undo never un-sees: a seat that undid still sees, marked ``seen``, every card an undone
  turn showed it that is hidden again (face down in a grid, on top of the stock, in a COM's
  hand); those marks are that seat's alone.

Everything that leaves the engine for a player goes through :func:`view_for` or
:func:`redact_event`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cards.deck import CardCode
from cards.seating import at_table, reader
from golf.actions import Action
from golf.decide import can_undo, legal_actions
from golf.events import (
    CardDrawn,
    Event,
    HoleDealt,
    MatchStarted,
    StockReshuffled,
    event_payload,
)
from golf.rules import Position, Seat
from golf.scoring import Outcome, face_up_total
from golf.state import STOCK, Phase, State


@dataclass(frozen=True, slots=True)
class View:
    """A state as seen from ``seat`` (``None`` for a spectator)."""

    seat: Seat | None
    version: int
    phase: Phase
    hole: int
    holes: int
    rows: int
    cols: int
    dealer: Seat
    players: tuple[str, ...]
    seats_to_act: tuple[Seat, ...]
    grids: tuple[tuple[CardCode | None, ...], ...]
    seen: tuple[tuple[Seat, Position, CardCode], ...]
    flips_left: tuple[int, ...]
    stock_size: int
    stock_seen: tuple[CardCode, ...]
    discard: tuple[CardCode, ...]
    drawn_by: Seat | None
    drawn_from: str | None
    drawn_card: CardCode | None
    drawn_seen: bool
    turns_in_hole: int
    max_turns: int
    finisher: Seat | None
    final_turns_left: int | None
    end_reason: str | None
    face_up_totals: tuple[int, ...]
    totals: tuple[int, ...]
    hole_scores: tuple[tuple[int, ...], ...]
    hole_finishers: tuple[Seat | None, ...]
    last_hole_grids: tuple[tuple[CardCode, ...], ...]
    winners: tuple[Seat, ...]
    legal_actions: tuple[Action, ...]
    undo_available: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "golf",
            "seat": self.seat,
            "version": self.version,
            "phase": self.phase.value,
            "hole": self.hole,
            "holes": self.holes,
            "rows": self.rows,
            "cols": self.cols,
            "dealer": self.dealer,
            "players": list(self.players),
            "seats_to_act": list(self.seats_to_act),
            "grids": [list(g) for g in self.grids],
            "seen": [{"seat": s, "position": p, "card": c} for s, p, c in self.seen],
            "flips_left": list(self.flips_left),
            "stock_size": self.stock_size,
            "stock_seen": list(self.stock_seen),
            "discard": list(self.discard),
            "discard_top": self.discard[-1] if self.discard else None,
            "drawn": None
            if self.drawn_by is None
            else {"seat": self.drawn_by, "source": self.drawn_from, "card": self.drawn_card},
            "drawn_seen": self.drawn_seen,
            "turns_in_hole": self.turns_in_hole,
            "max_turns": self.max_turns,
            "final_turns": None
            if self.finisher is None
            else {"finisher": self.finisher, "turns_left": self.final_turns_left},
            "end_reason": self.end_reason,
            "face_up_totals": list(self.face_up_totals),
            "totals": list(self.totals),
            "hole_scores": [list(s) for s in self.hole_scores],
            "hole_finishers": list(self.hole_finishers),
            "last_hole_grids": [list(g) for g in self.last_hole_grids],
            "winners": list(self.winners),
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "undo_available": self.undo_available,
        }


def view_for(state: State, seat: Seat | None) -> View:
    """The view of ``seat``; ``None`` (or a seat not at the table) gets the spectator view."""
    if not at_table(seat, state.seats):
        seat = None
    shown = state.ended  # the seed and every event are public then
    grids = tuple(
        tuple(card if up or shown else None for card, up in zip(grid, ups, strict=True))
        for grid, ups in zip(state.grids, state.face_up, strict=True)
    )
    drawn_card = None
    if state.drawn is not None and (state.drawn_from != STOCK or seat == state.to_act):
        drawn_card = state.drawn
    seen: tuple[tuple[Seat, Position, CardCode], ...] = ()
    stock_seen: tuple[CardCode, ...] = ()
    drawn_seen = False
    marked = state.seen or state.stock_seen or state.drawn_seen
    if marked and seat is not None:
        seen = tuple((s, p, state.grids[s][p]) for s, p in state.seen_by(seat))
        stock_seen = state.stock[: state.stock_seen_by(seat)]
        drawn_seen = seat in state.drawn_seen and drawn_card is None
        if drawn_seen:
            drawn_card = state.drawn
    return View(
        seat=seat,
        version=state.version,
        phase=state.phase,
        hole=state.hole,
        holes=state.rules.holes,
        rows=state.rules.rows,
        cols=state.rules.cols,
        dealer=state.dealer,
        players=state.players,
        seats_to_act=state.seats_to_act(),
        grids=grids,
        seen=seen,
        flips_left=state.flips_left,
        stock_size=len(state.stock),
        stock_seen=stock_seen,
        discard=state.discard,
        drawn_by=state.to_act if state.drawn is not None else None,
        drawn_from=state.drawn_from,
        drawn_card=drawn_card,
        drawn_seen=drawn_seen,
        turns_in_hole=state.turns_in_hole,
        max_turns=state.rules.max_turns,
        finisher=state.finisher,
        final_turns_left=state.final_turns_left,
        end_reason=state.end_reason,
        face_up_totals=tuple(
            face_up_total(grid, ups, state.rules)
            for grid, ups in zip(state.grids, state.face_up, strict=True)
        ),
        totals=state.totals,
        hole_scores=state.hole_scores,
        hole_finishers=state.hole_finishers,
        last_hole_grids=state.last_hole_grids,
        winners=state.winners,
        legal_actions=tuple(legal_actions(state, seat)) if seat is not None else (),
        undo_available=seat is not None and can_undo(state, seat),
    )


def spectator_view(state: State) -> View:
    return view_for(state, None)


def outcome(state: State) -> Outcome:
    return Outcome(
        hole_scores=state.hole_scores,
        totals=state.totals,
        winners=state.winners,
        finished=state.phase is Phase.FINISHED,
    )


def redact_event(event: Event, seat: Seat | None, *, match_ended: bool) -> dict[str, Any]:
    """The payload of ``event`` as ``seat`` may see it (``None``: a spectator).

    Once the match has ended every event is shown in full. Before that the seed, each
    deal's grids and stock order, a reshuffled stock's order, and a card drawn from the
    stock by another seat are replaced by ``None`` (sizes stay visible).
    """
    payload = event_payload(event)
    if match_ended:
        return payload
    seat = reader(seat)
    if isinstance(event, MatchStarted):
        payload["seed"] = None
    elif isinstance(event, HoleDealt):
        payload["grids"] = [[None] * len(g) for g in event.grids]
        payload["stock"] = None
        payload["stock_size"] = len(event.stock)
    elif isinstance(event, StockReshuffled):
        payload["stock"] = None
        payload["stock_size"] = len(event.stock)
    elif isinstance(event, CardDrawn) and event.source == STOCK and event.seat != seat:
        payload["card"] = None
    return payload
