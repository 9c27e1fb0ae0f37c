"""Checking a stored log against the rules: every event must be one the rules produce.

A seat's action (``cards_passed``, ``card_played``, ``undone``) is checked by asking
:func:`~hearts.decide.decide` what that action gives in the state before it, which must
be the stored event exactly; every other event (a deal from the seed, an exchange of
passes, a trick's winner and points, a deal's points, moon shot, scores and totals, the
end with its winners, the seed revealed by an abort) is recomputed from the state and
must be exactly what is stored. So a log that passes is one the rules and the seed give,
whoever wrote it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from cards.errors import UNREADABLE_LOG, EngineError
from cards.events import first_difference
from cards.protocol import LogAudit
from cards.seating import SeatHandedOver, SeatTaken, hand_over
from hearts.actions import Action, PassCards, PlayCard, Undo
from hearts.decide import automatic_events, decide, join_match, start_match
from hearts.events import (
    CardPlayed,
    CardsDealt,
    CardsPassed,
    Event,
    MatchAborted,
    MatchStarted,
    Undone,
)
from hearts.state import State, evolve


def acted(event: Event) -> tuple[int, Action] | None:
    """The seat and the action that give ``event``, when it records an action."""
    if isinstance(event, CardPlayed):
        return event.seat, PlayCard(event.card)
    if isinstance(event, CardsPassed):
        return event.seat, PassCards(event.cards)
    if isinstance(event, Undone):
        return event.seat, Undo()
    return None


@dataclass
class _Checker:
    """Walks a log; ``due`` holds the derived events the rules say come next."""

    state: State | None = None
    due: list[Event] = field(default_factory=list)

    def rules_give(self, event: Event) -> Event:
        if self.due:
            return self.due.pop(0)
        if self.state is None:
            if not isinstance(event, MatchStarted):
                raise EngineError("a log begins with match_started")
            batch = start_match(event.rules, event.players, bytes.fromhex(event.seed))
        elif isinstance(event, MatchAborted):
            if self.state.ended:
                raise EngineError("the match had already ended")
            return MatchAborted(event.reason, self.state.seed.hex())
        elif isinstance(event, SeatTaken):
            batch = join_match(self.state, event.seat)
        elif isinstance(event, SeatHandedOver):
            batch = [*hand_over(self.state.players, event.seat, ended=self.state.ended)]
        elif (action := acted(event)) is not None:
            batch = decide(self.state, *action)
        else:
            batch = automatic_events(self.state)
            if not batch:
                raise EngineError("it does not follow by itself here: a seat must act")
        self.due = batch[1:]
        return batch[0]


def audit_log(events: Iterable[Event]) -> LogAudit:
    """Replay ``events`` (numbered from 1) through the rules; stop at the first event that
    is not what they give."""
    result = LogAudit()
    checker = _Checker()
    for number, event in enumerate(events, start=1):
        try:
            expected = checker.rules_give(event)
        except UNREADABLE_LOG as exc:
            result.faults.append(f"#{number} {event.name}: not allowed by the rules: {exc}")
            return result
        if expected != event:
            result.faults.append(f"#{number} {event.name}: {first_difference(expected, event)}")
            return result
        result.deals_checked += isinstance(event, CardsDealt)
        checker.state = result.state = evolve(checker.state, event)
    if checker.due:
        result.faults.append(f"the log ends before the rules' own {checker.due[0].name}")
    return result
