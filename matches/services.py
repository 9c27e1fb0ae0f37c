"""The match service: every write to a match goes through here.

Every write follows one path: lock the match row (:func:`_lock`), load its state (the
snapshot on the row, plus any events after it), decide, then :func:`_commit_events`:
append the events with their sequence numbers and hashes, refresh the read model and
snapshot in the same statement, and schedule side effects on commit. Call the private
helpers only inside ``transaction.atomic`` and while holding the row lock.

A player's action (:func:`match_act`) first takes a shorter way to the same write
(:func:`_act_unlocked`): it reads the row without the lock and makes the write only if
the row is still at the version read (compare-and-set, in the write's own statement);
should another write have come first, nothing was written and it takes the locked path.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import random
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import BooleanField, Case, DurationField, F, Func, Q, QuerySet, When
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.tokens import TokenCheck, token_failure, token_sql
from cards.errors import IllegalActionError, MalformedActionError
from cards.protocol import COM, HUMAN, OPEN, Game, Summary
from cards.shuffle import commitment_of, new_seed
from config.counting import count_in
from games import DEFAULT_GAME, UnknownGame, all_games, get_game
from matches import errors
from matches.models import (
    ENDED_STATUSES,
    FollowUp,
    FollowUpKind,
    IdempotencyRecord,
    Match,
    MatchEvent,
    MatchStatus,
    Seat,
    SeatKind,
)
from matches.pacing import pacing
from matches.store import (
    Event,
    State,
    append_events,
    canonical_json,
    fetch_prepared,
    game_of,
    load_events,
    load_state,
    logged_rules,
    match_columns_sql,
    match_from_row,
    persist,
    replayed_read_model,
    snapshot_state,
    take_snapshot,
    to_event,
)

logger = logging.getLogger(__name__)

MATCH_OPTIONS = ("hints", "turn_timeout")
COM_MINUTES_AHEAD = 5  # how far a COM turn past its account's rate may be put off


@dataclass(frozen=True)
class ActResult:
    """What an action appended: events ``first_seq``..``version`` of the match.

    ``state`` and ``rows`` are the state after them and the rows appended; both are
    ``None`` when an idempotency key returned an earlier result (``replayed``).
    """

    match: Match
    first_seq: int
    version: int
    replayed: bool = False
    state: State | None = None
    rows: list[MatchEvent] | None = None
    seat: int | None = None  # the seat that acted


# --- follow-ups: the outbox ----------------------------------------------------------------
def turn_limit(match: Match) -> int | None:
    """How long, in seconds, the humans the match waits for may take now: the pause between
    rounds when it is in one and the match bounds it (``round_pause_seconds``), else the
    turn timeout; ``None``: as long as they like."""
    if match.round_pause_seconds is not None and match.phase in game_of(match).info.pause_phases:
        return match.round_pause_seconds
    return match.turn_timeout


def com_turns_not_late(before: datetime) -> QuerySet[FollowUp]:
    """The ids of the matches whose COM turn is due after ``before`` (one put off to the
    later minute by ``COM_TURNS_PER_MINUTE``): a wait since the turn began is not a stall
    of theirs until their turn has been due that long."""
    return FollowUp.objects.filter(kind=FollowUpKind.COM, due_at__gt=before).values("match_id")


def overdue_timers(before: datetime) -> QuerySet[Match]:
    """The active matches whose humans' time (:func:`turn_limit`) ran out before
    ``before``, each with its ``deadline``: worked out in SQL (over the active matches'
    partial index), so that a read of them costs the overdue ones, not every timed match."""
    in_pause = Q()
    for game in all_games():
        if game.info.pause_phases:
            in_pause |= Q(game=game.info.name, phase__in=list(game.info.pause_phases))
    limit: Any = F("turn_timeout")
    if in_pause:  # the round pause's bound, when the match is in one and has one
        pausing = Q(round_pause_seconds__isnull=False) & in_pause
        limit = Case(When(pausing, then=F("round_pause_seconds")), default=limit)
    interval = Func(
        limit,
        function="make_interval",
        template="make_interval(secs => %(expressions)s)",
        output_field=DurationField(),
    )
    return (
        Match.objects.filter(status=MatchStatus.ACTIVE, turn_started_at__isnull=False)
        .filter(Q(turn_timeout__isnull=False) | Q(round_pause_seconds__isnull=False))
        .annotate(deadline=F("turn_started_at") + interval)
        .filter(deadline__lte=before)
        .order_by()
    )


def _followup(match: Match, state: State) -> FollowUp | None:
    """The work the match waits for after this write, if it is the workers': a COM's turn,
    or the timer of a human's turn. COM turns of a match no human sits in (COMs playing
    each other) go to their own queue, so they never delay a COM reply a person waits for."""
    if match.status != MatchStatus.ACTIVE:
        return None
    now = timezone.now()
    counted = None
    if _com_to_act(match, state):
        kind = FollowUpKind.COM
        queue = followup_queue(match, kind)
        due, counted = _com_due(match, now, queue)
    elif (limit := turn_limit(match)) is not None:
        kind, due = FollowUpKind.TIMER, (match.turn_started_at or now) + timedelta(seconds=limit)
        queue = followup_queue(match, kind)
    else:
        return None
    ahead = timedelta(seconds=settings.FOLLOWUP_PUBLISH_AHEAD_SECONDS)
    retry = due + timedelta(seconds=settings.FOLLOWUP_RETRY_SECONDS)
    if due > now + ahead:  # (a timer) the sweeper publishes it that long before it is due
        retry = due - ahead
    followup = FollowUp(
        id=uuid.uuid4(),
        match=match,
        version=match.version,
        kind=kind,
        queue=queue,
        due_at=due,
        next_attempt_at=retry,
    )
    followup.counted = counted  # (not a column: the count to give back if it is not kept)
    followup.paced = kind == FollowUpKind.COM  # (and the decision time it reserved)
    return followup


def _not_kept(followup: FollowUp | None) -> None:
    """A follow-up made and not kept (its write was not made, or the work was already
    there): its COM turn is given back to its account's count."""
    key = getattr(followup, "counted", None)
    if key is not None:
        with contextlib.suppress(Exception):  # (the cache is only a brake)
            cache.decr(key)
    if followup is not None and getattr(followup, "paced", False):
        _charge(followup.match, followup.version, 0.0)


def _com_due(match: Match, now: datetime, queue: str) -> tuple[datetime, str | None]:
    """When a COM's turn is due: ``COM_MOVE_DELAY_MS`` from now, or, once the COMs whose
    turns answered one account's moves have taken ``COM_TURNS_PER_MINUTE`` turns this
    minute on the match's ``queue``, in the first minute after with room for it, counted there, and
    spread over that minute as its turns come (the counts are in the shared cache; with the
    cache away, turns are not bounded). The queues are counted apart: COMs playing each
    other, which take their turns as fast as the workers go, never put off the COM a person
    of the account waits for. The account is the one whose move, join or timed-out turn the
    COMs answer (``Match.com_turns_charged_to``: one who joins another's match and plays
    fast spends their own turns, not its creator's), else the match's creator (COMs that
    move first, or are left playing each other). Nor before the account's COMs' decision
    time lets it on that queue (``COM_SECONDS_PER_MINUTE``, matches/pacing.py): a turn of
    a costly COM counts by its time. With the key of the count it was counted in, if it
    was."""
    due = now + timedelta(milliseconds=settings.COM_MOVE_DELAY_MS)
    limit = settings.COM_TURNS_PER_MINUTE
    account = _com_account(match)
    if account is None:
        return due, None
    paced = pacing().reserve(account, queue, _com_turn_id(match.id, match.version))
    due = max(due, now + timedelta(seconds=paced))
    if not limit:
        return due, None
    minute = int(now.timestamp() // 60)
    # (an account has a COM turn waiting in each of its matches at most: few minutes ahead)
    for ahead in range(COM_MINUTES_AHEAD):
        key = f"com-turns:{account}:{queue}:{minute + ahead}"
        try:
            taken = count_in(cache, key, 60 * (ahead + 2))
        except Exception:  # (the cache is only a brake)
            return due, None
        if taken <= limit:
            if not ahead:
                return due, key
            start = (minute + ahead) * 60 + (taken - 1) * 60 / limit
            return max(due, datetime.fromtimestamp(start, tz=UTC)), key
    last = datetime.fromtimestamp((minute + COM_MINUTES_AHEAD) * 60, tz=UTC)
    return max(due, last), None


def _com_turn_id(match_id: object, version: int) -> str:
    """A COM turn, as its pacing's reservation names it."""
    return f"{match_id}:{version}"


def _com_account(match: Match) -> Any:
    """The account a match's COM turns count toward (:func:`_com_due`)."""
    return match.com_turns_charged_to_id or match.created_by_id


def followup_queue(match: Match, kind: str) -> str:
    """The queue of a match's work: COM turns of a match no person sits in (a seat of an
    account, not one handed to a COM since) go to the background, the rest is interactive."""
    people = any(uid is not None for uid in match.seat_users)
    if kind == FollowUpKind.COM and not people:
        return settings.BACKGROUND_QUEUE
    return settings.INTERACTIVE_QUEUE


def _publish_on_commit(followup: FollowUp | None) -> None:
    """Hand the follow-up to the broker once the write is committed. Should the broker be
    away, the row stays and the sweeper publishes it later: the write still succeeds."""
    if followup is not None:
        from matches import tasks

        transaction.on_commit(lambda: tasks.publish(followup))


# --- the write path -----------------------------------------------------------------------------
class TokenRefused(Exception):
    """The caller's token (a :class:`~accounts.tokens.TokenCheck` an action was given) was
    revoked, or its account deactivated: nothing was written."""


def _check_token(token: TokenCheck | None, standing: bool | None) -> None:
    if token is None:
        return
    failure = token_failure(standing)
    if failure is not None:
        raise TokenRefused(failure)
    token.verified = True


def _lock(match_id: object, token: TokenCheck | None = None) -> Match:
    """The match row (with its state snapshot), locked for this transaction; with ``token``,
    the same query checks it (:class:`TokenRefused`)."""
    queryset = Match.objects.select_for_update(of=("self",))
    if token is not None:
        standing = RawSQL(
            f"SELECT {token_sql()}", [token.key, token.user_id], output_field=BooleanField()
        )
        queryset = queryset.annotate(token_standing=standing)
    try:
        match = queryset.get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError, ValidationError):
        raise errors.MatchNotFound("no such match") from None
    _check_token(token, getattr(match, "token_standing", None))
    return match


def _refresh_read_model(
    match: Match,
    before: State | None,
    state: State,
    rows: Sequence[MatchEvent],
    *,
    condition: tuple[str, Sequence[Any]] | None = None,
    idempotency: IdempotencyRecord | None = None,
    clock_goes_on: bool = False,
) -> bool:
    """Write ``rows`` and rebuild the match's read model, snapshot and seats' ``to_act``
    from ``state`` (``before`` is the state the rows were decided on). The write is made
    only while the match row is still at the version the rows follow (and ``condition``
    holds, see :func:`persist`): False when it was not made (then nothing was).
    ``clock_goes_on``: no new wait begins (:func:`_commit_events`)."""
    previous_version = rows[0].seq - 1 if rows else match.version
    game = game_of(match)
    summary = game.summary(state)
    match.round, match.rounds = summary.round, summary.rounds
    match.phase = summary.phase
    match.totals = list(summary.totals)
    match.winners = list(summary.winners)
    if summary.status == "finished":
        match.status = MatchStatus.FINISHED
    elif summary.status == "aborted":
        match.status = MatchStatus.ABORTED
    if match.ended and match.ended_at is None:
        match.ended_at = timezone.now()
    to_act: tuple[int, ...] | None = game.seats_to_act(state)
    waited = None if before is None else game.seats_to_act(before)
    if waited is None or (not clock_goes_on and _new_wait(game, before, waited, to_act, summary)):
        match.turn_started_at = timezone.now()
    if waited != to_act or match.seats_to_act != list(to_act):
        match.seats_to_act = list(to_act)
    else:
        to_act = None  # unchanged (and as stored): the seats need no write
    take_snapshot(match, state)
    followup = _followup(match, state)
    written = persist(
        match,
        rows,
        to_act,
        followup,
        previous_version=previous_version,
        condition=condition,
        idempotency=idempotency,
    )
    if written:
        _publish_on_commit(followup)
    else:
        _not_kept(followup)
    return written


#: What :func:`match_rebuild` writes from the replay and the seats: every cache of the log
#: on the match row.
REBUILT = (
    "snapshot", "snapshot_version", "snapshot_engine", "status", "round", "rounds", "phase",
    "totals", "winners", "seats_to_act", "seat_users", "rules", "preset",
)  # fmt: skip


@transaction.atomic
def match_rebuild(*, match_id: object) -> list[str]:
    """Write a match's caches again from its log (the truth; it is not touched): its
    snapshot; its read model (status, round, rounds, phase, totals, winners, the seats to
    act, on the match and its seats); the rules and preset it serves (those its log began
    with); and who sits where (``seat_users``) as its seat rows say. The names of those
    that were not so (empty: nothing was written)."""
    match = _lock(match_id)
    game = game_of(match)
    rows = load_events(match)
    events = [to_event(row, game) for row in rows]
    state = game.replay(events)
    kept = {name: json.loads(json.dumps(getattr(match, name))) for name in REBUILT}
    seats = list(match.seats.order_by("index"))
    for name, value in replayed_read_model(game, state, seats).items():
        setattr(match, name, value)
    if match.ended and match.ended_at is None:
        match.ended_at = rows[-1].created_at
    to_act = match.seats_to_act
    match.rules = logged_rules(game, events[0])
    match.preset = match.rules.get("preset", match.preset)
    # (one of an older format that reads as the replay's state is sound, and kept)
    if match.snapshot_version != match.version or snapshot_state(match) != state:
        take_snapshot(match, state)
    changed = [n for n in REBUILT if json.loads(json.dumps(getattr(match, n))) != kept[n]]
    flags = [seat for seat in seats if seat.to_act != (seat.index in to_act)]
    for seat in flags:
        seat.to_act = seat.index in to_act
    Seat.objects.bulk_update(flags, ["to_act"])
    if changed:
        match.save(update_fields=[*changed, "ended_at"])
    return [*changed, *(["seat flags"] if flags else [])]


def _new_wait(
    game: Game, before: State, waited: Sequence[int], to_act: Sequence[int], now: Summary
) -> bool:
    """A move from ``before`` (``waited`` for) to a state ``now`` (waiting for ``to_act``)
    starts a new wait (the turn clock starts again):
    any move does, but one of several seats choosing at once (passes, bids, simultaneous
    opening flips), whose clock runs on for the others, and a turn the seat goes on with
    (the game's ``turn_goes_on_phases``: Golf's second opening flip, or its placement after
    a draw). So the seat that makes the last of several choices, or wins a trick, and acts
    next (leads, draws, says it is ready after a hole) has a new wait; and so have the
    seats of a new round, or of the end of a pause, even where they are the seats that
    were waited for (a local match's: one ``next`` ends its pause)."""
    was, info = game.summary(before), game.info
    if now.round != was.round or (
        was.phase in info.pause_phases and now.phase not in info.pause_phases
    ):  # a new round's first move is a new turn, and so is the first after a pause
        return True
    before_set, after_set = set(waited), set(to_act)
    if after_set < before_set or (after_set == before_set and len(after_set) > 1):
        return False
    return after_set != before_set or now.phase not in info.turn_goes_on_phases


def _com_to_act(match: Match, state: State) -> bool:
    """A COM is to act: in an active match (no seat open), a seat no account holds, be it
    a COM's from the start or one handed to a COM since (:func:`seat_to_com`)."""
    return match.status == MatchStatus.ACTIVE and any(
        match.seat_users[seat] is None for seat in game_of(match).seats_to_act(state)
    )


def _commit_events(
    match: Match,
    state: State | None,
    events: Sequence[Event],
    actor: str,
    *,
    clock_goes_on: bool = False,
) -> tuple[State, list[MatchEvent]]:
    """Append ``events`` to a locked match (``state`` is its state before them, ``None`` for a
    new match), refresh the read model and snapshot, and schedule follow-ups on commit.
    ``clock_goes_on``: the events are no move (a seat handed over), so whoever waits to act
    keeps the clock of their wait.

    Saving the new version makes PostgreSQL notify listeners on commit (a trigger).
    """
    rows = append_events(match, events, actor)
    new_state = game_of(match).replay(events, state)
    written = _refresh_read_model(match, state, new_state, rows, clock_goes_on=clock_goes_on)
    if not written:  # (never under the lock)
        raise RuntimeError(f"match {match.id}: a write under the row lock was not made")
    return new_state, rows


# --- creating and joining -----------------------------------------------------------------------
@dataclass(frozen=True)
class SeatRequest:
    type: str  # "me", "open", "com"
    level: str = ""


def _check_quota(
    creator: AbstractBaseUser, requests: Sequence[SeatRequest], rules: dict[str, Any]
) -> None:
    """Bound the work one account can start: the unfinished matches it is in, those it made
    with COM seats (COM turns cost the workers), and the length of a round (a game's ``max_turns``
    option, where it has one). The creator's row is locked, so parallel requests of one
    account are counted one after another."""
    if rules.get("max_turns", 0) > settings.MAX_TURNS_PER_HOLE:
        raise errors.InvalidRules(
            f"max_turns may be at most {settings.MAX_TURNS_PER_HOLE} here",
            field="rules.max_turns",
        )
    _lock_account(creator)
    _check_unfinished(creator)
    unfinished = Match.objects.filter(created_by=creator).exclude(status__in=ENDED_STATUSES)
    if any(r.type == "com" for r in requests):
        with_coms = unfinished.filter(seats__kind=SeatKind.COM).distinct().count()
        if with_coms >= settings.MAX_UNFINISHED_COM_MATCHES:
            raise errors.TooManyMatches(
                f"you have {settings.MAX_UNFINISHED_COM_MATCHES} unfinished matches with "
                "COMs: finish or abort one first",
                limit=settings.MAX_UNFINISHED_COM_MATCHES,
            )


def option_schema(name: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    """A game's rule option's JSON schema as this service plays it: a game may allow more
    than the service does (a round's ``max_turns``, at most ``MAX_TURNS_PER_HOLE`` here:
    :func:`_check_quota`)."""
    bounded = dict(schema)
    if name == "max_turns":
        cap = settings.MAX_TURNS_PER_HOLE
        bounded["maximum"] = min(bounded.get("maximum", cap), cap)
    return bounded


def _check_unfinished(user: AbstractBaseUser, joining: Match | None = None) -> None:
    """Refuse a match to an account already in ``MAX_UNFINISHED_MATCHES`` unfinished ones
    (made or joined; its row locked by the caller). Joins count too: each match one joins
    is a creator's lobby one may hold up, and only its creator's bound was counted. (A
    match being joined that the account made already counts: it is not counted again.)"""
    # one list of ids, not an OR of the two: each part reads its own index (an OR with a
    # subquery reads every match ever stored, here with the account's row locked)
    mine = Seat.objects.filter(user=user).values("match_id")
    mine = mine.union(Match.objects.filter(created_by=user).values("id"))
    unfinished = Match.objects.filter(pk__in=mine).exclude(status__in=ENDED_STATUSES)
    if joining is not None:
        unfinished = unfinished.exclude(pk=joining.pk)
    if unfinished.count() >= settings.MAX_UNFINISHED_MATCHES:
        raise errors.TooManyMatches(
            f"you are in {settings.MAX_UNFINISHED_MATCHES} unfinished matches: finish one first",
            limit=settings.MAX_UNFINISHED_MATCHES,
        )


def _parse_seats(
    game: Game, preset: str, seats: Sequence[dict[str, Any]] | None, spectate: bool, local: bool
) -> list[SeatRequest]:
    """The seat requests of a new match: ``seats`` as sent, or the preset's default table.
    A COM level may be named by one of its aliases (stored as the level it names). In a
    local match every human seat is ``me`` (the creator's device); elsewhere one at most."""
    if seats is None:
        if preset not in game.info.default_seats:
            raise errors.InvalidMatchRequest(
                f"{game.info.title}'s preset {preset} has no default table: list the seats",
                field="seats",
            )
        seats = [{"type": kind} for kind in game.info.default_seats[preset]]
    levels = list(game.info.com_levels)
    aliases = game.info.com_level_aliases
    if not isinstance(seats, (list, tuple)) or not seats:
        raise errors.InvalidMatchRequest("seats must be a non-empty list", field="seats")
    parsed = []
    for i, item in enumerate(seats):
        kind = item.get("type") if isinstance(item, dict) else None
        if kind not in ("me", "open", "com"):
            raise errors.InvalidMatchRequest(
                f"seat {i}: type must be 'me', 'open' or 'com'", field="seats"
            )
        if kind != "com" and "level" in item:
            raise errors.InvalidMatchRequest(
                f"seat {i}: only a COM seat has a level", field=f"seats[{i}].level"
            )
        level = item.get("level", game.info.default_com_level) if kind == "com" else ""
        level = aliases.get(level, level)
        if kind == "com" and level not in levels:
            named = levels + [f"{a} (= {b})" for a, b in aliases.items()]
            raise errors.InvalidMatchRequest(
                f"seat {i}: level must be one of {named}", field=f"seats[{i}].level"
            )
        parsed.append(SeatRequest(kind, level))
    mine = sum(1 for s in parsed if s.type == "me")
    if local and any(s.type == "open" for s in parsed):
        raise errors.InvalidMatchRequest(
            "a local match is played on one device: its human seats are all 'me', none open",
            field="seats",
        )
    if mine > 1 and not local:
        raise errors.InvalidMatchRequest(
            "at most one seat can be 'me' (several in a local match)", field="seats"
        )
    if not spectate and not mine:
        raise errors.InvalidMatchRequest(
            "no seat is 'me': take a seat, or set spectate to create a match you only watch",
            field="seats",
        )
    if spectate and mine:
        raise errors.InvalidMatchRequest("a spectated match has no 'me' seat", field="spectate")
    return parsed


@transaction.atomic
def match_create(
    *,
    creator: AbstractBaseUser,
    game: str = DEFAULT_GAME,
    preset: str | None = None,
    rules: dict[str, Any] | None = None,
    seats: Sequence[dict[str, Any]] | None = None,
    hints: bool = True,
    turn_timeout: int | None = None,
    round_pause_seconds: int | None = None,
    pause_field: str = "round_pause_seconds",
    spectate: bool = False,
    seed: bytes | None = None,
) -> Match:
    """Create a match of ``game``, commit to its secret seed and deal the first round.

    ``rules`` overrides the preset (by default the game's own) option by option. ``seats``
    lists each seat as ``{"type": "me"}``, ``{"type": "open"}`` or ``{"type": "com",
    "level": "hard"}`` (``None``: the preset's default table); one of them is the
    creator's unless ``spectate`` (a match the creator only watches). When the rules say
    ``local`` (pass-and-play, for a game with that option), every human seat is the
    creator's. ``round_pause_seconds`` bounds the game's pause between rounds (its
    ``pause_phases``): after that long the server says "ready" for the humans; an error
    about it names ``pause_field``, the request's name for it (Golf's ``hole_pause_seconds``).
    """
    try:
        played = get_game(game)
    except UnknownGame as exc:
        raise errors.InvalidMatchRequest(str(exc), field="game") from None
    preset = preset or played.info.default_preset
    if preset not in played.info.presets:
        raise errors.InvalidMatchRequest(
            f"preset must be one of {list(played.info.presets)}", field="preset"
        )
    resolved = played.rules(preset, rules or {})
    rules_json = played.rules_to_json(resolved)
    local = rules_json.get("local") is True
    requests = _parse_seats(played, preset, seats, spectate, local)
    low, high = played.info.min_seats, played.info.max_seats
    if not low <= len(requests) <= high:  # (rules may narrow it: start() says why)
        raise errors.InvalidMatchRequest(
            f"a {played.info.title} match has {low} to {high} seats", field="seats"
        )
    _check_quota(creator, requests, rules_json)
    kinds = [{"me": HUMAN, "open": OPEN, "com": COM}[s.type] for s in requests]
    seed = seed or new_seed()
    events = played.start(resolved, kinds, seed)  # validates seats against the rules
    if turn_timeout is not None and not 10 <= turn_timeout <= 30 * 24 * 3600:
        raise errors.InvalidMatchRequest(
            "turn_timeout must be between 10 seconds and 30 days", field="turn_timeout"
        )
    if round_pause_seconds is not None and not 0 <= round_pause_seconds <= 24 * 3600:
        raise errors.InvalidMatchRequest(
            f"{pause_field} must be between 0 and a day", field=pause_field
        )
    if round_pause_seconds is not None and not played.info.pause_phases:
        raise errors.InvalidMatchRequest(
            f"{played.info.title} has no pause between rounds to bound", field=pause_field
        )
    pause_option = played.info.pause_option
    if round_pause_seconds is not None and pause_option and rules_json.get(pause_option) is False:
        raise errors.InvalidMatchRequest(
            f"with {pause_option} off there is no pause between rounds to bound",
            field=pause_field,
        )
    has_open = any(s.type == "open" for s in requests)
    first = played.replay(events)
    to_act = played.seats_to_act(first)
    match = Match.objects.create(
        game=game,
        preset=preset,
        rules=rules_json,
        status=MatchStatus.WAITING if has_open else MatchStatus.ACTIVE,
        created_by=creator,
        seed_commitment=commitment_of(seed),
        chain_key_id=settings.EVENT_CHAIN_KEY_ID,
        hints_enabled=hints,
        turn_timeout=turn_timeout,
        round_pause_seconds=round_pause_seconds,
        local=local,
        seat_users=[creator.pk if s.type == "me" else None for s in requests],
    )
    now = timezone.now()
    Seat.objects.bulk_create(
        Seat(
            match=match,
            index=i,
            kind={"me": SeatKind.HUMAN, "open": SeatKind.OPEN, "com": SeatKind.COM}[s.type],
            user=creator if s.type == "me" else None,
            com_level=s.level,
            joined_at=now if s.type != "open" else None,
            to_act=i in to_act,
            shared=local and s.type == "me",
        )
        for i, s in enumerate(requests)
    )
    rows = append_events(match, events, actor=f"user:{creator.pk}")
    if not _refresh_read_model(match, None, first, rows):
        raise RuntimeError(f"match {match.id}: the new match's write was not made")
    return match


def _lock_account(user: AbstractBaseUser) -> None:
    """Lock the account's row for the rest of the transaction, and refuse an account
    suspended since its request was let in: a suspension locks the same row, so it comes
    wholly before (refused here) or wholly after (and finds the new match or seat)."""
    # FOR NO KEY UPDATE: it waits for a suspension (FOR UPDATE) but not for the key-share
    # locks a write takes on the account's row (its idempotency record's foreign key)
    # under another match's lock, which would deadlock with this one's order (account,
    # then match)
    # (the user model, not type(user): a session's user is a lazy object)
    accounts = get_user_model().objects
    locked = accounts.select_for_update(no_key=True).filter(pk=user.pk).first()
    if locked is None:
        raise errors.PermissionDenied("this account no longer exists")
    if getattr(locked, "suspended_at", None) is not None:
        raise errors.AccountSuspended(
            "this account is suspended: it cannot log in or make requests until the "
            "operators lift the suspension"
        )


@transaction.atomic
def match_join(*, match_id: object, user: AbstractBaseUser, seat: int | None = None) -> Seat:
    """Take an open seat (the first one, or ``seat``): the log gains the game's
    ``seat_taken``, so the version moves on and every reader of the match learns of it.
    Once no seat is open the match is active and its first turns are due."""
    _lock_account(user)
    match = _lock(match_id)
    if match.ended:
        raise errors.MatchNotActive("the match has ended")
    seats = list(match.seats.all())
    if seat is not None and not 0 <= seat < len(seats):
        raise errors.InvalidMatchRequest(
            f"seat must be between 0 and {len(seats) - 1} in this match", field="seat"
        )
    if any(s.user_id == user.pk for s in seats):
        raise errors.AlreadySeated("you already have a seat in this match")
    if any(s.handed_from_id == user.pk for s in seats):  # (a lobby seat staff handed over)
        raise errors.AlreadySeated(
            "you held a seat of this match, now a COM's: you know its cards, so you may not "
            "take another"
        )
    open_seats = [s for s in seats if s.kind == SeatKind.OPEN and (seat is None or s.index == seat)]
    if not open_seats:
        raise errors.NoOpenSeat(
            "that seat is not open" if seat is not None else "the match has no open seat"
        )
    _check_unfinished(user, joining=match)
    chosen = open_seats[0]
    chosen.kind = SeatKind.HUMAN
    chosen.user = user
    chosen.joined_at = timezone.now()
    chosen.save(update_fields=["kind", "user", "joined_at"])
    match.seat_users = [user.pk if s.pk == chosen.pk else s.user_id for s in seats]
    match.com_turns_charged_to_id = user.pk  # (the COMs' first turns answer this join)
    match.save(update_fields=["seat_users", "com_turns_charged_to", "updated_at"])
    if all(s.kind != SeatKind.OPEN for s in seats if s.pk != chosen.pk):
        match.status = MatchStatus.ACTIVE
    game, state = game_of(match), load_state(match)
    if game.players(state)[chosen.index] == OPEN:
        events = game.join(state, chosen.index)
        _commit_events(match, state, events, actor=f"user:{user.pk}:{chosen.index}")
    elif match.status == MatchStatus.ACTIVE:  # a log from before seat_taken: no event
        match.turn_started_at = timezone.now()
        followup = _followup(match, state)
        if followup is not None:
            followup.save(force_insert=True)
        _publish_on_commit(followup)
        match.save(update_fields=["status", "turn_started_at"])
    return chosen


# --- acting ---------------------------------------------------------------------------------------
def request_hash(action: Any, expected_version: int | None) -> str:
    return hashlib.sha256(canonical_json([action, expected_version]).encode()).hexdigest()


def seat_of(match: Match, user: AbstractBaseUser) -> int:
    """The index of ``user``'s seat, or ``not_a_participant``."""
    seat = match.seat_of_user(user.pk)
    if seat is None:
        raise errors.NotAParticipant("you have no seat in this match")
    return seat


def match_act(
    *,
    match_id: object,
    user: AbstractBaseUser,
    action: Any,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    token: TokenCheck | None = None,
) -> ActResult:
    """Apply one action of ``user``'s seat. See the module docstring for the write path.

    ``expected_version``, when given, must equal the match's version or nothing is written
    (``version_conflict``). With ``idempotency_key``, a repeat of the same request returns
    the first result and a different request with the same key is refused. With ``token``
    (the API token the request came with), the action's statements check it before
    anything else and its write is made only while it holds (:class:`TokenRefused`).

    First without the row lock, in two statements (:func:`_act_unlocked`): the row is read,
    the action decided, and the write made only if the row is still at the version read
    (compare-and-set). Should another write have come first, the action is made again the
    locked way (:func:`_match_act`), as if it had waited for that write's lock.
    """
    result = _act_unlocked(match_id, user, action, expected_version, idempotency_key, token)
    if result is not None:
        return result
    with transaction.atomic():
        return _match_act(match_id, user, action, expected_version, idempotency_key, token)


def _idempotency_record(
    match: Match, user: AbstractBaseUser, key: str, digest: str, first_seq: int
) -> IdempotencyRecord:
    return IdempotencyRecord(
        id=uuid.uuid4(),
        match_id=match.id,
        user_id=user.pk,
        key=key,
        request_hash=digest,
        first_seq=first_seq,
        version=match.version,
        created_at=timezone.now(),
    )


def _replayed(
    match: Match, record: tuple[str, int, int], digest: str
) -> ActResult:  # (request_hash, first_seq, version) of an idempotency record
    if record[0] != digest:
        raise errors.IdempotencyConflict("this Idempotency-Key was used for a different request")
    return ActResult(match, record[1], record[2], replayed=True)


def _check_action(match: Match, action_json: Any, expected_version: int | None) -> tuple[Game, Any]:
    """The game and its action, when ``action_json`` is one and the match takes actions
    at ``expected_version``."""
    game = game_of(match)
    action = game.action_from_json(action_json)
    if expected_version is not None and expected_version != match.version:
        raise errors.VersionConflict(
            f"the match is at version {match.version}, not {expected_version}",
            current_version=match.version,
        )
    if match.status != MatchStatus.ACTIVE:
        raise errors.MatchNotActive(
            "the match is waiting for players"
            if match.status == MatchStatus.WAITING
            else "the match has ended"
        )
    if match.version >= settings.MAX_EVENTS_PER_MATCH:
        raise errors.MatchTooLong(
            f"the match has {match.version} events, as many as a match may have: it takes "
            "no more actions (it can still be aborted)",
            limit=settings.MAX_EVENTS_PER_MATCH,
        )
    return game, action


def _act_unlocked(
    match_id: object,
    user: AbstractBaseUser,
    action_json: Any,
    expected_version: int | None,
    idempotency_key: str | None,
    token: TokenCheck | None,
) -> ActResult | None:
    """The action in two statements and no row lock: one reads the match row (with the
    token's standing and the key's idempotency record), one writes if the row is still at
    the version read (and the token still holds). ``None``: it was not (nothing written)."""
    try:
        pk = match_id if isinstance(match_id, uuid.UUID) else uuid.UUID(str(match_id))
    except ValueError:
        raise errors.MatchNotFound("no such match") from None
    columns = [match_columns_sql(), "m.xmin::text"]  # (the row's version: see the write)
    params: list[Any] = []
    joins = ""
    if token is not None:
        columns.insert(0, token_sql())
        params += [token.key, token.user_id]
    params.append(pk)
    if idempotency_key is not None:
        columns += ["r.request_hash", "r.first_seq", "r.version"]
        joins = (
            f" LEFT JOIN {IdempotencyRecord._meta.db_table} r ON r.match_id = m.id "
            "AND r.user_id = %s AND r.key = %s"
        )
        params += [user.pk, idempotency_key]
    sql = (
        f"SELECT {', '.join(columns)} FROM (SELECT 1) AS one "
        f"LEFT JOIN {Match._meta.db_table} m ON m.id = %s{joins}"
    )
    row = list(fetch_prepared(sql, params) or ())
    if token is not None:
        _check_token(token, row.pop(0))
    record = row[-3:] if idempotency_key is not None else None
    if record is not None:
        del row[-3:]
    row_read = row.pop()
    if row[0] is None:
        raise errors.MatchNotFound("no such match")
    match = match_from_row(row)
    seat = seat_of(match, user)
    digest = request_hash(action_json, expected_version) if idempotency_key is not None else ""
    if record is not None and record[0] is not None:
        return _replayed(match, record, digest)
    state, new_state, rows, first_seq, idempotency = _decided(
        match, user, seat, action_json, expected_version, idempotency_key, digest
    )
    # The row must be as read when the write is made (its xmin, the transaction that wrote
    # this version of the row, unchanged), not only at the version read: a seat handed to a
    # COM since the read (which moves no version) sends the action the locked way, which
    # refuses it if the seat was the user's, and else schedules the turns with the COM
    # where it now sits (the follow-up decided here would treat that seat as a person's);
    # caches written again from the log (``match_rebuild``) send it there too, to be
    # decided anew on them. And the token must still hold.
    checks = [("xmin = %s::xid", (row_read,))]
    if token is not None:
        checks.append((token_sql(), (token.key, token.user_id)))
    condition = (
        " AND ".join(f"({sql})" for sql, _ in checks),
        tuple(param for _, params in checks for param in params),
    )
    written = _refresh_read_model(
        match, state, new_state, rows, condition=condition, idempotency=idempotency
    )
    if not written:
        return None
    return ActResult(match, first_seq, match.version, state=new_state, rows=rows)


def _decided(
    match: Match,
    user: AbstractBaseUser,
    seat: int,
    action_json: Any,
    expected_version: int | None,
    idempotency_key: str | None,
    digest: str,
) -> tuple[Any, Any, list[MatchEvent], int, IdempotencyRecord | None]:
    """``seat``'s action decided on ``match`` as read: the state before and after, the new
    events' rows, the first new sequence number, and the key's record (or ``None``)."""
    game, action = _check_action(match, action_json, expected_version)
    match.com_turns_charged_to_id = user.pk  # (the COMs' turns that follow answer this move)
    state = load_state(match)
    events = game.decide(state, seat, action)
    first_seq = match.version + 1
    # the seat is recorded with the account: in a local match the account holds several,
    # and a seat handed to a COM later is no longer the account's to look up
    rows = append_events(match, events, actor=f"user:{user.pk}:{seat}")
    new_state = game.replay(events, state)
    idempotency = None
    if idempotency_key is not None:
        idempotency = _idempotency_record(match, user, idempotency_key, digest, first_seq)
    return state, new_state, rows, first_seq, idempotency


def _match_act(
    match_id: object,
    user: AbstractBaseUser,
    action_json: Any,
    expected_version: int | None,
    idempotency_key: str | None,
    token: TokenCheck | None = None,
) -> ActResult:
    """The action under the match row's lock (inside ``transaction.atomic``)."""
    match = _lock(match_id, token)
    seat = seat_of(match, user)
    digest = request_hash(action_json, expected_version)
    if idempotency_key is not None:
        record = (
            IdempotencyRecord.objects.filter(match=match, user=user, key=idempotency_key)
            .values_list("request_hash", "first_seq", "version")
            .first()
        )
        if record is not None:
            return _replayed(match, record, digest)
    state, new_state, rows, first_seq, idempotency = _decided(
        match, user, seat, action_json, expected_version, idempotency_key, digest
    )
    if not _refresh_read_model(match, state, new_state, rows, idempotency=idempotency):
        raise RuntimeError(f"match {match.id}: a write under the row lock was not made")
    return ActResult(match, first_seq, match.version, state=new_state, rows=rows)


# --- moves the server makes: COM turns and timed-out turns --------------------------------
TIMER_ACTOR = "timer"
MAX_MOVES_PER_TURN = 500  # a safety net: no game's turn is anywhere near this long


def com_rng(match_id: object, version: int, seat: int) -> random.Random:
    """A COM's random source: the same for a given match, version and seat (a retried turn
    makes the same move), keyed by the server's ``SECRET_KEY`` so that no player can
    foresee it (an ``easy`` COM's blunders, foreseen, would tell what it holds), and never
    from the match seed."""
    digest = salted_hmac("matches.com_rng", f"{match_id}:{version}:{seat}", algorithm="sha256")
    return random.Random(int.from_bytes(digest.digest()[:8], "big"))


class DecisionTimes:
    """How long the COMs of each game, level and phase took to decide, lately, in this
    process (a phase's decisions, a pass or a play, are alike; the phase is public), and,
    through ``shared`` (the cache every worker shares), in the other processes.

    A COM's move is taken no sooner than the slowest of its last ``KEEP`` decisions took
    (up to ``COM_EVEN_TIMING_MS``): the time a move takes then tells nothing of the hand it
    was decided on. Without it, a reader of the events' times (or of when a stream sends
    them) learns what the rules hide: a move decided at once was a forced one (the seat
    had one card to play, so it is void in the suit led), a slow one was not.

    A process begins with none of its own (and does not count its first decision of a
    kind, a cold one, its modules and caches loaded, which would hold the rest back): until
    it has ``WARM`` of a kind, its floor is also at least the one the warm processes before
    it published, so its first moves are held back as long as theirs, not told apart by
    being quick. Only a warm process publishes: a new one's few decisions (a forced one
    among them) never lower the floor the others start from.
    """

    KEEP = 200
    WARM = 20
    SHARED_SECONDS = 24 * 3600  # how long a published floor outlives its process

    def __init__(self, shared: Any | None = None) -> None:
        self._times: dict[tuple[str, ...], deque[float]] = {}
        self._published: dict[tuple[str, ...], float] = {}
        self._lock = threading.Lock()
        self.shared = shared

    def typical(self, key: tuple[str, ...]) -> float | None:
        """The mean of the key's last decisions in this process (to the hundredth of a
        second), or ``None`` before there are any: what a decision of the kind costs,
        whatever the hand it was made on."""
        with self._lock:
            times = self._times.get(key)
            if not times:
                return None
            return round(sum(times) / len(times), 2)

    def floor(self, key: tuple[str, ...]) -> float:
        with self._lock:
            times = self._times.get(key)
            local = max(times) if times else 0.0
            warm = times is not None and len(times) >= self.WARM
        return local if warm else max(local, self._shared_floor(key))

    def note(self, key: tuple[str, ...], seconds: float) -> None:
        """Keep ``seconds`` among the key's last (not a process's first decision of a
        kind), and, once warm, publish the key's floor when it has changed."""
        with self._lock:
            if key not in self._times:
                self._times[key] = deque(maxlen=self.KEEP)
                return
            self._times[key].append(seconds)
            if len(self._times[key]) < self.WARM:
                return
            local = max(self._times[key])
            if self._published.get(key) == local:
                return
            self._published[key] = local
        self._publish(key, local)

    def _shared_key(self, key: tuple[str, ...]) -> str:
        return "com-decision-floor:" + ":".join(key)

    def _shared_floor(self, key: tuple[str, ...]) -> float:
        if self.shared is None:
            return 0.0
        try:
            return float(self.shared.get(self._shared_key(key), 0.0))
        except Exception as exc:  # (the cache is away: this process's own floor alone)
            logger.warning("the cache is away (%s): COM timing on this process's own", exc)
            return 0.0

    def _publish(self, key: tuple[str, ...], seconds: float) -> None:
        if self.shared is None:
            return
        try:
            self.shared.set(self._shared_key(key), seconds, self.SHARED_SECONDS)
        except Exception as exc:
            logger.warning("the cache is away (%s): COM timing not published", exc)


decision_times = DecisionTimes(shared=cache)


def decided_evenly(
    game: Game, state: State, seat: int, level: str, rng: random.Random
) -> tuple[Any, float, float]:
    """The COM's move for ``seat``, the seconds it is to wait before it is taken (as long
    as its recent decisions took, less this one's time), and the seconds its account is
    charged for it (matches/pacing.py): not this decision's own time, which would show
    in when the account's next COM turn comes what the wait hides, but the mean of its
    kind's lately (until there is one, the wait's floor, or its own time while moves are
    taken as soon as decided)."""
    cap = settings.COM_EVEN_TIMING_MS / 1000
    started = time.monotonic()
    action = game.com_action(state, seat, level, rng)
    took = time.monotonic() - started
    if cap <= 0:  # (moves taken as soon as decided: nothing to keep, or to hide)
        return action, 0.0, took
    key = (game.info.name, level, game.summary(state).phase)
    floor = min(decision_times.floor(key), cap)
    typical = decision_times.typical(key)
    decision_times.note(key, took)
    charged = typical if typical is not None else floor
    return action, max(0.0, floor - took), charged


def auto_move(
    *, match_id: object, expected_version: int, levels: dict[int, str], timer: bool = False
) -> ActResult | None:
    """One move for the first seat to act among ``levels`` (seat -> COM level), chosen by
    the game's COM of that level from the seat's view. The events are recorded as that
    seat's COM's (``com:<level>:<seat>``), or with ``timer`` as the turn timer's for that
    seat (``timer:<seat>``). Returns ``None``, writing nothing, when the match
    moved past ``expected_version``, is not active, or none of those seats is to act: such
    a request is stale.

    The move is decided without the row lock, and taken no sooner than the COM's recent
    decisions took (:class:`DecisionTimes`); it is written under the lock only while the
    match is still at ``expected_version`` (the state it was decided on).
    """
    decided = decide_auto_move(match_id, expected_version, levels)
    return None if decided is None else _take(decided, match_id, expected_version, timer)


@dataclass(frozen=True)
class Decided:
    """A move decided for a seat (:func:`decide_auto_move`): its game, the seat, its COM's
    level, the move, and the seconds to wait before it is taken."""

    game: Game
    seat: int
    level: str
    action: Any
    wait: float


def decide_auto_move(
    match_id: object,
    expected_version: int,
    levels: dict[int, str],
    *,
    charged: bool = False,
) -> Decided | None:
    """The move of the first seat among ``levels`` to act, decided without the row lock
    (:func:`decided_evenly`); ``None`` when the match is not at ``expected_version``, not
    active, or none of them is to act. ``charged``: a COM's turn, whose time counts
    against its account's (matches/pacing.py); one gone stale gives back what it reserved."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    seat = None
    if match.version == expected_version and match.status == MatchStatus.ACTIVE:
        game = game_of(match)
        state = load_state(match)
        seat = next((s for s in game.seats_to_act(state) if s in levels), None)
    if seat is None:
        if charged:
            _charge(match, expected_version, 0.0)
        return None
    rng = com_rng(match.id, match.version, seat)
    action, wait, cost = decided_evenly(game, state, seat, levels[seat], rng)
    if charged:
        _charge(match, expected_version, cost)
    return Decided(game, seat, levels[seat], action, wait)


def _charge(match: Match, version: int, seconds: float) -> None:
    """A decision of ``seconds`` for the COM turn of ``match`` at ``version``, charged to
    its account (0: the turn was not decided, and gives back what it reserved)."""
    queue = followup_queue(match, FollowUpKind.COM)
    pacing().charge(_com_account(match), queue, seconds, _com_turn_id(match.id, version))


def _take(
    decided: Decided, match_id: object, expected_version: int, timer: bool = False
) -> ActResult | None:
    """``decided``, taken once its wait is over (waited out here)."""
    if decided.wait:
        time.sleep(decided.wait)
    return commit_auto_move(
        match_id=match_id,
        expected_version=expected_version,
        seat=decided.seat,
        level=decided.level,
        action=decided.action,
        timer=timer,
    )


def commit_auto_move(
    *,
    match_id: object,
    expected_version: int,
    seat: int,
    level: str,
    action: Any = None,
    action_json: Any = None,
    timer: bool = False,
) -> ActResult | None:
    """Write ``seat``'s move ``action`` (its COM's, or with ``timer`` the turn timer's; or
    the one ``action_json`` writes, read with the match's game), decided at
    ``expected_version``, under the row lock while the match is still there
    (``None`` if it moved on: its own write scheduled what comes next). The state is read
    again under the lock, not taken from the decision: a repair of the match's caches
    (:func:`match_rebuild`) may have replaced the snapshot it was decided on. A move the
    state read so does not allow (only then) is not written either: the turn's follow-up,
    still there, has it decided again."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.version != expected_version or match.status != MatchStatus.ACTIVE:
            return None
        game = game_of(match)
        state = load_state(match)
        if seat not in game.seats_to_act(state):
            return None
        try:
            if action is None:
                action = game.action_from_json(action_json)
            events = game.decide(state, seat, action)
        except (IllegalActionError, MalformedActionError):
            logger.warning(
                "match %s: a move decided at %s no longer fits it", match.id, match.version
            )
            return None
        first_seq = match.version + 1
        if timer:  # (the COMs' turns that follow answer this seat's turn run out)
            match.com_turns_charged_to_id = match.seat_users[seat] or match.com_turns_charged_to_id
        who = f"{TIMER_ACTOR}:{seat}" if timer else f"com:{level}:{seat}"
        new_state, rows = _commit_events(match, state, events, actor=who)
        return ActResult(match, first_seq, match.version, state=new_state, rows=rows, seat=seat)


#: How long a COM's move decided to be written later (:func:`com_turn`) is kept for it.
DECIDED_MOVE_SECONDS = 600


def _decided_key(match_id: object, version: int, seat: int) -> str:
    return f"com-move:{match_id}:{version}:{seat}"


def com_turn(
    *,
    match_id: object,
    expected_version: int,
    later: Callable[[int, str, float], object] | None = None,
) -> bool:
    """The move of the first COM seat to act (each move is its own write, so readers see
    COM moves one by one; the next is scheduled by the write). False when stale. A move to
    wait for (:func:`decided_evenly`) is kept in the cache and ``later(seat, level,
    seconds)`` asked to write it then (a worker's task with a countdown: no worker waits),
    if given; else it is waited for here. The move is not in what ``later`` sends: a task's
    arguments go to the broker and, at some log levels, to the workers' logs, and a COM's
    pass, bid or next card is hidden."""
    levels = dict(
        Seat.objects.filter(match_id=match_id, kind=SeatKind.COM).values_list("index", "com_level")
    )
    decided = decide_auto_move(match_id, expected_version, levels, charged=True) if levels else None
    if decided is None:
        return False
    if decided.wait and later is not None:
        action = decided.game.action_to_json(decided.action)
        with contextlib.suppress(Exception):  # (the cache away: the move is decided again)
            key = _decided_key(match_id, expected_version, decided.seat)
            cache.set(key, action, DECIDED_MOVE_SECONDS)
        later(decided.seat, decided.level, decided.wait)
        return True
    return _take(decided, match_id, expected_version) is not None


def com_move_later(
    *,
    match_id: object,
    expected_version: int,
    seat: int,
    level: str,
    action_json: Any = None,
) -> bool:
    """Write the COM's move :func:`com_turn` decided for ``seat`` and kept, while the match
    is still at ``expected_version`` (``action_json``: a move sent with the task, as
    before moves were kept). A move the cache lost is decided again (the same draw of the
    COM's randomness, :func:`com_rng`), and written at once."""
    if action_json is None:
        with contextlib.suppress(Exception):
            action_json = cache.get(_decided_key(match_id, expected_version, seat))
    action = None
    if action_json is None:
        decided = decide_auto_move(match_id, expected_version, {seat: level}, charged=True)
        if decided is None or decided.seat != seat:
            return False
        action = decided.action
    try:
        result = commit_auto_move(
            match_id=match_id,
            expected_version=expected_version,
            seat=seat,
            level=level,
            action=action,
            action_json=action_json,
        )
    except errors.MatchNotFound:
        return False
    return result is not None


def stand_in_level(game: Game) -> str:
    """The COM level that stands in for a player (a turn run out, a seat left or handed
    over): the game's middle level (``normal`` in each of ours; a game need not have one)."""
    levels = game.info.com_levels
    return levels[len(levels) // 2]


def timed_out_turn(*, match_id: object, expected_version: int) -> int:
    """Act for the humans the match waited on too long (:func:`turn_limit`): the game's
    stand-in COM (:func:`stand_in_level`) moves for the seat whose turn ran out, for the
    rest of its turn (until a move starts a new wait, :func:`_new_wait`); in a pause
    between rounds, the "ready" of every human seat still to say it. Does nothing unless
    the match
    is still at ``expected_version`` and the wait began that long ago or more. Returns the
    number of moves made."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.turn_started_at is None:
        return 0
    limit = turn_limit(match)
    if limit is None or match.version != expected_version or match.status != MatchStatus.ACTIVE:
        return 0
    if timezone.now() < match.turn_started_at + timedelta(seconds=limit):
        return 0
    pause = match.phase in game_of(match).info.pause_phases
    humans = Seat.objects.filter(match=match, kind=SeatKind.HUMAN).values_list("index", flat=True)
    stand_in = stand_in_level(game_of(match))
    levels = {seat: stand_in for seat in humans}
    moves, version, seat_in_turn = 0, expected_version, None
    clock = match.turn_started_at
    while moves < MAX_MOVES_PER_TURN:
        result = auto_move(match_id=match_id, expected_version=version, levels=levels, timer=True)
        if result is None or result.state is None:
            break
        moves += 1
        version = result.version
        if result.match.turn_started_at != clock:  # a new wait began: the players' time again
            break
        if pause:  # everyone still to say "ready", until the pause is over
            if result.match.phase not in game_of(result.match).info.pause_phases:
                break
            continue
        if seat_in_turn is None:  # the seat it first moved for: finish its turn only
            seat_in_turn = result.seat
            levels = {seat_in_turn: stand_in}
        if seat_in_turn not in game_of(result.match).seats_to_act(result.state):
            break
    return moves


ABORT_PERMISSION = "golf.abort_match"


def may_abort(match: Match, user: AbstractBaseUser) -> bool:
    """An operator with the abort permission may abort any match (being staff is not
    enough: the admin's permissions say who may); its creator one that no other person
    has joined, or that is still waiting for players (those who joined would otherwise
    hold it, and its place among the creator's unfinished matches, for good: a lobby is
    not left)."""
    if _operator(user):
        return True
    others = [uid for uid in match.seat_users if uid is not None and uid != user.pk]
    waiting = match.status == MatchStatus.WAITING
    return match.created_by_id == user.pk and (waiting or not others)


LOBBY_EXPIRED = "expired: no one joined in time"
MATCH_EXPIRED = "expired: no one moved in time"


@transaction.atomic
def idle_expire(*, match_id: object, idle: timedelta) -> bool:
    """Abort a match that nothing has changed for ``idle``: a lobby no one joined, or a
    match under way no one moved in (the system's abort: its seed is revealed); whether
    it was. Checked again under the lock: a join or a move just now keeps it."""
    match = _lock(match_id)
    if match.ended or match.updated_at > timezone.now() - idle:
        return False
    reason = LOBBY_EXPIRED if match.status == MatchStatus.WAITING else MATCH_EXPIRED
    state = load_state(match)
    _commit_events(match, state, game_of(match).abort(state, reason), actor="system")
    return True


def _operator(user: AbstractBaseUser) -> bool:
    """Whether ``user`` aborts as an operator (staff with the abort permission)."""
    return bool(getattr(user, "is_staff", False) and user.has_perm(ABORT_PERMISSION))


@transaction.atomic
def match_abort(*, match_id: object, user: AbstractBaseUser, reason: str = "") -> Match:
    """Stop a match (an operator with the abort permission, or its creator while it waits
    for players or no one else has joined); the seed is revealed. An operator's abort is
    the event's actor ``staff:<id>``, and is written to the admin log too."""
    match = _lock(match_id)
    if not may_abort(match, user):
        raise errors.PermissionDenied(
            "only operators with the abort permission, or the creator of a match that is "
            "waiting for players or that no one else has joined, may abort it"
        )
    return _abort(match, user, reason, by_operator=_operator(user))


def staff_abort(*, match_id: object, by: AbstractBaseUser, reason: str) -> Match:
    """An operator's abort on an authority the caller has checked (a suspension's:
    ``accounts.moderation``), the event's actor ``staff:<id>``."""
    with transaction.atomic():
        return _abort(_lock(match_id), by, reason, by_operator=True)


def _abort(match: Match, user: AbstractBaseUser, reason: str, *, by_operator: bool) -> Match:
    if match.ended:
        raise errors.MatchNotActive("the match has already ended")
    state = load_state(match)
    reason = reason or ("aborted by staff" if by_operator else "aborted by creator")
    events = game_of(match).abort(state, reason)
    actor = f"{'staff' if by_operator else 'user'}:{user.pk}"
    _commit_events(match, state, events, actor=actor)
    if by_operator:
        log_operator_change(user, match, f"Aborted the match ({reason})")
    return match


def log_operator_change(user: AbstractBaseUser, match: Match, message: str) -> None:
    """Write what an operator did to ``match`` to the admin log, under their name."""
    LogEntry.objects.log_actions(
        user_id=user.pk,
        queryset=[match],
        action_flag=CHANGE,
        change_message=message,
        single_object=True,
    )


@transaction.atomic
def seat_to_com(
    *, match_id: object, seat: int, level: str | None = None, by: AbstractBaseUser
) -> Match:
    """Hand a player's ``seat`` of a match that has not ended to a COM of ``level`` (by
    default the game's stand-in, :func:`stand_in_level`) (staff
    only: moderation, e.g. when the player's account is suspended). The log gains the
    game's ``seat_handed_over`` (actor ``staff:<id>``), the seat row becomes a COM's, the
    match's ``seat_users`` forgets the player, and should the seat be to act its COM's
    turn is scheduled on commit; the COM's moves are recorded as ``com:<level>:<seat>``.
    Works on a local match too (one of the creator's seats), and when only COMs remain.

    A player's action read before this change is not written after it: its write holds
    only while the seat is still the player's, and made again under the lock it is refused.
    """
    if not getattr(by, "is_staff", False):
        raise errors.PermissionDenied("only staff may hand a seat to a COM")
    match = _lock(match_id)
    if match.ended:
        raise errors.MatchNotActive("the match has already ended")
    game = game_of(match)
    info = game.info
    level = info.com_level_aliases.get(level, level) if level else stand_in_level(game)
    if level not in info.com_levels:
        raise errors.InvalidMatchRequest(
            f"level must be one of {list(info.com_levels)}", field="level"
        )
    row = Seat.objects.filter(match=match, index=seat).first()
    if row is None or row.kind != SeatKind.HUMAN:
        raise errors.InvalidMatchRequest(f"seat {seat} is not a player's seat", field="seat")
    _hand_to_com(match, row, level, actor=f"staff:{by.pk}")
    return match


def _hand_to_com(match: Match, row: Seat, level: str, actor: str) -> None:
    """Seat ``row`` of the locked ``match`` (a player's) is a COM's of ``level`` from now
    on, and the log says so (``seat_handed_over``, written by ``actor``); its COM's turn
    is scheduled on commit should the seat be to act. The wait of whoever is to act goes
    on (no new turn clock). (A seat handed over before that event existed stays a
    player's in its log for good: its seat row says whose it is.)"""
    seat = row.index
    row.handed_from = row.user
    row.kind, row.user, row.com_level, row.shared = SeatKind.COM, None, level, False
    row.save(update_fields=["kind", "user", "com_level", "shared", "handed_from"])
    match.seat_users = [None if i == seat else uid for i, uid in enumerate(match.seat_users)]
    if all(uid is None for uid in match.seat_users):  # COMs alone: their turns the creator's
        match.com_turns_charged_to_id = None
    match.save(update_fields=["seat_users", "com_turns_charged_to", "updated_at"])
    game, state = game_of(match), load_state(match)
    _commit_events(match, state, game.hand_over(state, seat), actor=actor, clock_goes_on=True)


MATCH_LEFT = "abandoned: every player left"


@transaction.atomic
def match_leave(*, match_id: object, user: AbstractBaseUser) -> Match:
    """``user`` leaves a match under way: its seat is a COM's from then on (the game's
    middle level), and the match plays on without it; the last player to leave aborts it
    instead (and keeps its seat, so it still reads the match). The log gains the game's
    ``seat_handed_over``, the player's own, as when staff hand a seat to a COM
    (:func:`seat_to_com`). A lobby is not left (its creator aborts it, and it expires),
    nor a local match (its creator holds every seat)."""
    _lock_account(user)  # (a suspension comes wholly before or after)
    match = _lock(match_id)
    if match.ended:
        raise errors.MatchNotActive("the match has already ended")
    index = seat_of(match, user)
    if match.local:
        raise errors.CannotLeave("a local match is not left: abort it instead")
    if match.status == MatchStatus.WAITING:
        raise errors.CannotLeave(
            "the match has not started and a lobby is not left: its creator may abort it, "
            "and it expires when no one joins in time"
        )
    game = game_of(match)
    if all(uid in (None, user.pk) for uid in match.seat_users):  # the last player
        state = load_state(match)
        _commit_events(match, state, game.abort(state, MATCH_LEFT), actor=f"user:{user.pk}")
        return match
    row = Seat.objects.get(match=match, index=index)
    _hand_to_com(match, row, stand_in_level(game), actor=f"user:{user.pk}:{index}")
    return match
