"""Moderation of accounts: suspending one (and what becomes of its running matches) and
lifting a suspension. Operators do it from the admin (accounts/admin.py).

A suspension revokes every token of the account at once (they are deleted, and the
suspension keeps their digests), and until it is lifted the account's log-ins, its
sessions, the tokens it revoked and any token it might still get are refused with the
problem code ``account_suspended`` (403). Lifting it lets the account log in again; its
old tokens stay revoked, unknown tokens from then on (401).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import RunningMatches, Suspension, User
from accounts.tokens import remembered, token_digest
from cards.protocol import HUMAN
from matches import errors as match_errors
from matches.models import ENDED_STATUSES, MatchEvent, Seat
from matches.services import seat_to_com, staff_abort

ABORT_REASON = "aborted by staff"  # in the match log, which players read: never the reason
logger = logging.getLogger(__name__)


class ModerationError(Exception):
    """The suspension or the lift cannot be made (a message for the operator)."""


@dataclass
class SuspendResult:
    suspension: Suspension
    tokens_revoked: int
    handled: list[str] = field(default_factory=list)  # match ids aborted or handed over
    skipped: dict[str, str] = field(default_factory=dict)  # match id -> why not
    watched: list[str] = field(default_factory=list)  # made to watch: they play on


def may_suspend(operator: Any, user: User) -> str | None:
    """Why ``operator`` may not suspend ``user``; ``None``: they may."""
    if not operator.has_perm("accounts.suspend_user"):
        return "you may not suspend accounts"
    if operator.pk == user.pk:
        return "you cannot suspend your own account"
    if (user.is_staff or user.is_superuser) and not operator.is_superuser:
        return "only a superuser may suspend another operator's account"
    return None


def running_seats(user: User) -> dict[str, list[int]]:
    """The account's matches that have not ended: match id -> its seat indexes there (none
    in a match it made to watch: one that began with no person's seat, COMs only or open
    seats for others; not one it sat in and no longer does)."""
    seats = (
        Seat.objects.filter(user=user)
        .exclude(match__status__in=ENDED_STATUSES)
        .order_by("match_id", "index")
        .values_list("match_id", "index")
    )
    found: dict[str, list[int]] = {}
    for match_id, index in seats:
        found.setdefault(str(match_id), []).append(index)
    starts = (
        MatchEvent.objects.filter(seq=1, match__created_by=user)
        .exclude(match__status__in=ENDED_STATUSES)
        .values_list("match_id", "payload")
    )
    for match_id, started in starts:
        if HUMAN not in started.get("players", ()):  # (match_started: each seat's kind)
            found.setdefault(str(match_id), [])
    return found


def account_suspend(*, user: User, by: User, reason: str, running: str) -> SuspendResult:
    """Suspend ``user``: record it, revoke its tokens, then deal with its running matches
    as ``running`` says (:class:`~accounts.models.RunningMatches`), each match in its own
    transaction under its row lock. A match that ended meanwhile is skipped (and said)."""
    reason = reason.strip()
    if not reason:
        raise ModerationError("a suspension needs a reason")
    if running not in RunningMatches.values:
        raise ModerationError(f"running matches: one of {list(RunningMatches.values)}")
    refusal = may_suspend(by, user)
    if refusal:
        raise ModerationError(refusal)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.suspended_at is not None:
            raise ModerationError(f"{locked.username} is already suspended")
        now = timezone.now()
        locked.suspended_at = now
        locked.save(update_fields=["suspended_at"])
        tokens = Token.objects.filter(user=locked)
        keys = list(tokens.values_list("key", flat=True))
        suspension = Suspension.objects.create(
            user=locked,
            reason=reason,
            running=running,
            created_by=by,
            revoked_tokens=[token_digest(key) for key in keys],
        )
        tokens.delete()
    for key in keys:
        remembered.forget(key)
    user.suspended_at = now
    result = SuspendResult(suspension, len(keys))
    for match_id, seats in running_seats(locked).items():
        if not seats and running != RunningMatches.ABORT:
            result.watched.append(match_id)  # no seat of the account's to hand over
            continue
        try:
            # one match: its seats handed over (or it aborted) with its entry in the
            # suspension's record, together
            with transaction.atomic():
                if running == RunningMatches.ABORT:
                    staff_abort(match_id=match_id, by=by, reason=ABORT_REASON)
                else:
                    for seat in seats:
                        seat_to_com(match_id=match_id, seat=seat, by=by)
                handled = [*result.handled, match_id]
                Suspension.objects.filter(pk=suspension.pk).update(matches=handled)
        except match_errors.ServiceError as exc:
            result.skipped[match_id] = exc.detail
        except Exception as exc:  # (one match's fault stops none of the others)
            logger.exception("suspension of %s: match %s not dealt with", locked.pk, match_id)
            result.skipped[match_id] = (
                f"failed ({type(exc).__name__}; the server's log says more): deal with it on "
                "the match's page"
            )
        else:
            result.handled = handled
    suspension.matches = result.handled
    return result


@transaction.atomic
def account_lift(*, user: User, by: User) -> Suspension:
    """Lift ``user``'s suspension: it may log in again (its old tokens stay revoked)."""
    if not by.has_perm("accounts.suspend_user"):
        raise ModerationError("you may not lift suspensions")
    if (user.is_staff or user.is_superuser) and not by.is_superuser and by.pk != user.pk:
        raise ModerationError("only a superuser may lift another operator's suspension")
    locked = User.objects.select_for_update().get(pk=user.pk)
    suspension = Suspension.objects.filter(user=locked, lifted_at__isnull=True).first()
    if locked.suspended_at is None or suspension is None:
        raise ModerationError(f"{locked.username} is not suspended")
    suspension.lifted_at, suspension.lifted_by = timezone.now(), by
    suspension.save(update_fields=["lifted_at", "lifted_by"])
    locked.suspended_at = None
    locked.save(update_fields=["suspended_at"])
    user.suspended_at = None
    return suspension
