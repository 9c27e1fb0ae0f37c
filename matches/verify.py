"""Verifying a stored match: its keyed hash chain, that every event is what the rules and
the seed give (scores, totals, winners, deals and reshuffles recomputed), the seed against
its public commitment, and the read model against the replay.

What this proves, and what it cannot, is in docs/events.md ("Verification").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction

from cards.errors import UNREADABLE_LOG
from cards.events import first_difference
from cards.protocol import OPEN
from cards.seating import SeatHandedOver
from games import UnknownGame
from matches.models import Match, MatchStatus, SeatKind
from matches.store import (
    game_of,
    load_events,
    logged_rules,
    replayed_read_model,
    snapshot_state,
    to_event,
    unkeyed_allowed,
    verify_chain,
)

logger = logging.getLogger(__name__)


@dataclass
class Report:
    match_id: str
    events: int = 0
    faults: list[str] = field(default_factory=list)
    #: faults in the caches of a sound log (its snapshot, the read model, the rules served):
    #: ``verify_match --repair`` writes them again from the replay
    caches: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checked_deals: int = 0

    @property
    def ok(self) -> bool:
        return not self.faults and not self.caches

    def lines(self) -> list[str]:
        head = (
            f"{self.match_id}: {'OK' if self.ok else 'FAULT'} "
            f"({_counted(self.events, 'event')}, "
            f"{_counted(self.checked_deals, 'deal or reshuffle', 'deals and reshuffles')} checked)"
        )
        return [
            head,
            *(f"  - {fault}" for fault in [*self.faults, *self.caches]),
            *(f"  note: {note}" for note in self.notes),
        ]


# A card code, and a hex run as long as a seed: what a fault of a running match's
# verification may quote from the seed's deal (the cards it should have dealt, the seed).
_SECRET = re.compile(r"\b(?:[2-9TJQKA][SHDC]|X[RB])\b|\b[0-9a-f]{32,}\b")


def _counted(n: int, one: str, many: str | None = None) -> str:
    """``1 event``, ``2 events``."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def report_lines(report: Report, match: Match) -> list[str]:
    """A verification's report as the admin shows it. A fault may quote what the seed deals
    (cards nobody has seen yet); while the match runs those are masked.

    >>> running = Match(status="active")
    >>> faulty = Report("m", faults=["#3 cards_dealt: the rules give ['AS', 'TH']"])
    >>> for line in report_lines(faulty, running):
    ...     print(line)
    m: FAULT (0 events, 0 deals and reshuffles checked)
      - #3 cards_dealt: the rules give ['··', '··']
      note: card codes and seeds in the faults are masked while the match runs
    """
    lines = report.lines()
    if match.ended or report.ok:
        return lines
    masked = [lines[0], *(_SECRET.sub("··", line) for line in lines[1:])]
    return [*masked, "  note: card codes and seeds in the faults are masked while the match runs"]


def verify_match_now(match_id: object) -> tuple[Match, Report]:
    """The match and :func:`verify_match`'s report of it as of one moment: its row and its
    log read in one REPEATABLE READ transaction (read apart, a move between the two made a
    sound match in play a fault: "the match row says version 412, the log ends at #414").
    Within a transaction of the caller's, in that one."""
    with transaction.atomic():
        if not connection.savepoint_ids:  # (its own transaction: this is its first statement)
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        match = Match.objects.get(pk=match_id)
        return match, verify_match(match)


def verify_match(match: Match) -> Report:
    report = Report(str(match.id))
    rows = load_events(match)
    report.events = len(rows)
    report.faults.extend(verify_chain(match, rows))
    if not match.chain_key_id and unkeyed_allowed(match):
        report.notes.append(
            "an unkeyed chain (from before keyed chains): it shows accidents, not forgery"
        )
    if not rows:
        report.faults.append("no events")
        return report
    try:
        game = game_of(match)
    except UnknownGame as exc:  # (its game's package is not installed here)
        report.faults.append(f"its game is not registered on this server: {exc}")
        return report
    try:
        events = [to_event(row, game) for row in rows]
    except UNREADABLE_LOG as exc:
        report.faults.append(f"an event cannot be read: {exc}")
        return report
    report.faults.extend(_unread_data(game, rows, events))
    report.faults.extend(_actor_faults(game, rows, events))
    try:
        audit = game.audit(events)
    except Exception as exc:  # a log no engine wrote that the game's audit did not foresee
        logger.exception("the rules could not check match %s", match.id)
        report.faults.append(f"the rules could not check the log ({type(exc).__name__})")
        return report
    report.faults.extend(audit.faults)
    report.checked_deals = audit.deals_checked
    if audit.state is not None and not audit.faults:
        if game.commitment(audit.state) != match.seed_commitment:
            report.faults.append("the log's seed commitment differs from the match's")
        report.caches.extend(_read_model_faults(match, audit.state))
        report.caches.extend(_snapshot_faults(match, game, events, audit.state))
        report.caches.extend(_rules_faults(match, game, events[0]))
    return report


def _unread_data(game: Any, rows: Sequence[Any], events: Sequence[Any]) -> list[str]:
    """Stored data the game does not read: an event of today's version is stored as the
    game writes it, and a field no rule reads (a score, a points table, a card) would be
    published in the audit record unchecked."""
    faults = []
    for row, event in zip(rows, events, strict=True):
        name, version, data = game.event_to_row(event)
        if (name, version) == (row.type, row.version) and data != row.payload:
            unread = _unwritten(row.payload, data)
            if unread:
                faults.append(f"#{row.seq} {row.type}: fields no rule reads: {', '.join(unread)}")
    return faults


# The actors that name the seat they moved for: a player's, a COM's, a turn timer's.
_SEAT_ACTOR = re.compile(r"(?:user:[0-9]+|com:[a-z0-9_-]+|timer):([0-9]+)")
# Those of older logs, which named no seat (a player's move, a COM's; a timer's named it
# in the payload): a seat's own event written by one of them is not checked.
_UNSEATED_ACTOR = re.compile(r"user:[0-9]+|com:[a-z0-9_-]+|timer")
# Who may hand a player's seat to a COM: its own player (a leave), or staff.
_PLAYER_ACTOR = re.compile(r"user:[0-9]+:([0-9]+)")
_STAFF_ACTOR = re.compile(r"staff:[0-9]+")


def _actor_faults(game: Any, rows: Sequence[Any], events: Sequence[Any]) -> list[str]:
    """A seat's own move (a join, a flip, a draw, a pass, a card played, a bid:
    ``game.acting_seat``) whose actor is not that seat: another seat's player, COM or
    timer, the system or an operator. The rules check that the move was legal for the
    seat; this checks that it was the seat's to make. A seat handed to a COM was handed
    over by its own player (a leave) or by staff, no one else."""
    faults = []
    for row, event in zip(rows, events, strict=True):
        if isinstance(event, SeatHandedOver):
            player = _PLAYER_ACTOR.fullmatch(row.actor)
            if not _STAFF_ACTOR.fullmatch(row.actor) and (
                player is None or int(player[1]) != event.seat
            ):
                faults.append(f"#{row.seq} {row.type}: seat {event.seat}, by {row.actor!r}")
            continue
        seat = game.acting_seat(event)
        if seat is None:
            continue
        named = _SEAT_ACTOR.fullmatch(row.actor)
        if named is not None and int(named[1]) == seat:
            continue
        if named is None and _UNSEATED_ACTOR.fullmatch(row.actor):
            continue
        faults.append(f"#{row.seq} {row.type}: seat {seat}'s move, written by {row.actor!r}")
    return faults


def _unwritten(stored: Any, written: Any, where: str = "") -> list[str]:
    """The fields of ``stored`` the game would not write so (a key it has no field for, or
    another value); a key only ``written`` has is an option added since, with its default
    (not a fault: an older match's rules simply lack it)."""
    if isinstance(stored, dict) and isinstance(written, dict):
        found = []
        for key, value in stored.items():
            path = f"{where}.{key}" if where else key
            found += _unwritten(value, written[key], path) if key in written else [path]
        return found
    return [] if stored == written else [where or "the event"]


def _rules_faults(match: Match, game: Any, first: Any) -> list[str]:
    """Where the rules kept on the match (what its detail and its audit record serve)
    differ from those its log began with (what was played)."""
    logged = logged_rules(game, first)  # (the log's: they passed the audit before this)
    try:  # (read as the game reads rules: an older spelling of the same is the same)
        kept = game.rules_to_json(game.rules_from_json(match.rules))
    except Exception as exc:  # any refusal of the rules kept: the game's own words
        return [f"the match's rules cannot be read: {exc}"]
    faults = [
        f"rules: {name} is {kept.get(name)!r} on the match, {logged.get(name)!r} in the log"
        for name in sorted(k for k in {*kept, *logged} if kept.get(k) != logged.get(k))
    ]
    if match.preset != logged.get("preset", match.preset):
        faults.append(f"preset {match.preset!r} on the match, {logged.get('preset')!r} in the log")
    return faults


def _read_model_faults(match: Match, state: Any) -> list[str]:
    """Where the caches on the match and its seats disagree with the replay."""
    game = game_of(match)
    seats = list(match.seats.order_by("index"))
    expected = replayed_read_model(game, state, seats)
    faults = [
        f"read model: {name.replace('_', ' ')} {getattr(match, name)!r}, replay {value!r}"
        for name, value in expected.items()
        if getattr(match, name) != value
    ]
    indexes = [seat.index for seat in seats]
    if indexes != list(range(len(game.players(state)))):
        faults.append(
            f"read model: seat rows {indexes}, but the log has {len(game.players(state))} seats"
        )
    flagged = [seat.index for seat in seats if seat.to_act]
    if flagged != expected["seats_to_act"]:
        faults.append(
            f"read model: seats flagged to act {flagged}, replay {expected['seats_to_act']}"
        )
    summary = game.summary(state)
    kinds = {seat.index: seat.kind for seat in seats}
    open_in_log = [seat for seat, kind in enumerate(game.players(state)) if kind == OPEN]
    if open_in_log and summary.status == "active":
        shut = [seat for seat in open_in_log if kinds.get(seat) != SeatKind.OPEN]
        if match.status != MatchStatus.WAITING or shut:
            faults.append(
                f"read model: status {match.status}, seats {shut} taken, but the log has "
                f"seats {open_in_log} open"
            )
    return faults


def _snapshot_faults(match: Match, game: Any, events: Sequence[Any], state: Any) -> list[str]:
    """Where the match's snapshot (the state a write or read starts from instead of
    replaying the log) is not the state the log reaches at its version, or was written by
    another version of the game's engine. A snapshot of an older format is read as the game
    reads it (fields added since take their defaults)."""
    if match.snapshot is None:
        return []
    at = match.snapshot_version
    if at > len(events):
        return [f"read model: a snapshot at #{at}, after the log's end (#{len(events)})"]
    if match.snapshot_engine != game.info.engine:  # (load_state replays the log instead)
        return [
            f"read model: the snapshot at #{at} was written by version "
            f"{match.snapshot_engine} of the engine, which is at {game.info.engine} now"
        ]
    replayed = state if at == len(events) else game.replay(events[:at])
    kept = snapshot_state(match)
    if kept is None:  # (load_state replays the log instead)
        return [f"read model: the snapshot at #{at} cannot be read (no game writes it so)"]
    if kept == replayed:
        return []
    where = first_difference(game.state_to_json(replayed), game.state_to_json(kept))
    return [f"read model: the snapshot at #{at} differs from the replay ({where.split(':')[0]})"]
