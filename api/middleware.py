"""Answers Django would otherwise give as HTML pages, or as a 500, in problem+json."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.common import CommonMiddleware as DjangoCommonMiddleware
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import escape_leading_slashes

from api.problems import (
    UNAVAILABLE_DETAIL,
    UNAVAILABLE_RETRY_SECONDS,
    ServiceUnavailable,
    plain_problem,
)
from api.throttling import held_off, token_held_off

logger = logging.getLogger(__name__)

MAX_URL_LENGTH = 2048  # path and query string
MAX_HEADER_LENGTH = 8192  # any one header's value
MAX_HEADERS_LENGTH = 32768  # all headers' values together


def _held(wait: float, detail: str) -> HttpResponse:
    """The 429 of a request held off for ``wait`` seconds (api/throttling.py)."""
    response = plain_problem(429, "throttled", "Too many requests", detail)
    response["Retry-After"] = str(math.ceil(wait))
    # (not a log line each: the hold's start was logged once, as a flood's)
    response._has_been_logged = True  # type: ignore[attr-defined]  # Django's mark
    return response


class ProblemMiddleware:
    """Outermost guard of every request (API, admin, docs):

    - a URL or headers longer than any client of this service sends is refused before
      anything reads them (414, 431);
    - a database that cannot be reached is a 503 with ``Retry-After`` everywhere, the admin
      included, like the API's own answer;
    - under ``/api/`` an error that escapes a view is a problem document, in every mode;
    - every ``/api/`` answer is for its caller alone (a seat's view, its hand): it is marked
      ``Cache-Control: private`` (and ``no-cache`` unless the view set its own directives:
      revalidate with the ETag) and ``Vary: Authorization``, so no shared cache between
      the service and its clients may keep one viewer's answer and give it to another.

    The server in front (uvicorn, config/serve.py) passes requests beyond these sizes
    through, so that these limits, not the server's own pages, answer.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self._refused(request) or self.get_response(request)
        if request.path.startswith("/api/"):
            if response.has_header("Cache-Control"):
                patch_cache_control(response, private=True)
            else:
                patch_cache_control(response, private=True, no_cache=True)
            patch_vary_headers(response, ("Authorization",))
        return response

    def _refused(self, request: HttpRequest) -> HttpResponse | None:
        """The answer to a URL or headers too long to read (414, 431), if they are; or,
        under ``/api/``, to a request from an address held off for its requests that no
        valid credential let in, or with a token over its account's rate of requests (429,
        api/throttling.py ``HeldAddresses``, ``held_tokens``)."""
        if len(request.get_full_path()) > MAX_URL_LENGTH:
            return plain_problem(
                414, "uri_too_long", "URI too long", f"URLs are at most {MAX_URL_LENGTH} bytes"
            )
        headers = [v for k, v in request.META.items() if k.startswith("HTTP_")]
        if (
            any(len(v) > MAX_HEADER_LENGTH for v in headers)
            or sum(map(len, headers)) > MAX_HEADERS_LENGTH
        ):
            return plain_problem(
                431,
                "headers_too_large",
                "Request headers too large",
                f"a header is at most {MAX_HEADER_LENGTH} bytes, all of them {MAX_HEADERS_LENGTH}",
            )
        if not request.path.startswith("/api/"):
            return None
        if (wait := held_off(request)) is not None:
            detail = "too many requests from this address without a valid token"
            return _held(wait, f"{detail}: try again in {math.ceil(wait)} seconds")
        if (wait := token_held_off(request)) is not None:
            return _held(
                wait, f"Request was throttled. Expected available in {math.ceil(wait)} seconds."
            )
        return None

    def process_exception(self, request: HttpRequest, exception: Exception) -> Any:
        if isinstance(exception, ServiceUnavailable):
            logger.warning("service unavailable: %s", type(exception).__name__)
            response: JsonResponse = plain_problem(
                503, "service_unavailable", "Service unavailable", UNAVAILABLE_DETAIL
            )
            response["Retry-After"] = str(UNAVAILABLE_RETRY_SECONDS)
            return response
        if request.path.startswith("/api/"):
            logger.exception("unhandled error in %s %s", request.method, request.path)
            return plain_problem(
                500, "server_error", "Server error", "an unexpected error occurred"
            )
        return None


class CommonMiddleware(DjangoCommonMiddleware):
    """Django's, answering a POST (PUT, PATCH, DELETE) to a page's path without its slash
    (``/admin``) in development as in production: a 301 to the path with it. With ``DEBUG``
    on, Django raised instead, a 500 under ``make run``."""

    def get_full_path_with_slash(self, request: HttpRequest) -> str:
        return escape_leading_slashes(request.get_full_path(force_append_slash=True))
