"""Checking a stored log against the rules: every event must be one the rules produce.

A log holds two kinds of events. An action's own event (a flip, a draw, a swap, a discard,
an undo, a human's ``next`` after a hole) records what a seat did: it is checked by taking
the action back out of it and asking :func:`~golf.decide.decide` what that action gives in
the state before it, which must be exactly the stored event (the cards in it are where the
state says). Every other event is derived (a deal, a reshuffle, the start of the final
turns, a hole's scores and totals, the end of the match with its winners): it is
recomputed from the state and must be exactly what is stored. ``match_started`` must
reproduce the match's first deal from its own seed, and an abort must reveal that seed.

So a log that passes has every score, total, winner, reason, deal and reshuffle as the
rules and the seed make them, whoever wrote it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from cards.errors import UNREADABLE_LOG
from cards.events import first_difference
from cards.protocol import LogAudit
from cards.seating import SeatHandedOver, SeatTaken, hand_over
from golf.actions import (
    Action,
    DiscardDrawn,
    DrawFromStock,
    Next,
    RevealCard,
    SwapCard,
    TakeDiscard,
    Undo,
)
from golf.decide import automatic_events, decide, join_match, start_match
from golf.errors import EngineError
from golf.events import (
    CardDiscarded,
    CardDrawn,
    CardRevealed,
    CardSwapped,
    Event,
    HoleAcknowledged,
    HoleDealt,
    MatchAborted,
    MatchStarted,
    StockReshuffled,
    Undone,
)
from golf.state import STOCK, State, evolve


def action_of(event: Event) -> tuple[int, Action] | None:
    """The seat and action that produce ``event``, when it records an action."""
    if isinstance(event, CardRevealed):
        return event.seat, RevealCard(event.position)
    if isinstance(event, CardDrawn):
        return event.seat, DrawFromStock() if event.source == STOCK else TakeDiscard()
    if isinstance(event, CardSwapped):
        return event.seat, SwapCard(event.position)
    if isinstance(event, CardDiscarded):
        return event.seat, DiscardDrawn(event.flip_position)
    if isinstance(event, Undone):
        return event.seat, Undo()
    if isinstance(event, HoleAcknowledged):
        return event.seat, Next()
    return None


def audit_log(events: Iterable[Event]) -> LogAudit:
    """Replay ``events`` (numbered from 1), checking each against the rules; stop at the
    first event that is not what the rules give."""
    audit = LogAudit()
    owed: list[Event] = []  # derived events the rules say come next
    state: State | None = None
    for seq, event in enumerate(events, start=1):
        try:
            expected = _expected(state, event, owed)
        except UNREADABLE_LOG as exc:
            audit.faults.append(f"#{seq} {event.name} is not allowed by the rules: {exc}")
            return audit
        if expected != event:
            audit.faults.append(
                f"#{seq} {event.name} is not what the rules give: "
                f"{first_difference(expected, event)}"
            )
            return audit
        if isinstance(event, HoleDealt | StockReshuffled):
            audit.deals_checked += 1
        state = evolve(state, event)
        audit.state = state
    if owed:
        audit.faults.append(f"the log ends before the rules' own {owed[0].name}")
    return audit


def _expected(state: State | None, event: Event, owed: list[Event]) -> Event:
    """The event the rules give in ``state``, given that the log holds ``event`` there;
    ``owed`` (the derived events still to come) is updated."""
    if owed:
        return owed.pop(0)
    if state is None:
        if not isinstance(event, MatchStarted):
            raise EngineError("a log begins with match_started")
        started, *owed[:] = start_match(event.rules, event.players, bytes.fromhex(event.seed))
        assert isinstance(started, MatchStarted)
        # a match begun before version 2 of match_started labels its reshuffles by count
        return replace(started, reshuffle="count") if event.reshuffle == "count" else started
    if isinstance(event, MatchAborted):
        if state.ended:
            raise EngineError("the match had already ended")
        return MatchAborted(event.reason, state.seed.hex())
    if isinstance(event, SeatTaken):
        return join_match(state, event.seat)[0]
    if isinstance(event, SeatHandedOver):
        return hand_over(state.players, event.seat, ended=state.ended)[0]
    if (acted := action_of(event)) is None:
        derived = automatic_events(state)
        if not derived:
            raise EngineError(f"{event.name} does not follow by itself here: a seat must act")
        first, *owed[:] = derived
        return first
    seat, action = acted
    first, *owed[:] = decide(state, seat, action)
    return first
