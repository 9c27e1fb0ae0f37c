"""Verifying a stored match: its keyed hash chain, that every event is what the rules and
the seed give (scores, totals, winners, deals and reshuffles recomputed), the seed against
its public commitment, and the read model against the replay.

What this proves, and what it cannot, is in docs/events.md ("Verification").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from golf import State
from golf.audit import audit_log
from golf.events import MatchStarted
from golf.state import commitment_of
from matches.models import Match
from matches.store import load_events, to_event, verify_chain


@dataclass
class Report:
    match_id: str
    events: int = 0
    faults: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checked_deals: int = 0

    @property
    def ok(self) -> bool:
        return not self.faults

    def lines(self) -> list[str]:
        head = (
            f"{self.match_id}: {'OK' if self.ok else 'FAULT'} "
            f"({self.events} events, {self.checked_deals} deals and reshuffles checked)"
        )
        return [
            head,
            *(f"  - {fault}" for fault in self.faults),
            *(f"  note: {note}" for note in self.notes),
        ]


def verify_match(match: Match) -> Report:
    report = Report(str(match.id))
    rows = load_events(match)
    report.events = len(rows)
    report.faults.extend(verify_chain(match, rows))
    if not match.chain_key_id:
        report.notes.append(
            "an unkeyed chain (from before keyed chains): it shows accidents, not forgery"
        )
    if not rows:
        report.faults.append("no events")
        return report
    try:
        events = [to_event(row) for row in rows]
    except (KeyError, TypeError, ValueError) as exc:
        report.faults.append(f"an event cannot be read: {exc}")
        return report
    audit = audit_log(events)
    report.faults.extend(audit.faults)
    report.checked_deals = audit.deals_checked
    started = events[0]
    if isinstance(started, MatchStarted) and started.commitment != match.seed_commitment:
        report.faults.append("match_started commitment differs from the match's")
    if isinstance(started, MatchStarted) and commitment_of(bytes.fromhex(started.seed)) != (
        started.commitment
    ):
        report.faults.append("the seed does not match its commitment")
    if audit.state is not None and not audit.faults:
        report.faults.extend(_read_model_faults(match, audit.state))
    return report


def _read_model_faults(match: Match, state: State) -> list[str]:
    """Where the caches on the match and its seats disagree with the replay."""
    faults = []
    if match.ended != state.ended:
        faults.append(f"status {match.status} but replay ends in phase {state.phase.value}")
    to_act = list(state.seats_to_act())
    if match.seats_to_act != to_act:
        faults.append(f"read model: seats to act {match.seats_to_act}, replay {to_act}")
    flagged = sorted(match.seats.filter(to_act=True).values_list("index", flat=True))
    if flagged != to_act:
        faults.append(f"read model: seats flagged to act {flagged}, replay {to_act}")
    if match.totals != list(state.totals):
        faults.append(f"read model: totals {match.totals}, replay {list(state.totals)}")
    if match.winners != list(state.winners):
        faults.append(f"read model: winners {match.winners}, replay {list(state.winners)}")
    return faults
