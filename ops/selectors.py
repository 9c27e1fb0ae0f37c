"""What the dashboard reads. Each query is one statement served by an index made for it
(matches/migrations/0012_dashboard_indexes.py: ``(game, status)``; the active matches by
turn start; the seats of a COM whose turn it is) and returns few rows, however many
matches the store holds; the Redis reads are one round trip each and say ``None`` when
Redis is away."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Min, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from matches.models import FollowUp, FollowUpKind, Match, MatchStatus, Seat, SeatKind
from matches.services import com_turns_not_late, overdue_timers
from ops import connection

STALLED_LIMIT = 50
# kombu's Redis transport keeps a queue's messages of priority 0 under its name and the
# others under "<name>\x06\x16<step>"
_PRIORITY_KEYS = ("", "\x06\x163", "\x06\x166", "\x06\x169")


@dataclass(frozen=True)
class GameCounts:
    game: str
    by_status: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.by_status.values())


def match_counts() -> list[GameCounts]:
    """Matches per game and status: one ``GROUP BY`` over the match table."""
    rows = Match.objects.order_by().values_list("game", "status").annotate(n=Count("*"))
    games: dict[str, dict[str, int]] = {}
    for game, status, n in rows:
        games.setdefault(game, dict.fromkeys(MatchStatus.values, 0))[status] = n
    return [GameCounts(game, games[game]) for game in sorted(games)]


@dataclass(frozen=True)
class Stalled:
    match_id: str
    game: str
    version: int
    kind: str  # "com" or "timer"
    waiting_since: datetime  # the turn's start (com) or its deadline (timer)

    def waiting_seconds(self, now: datetime) -> float:
        return (now - self.waiting_since).total_seconds()


def stalled(older_than: float | None = None, limit: int = STALLED_LIMIT) -> list[Stalled]:
    """Active matches waiting on a COM for longer than ``older_than`` seconds
    (``COM_STALL_SECONDS`` by default), or on a turn timer whose deadline passed longer
    ago than that, longest waiting first; at most ``limit`` of each kind. A subset of what
    ``matches.tasks.stalled_matches`` finds (the same timers, by the same query, but at
    most ``limit``), computed in SQL with a limit so that it stays cheap on a large
    store."""
    if older_than is None:
        older_than = settings.COM_STALL_SECONDS
    now = timezone.now()
    cutoff = now - timedelta(seconds=older_than)
    active = Match.objects.filter(status=MatchStatus.ACTIVE, turn_started_at__isnull=False)
    waiting_on_com = Seat.objects.filter(kind=SeatKind.COM, to_act=True).values("match_id")
    # a COM turn waits from when it is due (one put off by COM_TURNS_PER_MINUTE is due
    # after its turn began)
    due = FollowUp.objects.filter(match=OuterRef("pk"), kind=FollowUpKind.COM).values("due_at")
    since = Greatest("turn_started_at", Coalesce(Subquery(due[:1]), "turn_started_at"))
    on_com = (
        active.filter(turn_started_at__lte=cutoff, pk__in=waiting_on_com)
        .exclude(pk__in=com_turns_not_late(cutoff))
        .annotate(since=since)
        .order_by("turn_started_at")  # (the index's order; sorted by wait below)
        .values_list("id", "game", "version", "since")[:limit]
    )
    found = [Stalled(str(i), g, v, "com", t) for i, g, v, t in on_com]
    timed = (
        overdue_timers(cutoff)
        .order_by("deadline")
        .values_list("id", "game", "version", "deadline")[:limit]
    )
    com_ids = {s.match_id for s in found}
    found += [Stalled(str(i), g, v, "timer", d) for i, g, v, d in timed if str(i) not in com_ids]
    return sorted(found, key=lambda s: s.waiting_since)


@dataclass(frozen=True)
class Outbox:
    rows: int
    due: int  # rows the sweeper should publish again by now
    oldest_due_at: datetime | None


def outbox() -> Outbox:
    now = timezone.now()
    figures = FollowUp.objects.aggregate(
        rows=Count("*"),
        due=Count("pk", filter=Q(next_attempt_at__lte=now)),
        # a turn timer's row waits for a time to come: not overdue, so not the oldest due
        oldest=Min("due_at", filter=Q(due_at__lte=now)),
    )
    return Outbox(figures["rows"], figures["due"], figures["oldest"])


def queue_lengths() -> dict[str, int] | None:
    """Messages waiting in each Celery queue (``interactive``, ``background``) on the
    broker, by ``LLEN``; ``None`` if Redis is unreachable. Tasks a worker has taken (with
    a countdown, or running) are not waiting any more."""
    redis = connection.client()
    if redis is None:
        return None
    queues = [settings.INTERACTIVE_QUEUE, settings.BACKGROUND_QUEUE]
    try:
        pipe = redis.pipeline(transaction=False)
        for queue in queues:
            for suffix in _PRIORITY_KEYS:
                pipe.llen(queue + suffix)
        lengths = pipe.execute()
    except Exception as exc:
        connection.failed(exc)
        return None
    step = len(_PRIORITY_KEYS)
    return {queue: sum(lengths[i * step : (i + 1) * step]) for i, queue in enumerate(queues)}
