"""Reading and appending a match's event log, with its hash chain and state snapshot.

Functions here run inside the caller's transaction; those that write expect the match
row to be locked (``SELECT ... FOR UPDATE``) by the caller.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from datetime import UTC
from typing import Any

import psycopg
from django.conf import settings
from django.core.cache import caches
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.utils import timezone

from cards.protocol import Game
from games import get_game
from matches.models import (
    FollowUp,
    IdempotencyRecord,
    Match,
    MatchEvent,
    MatchStatus,
    Seat,
    SeatKind,
)

logger = logging.getLogger(__name__)

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


@functools.cache
def _match_columns() -> tuple[str, list[str], list[tuple[Any, list[Any]]]]:
    fields = Match._meta.concrete_fields
    converted = []
    for field in fields:
        col = field.get_col(Match._meta.db_table)
        converted.append(
            (col, connection.ops.get_db_converters(col) + col.get_db_converters(connection))
        )
    select = ", ".join(f'm."{field.column}"' for field in fields)
    return select, [field.attname for field in fields], converted


def match_columns_sql() -> str:
    """The match row's columns, for a SELECT over ``golf_match`` aliased ``m``, in the order
    :func:`match_from_row` takes them."""
    return _match_columns()[0]


def match_from_row(values: Sequence[Any]) -> Match:
    """The match of a row of :func:`match_columns_sql` (converted as the ORM would)."""
    _, names, converted = _match_columns()
    out = []
    for value, (col, converters) in zip(values, converted, strict=True):
        for converter in converters:
            value = converter(value, col, connection)
        out.append(value)
    return Match.from_db(connection.alias, names, out)


def load_events(match: Match, after: int = 0, upto: int | None = None) -> list[MatchEvent]:
    rows = MatchEvent.objects.filter(match=match, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return list(rows.order_by("seq"))


def snapshot_state(match: Match) -> State | None:
    """The state the match's snapshot holds (at ``match.snapshot_version``); ``None`` when
    it has none, one written by another version of the game's engine (``GameInfo.engine``:
    the log may fold to another state now), or one no game could have written (logged: the
    log is the truth, which ``verify_match`` names and a write or ``match_rebuild``
    replaces)."""
    if match.snapshot is None or match.snapshot_version > match.version:
        return None
    game = game_of(match)
    if match.snapshot_engine != game.info.engine:
        return None
    try:
        return game.state_from_json(match.snapshot)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        logger.error("match %s: its snapshot cannot be read; replaying its log", match.id)
        return None


def logged_rules(game: Game, first: Event) -> dict[str, Any]:
    """The rules a match's log began with (its first event's), as the game writes rules
    today (an older spelling of the same rules is the same)."""
    return game.rules_to_json(game.rules_from_json(game.event_to_row(first)[2].get("rules")))


def replayed_read_model(game: Game, state: State, seats: Sequence[Seat]) -> dict[str, Any]:
    """The match row's read model as the replay's ``state`` and its seat rows give it:
    what ``verify_match`` checks the row against and ``--repair`` writes. While play goes
    on, a match with a seat open is waiting (a lobby's open seats are in its log, or, in
    older logs, in its seat rows only)."""
    summary = game.summary(state)
    if summary.status != "active":
        status = summary.status
    elif any(seat.kind == SeatKind.OPEN for seat in seats):
        status = MatchStatus.WAITING.value
    else:
        status = MatchStatus.ACTIVE.value
    return {
        "status": status,
        "round": summary.round,
        "rounds": summary.rounds,
        "phase": summary.phase,
        "totals": list(summary.totals),
        "winners": list(summary.winners),
        "seats_to_act": list(game.seats_to_act(state)),
        # who may act for each seat (a human's account; a COM's or an open seat's: none)
        "seat_users": [s.user_id if s.kind == SeatKind.HUMAN else None for s in seats],
    }


def load_state(match: Match) -> State:
    """The current state: the match's snapshot plus the events after it (if any)."""
    game = game_of(match)
    base = snapshot_state(match)
    after = match.snapshot_version if base is not None else 0
    if base is not None and after == match.version:
        return base
    # (up to the version read: a move written since is not the state of this version)
    rows = load_events(match, after=after, upto=match.version)
    return game.replay((to_event(r, game) for r in rows), base)


#: The state each of the last matches read through :func:`state_at` was read at, in this
#: process: ``match id -> (version, that event's hash, state)``. A client that follows a
#: match asks for its states version after version, so the next one is a few events on.
PREFIX_CACHE_SIZE = 256
_prefixes: OrderedDict[uuid.UUID, tuple[int, str, State]] = OrderedDict()
_prefixes_lock = threading.Lock()


def _remember(match: Match, version: int, event_hash: str, state: State) -> None:
    with _prefixes_lock:
        _prefixes[match.id] = (version, event_hash, state)
        _prefixes.move_to_end(match.id)
        while len(_prefixes) > PREFIX_CACHE_SIZE:
            _prefixes.popitem(last=False)


#: A match's states at every multiple of this many events are kept in the ``states`` cache
#: (``state:<match>:<version>``, with that event's hash) as they are replayed, so that a
#: state far back in a long log costs at most this many events while its checkpoint is kept.
CHECKPOINT_EVERY = 250
CHECKPOINT_SECONDS = 24 * 3600


def _checkpoint_key(match: Match, version: int) -> str:
    # (a state of another version of the engine is another key: it is not read)
    return f"state:{match.id}:{version}:{game_of(match).info.engine}"


def _checkpoint(match: Match, game: Game, version: int) -> tuple[str, State] | None:
    """The checkpoint kept at ``version``: its event's hash and the state. ``None`` when
    there is none, or it cannot be read (the cache down, a state of another format): it is
    only a cache, the replay does without it."""
    try:
        kept = caches["states"].get(_checkpoint_key(match, version))
        return None if kept is None else (kept[0], game.state_from_json(kept[1]))
    except Exception as exc:  # any fault of a cache is a miss
        logger.warning(
            "checkpoint %s of match %s unread: %s", version, match.id, type(exc).__name__
        )
        return None


def _keep_checkpoint(match: Match, game: Game, version: int, event_hash: str, state: State) -> None:
    try:
        entry = (event_hash, game.state_to_json(state))
        caches["states"].set(_checkpoint_key(match, version), entry, CHECKPOINT_SECONDS)
    except Exception as exc:  # a cache that cannot keep it costs a replay
        logger.warning(
            "checkpoint %s of match %s not kept: %s", version, match.id, type(exc).__name__
        )


def state_at(match: Match, version: int) -> State:
    """The state after the first ``version`` events.

    The current version's is the snapshot's (:func:`load_state`). An earlier one is
    replayed from the latest state known at or before ``version`` whose event is still the
    one stored (same hash): the state this process last read of the match (reading a match
    version after version costs the events between), or the checkpoint before ``version``
    (:data:`CHECKPOINT_EVERY`); else from the start, keeping the checkpoints it passes
    (again, should one kept be for another log).
    """
    if version == match.version:
        # (not remembered: a state read from the snapshot is trusted for this version, but
        # the states replayed on from it, by this process and into the checkpoints, come
        # from the log alone, so a snapshot written again from the log, ``match_rebuild``,
        # leaves no copy of the one it replaced)
        return load_state(match)
    game = game_of(match)
    with _prefixes_lock:
        cached = _prefixes.get(match.id)
    known = [cached] if cached is not None and 1 <= cached[0] <= version else []
    mark = version - version % CHECKPOINT_EVERY
    if mark and (not known or known[0][0] < mark):
        kept = _checkpoint(match, game, mark)
        if kept is not None:
            known.append((mark, *kept))
    base: State | None = None
    rows: list[MatchEvent] = []
    for position, event_hash, state in sorted(known, key=lambda k: -k[0]):  # the latest first
        rows = load_events(match, after=position - 1, upto=version)
        if rows and rows[0].seq == position and rows[0].hash == event_hash:
            base, rows = state, rows[1:]
            break
    else:
        rows = load_events(match, upto=version)
    state = base
    first = 0
    for i, row in enumerate(rows):
        if row.seq % CHECKPOINT_EVERY == 0:  # replay up to it, and keep it
            state = game.replay((to_event(r, game) for r in rows[first : i + 1]), state)
            first = i + 1
            _keep_checkpoint(match, game, row.seq, row.hash, state)
    state = game.replay((to_event(r, game) for r in rows[first:]), state)
    if rows:
        _remember(match, rows[-1].seq, rows[-1].hash, state)
    return state


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
    "com_turns_charged_to_id",
    "seats_to_act",
    "snapshot",
    "snapshot_version",
    "snapshot_engine",
    "updated_at",
)


@functools.cache
def _json_columns(model: type[models.Model], names: tuple[str, ...]) -> tuple[Any, ...]:
    """For each of ``names``: its field when it is a JSON field, else None."""
    return tuple(
        field if isinstance(field := model._meta.get_field(name), models.JSONField) else None
        for name in names
    )


def _prepped(
    model: type[models.Model], names: tuple[str, ...], values: Sequence[Any], db: Any
) -> list[Any]:
    """``values`` of ``model``'s fields ``names`` as the database driver takes them: the
    write path holds only values psycopg adapts as they are (ints, strings, UUIDs, aware
    datetimes, None), but JSON, which Django wraps for its column type."""
    return [
        v if field is None else db.ops.adapt_json_value(v, field.encoder)
        for field, v in zip(_json_columns(model, names), values, strict=True)
    ]


def fetch_prepared(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """The first row of ``sql`` on the default connection, run as a prepared statement:
    its parameters travel apart from it (server-side binding, where Django's cursors
    write them into the statement), and PostgreSQL parses and plans it once per
    connection, not at every request. Django's error translation and execute wrappers
    apply as to any query."""
    db = connections[DEFAULT_DB_ALIAS]
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_no_broken_transaction()
    if db.connection.prepare_threshold is None:  # Django's default: psycopg prepares nothing
        # prepare what is asked to be (prepare=True) and nothing else: Django's own cursors
        # bind client-side, and psycopg never prepares those
        db.connection.prepare_threshold = 2**31

    def execute(sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        with db.wrap_database_errors, psycopg.Cursor(db.connection) as cursor:
            cursor.execute(sql, params, prepare=True)
            return cursor.fetchone()

    executor = execute
    for wrapper in reversed(db.execute_wrappers):
        executor = functools.partial(wrapper, executor)
    return executor(sql, params, False, {"connection": db, "cursor": None})


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
_IDEMPOTENCY_FIELDS = (
    "id", "match", "user", "key", "request_hash", "first_seq", "version", "created_at"
)  # fmt: skip


def _insert_if_written(model: type[models.Model], fields: Sequence[str], rows: int) -> str:
    """An INSERT of ``rows`` rows into ``model`` that happens only if the match row was
    written (the CTE ``m`` returned it). Each value is cast to its column's type: rows
    selected from a VALUES list take none from the table they go into."""
    meta = model._meta
    columns = ", ".join(meta.get_field(f).column for f in fields)
    marks = "(" + ", ".join(f"%s::{meta.get_field(f).db_type(connection)}" for f in fields) + ")"
    return (
        f"INSERT INTO {meta.db_table} ({columns}) SELECT * FROM "
        f"(VALUES {', '.join([marks] * rows)}) AS v WHERE EXISTS (SELECT 1 FROM m)"
    )


@functools.lru_cache(maxsize=256)
def _persist_sql(
    rows: int, to_act: int | None, followup: bool, idempotency: bool, condition: str | None
) -> str:
    """The statement of :func:`persist` for a write of this shape."""
    sets = ", ".join(f"{f} = %s" for f in WRITE_FIELDS)
    where = "id = %s AND version = %s"
    if condition is not None:
        where += f" AND ({condition}) IS TRUE"
    parts = [
        f"m AS (UPDATE golf_match SET {sets} WHERE {where} RETURNING id)",
        "stale AS (DELETE FROM golf_followup WHERE match_id IN (SELECT id FROM m) "
        "AND version < %s)",
    ]
    if rows:
        parts.append(f"events AS ({_insert_if_written(MatchEvent, _EVENT_FIELDS, rows)})")
    if to_act is not None:
        flag = f'("index" IN ({", ".join(["%s"] * to_act)}))' if to_act else "FALSE"
        parts.append(
            f"seats AS (UPDATE golf_seat SET to_act = {flag} WHERE match_id IN (SELECT id FROM m))"
        )
    if followup:
        parts.append(f"followup AS ({_insert_if_written(FollowUp, _FOLLOWUP_FIELDS, 1)})")
    if idempotency:
        sql = _insert_if_written(IdempotencyRecord, _IDEMPOTENCY_FIELDS, 1)
        parts.append(f"idempotency AS ({sql})")
    return f"WITH {', '.join(parts)} SELECT count(*) FROM m"


def persist(
    match: Match,
    rows: Sequence[MatchEvent],
    to_act: Sequence[int] | None,
    followup: FollowUp | None = None,
    *,
    previous_version: int,
    condition: tuple[str, Sequence[Any]] | None = None,
    idempotency: IdempotencyRecord | None = None,
) -> bool:
    """Write new event rows, the match's changed columns, (when ``to_act`` is given) the
    seats' ``to_act`` flags, (when given) the follow-up the new version waits for and the
    idempotency record of the request, deleting the follow-ups of earlier versions: they
    are stale now.

    It is one statement (data-modifying CTEs), so a write costs one round trip, and it
    writes only if the match row is still at ``previous_version`` (and ``condition``, an
    SQL expression with its parameters, holds): else nothing at all, and it returns False.
    A caller holding the row lock always writes; one that read the row without the lock
    learns here whether another write came first (compare-and-set on the version).
    """
    db = connections[DEFAULT_DB_ALIAS]
    match.updated_at = timezone.now()
    params = _prepped(Match, WRITE_FIELDS, [getattr(match, f) for f in WRITE_FIELDS], db)
    params += [match.id, previous_version]
    if condition is not None:
        params += list(condition[1])
    params.append(match.version)
    for row in rows:
        values = (row.id, match.id, row.seq, row.type, row.version, row.payload,
                  row.actor, row.created_at, row.hash)  # fmt: skip
        params += _prepped(MatchEvent, _EVENT_FIELDS, values, db)
    if to_act:
        params += list(to_act)
    if followup is not None:
        values = tuple(
            followup.match_id if f == "match" else getattr(followup, f) for f in _FOLLOWUP_FIELDS
        )
        params += _prepped(FollowUp, _FOLLOWUP_FIELDS, values, db)
    if idempotency is not None:
        names = [IdempotencyRecord._meta.get_field(f).attname for f in _IDEMPOTENCY_FIELDS]
        values = tuple(getattr(idempotency, name) for name in names)
        params += _prepped(IdempotencyRecord, _IDEMPOTENCY_FIELDS, values, db)
    sql = _persist_sql(
        len(rows),
        None if to_act is None else len(to_act),
        followup is not None,
        idempotency is not None,
        None if condition is None else condition[0],
    )
    row = fetch_prepared(sql, params)
    return bool(row and row[0])


def take_snapshot(match: Match, state: State) -> None:
    """Keep ``state`` (the state at ``match.version``) as the match's snapshot; saved with
    the match's next save."""
    game = game_of(match)
    match.snapshot = game.state_to_json(state)
    match.snapshot_version = match.version
    match.snapshot_engine = game.info.engine


#: A chain anyone can recompute, on a match that was given a key: whoever could write to
#: the database emptied ``chain_key_id`` to chain a rewritten log with the public hash.
UNKEYED_FAULT = (
    "an unkeyed chain on a match not listed as older than keyed chains "
    "(EVENT_CHAIN_UNKEYED_MATCHES): its key was taken off"
)


def unkeyed_allowed(match: Match) -> bool:
    """Whether ``match`` is one of those created before keyed chains (a setting, outside the
    database), whose chain may be unkeyed."""
    return str(match.id) in settings.EVENT_CHAIN_UNKEYED_MATCHES


def verify_chain(
    match: Match, rows: Iterable[MatchEvent], *, after: MatchEvent | None = None, whole: bool = True
) -> list[str]:
    """Faults in a log's sequence numbers and hash chain (empty when sound), and where the
    match row's head of the chain disagrees with the log's.

    ``rows`` may be one page of the log: the events after ``after`` (the row they follow,
    ``None`` for the start), checked from its hash; the head is checked only when the page
    ends the log (``whole``: the rows run to the match's version)."""
    faults = []
    if after is not None:
        previous, expected_seq = after.hash, after.seq + 1
    else:
        try:
            previous, expected_seq = chain_start(match), 1
        except UnknownChainKey as exc:
            return [f"cannot check the chain: {exc}"]
        if not match.chain_key_id and not unkeyed_allowed(match):
            faults.append(UNKEYED_FAULT)
    for row in rows:
        if row.seq != expected_seq:
            faults.append(f"sequence gap: expected #{expected_seq}, found #{row.seq}")
            expected_seq = row.seq
        if row.match_id != match.id:
            faults.append(f"#{row.seq} belongs to another match")
        try:
            if row_hash(match, previous, row) != row.hash:
                faults.append(f"hash mismatch at #{row.seq} ({row.type})")
        except UnknownChainKey as exc:
            return [f"cannot check the chain: {exc}"]
        previous = row.hash
        expected_seq += 1
    if not whole:
        return faults
    if expected_seq - 1 != match.version:
        faults.append(
            f"the match row says version {match.version}, the log ends at #{expected_seq - 1}"
        )
    elif match.last_hash and previous != match.last_hash:
        faults.append("the match row's head of the chain is not the log's last hash")
    return faults
