"""Reading and appending a match's event log, with its hash chain and snapshot.

Functions here run inside the caller's transaction; those that write expect the match
row to be locked (``SELECT ... FOR UPDATE``) by the caller.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from golf.engine import Event, State, event_from_payload, event_payload, replay
from golf.engine.snapshot import state_from_json, state_to_json
from golf.models import Match, MatchEvent, MatchSnapshot

SNAPSHOT_EVERY = 8  # events between snapshots; loading replays fewer than this many


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def genesis_hash(match_id: object) -> str:
    """The 'previous hash' of a match's first event."""
    return hashlib.sha256(f"golf-match:{match_id}".encode()).hexdigest()


def event_hash(previous: str, seq: int, type_: str, version: int, payload: Any, actor: str) -> str:
    """SHA-256 over the previous hash and the event's canonical JSON."""
    body = canonical_json(
        {"seq": seq, "type": type_, "version": version, "payload": payload, "actor": actor}
    )
    return hashlib.sha256((previous + body).encode()).hexdigest()


def to_event(row: MatchEvent) -> Event:
    """The engine event of a stored row, upcast to the current version."""
    return event_from_payload(row.type, row.version, row.payload)


def load_events(match: Match, after: int = 0, upto: int | None = None) -> list[MatchEvent]:
    rows = MatchEvent.objects.filter(match=match, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return list(rows.order_by("seq"))


def cached_snapshot(match: Match) -> MatchSnapshot | None:
    """The match's snapshot, from the row loaded with it when it was (``select_related``)."""
    try:
        return match.snapshot
    except MatchSnapshot.DoesNotExist:
        return None


def load_state(match: Match) -> State:
    """The current state: the latest snapshot plus the events after it."""
    snapshot = cached_snapshot(match)
    base: State | None = None
    after = 0
    if snapshot is not None and snapshot.version <= match.version:
        base = state_from_json(snapshot.state)
        after = snapshot.version
    events = [to_event(r) for r in load_events(match, after=after)]
    if base is not None and not events:
        return base
    return replay(events, base)


def state_at(match: Match, version: int) -> State:
    """The state after the first ``version`` events (a full replay)."""
    return replay(to_event(r) for r in load_events(match, upto=version))


def append_events(
    match: Match, events: Sequence[Event], actor: str, previous_hash: str | None = None
) -> list[MatchEvent]:
    """Append ``events`` after ``match.version`` (the match row must be locked).

    The chain continues from ``match.last_hash``; the caller saves the match afterwards.
    """
    if previous_hash is None:
        previous_hash = match.last_hash or genesis_hash(match.id)
    rows = []
    seq = match.version
    for event in events:
        seq += 1
        payload = event_payload(event)
        digest = event_hash(previous_hash, seq, event.name, event.version, payload, actor)
        rows.append(
            MatchEvent(
                match=match,
                seq=seq,
                type=event.name,
                version=event.version,
                payload=payload,
                actor=actor,
                hash=digest,
            )
        )
        previous_hash = digest
    MatchEvent.objects.bulk_create(rows)
    match.version = seq
    match.last_hash = previous_hash
    return rows


def save_snapshot(match: Match, state: State, force: bool = False) -> None:
    """Store ``state`` as the snapshot when enough events have passed since the last one."""
    current = cached_snapshot(match)
    if not force and current is not None and state.version - current.version < SNAPSHOT_EVERY:
        return
    data = state_to_json(state)
    if current is None:
        match.snapshot = MatchSnapshot.objects.create(
            match=match, version=state.version, state=data
        )
    else:
        MatchSnapshot.objects.filter(match=match).update(version=state.version, state=data)
        current.version, current.state = state.version, data


def verify_chain(match_id: object, rows: Iterable[MatchEvent]) -> list[str]:
    """Faults in a log's sequence numbers and hash chain (empty when sound)."""
    faults = []
    previous = genesis_hash(match_id)
    expected_seq = 1
    for row in rows:
        if row.seq != expected_seq:
            faults.append(f"sequence gap: expected #{expected_seq}, found #{row.seq}")
            expected_seq = row.seq
        digest = event_hash(previous, row.seq, row.type, row.version, row.payload, row.actor)
        if digest != row.hash:
            faults.append(f"hash mismatch at #{row.seq} ({row.type})")
        previous = row.hash
        expected_seq += 1
    return faults
