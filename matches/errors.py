"""Errors of the match service. Each has a stable ``code`` and an HTTP status the API uses."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    code = "service_error"
    status = 400
    title = "Request failed"

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class MatchNotFound(ServiceError):
    code = "match_not_found"
    status = 404
    title = "Match not found"


class NotAParticipant(ServiceError):
    code = "not_a_participant"
    status = 403
    title = "Not a participant"


class PermissionDenied(ServiceError):
    code = "permission_denied"
    status = 403
    title = "Permission denied"


class AccountSuspended(ServiceError):
    """A request that was let in just before its account's suspension took effect."""

    code = "account_suspended"
    status = 403
    title = "Account suspended"


class VersionConflict(ServiceError):
    code = "version_conflict"
    status = 409
    title = "Version conflict"


class IdempotencyConflict(ServiceError):
    code = "idempotency_key_reused"
    status = 409
    title = "Idempotency key reused"


class MatchNotActive(ServiceError):
    code = "match_not_active"
    status = 409
    title = "Match not active"


class MatchNotEnded(ServiceError):
    code = "match_not_ended"
    status = 409
    title = "Match not ended"


class NoOpenSeat(ServiceError):
    code = "no_open_seat"
    status = 409
    title = "No open seat"


class AlreadySeated(ServiceError):
    code = "already_seated"
    status = 409
    title = "Already seated"


class CannotLeave(ServiceError):
    """A seat that is not left by ``leave``: a lobby's (it has not started) or a local
    match's (its creator holds every seat)."""

    code = "cannot_leave"
    status = 409
    title = "Cannot leave"


class HintsDisabled(ServiceError):
    code = "hints_disabled"
    status = 409
    title = "Hints disabled"


class InvalidMatchRequest(ServiceError):
    code = "validation_error"
    status = 400
    title = "Invalid request"


class InvalidRules(ServiceError):
    """Rules the game allows but this service does not play (its bounds: settings)."""

    code = "invalid_rules"
    status = 400
    title = "Invalid rules"


class TooManyMatches(ServiceError):
    """The account has as many unfinished matches (or matches with COMs) as it may."""

    code = "too_many_matches"
    status = 409
    title = "Too many matches"


class MatchTooLong(ServiceError):
    """The match's log holds as many events as a match may (``MAX_EVENTS_PER_MATCH``)."""

    code = "match_too_long"
    status = 409
    title = "Match too long"
