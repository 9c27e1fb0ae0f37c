"""Work that runs on Celery workers: COM turns (and, later, turn timers).

Tasks take ids and call a service. They are idempotent: each carries the match version it
was scheduled for, and the service drops it if the match has moved on.
"""

from __future__ import annotations

import hashlib
import logging
import random
import threading

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from golf.engine import Action, State, view_for
from golf.engine.com import choose_action
from golf.models import Match, Seat, SeatKind
from golf.services import match_act_for_seat

logger = logging.getLogger(__name__)

_local = threading.local()


def com_rng(match_id: str, version: int, seat: int) -> random.Random:
    """The COM's random source: from public facts only, never from the match seed."""
    digest = hashlib.sha256(f"com:{match_id}:{version}:{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def schedule_followups(match_id: str, version: int, com_to_act: bool) -> None:
    """After a commit that left a COM to act, enqueue its turn for that version."""
    if com_to_act:
        _enqueue_com_turn(match_id, version)


def _enqueue_com_turn(match_id: str, version: int) -> None:
    delay = settings.COM_MOVE_DELAY_MS / 1000
    if not play_com_turn.app.conf.task_always_eager:
        play_com_turn.apply_async(args=(match_id, version), countdown=delay or None)
        return
    # Eager mode (tests, development): run chained COM turns in a loop, not recursively.
    pending = getattr(_local, "pending", None)
    if pending is not None:
        pending.append((match_id, version))
        return
    _local.pending = [(match_id, version)]
    try:
        while _local.pending:
            mid, ver = _local.pending.pop(0)
            play_com_turn.apply(args=(mid, ver))
    finally:
        _local.pending = None


def com_move(match_id: str, expected_version: int) -> bool:
    """Play the move of the first COM seat to act; False when the request is stale."""
    match = Match.objects.filter(pk=match_id).only("id").first()
    if match is None:
        return False
    levels = dict(
        Seat.objects.filter(match=match, kind=SeatKind.COM).values_list("index", "com_level")
    )

    def choose(state: State, seat: int) -> Action | None:
        view = view_for(state, seat)
        rng = com_rng(match_id, state.version, seat)
        return choose_action(levels[seat], view, state.rules, rng)

    def first_com(state: State) -> int | None:
        return next((s for s in state.seats_to_act() if s in levels), None)

    result = match_act_for_seat(
        match_id=match_id,
        pick_seat=first_com,
        choose=choose,
        expected_version=expected_version,
        actor=lambda seat: f"com:{levels[seat]}",
    )
    return result is not None


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=20,
    time_limit=30,
)
def play_com_turn(match_id: str, expected_version: int) -> bool:
    """Play one COM move for ``match_id`` if it is still at ``expected_version``."""
    return com_move(match_id, expected_version)
