"""One error format for the whole API: RFC 9457 problem details plus a stable ``code``.

Every error response is ``application/problem+json``::

    {"type": "tag:golf-backend,2026:problem/not_your_turn", "title": "Illegal action",
     "status": 422, "detail": "it is seat 1's turn", "code": "not_your_turn"}

with ``errors`` (field -> messages) for validation problems. Domain errors are raised
as exceptions anywhere below the views and mapped here, once.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.views import csrf, defaults
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from accounts.tokens import revoked_by_suspension
from cards.errors import IllegalActionError, MalformedActionError, RulesError
from matches import errors as service_errors

logger = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"
#: The database, or Redis (the cache, the throttles' counts, the broker), cannot be reached.
ServiceUnavailable = (OperationalError, InterfaceError, RedisConnectionError, RedisTimeoutError)
#: The answer to a request when they cannot be reached: retry shortly.
UNAVAILABLE_DETAIL = "the service is briefly unavailable; retry shortly"
UNAVAILABLE_RETRY_SECONDS = 2
TYPE_PREFIX = "tag:golf-backend,2026:problem/"


class ApiProblem(exceptions.APIException):
    """An error raised by a view with an explicit status and code."""

    def __init__(
        self,
        status: int,
        code: str,
        title: str,
        detail: str,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status_code = status
        self.problem_code = code
        self.title = title
        self.headers = headers
        self.extra = extra

    @classmethod
    def of(cls, body: dict[str, Any], headers: dict[str, str] | None = None) -> ApiProblem:
        """The problem a :func:`problem_body` describes (one the push router also sends)."""
        return cls(body["status"], body["code"], body["title"], body["detail"], headers)


def invalid_field(name: str, detail: str, message: str) -> ApiProblem:
    """A request field or query parameter's bad value: a 400 ``validation_error`` naming it."""
    return ApiProblem(400, "validation_error", "Invalid request", detail, errors={name: [message]})


def check_query(params: Any, takes: Sequence[str], also: Collection[str] = ()) -> None:
    """Refuse (400, naming it) a query parameter that is neither one of ``takes`` nor of
    ``also`` (taken without saying so: ``format``), or one given twice: a typo is not read
    as the default without a word."""
    for name in params:
        if name not in takes and name not in also:
            said = f"it takes {', '.join(takes)}" if takes else "it takes none"
            detail = f"{name[:32]!r} is not a query parameter of this request: {said}"
            raise invalid_field(name[:32], detail, "not a parameter here")
        if len(params.getlist(name)) > 1:
            raise invalid_field(name, f"{name} is given more than once", "given once")


def problem(
    status: int,
    code: str,
    title: str,
    detail: str,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    body = problem_body(status, code, title, detail, **extra)
    return Response(body, status=status, headers=headers, content_type=PROBLEM_CONTENT_TYPE)


def problem_body(status: int, code: str, title: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": TYPE_PREFIX + code,
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }


def _field_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            if key == "non_field_errors" and prefix:
                name = prefix
            elif isinstance(key, int) or str(key).isdigit():
                name = f"{prefix}[{key}]"
            else:
                name = f"{prefix}.{key}" if prefix else str(key)
            out.update(_field_errors(value, name))
    elif isinstance(detail, list):
        if all(not isinstance(v, (dict, list)) for v in detail):
            out[prefix or "non_field_errors"] = [str(v) for v in detail]
        else:
            for i, value in enumerate(detail):
                out.update(_field_errors(value, f"{prefix}[{i}]" if prefix else str(i)))
    else:
        out[prefix or "non_field_errors"] = [str(detail)]
    return out


_DRF_CODES: dict[type, tuple[str, str]] = {
    exceptions.NotAuthenticated: ("not_authenticated", "Authentication required"),
    exceptions.AuthenticationFailed: ("authentication_failed", "Authentication failed"),
    exceptions.PermissionDenied: ("permission_denied", "Permission denied"),
    exceptions.NotFound: ("not_found", "Not found"),
    exceptions.MethodNotAllowed: ("method_not_allowed", "Method not allowed"),
    exceptions.NotAcceptable: ("not_acceptable", "Not acceptable"),
    exceptions.UnsupportedMediaType: ("unsupported_media_type", "Unsupported media type"),
    exceptions.ParseError: ("malformed_request", "Malformed request"),
    exceptions.Throttled: ("throttled", "Too many requests"),
}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, speaking problem+json with stable codes."""
    request = context.get("request")
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        from api.throttling import count_refusal  # (it loads DRF's throttles)

        wait = count_refusal(request, context.get("view")) if request is not None else None
        if wait is not None:
            exc = exceptions.Throttled(wait)
    if isinstance(exc, exceptions.AuthenticationFailed) and _revoked_by_suspension(context):
        from api.authentication import account_suspended  # (it imports this module)

        exc = account_suspended()
    if isinstance(exc, ApiProblem):
        return problem(
            exc.status_code, exc.problem_code, exc.title, str(exc.detail), exc.headers, **exc.extra
        )
    if isinstance(exc, service_errors.ServiceError):
        extra = dict(exc.extra)
        field = extra.pop("field", None)
        if field:
            extra["errors"] = {field: [exc.detail]}
        return problem(exc.status, exc.code, exc.title, exc.detail, **extra)
    if isinstance(exc, RulesError):
        return problem(
            400,
            "invalid_rules",
            "Invalid rules",
            str(exc),
            errors={f"rules.{exc.field}": [str(exc)]},
        )
    if isinstance(exc, MalformedActionError):
        return problem(400, "malformed_action", "Malformed action", exc.message)
    if isinstance(exc, IllegalActionError):
        return problem(422, exc.code, "Illegal action", exc.message)
    if isinstance(exc, ServiceUnavailable):
        # nothing was written (the transaction is gone with the connection): retry later
        logger.warning("service unavailable: %s", type(exc).__name__)
        writes = request is not None and request.method not in ("GET", "HEAD", "OPTIONS")
        return problem(
            503,
            "service_unavailable",
            "Service unavailable",
            UNAVAILABLE_DETAIL + (" (with the same Idempotency-Key)" if writes else ""),
            headers={"Retry-After": str(UNAVAILABLE_RETRY_SECONDS)},
        )
    if isinstance(exc, RequestDataTooBig):
        return problem(
            413, "request_too_large", "Request too large", "the request body is too large"
        )
    if isinstance(exc, SuspiciousOperation):
        return problem(400, "malformed_request", "Malformed request", "the request was refused")
    if isinstance(exc, Http404):
        return problem(404, "not_found", "Not found", "nothing here")
    if isinstance(exc, exceptions.ValidationError):
        return problem(
            400,
            "validation_error",
            "Invalid request",
            "some fields are invalid",
            errors=_field_errors(exc.detail),
        )
    if isinstance(exc, exceptions.APIException):
        response = drf_exception_handler(exc, context)
        code, title = next(
            (v for k, v in _DRF_CODES.items() if isinstance(exc, k)),
            (str(exc.default_code), "Request failed"),
        )
        headers = {}
        if response is not None:
            for name in ("Retry-After", "WWW-Authenticate", "Allow"):
                if name in response:
                    headers[name] = response[name]
        detail = exc.detail if isinstance(exc.detail, str) else "request failed"
        return problem(exc.status_code, code, title, str(detail), headers=headers)
    return None


def _revoked_by_suspension(context: dict[str, Any]) -> bool:
    """Whether the request's token was revoked by a suspension still in force: refused as
    an unknown token would be, it is told instead that its account is suspended."""
    request = context.get("request")
    words = get_authorization_header(request).split() if request is not None else []
    if len(words) != 2 or words[0].lower() not in (b"token", b"bearer"):
        return False
    try:
        return revoked_by_suspension(words[1].decode())
    except (UnicodeError, DatabaseError):  # the first refusal stands
        return False


def plain_problem(status: int, code: str, title: str, detail: str) -> JsonResponse:
    """A problem response for Django's own error handlers, outside DRF."""
    body = problem_body(status, code, title, detail)
    return JsonResponse(  # as compact as the API's own answers (DRF's JSONRenderer)
        body,
        status=status,
        content_type=PROBLEM_CONTENT_TYPE,
        json_dumps_params={"separators": (",", ":"), "ensure_ascii": False},
    )


def server_error(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    """The 500 handler: a problem body that reveals nothing about the failure."""
    return plain_problem(500, "server_error", "Server error", "an unexpected error occurred")


def not_found(request: Any, exception: Exception | None = None) -> JsonResponse:
    """Django's 404, and the answer for any path under ``/api/`` that names nothing (in
    development too, where Django would show its debug page)."""
    return plain_problem(404, "not_found", "Not found", "nothing here")


def no_such_match(request: Any, match_id: str) -> JsonResponse:
    """A match path whose id is not a match id at all: the same 404 as an unknown match."""
    unknown = service_errors.MatchNotFound("no such match")
    return plain_problem(unknown.status, unknown.code, unknown.title, unknown.detail)


def bad_request(request: Any, exception: Exception | None = None) -> JsonResponse:
    """Django's 400 (a disallowed Host header, a malformed request) outside the API views."""
    return plain_problem(400, "malformed_request", "Malformed request", "the request was refused")


def _in_admin(request: Any) -> bool:
    """A page of the admin, read in a browser: its refusals are pages too (Django's own),
    not a problem's JSON shown raw."""
    return str(getattr(request, "path", "")).startswith("/admin/")


def forbidden(request: Any, exception: Exception | None = None) -> HttpResponse:
    if _in_admin(request):
        return defaults.permission_denied(request, exception or PermissionDenied())
    return plain_problem(403, "permission_denied", "Permission denied", "not allowed")


def csrf_failure(request: Any, reason: str = "") -> HttpResponse:
    if _in_admin(request):  # (Django's page says what to do: allow cookies, reload)
        return csrf.csrf_failure(request, reason)
    return plain_problem(403, "csrf_failed", "CSRF check failed", "send a token, or the CSRF token")
