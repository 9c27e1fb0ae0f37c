"""Reads of the match store, always shaped for one viewer.

Nothing here returns a game's state: every card a caller receives went through the
game's view or event redaction (``game.view``, ``game.redact``) for that caller's seat.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet

from cards.protocol import Game
from matches import errors
from matches.models import Match, MatchEvent, MatchStatus, Seat, SeatKind
from matches.services import TIMER_ACTOR, turn_limit
from matches.store import (
    State,
    game_of,
    load_events,
    load_state,
    state_at,
    to_event,
    verify_chain,
)


def get_match(match_id: object) -> Match:
    try:
        return Match.objects.prefetch_related("seats__user").get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError, ValidationError):
        raise errors.MatchNotFound("no such match") from None


def seat_index_for(
    match: Match, user: AbstractBaseUser | None, to_act: Sequence[int] | None = None
) -> int | None:
    """The seat ``user`` plays (``None``: a spectator's view). In a local match, where the
    user holds every human seat, the first of them to act now, or in ``to_act`` (the seats
    to act at an earlier version)."""
    if user is None or not user.is_authenticated:
        return None
    return match.seat_of_user(user.pk, to_act)


def seats_held(match: Match, user: AbstractBaseUser | None) -> list[int]:
    """Every seat ``user`` holds: one, every human seat of a local match, or none."""
    if user is None or not user.is_authenticated:
        return []
    return [i for i, uid in enumerate(match.seat_users) if uid == user.pk]


def seats_json(match: Match) -> list[dict[str, Any]]:
    # ``to_act`` comes from the match row, not the seat rows: a read of the match and then
    # its seats could straddle a write, and the flags must agree with the version.
    return [
        {
            "index": s.index,
            "kind": s.kind,
            "username": s.user.get_username() if s.user_id else None,
            "com_level": s.com_level or None,
            "to_act": s.index in match.seats_to_act,
        }
        for s in match.seats.all()
    ]


def view_json(match: Match, state: State, seat: int | None) -> dict[str, Any]:
    """``seat``'s view (``None``: a spectator's) of the match in ``state``."""
    return game_of(match).view(state, seat)


def match_view(match: Match, user: AbstractBaseUser | None) -> dict[str, Any]:
    """The caller's view of the match now: their seat's view, or the spectator view.

    With a turn timer (or a bounded pause between rounds, which is in force), the view
    also says when the wait began and when it runs out (``turn_started_at``,
    ``turn_deadline``), and a seated player's view lists ``auto_moves``: the sequence
    numbers of the events the server made for them when their time ran out.
    """
    seat = seat_index_for(match, user)
    return with_clock(view_json(match, load_state(match), seat), match, seat)


def with_clock(view: dict[str, Any], match: Match, seat: int | None) -> dict[str, Any]:
    """``view`` (``seat``'s, of ``match`` as it is now) with the turn timer's fields
    (:func:`match_view`), where the match has a timer."""
    limit = turn_limit(match)
    if limit is not None and match.status == MatchStatus.ACTIVE and match.turn_started_at:
        view["turn_started_at"] = match.turn_started_at.isoformat()
        deadline = match.turn_started_at + timedelta(seconds=limit)
        view["turn_deadline"] = deadline.isoformat()
    if seat is not None and (match.turn_timeout or match.round_pause_seconds is not None):
        view["auto_moves"] = list(auto_moves(match, seat))
    return view


def auto_moves(match: Match, seat: int) -> QuerySet[MatchEvent, int]:
    """The sequence numbers of the events the turn timer made for ``seat``, read from an
    index of the timer's moves (not from every event of the match)."""
    return (
        MatchEvent.objects.filter(
            Q(actor=f"{TIMER_ACTOR}:{seat}") | Q(actor=TIMER_ACTOR, payload__seat=seat),
            match=match,
            actor__startswith=TIMER_ACTOR,  # (the index's condition)
        )
        .order_by("seq")
        .values_list("seq", flat=True)
    )


def actor_seat(match: Match, actor: str) -> int | None:
    """The seat whose move an event records: ``com:<level>:<seat>``, ``timer:<seat>``, a
    player's ``user:<id>``; none for the system or staff (or a COM of an older log)."""
    kind, _, rest = actor.partition(":")
    if kind == "user":
        user_id, _, seat = rest.partition(":")
        if seat.isdigit():
            return int(seat)
        return match.seat_of_user(int(user_id)) if user_id.isdigit() else None
    last = actor.rsplit(":", 1)[-1]
    return int(last) if kind in ("com", "timer") and last.isdigit() else None


def event_json(
    row: MatchEvent, game: Game, seat: int | None, ended: bool, match: Match | None = None
) -> dict[str, Any]:
    """A stored event as ``seat`` may see it (redacted by the game). ``schema_version`` is the
    version of the event type's payload (a match's own ``version`` counts its events)."""
    return {
        "seq": row.seq,
        "type": row.type,
        "schema_version": row.version,
        "actor": row.actor,
        "seat": actor_seat(match or row.match, row.actor),
        "created_at": row.created_at.isoformat(),
        "data": game.redact(to_event(row, game), seat, match_ended=ended),
    }


def events_for(
    match: Match, user: AbstractBaseUser | None, *, after: int = 0, limit: int = 100
) -> list[dict[str, Any]]:
    """Events after ``after`` as the caller may see them, at most ``limit``."""
    return events_of_seat(match, seat_index_for(match, user), after=after, limit=limit)


def events_of_seat(
    match: Match, seat: int | None, *, after: int = 0, limit: int = 100, upto: int | None = None
) -> list[dict[str, Any]]:
    """Events after ``after`` (up to ``upto``) as ``seat`` (``None``: a spectator) may see
    them at ``match``'s version: the seat was read with that version, so events written
    since (after a handover of the seat, say) wait for a read that sees the seat as it is
    then."""
    game = game_of(match)
    last = match.version if upto is None else min(upto, match.version)
    rows = MatchEvent.objects.filter(match=match, seq__gt=after, seq__lte=last)
    return [event_json(row, game, seat, match.ended, match) for row in rows.order_by("seq")[:limit]]


def all_events_of_seat(
    match: Match, seat: int | None, *, page: int = 500
) -> Iterator[dict[str, Any]]:
    """The log as ``seat`` may see it at ``match``'s version (later events are not
    included), read ``page`` rows at a time as it is iterated."""
    after, upto = 0, match.version
    while events := events_of_seat(match, seat, after=after, limit=page, upto=upto):
        yield from events
        after = events[-1]["seq"]


def events_between(match: Match, seat: int | None, first: int, last: int) -> list[dict[str, Any]]:
    game = game_of(match)
    rows = load_events(match, after=first - 1, upto=last)
    return [event_json(row, game, seat, match.ended, match) for row in rows]


def no_such_version(match: Match) -> errors.InvalidMatchRequest:
    """The error for a version the match has no state at (a number out of range, or none)."""
    return errors.InvalidMatchRequest(
        f"version must be a whole number between 1 and {match.version}", field="version"
    )


def state_view_at(match: Match, user: AbstractBaseUser | None, version: int) -> dict[str, Any]:
    """The caller's view of the match as it was after ``version`` events: the one its
    answers showed then (in a local match, that of the seat to act at that version)."""
    if not 1 <= version <= match.version:
        raise no_such_version(match)
    state = state_at(match, version)
    seat = seat_index_for(match, user, game_of(match).seats_to_act(state))
    return view_json(match, state, seat)


def audit_record(match: Match, *, after: int = 0, limit: int | None = None) -> dict[str, Any]:
    """Everything about an ended match: every event in full, the seed and the hash chain.

    One page of it with ``limit``: the events after ``after``, at most ``limit`` of them,
    their chain checked from the event before them (``chain_faults`` is that page's, with
    the match row's head of the chain checked on the last page); ``next_after`` and
    ``has_more`` page on."""
    if not match.ended:
        raise errors.MatchNotEnded("the audit record is available once the match has ended")
    if not 0 <= after <= match.version:
        raise errors.InvalidMatchRequest(
            f"after must be between 0 and {match.version}", field="after"
        )
    before = MatchEvent.objects.filter(match=match, seq=after).first() if after else None
    rows = list(
        MatchEvent.objects.filter(match=match, seq__gt=after).order_by("seq")[:limit]
        if limit is not None
        else load_events(match, after=after)
    )
    next_after = rows[-1].seq if rows else after
    # the last page: it reaches the match's version, or the log has no more rows
    whole = limit is None or len(rows) < limit or next_after >= match.version
    if after and before is None:
        faults = [f"event #{after}, the one this page follows, is not in the log"]
    else:
        faults = verify_chain(match, rows, after=before, whole=whole)
    # as the log's end reveals it (a log that cannot be replayed is still recorded: its
    # faults are the verifier's to find, not a 500's)
    seed = logged_seed(match)
    return {
        "match": str(match.id),
        "status": match.status,
        "rules": match.rules,
        "seed": seed,
        "seed_commitment": match.seed_commitment,
        "version": match.version,
        "chain_faults": faults,
        "events": [
            {
                "seq": r.seq,
                "type": r.type,
                "schema_version": r.version,
                "actor": r.actor,
                "seat": actor_seat(match, r.actor),
                "created_at": r.created_at.isoformat(),
                "data": r.payload,
                "hash": r.hash,
            }
            for r in rows
        ],
        "next_after": next_after,
        "has_more": not whole,
    }


def matches_for(
    user: AbstractBaseUser,
    *,
    mine: bool = False,
    everyone: bool = False,
    game: str | None = None,
    status: str | None = None,
    preset: str | None = None,
    awaiting_me: bool = False,
    joinable: bool = False,
    by_creation: bool = False,
    created_before: tuple[datetime, uuid.UUID] | None = None,
) -> QuerySet[Match]:
    """The matches ``user`` sits in or made, and, unless ``mine``, the open lobbies (matches waiting
    for players with a seat free); with ``joinable`` only the lobbies ``user`` does not
    sit in; with ``everyone`` (staff only) every match. Latest activity first, or with
    ``by_creation`` newest first (an order no move changes), then only those after
    ``created_before`` in that order (:func:`creation_mark`: the keyset of a page's last
    match, so that pages neither repeat nor skip a match)."""
    # every condition on seats is a subquery: no join multiplies the rows, so the page
    # needs no DISTINCT over every column (the snapshot's among them); none is sorted (a
    # part of a union kept its model's order: every seat of the account's joined to its
    # match to be sorted by the match's creation, inside the IN)
    queryset = Match.objects.all().prefetch_related("seats__user")
    if not everyone:
        seated_ids = Seat.objects.filter(user=user).order_by().values("match_id")
        # and those one made to watch (COMs only, or a lobby of others' seats): they count
        # among one's own, and would otherwise be in no list
        made_ids = Match.objects.filter(created_by=user).order_by().values("id")
        # open seats of waiting matches (an aborted lobby keeps its open seats)
        lobby_ids = (
            Seat.objects.filter(kind=SeatKind.OPEN, match__status=MatchStatus.WAITING)
            .order_by()
            .values("match_id")
        )
        if joinable:  # (nor one whose seat of the account's a COM took: it saw the hand)
            handed_ids = Seat.objects.filter(handed_from=user).order_by().values("match_id")
            queryset = queryset.filter(pk__in=lobby_ids).exclude(
                pk__in=seated_ids.union(handed_ids)
            )
        elif mine or awaiting_me:
            queryset = queryset.filter(pk__in=seated_ids.union(made_ids))
        else:  # one list of ids, not an OR: each part reads its own index
            queryset = queryset.filter(pk__in=seated_ids.union(made_ids, lobby_ids))
    if awaiting_me:
        to_act = Seat.objects.filter(user=user, to_act=True).order_by().values("match_id")
        queryset = queryset.filter(pk__in=to_act, status=MatchStatus.ACTIVE)
    if game:
        queryset = queryset.filter(game=game)
    if status:
        queryset = queryset.filter(status=status)
    if preset:
        queryset = queryset.filter(preset=preset)
    if created_before is not None:
        at, match_id = created_before
        queryset = queryset.filter(Q(created_at__lt=at) | Q(created_at=at, id__gt=match_id))
    return queryset.order_by("-created_at" if by_creation else "-updated_at", "id")


def own_matches(user: AbstractBaseUser) -> int:
    """At least how many of its own matches a list of ``user``'s reads (the seats it sits in
    or the matches it made, whichever are more), counted from their indexes alone."""
    seated = Seat.objects.filter(user=user).count()
    return max(seated, Match.objects.filter(created_by=user).count())


def logged_seed(match: Match) -> str | None:
    """The seed the log's last event reveals (an ended match's ``match_finished`` or
    ``match_aborted``), or ``None``. Only an ended match's is to be shown."""
    last = match.events.order_by("-seq").only("payload").first()
    seed = last.payload.get("seed") if last is not None and isinstance(last.payload, dict) else None
    return seed if isinstance(seed, str) else None


def creation_mark(match_id: uuid.UUID) -> tuple[datetime, uuid.UUID] | None:
    """Where a match stands in the order of creation (``None``: there is no such match)."""
    created = Match.objects.filter(pk=match_id).values_list("created_at", flat=True).first()
    return None if created is None else (created, match_id)
