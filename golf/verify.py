"""Verifying a stored match: sequence, hash chain, replay, read model, and (once ended)
the deals."""

from __future__ import annotations

from dataclasses import dataclass, field

from golf.engine import EngineError, State, evolve
from golf.engine.dealing import deal_cards, reshuffle_label, shuffle_cards
from golf.engine.events import HoleDealt, MatchAborted, MatchFinished, MatchStarted, StockReshuffled
from golf.engine.state import commitment_of
from golf.models import Match
from golf.store import load_events, to_event, verify_chain


@dataclass
class Report:
    match_id: str
    events: int = 0
    faults: list[str] = field(default_factory=list)
    checked_deals: int = 0

    @property
    def ok(self) -> bool:
        return not self.faults

    def lines(self) -> list[str]:
        head = (
            f"{self.match_id}: {'OK' if self.ok else 'FAULT'} "
            f"({self.events} events, {self.checked_deals} deals and reshuffles checked)"
        )
        return [head, *(f"  - {fault}" for fault in self.faults)]


def verify_match(match: Match) -> Report:
    report = Report(str(match.id))
    rows = load_events(match)
    report.events = len(rows)
    report.faults.extend(verify_chain(match.id, rows))
    if rows and rows[-1].seq != match.version:
        report.faults.append(f"match version {match.version} but last event #{rows[-1].seq}")
    if not rows:
        report.faults.append("no events")
        return report
    state: State | None = None
    seed: bytes | None = None
    checks: list[tuple[State, HoleDealt | StockReshuffled]] = []
    started: MatchStarted | None = None
    for row in rows:
        try:
            event = to_event(row)
            if isinstance(event, (HoleDealt, StockReshuffled)) and state is not None:
                checks.append((state, event))
            state = evolve(state, event)
        except (EngineError, KeyError, TypeError, ValueError) as exc:
            report.faults.append(f"replay fails at #{row.seq} ({row.type}): {exc}")
            return report
        if isinstance(event, MatchStarted):
            started = event
            if event.commitment != match.seed_commitment:
                report.faults.append("match_started commitment differs from the match's")
        if isinstance(event, (MatchFinished, MatchAborted)):
            seed = bytes.fromhex(event.seed)
    assert state is not None
    if match.ended != state.ended:
        report.faults.append(f"status {match.status} but replay ends in phase {state.phase.value}")
    if state.version != match.version:
        report.faults.append(f"replay reaches version {state.version}, match says {match.version}")
    report.faults.extend(_read_model_faults(match, state))
    if seed is not None:
        if commitment_of(seed) != match.seed_commitment:
            report.faults.append("the revealed seed does not match its commitment")
        elif started is not None and started.seed != seed.hex():
            report.faults.append("the revealed seed differs from the one the match started with")
        else:
            for before, event in checks:
                if _recompute(seed, before, event) != event:
                    report.faults.append(
                        f"{event.name} of hole {event.hole} is not what the seed gives"
                    )
                report.checked_deals += 1
    return report


def _read_model_faults(match: Match, state: State) -> list[str]:
    """Where the caches on the match and its seats disagree with the replay."""
    faults = []
    to_act = list(state.seats_to_act())
    if match.seats_to_act != to_act:
        faults.append(f"read model: seats to act {match.seats_to_act}, replay {to_act}")
    flagged = sorted(match.seats.filter(to_act=True).values_list("index", flat=True))
    if flagged != to_act:
        faults.append(f"read model: seats flagged to act {flagged}, replay {to_act}")
    if match.totals != list(state.totals):
        faults.append(f"read model: totals {match.totals}, replay {list(state.totals)}")
    return faults


def _recompute(seed: bytes, before: State, event: HoleDealt | StockReshuffled) -> object:
    if isinstance(event, HoleDealt):
        grids, discard, stock = deal_cards(
            seed, event.hole, before.rules, before.seats, event.dealer
        )
        return HoleDealt(event.hole, event.dealer, grids, discard, stock)
    label = reshuffle_label(before.hole, before.reshuffles)
    stock = tuple(shuffle_cards(seed, label, before.discard[:-1]))
    return StockReshuffled(before.hole, before.reshuffles, stock)
