"""Work that runs on Celery workers: COM turns, turn timers and the stall sweeper.

Tasks take ids and call a service. They are idempotent: each carries the match version it
was scheduled for, and the write path drops it, writing nothing, if the match has moved
on. So a task delivered twice, run by two workers at once, or re-enqueued by the sweeper
still makes at most one move for that version.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError
from django.utils import timezone

from matches import services
from matches.models import FollowUp, FollowUpKind, Match, MatchStatus, SeatKind

logger = logging.getLogger(__name__)

_local = threading.local()


def _eager() -> bool:
    return bool(play_com_turn.app.conf.task_always_eager)


def publish(followup: FollowUp) -> bool:
    """Send a follow-up's task to its queue (in eager mode: run it here and now). A broker
    that cannot be reached is logged, not raised: the follow-up's row stays in the outbox
    and the sweeper publishes it again. Returns whether it was handed over."""
    args = (str(followup.match_id), followup.version)
    task = play_com_turn if followup.kind == FollowUpKind.COM else turn_timer
    if _eager():  # tests: COM turns at once; a timer only when due (nothing waits here)
        if followup.kind == FollowUpKind.COM:
            _run_com_turns_eagerly(*args)
        elif followup.due_at <= timezone.now():
            turn_timer.apply(args=args)
        return True
    countdown = max(0.0, (followup.due_at - timezone.now()).total_seconds())
    if countdown > settings.FOLLOWUP_PUBLISH_AHEAD_SECONDS:
        return True  # the sweeper publishes it nearer the time (its row's next attempt)
    try:
        task.apply_async(args=args, queue=followup.queue, countdown=countdown or None)
    except SoftTimeLimitExceeded:  # the task's time is up: it stops here
        raise
    except Exception as exc:  # the broker is away: the outbox keeps the work
        logger.warning(
            "could not publish %s for %s at version %s (%s); the sweeper will retry",
            followup.kind,
            followup.match_id,
            followup.version,
            type(exc).__name__,
        )
        return False
    return True


def _run_com_turns_eagerly(match_id: str, version: int) -> None:
    """Eager mode (tests): chained COM turns run in a loop here, not recursively."""
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


def stalled_matches(older_than: float) -> list[tuple[str, int, str]]:
    """Active matches waiting longer than ``older_than`` seconds on a COM (``com``), or on
    humans whose time ran out longer ago than that (``timer``; the outbox's countdown
    fires it when it runs out): ``(match id, version, kind)``."""
    cutoff = timezone.now() - timedelta(seconds=older_than)
    waiting_on_com = (
        Match.objects.filter(
            status=MatchStatus.ACTIVE,
            turn_started_at__lte=cutoff,
            seats__kind=SeatKind.COM,
            seats__to_act=True,
        )
        .exclude(pk__in=services.com_turns_not_late(cutoff))
        .values_list("id", "version")
    )
    found = [(str(i), v, "com") for i, v in waiting_on_com.order_by().distinct()]
    timed = services.overdue_timers(cutoff).values_list("id", "version")
    return found + [(str(i), v, "timer") for i, v in timed]


MAX_ATTEMPTS = 32767  # FollowUp.attempts' largest value


def republish_due(limit: int = 500) -> list[FollowUp]:
    """Publish again the follow-ups whose work has not happened by their next attempt:
    their task was lost, or could not be sent. Each attempt doubles the wait before the
    next one (up to five minutes) after the work is due, so a long backlog is not flooded
    with copies; a timer published ahead of time is next tried after it is due."""
    now = timezone.now()
    due = list(
        FollowUp.objects.filter(next_attempt_at__lte=now).order_by("next_attempt_at")[:limit]
    )
    for followup in due:
        sent = followup.sent = publish(followup)  # (not a column: for the sweep's report)
        # (counted up to the column's limit: work that fails for good is tried for months,
        # every five minutes, and past the limit every sweep failed, for every match)
        followup.attempts = min(followup.attempts + 1, MAX_ATTEMPTS)
        wait = min(300, settings.FOLLOWUP_RETRY_SECONDS * 2 ** min(followup.attempts, 16))
        # sent ahead of time: tried again once it should have run; not sent: soon
        base = max(now, followup.due_at) if sent else now
        followup.next_attempt_at = base + timedelta(seconds=wait)
        FollowUp.objects.filter(pk=followup.pk).update(
            attempts=followup.attempts, next_attempt_at=followup.next_attempt_at
        )
    return due


@dataclass
class Swept:
    """What a sweep sent: the outbox's follow-ups published again (each with ``sent``:
    whether the broker took it), and the stalled matches' work (match id, version, kind)
    the backstop re-enqueued, with whether the broker took each."""

    republished: list[FollowUp]
    stalled: list[tuple[tuple[str, int, str], bool]]


def sweep(older_than: float | None = None) -> list[tuple[str, int, str]]:
    """:func:`sweep_report`'s backstop: the stalled matches' work it re-enqueued."""
    return [work for work, _sent in sweep_report(older_than).stalled]


def sweep_report(older_than: float | None = None) -> Swept:
    """Publish the outbox's overdue follow-ups, then, as a backstop, re-enqueue the work of
    every match stalled on a COM or a timer with no follow-up due. Safe to run at any time
    and often: a task for a version that has moved on does nothing. The backstop sends a
    match's work at most once per ``older_than`` (a stuck match is not sent again at every
    beat), unless ``older_than`` is 0 (by hand: now)."""
    if older_than is None:
        older_than = settings.COM_STALL_SECONDS
    due = republish_due()
    republished = {(str(f.match_id), f.version) for f in due}
    stalled = [
        s
        for s in stalled_matches(older_than)
        if s[:2] not in republished and _first_lately(s, older_than)
    ]
    sent = []
    for match_id, version, kind in stalled:
        logger.info("sweeper: re-enqueuing %s work for %s at version %s", kind, match_id, version)
        work_kind = FollowUpKind.COM if kind == "com" else FollowUpKind.TIMER
        sent.append(((match_id, version, kind), republish(match_id, version, work_kind)))
    return Swept(due, sent)


def _first_in(key: str, seconds: float) -> bool:
    """Whether ``key`` was not marked in the last ``seconds``, marking it; with the cache
    away, yes (it is only a brake: a copy does no harm)."""
    try:
        return bool(cache.add(key, 1, timeout=seconds))
    except SoftTimeLimitExceeded:
        raise
    except Exception as exc:
        logger.warning("the cache is away (%s): going on without it", type(exc).__name__)
        return True


def _first_lately(work: tuple[str, int, str], seconds: float) -> bool:
    """Whether the backstop has not sent this work (match, version, kind) in the last
    ``seconds``, marking it sent."""
    return seconds <= 0 or _first_in("sweep:{}:{}:{}".format(*work), seconds)


def republish(match_id: object, version: int, kind: str) -> bool:
    """Publish now, on the match's own queue (``services.followup_queue``: COMs playing
    each other stay in the background), the ``kind`` of work (a COM's turn or a turn timer)
    a match waits for at ``version``, outside the outbox (the sweeper's and the operators'
    re-enqueue). False when the broker could not be reached."""
    match = Match.objects.only("seat_users").filter(pk=match_id).first()
    queue = services.followup_queue(match, kind) if match else settings.INTERACTIVE_QUEUE
    return publish(
        FollowUp(match_id=match_id, version=version, kind=kind, queue=queue, due_at=timezone.now())
    )


TASK_OPTIONS = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 30,
    "max_retries": 5,
    "soft_time_limit": 20,
    "time_limit": 30,
}


#: Caches no other process reads.
PROCESS_CACHES = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
)


@shared_task(bind=True, **TASK_OPTIONS)
def play_com_turn(self: Any, match_id: str, expected_version: int) -> bool:
    """Play one COM move for ``match_id`` if it is still at ``expected_version``. A move to
    be taken later (``services.decided_evenly``) goes to :func:`write_com_move` with that
    countdown, on this task's queue: no worker waits for it (but without a shared cache,
    no ``CACHE_URL``, where this worker waits it out)."""
    queue = (self.request.delivery_info or {}).get("routing_key") or settings.INTERACTIVE_QUEUE

    def later(seat: int, level: str, seconds: float) -> None:
        write_com_move.apply_async(
            args=(match_id, expected_version, seat, level), queue=queue, countdown=seconds
        )

    # (the move waits in the cache for the task that writes it: with a cache of this
    # process's own, that task, on another process, would find nothing, and decide again)
    shared = settings.CACHES["default"]["BACKEND"] not in PROCESS_CACHES
    return services.com_turn(
        match_id=match_id,
        expected_version=expected_version,
        later=later if shared and not _eager() else None,
    )


@shared_task(**TASK_OPTIONS)
def write_com_move(
    match_id: str, expected_version: int, seat: int, level: str, action: Any = None
) -> bool:
    """Write the COM's move :func:`play_com_turn` decided and kept, if the match is still
    at ``expected_version`` (a lost task: the outbox's follow-up, still there, plays the
    turn again, deciding the same move). The move is not among the arguments (the broker's
    messages and the workers' logs would hold it); ``action`` is a task's sent by a worker
    from before moves were kept."""
    return services.com_move_later(
        match_id=match_id,
        expected_version=expected_version,
        seat=seat,
        level=level,
        action_json=action,
    )


@shared_task(**TASK_OPTIONS)
def turn_timer(match_id: str, expected_version: int) -> int:
    """Move for a human whose turn, begun at ``expected_version``, timed out."""
    return services.timed_out_turn(match_id=match_id, expected_version=expected_version)


def first_run_lately(name: str, interval: float) -> bool:
    """Whether this run of the periodic task ``name`` is the first in most of ``interval``
    (marking it so): the copies beat queued while a busy queue held the first return at
    once."""
    return _first_in(f"periodic:{name}", max(1.0, interval * 0.8))


@shared_task(**{**TASK_OPTIONS, "acks_late": False})
def sweep_stalled() -> int:
    """Periodic (Celery beat): publish overdue follow-ups, re-enqueue stalled work."""
    if not first_run_lately("sweep", settings.SWEEP_INTERVAL_SECONDS):
        return 0
    return len(sweep())


def expire_idle(limit: int = 500) -> list[str]:
    """Abort the lobbies (matches waiting for players) idle for ``LOBBY_EXPIRY_HOURS`` and
    the matches under way idle for ``MATCH_IDLE_DAYS``, the longest idle first, at most
    ``limit`` of each at a time: their ids."""
    now, expired = timezone.now(), []
    for status, idle in (
        (MatchStatus.WAITING, timedelta(hours=settings.LOBBY_EXPIRY_HOURS)),
        (MatchStatus.ACTIVE, timedelta(days=settings.MATCH_IDLE_DAYS)),
    ):
        stale = (
            Match.objects.filter(status=status, updated_at__lt=now - idle)
            .order_by("updated_at")
            .values_list("id", flat=True)[:limit]
        )
        ended = [str(i) for i in stale if _expired(i, idle)]
        if ended:
            logger.info("expired %d %s matches idle for %s", len(ended), status, idle)
        expired += ended
    return expired


def _expired(match_id: object, idle: timedelta) -> bool:
    """``idle_expire`` for one match; a match it fails on (its game no longer registered,
    a log that does not replay) is logged and passed over, not left to stop every expiry
    after it, run after run (the oldest first)."""
    try:
        return services.idle_expire(match_id=match_id, idle=idle)
    except (SoftTimeLimitExceeded, OperationalError):  # the task's time, or the database
        raise
    except Exception:
        logger.exception("could not expire match %s; passed over", match_id)
        return False


@shared_task(**{**TASK_OPTIONS, "acks_late": False})
def expire_idle_matches() -> int:
    """Periodic (Celery beat): abort the lobbies nobody joined, and the matches nobody
    moved in, in time."""
    if not first_run_lately("expire-idle", settings.IDLE_EXPIRY_INTERVAL_SECONDS):
        return 0
    return len(expire_idle())
