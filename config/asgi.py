"""The ASGI application: what uvicorn serves (`make run`, the Dockerfile, compose).

Django's synchronous views run on a pool of ``WEB_THREADS`` threads per process (a2wsgi's
WSGI adapter: one hand-over per request, as fast as a threaded WSGI server); in front of
them, :class:`api.push.PushRouter` serves the waiting readers (long-polls and event
streams) on the event loop, so that a waiting client costs no thread, and
:class:`BodyFirst` reads a request's body on the event loop before its thread starts.
"""

import gc
import io
import os
from typing import Any

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

BODY = "golf.body"  # the scope's key for a body read on the event loop


class BodyFirst:
    """Reads a request body of up to ``limit`` bytes on the event loop and hands it to
    the thread with the request (``scope[BODY]``), so the view reads it from memory: the
    WSGI adapter would otherwise fetch it from the event loop while its thread waits (a
    hand-over between threads for every action). A body sent without a length (chunked)
    is read the same way and given its length, which Django needs to read it at all; one
    longer than ``limit`` then reaches Django with its first ``limit + 1`` bytes, which
    Django refuses as too large. A larger body of a declared length streams as before."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        length, chunked = _length_of(scope) if scope["type"] == "http" else (None, False)
        if (length is None and not chunked) or (length is not None and length > self.limit):
            await self.app(scope, receive, send)
            return
        body = bytearray()
        while len(body) <= self.limit:
            message = await receive()
            if message["type"] != "http.request":  # the client left before its body came
                return
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        await self.app({**scope, BODY: bytes(body)}, receive, send)


class Liveness:
    """Answers the liveness probe (``GET /healthz``) on the event loop: it must not wait
    for a thread of the pool, which an outage of the database can hold whole (each request
    waits up to ``DB_POOL_TIMEOUT`` for a connection): the probe then hung as long as the
    outage, and an orchestrator would restart a web process with nothing wrong. It says
    the same as Django's view (``api.health.healthz``), whatever the ``Host``."""

    BODY = b'{"status": "ok"}'
    HEADERS = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(BODY)).encode()),
        (b"cache-control", b"max-age=0, no-cache, no-store, must-revalidate, private"),
        (b"x-content-type-options", b"nosniff"),
    ]

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if (
            scope["type"] != "http"
            or scope["path"] != "/healthz"
            or scope["method"]
            not in (
                "GET",
                "HEAD",
            )
        ):
            await self.app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200, "headers": self.HEADERS})
        await send(
            {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else self.BODY}
        )


def _length_of(scope: dict[str, Any]) -> tuple[int | None, bool]:
    """The request's declared length (``None``: none, or not a number), and whether its
    body comes chunked."""
    length, chunked = None, False
    for name, value in scope["headers"]:
        if name == b"content-length":
            length = int(value) if value.isdigit() else None
        elif name == b"transfer-encoding":
            chunked = b"chunked" in value.lower()
    return length, chunked


def body_from_scope(django_application: Any) -> Any:
    """The WSGI application reading a body :class:`BodyFirst` read from memory."""

    def application(environ: dict[str, Any], start_response: Any) -> Any:
        body = environ.get("asgi.scope", {}).get(BODY)
        if body is not None:
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return django_application(environ, start_response)

    return application


def _application():  # type: ignore[no-untyped-def]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django_application = get_wsgi_application()  # sets Django up: the app's code after
    from django.conf import settings

    from api.push import PushRouter

    threads = WSGIMiddleware(body_from_scope(django_application), workers=settings.WEB_THREADS)
    return Liveness(
        BodyFirst(
            PushRouter(threads, threads=settings.PUSH_THREADS),
            limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
        )
    )


application = _application()
# What is loaded by now lives as long as the process: keep the collector from walking it
# again and again (shorter pauses with thousands of waiting readers).
gc.freeze()
