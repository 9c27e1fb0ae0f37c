"""What an operator does from the dashboard: re-enqueue a stalled match's work."""

from __future__ import annotations

import enum
import uuid

from django.contrib.auth.base_user import AbstractBaseUser

from matches.models import FollowUpKind, Match, MatchStatus, SeatKind
from matches.services import log_operator_change, turn_limit
from matches.tasks import republish


class Reenqueued(enum.Enum):
    COM = "com"  # a COM's turn was published
    TIMER = "timer"  # a turn timer was published
    NOTHING = "nothing"  # the match waits on no worker (ended, or on a human with no timer)
    BROKER_AWAY = "broker_away"  # the broker did not take it (the sweeper will retry)


def match_reenqueue(*, match_id: uuid.UUID, user: AbstractBaseUser) -> Reenqueued:
    """Publish again, on the match's own queue, the task the match waits for at its
    current version: its COM's turn, or its turn timer (which moves only once due). As
    safe as the sweeper's re-enqueue: a task for a version that has moved on does nothing.
    A publication is recorded in the admin log under ``user``. Raises
    ``Match.DoesNotExist``."""
    match = Match.objects.get(pk=match_id)
    if match.status != MatchStatus.ACTIVE:
        return Reenqueued.NOTHING
    if match.seats.filter(kind=SeatKind.COM, to_act=True).exists():
        kind = FollowUpKind.COM
    elif turn_limit(match) is not None:
        kind = FollowUpKind.TIMER
    else:
        return Reenqueued.NOTHING
    if not republish(match.id, match.version, kind):
        return Reenqueued.BROKER_AWAY
    what = "COM turn" if kind == FollowUpKind.COM else "turn timer"
    log_operator_change(
        user, match, f"Re-enqueued the {what} at version {match.version} (dashboard)"
    )
    return Reenqueued(kind)
