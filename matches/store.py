"""Reading and appending a match's event log, with its hash chain and state snapshot.

Functions here run inside the caller's transaction; those that write expect the match
row to be locked (``SELECT ... FOR UPDATE``) by the caller.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from collections.abc import Iterable, Sequence
from datetime import UTC
from typing import Any

from django.conf import settings
from django.db import connection, models
from django.utils import timezone

from cards.protocol import Game
from games import get_game
from matches.models import FollowUp, Match, MatchEvent

# A game's own states and events pass through the store untouched.
State = Any
Event = Any


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# --- the hash chain ----------------------------------------------------------------------------
# Each event's ``hash`` chains it to the one before. A match's chain is keyed: an HMAC-SHA256
# with the server's chain key named by ``Match.chain_key_id`` (settings.EVENT_CHAIN_KEYS),
# over every stored field of the event, so that nobody without the key can rewrite an
# event and recompute the chain. Matches from before keyed chains (``chain_key_id`` empty)
# keep their plain SHA-256 chain over the event's content.


def genesis_hash(match_id: object) -> str:
    """The 'previous hash' of the first event of an unkeyed (older) chain."""
    return hashlib.sha256(f"golf-match:{match_id}".encode()).hexdigest()


def event_hash(previous: str, seq: int, type_: str, version: int, payload: Any, actor: str) -> str:
    """The unkeyed chain: SHA-256 over the previous hash and the event's canonical JSON."""
    body = canonical_json(
        {"seq": seq, "type": type_, "version": version, "payload": payload, "actor": actor}
    )
    return hashlib.sha256((previous + body).encode()).hexdigest()


class UnknownChainKey(LookupError):
    """A match's chain names a key this server does not hold."""


def chain_key(key_id: str) -> bytes:
    try:
        return settings.EVENT_CHAIN_KEYS[key_id]
    except KeyError:
        raise UnknownChainKey(f"chain key {key_id!r} is not configured") from None


def _keyed_genesis(key: bytes, match_id: object) -> str:
    return hmac.new(key, f"golf-match:{match_id}".encode(), hashlib.sha256).hexdigest()


def _keyed_hash(key: bytes, previous: str, row: MatchEvent) -> str:
    body = canonical_json(
        {
            "id": str(row.id),
            "match": str(row.match_id),
            "seq": row.seq,
            "type": row.type,
            "version": row.version,
            "payload": row.payload,
            "actor": row.actor,
            "created_at": row.created_at.astimezone(UTC).isoformat(timespec="microseconds"),
        }
    )
    return hmac.new(key, (previous + body).encode(), hashlib.sha256).hexdigest()


def chain_start(match: Match) -> str:
    """The 'previous hash' of the match's first event."""
    if not match.chain_key_id:
        return genesis_hash(match.id)
    return _keyed_genesis(chain_key(match.chain_key_id), match.id)


def row_hash(match: Match, previous: str, row: MatchEvent) -> str:
    """The hash ``row`` must carry after ``previous`` in ``match``'s chain."""
    if not match.chain_key_id:
        return event_hash(previous, row.seq, row.type, row.version, row.payload, row.actor)
    return _keyed_hash(chain_key(match.chain_key_id), previous, row)


def game_of(match: Match) -> Game:
    """The game ``match`` is played at (from the registry)."""
    return get_game(match.game)


def to_event(row: MatchEvent, game: Game) -> Event:
    """The game's event of a stored row, upcast to the current version."""
    return game.event_from_row(row.type, row.version, row.payload)


def load_events(match: Match, after: int = 0, upto: int | None = None) -> list[MatchEvent]:
    rows = MatchEvent.objects.filter(match=match, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return list(rows.order_by("seq"))


def load_state(match: Match) -> State:
    """The current state: the match's snapshot plus the events after it (if any)."""
    game = game_of(match)
    base: State | None = None
    after = 0
    if match.snapshot is not None and match.snapshot_version <= match.version:
        base = game.state_from_json(match.snapshot)
        after = match.snapshot_version
    if base is not None and after == match.version:
        return base
    return game.replay((to_event(r, game) for r in load_events(match, after=after)), base)


def state_at(match: Match, version: int) -> State:
    """The state after the first ``version`` events (a full replay)."""
    game = game_of(match)
    return game.replay(to_event(r, game) for r in load_events(match, upto=version))


def append_events(
    match: Match, events: Sequence[Event], actor: str, previous_hash: str | None = None
) -> list[MatchEvent]:
    """The rows for ``events`` after ``match.version``, chained from ``match.last_hash``.

    Advances ``match.version`` and ``match.last_hash``; :func:`persist` writes the rows and
    the match together (the match row must be locked by the caller).
    """
    if previous_hash is None:
        previous_hash = match.last_hash or chain_start(match)
    game = game_of(match)
    rows = []
    seq = match.version
    now = timezone.now()
    for event in events:
        seq += 1
        type_, version, payload = game.event_to_row(event)
        row = MatchEvent(
            id=uuid.uuid4(),
            match=match,
            seq=seq,
            type=type_,
            version=version,
            payload=payload,
            actor=actor,
            created_at=now,
        )
        row.hash = previous_hash = row_hash(match, previous_hash, row)
        rows.append(row)
    match.version = seq
    match.last_hash = previous_hash
    return rows


# The columns a write changes on the match row: the version, the chain's head, the read
# model and the state snapshot.
WRITE_FIELDS = (
    "version",
    "last_hash",
    "round",
    "rounds",
    "phase",
    "totals",
    "winners",
    "status",
    "ended_at",
    "turn_started_at",
    "seats_to_act",
    "snapshot",
    "snapshot_version",
    "updated_at",
)


def _prep(model: type[models.Model], name: str, value: Any) -> Any:
    """``value`` as the database takes it for ``model.name`` (UUIDs, JSON, datetimes)."""
    return model._meta.get_field(name).get_db_prep_save(value, connection)


#: The event table's columns, in the order every insert (and a bulk COPY) gives them.
EVENT_COLUMNS = (
    "id",
    "match_id",
    "seq",
    "type",
    "version",
    "payload",
    "actor",
    "created_at",
    "hash",
)
_EVENT_FIELDS = ("id", "match", "seq", "type", "version", "payload", "actor", "created_at", "hash")
_FOLLOWUP_FIELDS = (
    "id", "match", "version", "kind", "queue", "due_at", "next_attempt_at", "attempts"
)  # fmt: skip


def persist(
    match: Match,
    rows: Sequence[MatchEvent],
    to_act: Sequence[int] | None,
    followup: FollowUp | None = None,
) -> None:
    """Write new event rows, the match's changed columns, (when ``to_act`` is given) the
    seats' ``to_act`` flags and (when given) the follow-up the new version waits for,
    deleting the follow-ups of earlier versions: they are stale now.

    It is one statement (data-modifying CTEs), so a write costs one round trip.
    """
    match.updated_at = timezone.now()
    insert_sql, insert_params = "", []
    if rows:
        row_marks = "(" + ", ".join(["%s"] * len(EVENT_COLUMNS)) + ")"
        insert_sql = (
            f"INSERT INTO golf_matchevent ({', '.join(EVENT_COLUMNS)}) "
            f"VALUES {', '.join([row_marks] * len(rows))}"
        )
        for row in rows:
            values = (row.id, match.id, row.seq, row.type, row.version, row.payload,
                      row.actor, row.created_at, row.hash)  # fmt: skip
            insert_params += [
                _prep(MatchEvent, f, v) for f, v in zip(_EVENT_FIELDS, values, strict=True)
            ]
    flag = f'("index" IN ({", ".join(["%s"] * len(to_act))}))' if to_act else "FALSE"
    seats_sql = f"UPDATE golf_seat SET to_act = {flag} WHERE match_id = %s"
    match_pk = _prep(Match, "id", match.id)
    seats_params = [*(to_act or ()), match_pk]
    sets = ", ".join(f"{f} = %s" for f in WRITE_FIELDS)
    match_sql = f"UPDATE golf_match SET {sets} WHERE id = %s"
    match_params = [_prep(Match, f, getattr(match, f)) for f in WRITE_FIELDS] + [match_pk]
    parts = ["stale AS (DELETE FROM golf_followup WHERE match_id = %s AND version < %s)"]
    params = [match_pk, match.version]
    if insert_sql:
        parts.append(f"events AS ({insert_sql})")
        params += insert_params
    if to_act is not None:
        parts.append(f"seats AS ({seats_sql})")
        params += seats_params
    if followup is not None:
        values = [
            _prep(FollowUp, f, followup.match_id if f == "match" else getattr(followup, f))
            for f in _FOLLOWUP_FIELDS
        ]
        marks = ", ".join(["%s"] * len(values))
        columns = ", ".join(f"{f}_id" if f == "match" else f for f in _FOLLOWUP_FIELDS)
        parts.append(f"followup AS (INSERT INTO golf_followup ({columns}) VALUES ({marks}))")
        params += values
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(parts)} {match_sql}", params + match_params)


def take_snapshot(match: Match, state: State) -> None:
    """Keep ``state`` (the state at ``match.version``) as the match's snapshot; saved with
    the match's next save."""
    match.snapshot = game_of(match).state_to_json(state)
    match.snapshot_version = match.version


def verify_chain(match: Match, rows: Iterable[MatchEvent]) -> list[str]:
    """Faults in a log's sequence numbers and hash chain (empty when sound), and where the
    match row's head of the chain disagrees with the log's."""
    try:
        previous = chain_start(match)
    except UnknownChainKey as exc:
        return [f"cannot check the chain: {exc}"]
    faults = []
    expected_seq = 1
    for row in rows:
        if row.seq != expected_seq:
            faults.append(f"sequence gap: expected #{expected_seq}, found #{row.seq}")
            expected_seq = row.seq
        if row.match_id != match.id:
            faults.append(f"#{row.seq} belongs to another match")
        if row_hash(match, previous, row) != row.hash:
            faults.append(f"hash mismatch at #{row.seq} ({row.type})")
        previous = row.hash
        expected_seq += 1
    if expected_seq - 1 != match.version:
        faults.append(
            f"the match row says version {match.version}, the log ends at #{expected_seq - 1}"
        )
    elif match.last_hash and previous != match.last_hash:
        faults.append("the match row's head of the chain is not the log's last hash")
    return faults
