"""Checking a stored log against the rules.

Each event either records what a seat did (a bid, a premium call, a card played) or
follows by the rules (a deal from the seed, the premium bidder's cards shown, a trick's
winner, a deal's tricks, points with their parts, totals, the next deal's trumps, the
match's winners). The audit replays the log batch by batch: where a seat acted, it asks
:func:`~ninety_nine.decide.decide` what that action gives in the state before it (which
also checks that the action was legal there), and every event of the batch must be
exactly what that gives, the derived ones included. ``match_started`` must reproduce
the first deal from its own seed, and an abort must reveal that seed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from cards.errors import UNREADABLE_LOG, EngineError
from cards.events import first_difference
from cards.protocol import LogAudit
from cards.seating import SeatHandedOver, SeatTaken, hand_over
from ninety_nine.decide import (
    abort_match,
    action_of,
    automatic_events,
    decide,
    join_match,
    start_match,
)
from ninety_nine.events import DealStarted, Event, MatchAborted, MatchStarted
from ninety_nine.state import State, evolve


def rules_batch(state: State | None, event: Event) -> list[Event]:
    """The batch of events the rules give at ``state`` where a log holds ``event``."""
    if state is None:
        if not isinstance(event, MatchStarted):
            raise EngineError("a log begins with match_started")
        return start_match(event.rules, event.players, bytes.fromhex(event.seed))
    if isinstance(event, MatchAborted):
        return abort_match(state, event.reason)
    if isinstance(event, SeatTaken):
        return join_match(state, event.seat)
    if isinstance(event, SeatHandedOver):
        return [*hand_over(state.players, event.seat, ended=state.ended)]
    acted = action_of(event)
    if acted is not None:
        return decide(state, *acted)
    batch = automatic_events(state)
    if not batch:
        raise EngineError(f"{event.name} does not follow by itself here: a seat must act")
    return batch


def audit_log(events: Iterable[Event]) -> LogAudit:
    """Replay ``events`` (numbered from 1) against the rules; stop at the first fault."""
    result = LogAudit()
    owed: deque[Event] = deque()
    for seq, event in enumerate(events, start=1):
        try:
            if not owed:
                owed.extend(rules_batch(result.state, event))
        except UNREADABLE_LOG as exc:
            result.faults.append(f"#{seq} {event.name}: not allowed by the rules: {exc}")
            return result
        wanted = owed.popleft()
        if wanted != event:
            result.faults.append(f"#{seq} {event.name}: {first_difference(wanted, event)}")
            return result
        result.deals_checked += isinstance(event, DealStarted)
        result.state = evolve(result.state, event)
    if owed:
        result.faults.append(f"the log ends before the rules' own {owed[0].name}")
    return result
