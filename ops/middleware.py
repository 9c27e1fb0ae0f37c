"""Counts every request into the rolling aggregate the dashboard reads (ops/stats.py)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

from ops import stats

logger = logging.getLogger(__name__)

# any other method is counted as OTHER: a client cannot add fields of its choosing
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNRESOLVED = "(unresolved)"  # no URL pattern matched, or refused before resolving


class RequestStatsMiddleware:
    """Outermost: times the whole answer, the refusals of the middleware below included.
    Counting is one pipelined Redis round trip after the response is made, and a failure
    of it never fails the request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        try:
            match = getattr(request, "resolver_match", None)
            method = request.method if request.method in METHODS else "OTHER"
            stats.record(
                endpoint=(match.view_name if match is not None else None) or UNRESOLVED,
                method=method,
                status=response.status_code,
                seconds=elapsed,
            )
        except Exception:  # counting is never worth a failed request
            logger.exception("ops: could not count a request")
        return response
