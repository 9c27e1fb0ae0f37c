"""The match service: every write to a match goes through here.

Every write follows one path: lock the match row (:func:`_lock`), load its state (the
snapshot on the row, plus any events after it), decide, then :func:`_commit_events`:
append the events with their sequence numbers and hashes, refresh the read model and
snapshot in the same statement, and schedule side effects on commit. Call the private
helpers only inside ``transaction.atomic`` and while holding the row lock.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from golf import (
    COM,
    HUMAN,
    Event,
    Phase,
    Rules,
    State,
    abort_match,
    action_from_json,
    decide,
    new_seed,
    replay,
    start_match,
)
from golf.state import commitment_of
from matches import errors
from matches.models import (
    ENDED_STATUSES,
    ComLevel,
    FollowUp,
    FollowUpKind,
    IdempotencyRecord,
    Match,
    MatchEvent,
    MatchStatus,
    Seat,
    SeatKind,
)
from matches.store import append_events, canonical_json, load_state, persist, take_snapshot

logger = logging.getLogger(__name__)

MATCH_OPTIONS = ("hints", "turn_timeout")


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


# --- follow-ups: the outbox ----------------------------------------------------------------
def _followup(match: Match, state: State) -> FollowUp | None:
    """The work the match waits for after this write, if it is the workers': a COM's turn,
    or the timer of a human's turn. COM turns of a match no human sits in (COMs playing
    each other) go to their own queue, so they never delay a COM reply a person waits for."""
    if match.status != MatchStatus.ACTIVE:
        return None
    now = timezone.now()
    if _com_to_act(match, state):
        kind, due = FollowUpKind.COM, now + timedelta(milliseconds=settings.COM_MOVE_DELAY_MS)
        queue = settings.INTERACTIVE_QUEUE if HUMAN in state.players else settings.BACKGROUND_QUEUE
    elif match.turn_timeout:
        kind, due = FollowUpKind.TIMER, now + timedelta(seconds=match.turn_timeout)
        queue = settings.INTERACTIVE_QUEUE
    else:
        return None
    retry = due + timedelta(seconds=settings.FOLLOWUP_RETRY_SECONDS)
    return FollowUp(
        id=uuid.uuid4(),
        match=match,
        version=match.version,
        kind=kind,
        queue=queue,
        due_at=due,
        next_attempt_at=retry,
    )


def _publish_on_commit(followup: FollowUp | None) -> None:
    """Hand the follow-up to the broker once the write is committed. Should the broker be
    away, the row stays and the sweeper publishes it later: the write still succeeds."""
    if followup is not None:
        from matches import tasks

        transaction.on_commit(lambda: tasks.publish(followup))


# --- the write path -----------------------------------------------------------------------------
def _lock(match_id: object) -> Match:
    """The match row (with its state snapshot), locked for this transaction."""
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError, ValidationError):
        raise errors.MatchNotFound("no such match") from None


def _refresh_read_model(
    match: Match, before: State | None, state: State, rows: Sequence[MatchEvent]
) -> None:
    """Write ``rows`` and rebuild the match's read model, snapshot and seats' ``to_act``
    from ``state`` (``before`` is the state the rows were decided on)."""
    match.hole = state.hole
    match.holes = state.rules.holes
    match.phase = state.phase.value
    match.totals = list(state.totals)
    match.winners = list(state.winners)
    if state.phase is Phase.FINISHED:
        match.status = MatchStatus.FINISHED
    elif state.phase is Phase.ABORTED:
        match.status = MatchStatus.ABORTED
    if match.ended and match.ended_at is None:
        match.ended_at = timezone.now()
    to_act: tuple[int, ...] | None = state.seats_to_act()
    if before is None or before.seats_to_act() != to_act:
        match.turn_started_at = timezone.now()
        match.seats_to_act = list(to_act)
    else:
        to_act = None  # unchanged: the seats need no write
    take_snapshot(match, state)
    followup = _followup(match, state)
    persist(match, rows, to_act, followup)
    _publish_on_commit(followup)


def _com_to_act(match: Match, state: State) -> bool:
    return match.status == MatchStatus.ACTIVE and any(
        state.players[seat] == COM for seat in state.seats_to_act()
    )


def _commit_events(
    match: Match, state: State | None, events: Sequence[Event], actor: str
) -> tuple[State, list[MatchEvent]]:
    """Append ``events`` to a locked match (``state`` is its state before them, ``None`` for a
    new match), refresh the read model and snapshot, and schedule follow-ups on commit.

    Saving the new version makes PostgreSQL notify listeners on commit (a trigger).
    """
    rows = append_events(match, events, actor)
    new_state = replay(events, state)
    _refresh_read_model(match, state, new_state, rows)
    return new_state, rows


# --- creating and joining -----------------------------------------------------------------------
@dataclass(frozen=True)
class SeatRequest:
    type: str  # "me", "open", "com"
    level: str = ""


def _check_quota(creator: AbstractBaseUser, requests: Sequence[SeatRequest], rules: Rules) -> None:
    """Bound the work one account can start: its unfinished matches, those of them with COM
    seats (COM turns cost the workers), and the length of a hole. The creator's row is
    locked, so parallel requests of one account are counted one after another."""
    if rules.max_turns > settings.MAX_TURNS_PER_HOLE:
        raise errors.InvalidMatchRequest(
            f"max_turns may be at most {settings.MAX_TURNS_PER_HOLE} here",
            field="rules.max_turns",
        )
    type(creator).objects.select_for_update().filter(pk=creator.pk).first()
    unfinished = Match.objects.filter(created_by=creator).exclude(status__in=ENDED_STATUSES)
    if unfinished.count() >= settings.MAX_UNFINISHED_MATCHES:
        raise errors.TooManyMatches(
            f"you have {settings.MAX_UNFINISHED_MATCHES} unfinished matches: finish or abort "
            "one first",
            limit=settings.MAX_UNFINISHED_MATCHES,
        )
    if any(r.type == "com" for r in requests):
        with_coms = unfinished.filter(seats__kind=SeatKind.COM).distinct().count()
        if with_coms >= settings.MAX_UNFINISHED_COM_MATCHES:
            raise errors.TooManyMatches(
                f"you have {settings.MAX_UNFINISHED_COM_MATCHES} unfinished matches with "
                "COMs: finish or abort one first",
                limit=settings.MAX_UNFINISHED_COM_MATCHES,
            )


def _parse_seats(seats: Sequence[dict[str, Any]], spectate: bool) -> list[SeatRequest]:
    if not isinstance(seats, (list, tuple)) or not seats:
        raise errors.InvalidMatchRequest("seats must be a non-empty list", field="seats")
    parsed = []
    for i, item in enumerate(seats):
        kind = item.get("type") if isinstance(item, dict) else None
        if kind not in ("me", "open", "com"):
            raise errors.InvalidMatchRequest(
                f"seat {i}: type must be 'me', 'open' or 'com'", field="seats"
            )
        level = item.get("level", "normal") if kind == "com" else ""
        if kind == "com" and level not in ComLevel.values:
            raise errors.InvalidMatchRequest(
                f"seat {i}: level must be one of {ComLevel.values}", field="seats"
            )
        parsed.append(SeatRequest(kind, level))
    if sum(1 for s in parsed if s.type == "me") > 1:
        raise errors.InvalidMatchRequest("at most one seat can be 'me'", field="seats")
    if not spectate and not any(s.type == "me" for s in parsed):
        raise errors.InvalidMatchRequest(
            "no seat is 'me': take a seat, or set spectate to create a match you only watch",
            field="seats",
        )
    if spectate and any(s.type == "me" for s in parsed):
        raise errors.InvalidMatchRequest("a spectated match has no 'me' seat", field="spectate")
    return parsed


@transaction.atomic
def match_create(
    *,
    creator: AbstractBaseUser,
    preset: str = "six-card",
    rules: dict[str, Any] | None = None,
    seats: Sequence[dict[str, Any]],
    hints: bool = True,
    turn_timeout: int | None = None,
    spectate: bool = False,
    seed: bytes | None = None,
) -> Match:
    """Create a match, commit to its secret seed and deal the first hole.

    ``rules`` overrides the preset field by field. ``seats`` lists each seat as
    ``{"type": "me"}``, ``{"type": "open"}`` or ``{"type": "com", "level": "hard"}``; one
    of them is the creator's unless ``spectate`` (a match the creator only watches).
    """
    requests = _parse_seats(seats, spectate)
    resolved = Rules.from_preset(preset, **(rules or {}))
    _check_quota(creator, requests, resolved)
    kinds = [COM if s.type == "com" else HUMAN for s in requests]
    seed = seed or new_seed()
    events = start_match(resolved, kinds, seed)  # validates seats against the rules
    if turn_timeout is not None and not 10 <= turn_timeout <= 30 * 24 * 3600:
        raise errors.InvalidMatchRequest(
            "turn_timeout must be between 10 seconds and 30 days", field="turn_timeout"
        )
    has_open = any(s.type == "open" for s in requests)
    first = replay(events)
    match = Match.objects.create(
        preset=preset,
        rules=resolved.to_json(),
        status=MatchStatus.WAITING if has_open else MatchStatus.ACTIVE,
        created_by=creator,
        seed_commitment=commitment_of(seed),
        chain_key_id=settings.EVENT_CHAIN_KEY_ID,
        hints_enabled=hints,
        turn_timeout=turn_timeout,
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
            to_act=i in first.seats_to_act(),
        )
        for i, s in enumerate(requests)
    )
    rows = append_events(match, events, actor=f"user:{creator.pk}")
    _refresh_read_model(match, None, first, rows)
    return match


@transaction.atomic
def match_join(*, match_id: object, user: AbstractBaseUser, seat: int | None = None) -> Seat:
    """Take an open seat (the first one, or ``seat``)."""
    match = _lock(match_id)
    if match.ended:
        raise errors.MatchNotActive("the match has ended")
    seats = list(match.seats.all())
    if any(s.user_id == user.pk for s in seats):
        raise errors.AlreadySeated("you already have a seat in this match")
    open_seats = [s for s in seats if s.kind == SeatKind.OPEN and (seat is None or s.index == seat)]
    if not open_seats:
        raise errors.NoOpenSeat(
            "that seat is not open" if seat is not None else "the match has no open seat"
        )
    chosen = open_seats[0]
    chosen.kind = SeatKind.HUMAN
    chosen.user = user
    chosen.joined_at = timezone.now()
    chosen.save(update_fields=["kind", "user", "joined_at"])
    match.seat_users = [user.pk if s.pk == chosen.pk else s.user_id for s in seats]
    fields = ["seat_users", "updated_at"]
    if all(s.kind != SeatKind.OPEN for s in seats if s.pk != chosen.pk):
        match.status = MatchStatus.ACTIVE
        match.turn_started_at = timezone.now()
        fields += ["status", "turn_started_at"]
        followup = _followup(match, load_state(match))
        if followup is not None:
            followup.save(force_insert=True)
        _publish_on_commit(followup)
    match.save(update_fields=fields)
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
) -> ActResult:
    """Apply one action of ``user``'s seat. See the module docstring for the write path.

    ``expected_version``, when given, must equal the match's version or nothing is written
    (``version_conflict``). With ``idempotency_key``, a repeat of the same request returns
    the first result and a different request with the same key is refused.
    """
    with transaction.atomic():
        return _match_act(match_id, user, action, expected_version, idempotency_key)


def _match_act(
    match_id: object,
    user: AbstractBaseUser,
    action_json: Any,
    expected_version: int | None,
    idempotency_key: str | None,
) -> ActResult:
    match = _lock(match_id)
    seat = seat_of(match, user)
    digest = request_hash(action_json, expected_version)
    if idempotency_key is not None:
        record = IdempotencyRecord.objects.filter(
            match=match, user=user, key=idempotency_key
        ).first()
        if record is not None:
            if record.request_hash != digest:
                raise errors.IdempotencyConflict(
                    "this Idempotency-Key was used for a different request"
                )
            return ActResult(match, record.first_seq, record.version, replayed=True)
    action = action_from_json(action_json)
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
    state = load_state(match)
    events = decide(state, seat, action)
    first_seq = match.version + 1
    new_state, rows = _commit_events(match, state, events, actor=f"user:{user.pk}")
    if idempotency_key is not None:
        IdempotencyRecord.objects.create(
            match=match,
            user=user,
            key=idempotency_key,
            request_hash=digest,
            first_seq=first_seq,
            version=match.version,
        )
    return ActResult(match, first_seq, match.version, state=new_state, rows=rows)


def match_act_for_seat(
    *,
    match_id: object,
    pick_seat: Callable[[State], int | None],
    choose: Callable[[State, int], Any],
    expected_version: int,
    actor: Callable[[int], str],
) -> ActResult | None:
    """Play a move on the server's behalf (a COM's, or a timed-out human's).

    ``pick_seat(state)`` names the seat to move for, ``choose(state, seat)`` its action,
    ``actor(seat)`` the actor recorded on the events. Returns ``None``, writing nothing,
    when the match moved past ``expected_version``, is not active, or has no such seat to
    act: such a request is stale.
    """
    with transaction.atomic():
        match = _lock(match_id)
        if match.version != expected_version or match.status != MatchStatus.ACTIVE:
            return None
        state = load_state(match)
        seat = pick_seat(state)
        if seat is None or seat not in state.seats_to_act():
            return None
        action = choose(state, seat)
        if action is None:
            return None
        events = decide(state, seat, action)
        first_seq = match.version + 1
        new_state, rows = _commit_events(match, state, events, actor=actor(seat))
        return ActResult(match, first_seq, match.version, state=new_state, rows=rows)


def may_abort(match: Match, user: AbstractBaseUser) -> bool:
    """Staff may abort any match; its creator one that no other person has joined."""
    if getattr(user, "is_staff", False):
        return True
    others = [uid for uid in match.seat_users if uid is not None and uid != user.pk]
    return match.created_by_id == user.pk and not others


@transaction.atomic
def match_abort(*, match_id: object, user: AbstractBaseUser, reason: str = "") -> Match:
    """Stop a match (staff, or its creator while no one else has joined); the seed is
    revealed."""
    match = _lock(match_id)
    if not may_abort(match, user):
        raise errors.PermissionDenied(
            "only staff, or the creator of a match no one else has joined, may abort it"
        )
    if match.ended:
        raise errors.MatchNotActive("the match has already ended")
    state = load_state(match)
    staff = getattr(user, "is_staff", False)
    events = abort_match(state, reason or ("aborted by staff" if staff else "aborted by creator"))
    _commit_events(match, state, events, actor=f"{'staff' if staff else 'user'}:{user.pk}")
    return match
