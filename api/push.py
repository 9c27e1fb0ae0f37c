"""Long-polls and event streams that cost no thread while they wait.

The service runs as one ASGI application (``config/asgi.py``): Django's synchronous
views run on a small thread pool, and :class:`PushRouter` sits in front of them. For the
waiting endpoints (``GET /api/matches/{id}/events`` and ``.../stream``) and for the export
(``.../export``, whose reader may be slow to take it) the request
still goes through Django and DRF first, so authentication, throttles, validation and
errors are the ordinary ones; when the view finds that the reader must wait, it answers
the router with a private note (what to wait for, as whom) instead of blocking. The
router then waits on the event loop, woken by the process's one listening connection
(:class:`matches.notify.Listener`), and reads the events it sends (redacted for the reader,
as the events list is) on the thread pool, a query at a time.

Without the router (a WSGI server, Django's test client) the same views wait the
blocking way, on their own thread: the same answers, more expensive.

Limits: at most ``PUSH_MAX_PER_ACCOUNT`` waits, streams and exports of one account at once
across every web process (:class:`SharedHolds`), and ``PUSH_MAX_PER_PROCESS`` in all per
process (beyond, ``429 too_many_waiters`` with ``Retry-After``); a stream ends after
``PUSH_STREAM_MAX_SECONDS`` and the client resumes from its last event (``Last-Event-ID``);
a stream of an ended match ends, and so does a stream whose reader is no longer let in
(:class:`Readmission`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection
from django.http import HttpResponse
from rest_framework.renderers import JSONRenderer

from api.authentication import CHALLENGE, still_admitted
from api.problems import (
    UNAVAILABLE_DETAIL,
    UNAVAILABLE_RETRY_SECONDS,
    ServiceUnavailable,
    problem_body,
)
from matches import selectors
from matches.models import Match
from matches.notify import listener, wait_for_version

MAX_WAIT_SECONDS = 30  # the longest a long-poll waits (``?wait=``)
PUSH_PATH = re.compile(r"^/api/matches/[0-9a-fA-F-]{36}/(?:events|stream|export)$")
NOTE_HEADER = "X-Golf-Push-Note"  # private: between the views and the router only
SSE = "text/event-stream"
NDJSON = "application/x-ndjson"
HEARTBEAT = {SSE: b": keep-alive\n\n", NDJSON: b"\n"}
RECONNECT = b"retry: 1000\n\n"  # an event stream's first line: how soon a browser reconnects
STREAM_HEADERS = {"X-Accel-Buffering": "no"}  # (nginx sends each event as it comes)
EXPORT_PAGE = 500  # events an export reads, and sends, at a time
UNAVAILABLE = problem_body(503, "service_unavailable", "Service unavailable", UNAVAILABLE_DETAIL)
# a long-poll that waited this long asks again, before it answers, whether what let it in
# still would (:func:`still_admitted`); a shorter wait stands on its own check
READMIT_AFTER_SECONDS = 1.0
NO_LONGER_ADMITTED = problem_body(
    401,
    "authentication_failed",
    "Authentication failed",
    "the token or session that let this request in was revoked (a log-out, a new password "
    "or a suspension) while it waited",
)
T = TypeVar("T")
logger = logging.getLogger(__name__)


# --- what the views share with the router ---------------------------------------------------
def under_router(request: Any) -> bool:
    """Whether the router serves this request (a mark no client can set)."""
    return bool(request.META.get("asgi.scope", {}).get("golf.push"))


def note_response(note: dict[str, Any], headers: dict[str, str] | None = None) -> HttpResponse:
    """A view's answer to the router: the note, always as JSON (whatever renderer the
    request's Accept chose, the browsable API's HTML in development included)."""
    return HttpResponse(
        json.dumps(note),
        content_type="application/json",
        headers={NOTE_HEADER: "1", **(headers or {})},
    )


def event_chunk(event: dict[str, Any], media_type: str) -> bytes:
    data = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
    if media_type == NDJSON:
        return (data + "\n").encode()
    return f"id: {event['seq']}\ndata: {data}\n\n".encode()


def events_page(
    match_id: str,
    seat: int | None,
    account: object,
    after: int,
    limit: int,
    upto: int | None = None,
) -> dict[str, Any]:
    """The events list's body: the events after ``after`` (up to ``upto``) as ``seat`` may
    see them while ``account`` still holds it. A seat handed to a COM since the reader came
    (a suspension, ``matches.services.seat_to_com``) is no longer its to see: it then reads
    as a spectator, as any request it makes now would."""
    match = Match.objects.only("id", "version", "status", "seat_users").get(pk=match_id)
    if seat is not None and (seat >= len(match.seat_users) or match.seat_users[seat] != account):
        seat = None
    events = selectors.events_of_seat(match, seat, after=after, limit=limit, upto=upto)
    next_after = events[-1]["seq"] if events else after
    last = match.version if upto is None else min(upto, match.version)
    return {
        "events": events,
        "version": match.version,
        "next_after": next_after,
        "has_more": next_after < last,
        "ended": match.ended,
    }


def export_chunks(note: dict[str, Any]) -> Iterator[bytes]:
    """An export's pages up to the note's version, one chunk each (read on the router's
    thread pool, or on the view's own thread without the router). Each page is read as
    the events list's is (``events_page``): a seat handed to a COM meanwhile reads on as a
    spectator, and a match that ended meanwhile shows what its end reveals."""
    after = 0
    while True:
        page = events_page(
            note["match"], note["seat"], note["account"], after, EXPORT_PAGE, note["upto"]
        )
        if not page["events"]:  # (a log shorter than its version would say: no more)
            return
        yield b"".join(event_chunk(e, NDJSON) for e in page["events"])
        if not page["has_more"]:
            return
        after = page["next_after"]


def match_version(match_id: str) -> int:
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first() or 0


# --- limits -------------------------------------------------------------------------------------
class TooManyWaiters(Exception):
    pass


class Held:
    """Chunks of a response that hold its reader's place (``Admission.enter``) until the
    response is closed, whether or not they were ever read: Django closes a streaming
    response's content when the response is closed."""

    def __init__(self, chunks: Iterator[bytes], release: Callable[[], object]) -> None:
        self._chunks, self._release = chunks, release
        self._closed = False

    def __iter__(self) -> Held:
        return self

    def __next__(self) -> bytes:
        return next(self._chunks)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                getattr(self._chunks, "close", lambda: None)()
            finally:
                self._release()


# Each account's holds in one sorted set of the shared Redis: a hold is a member whose score
# is the server's time at which its lease ends, so that one a crashed process never gave
# back stops counting when its lease does. KEYS[1] the account's set; ARGV: the most it may
# hold (0: only count), the lease's seconds, the member. 1: taken (or there is room), 0: full.
_TAKE = """
local now = redis.call('TIME')
local at = tonumber(now[1]) + tonumber(now[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', at)
local most = tonumber(ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= most then return 0 end
if ARGV[3] == '' then return 1 end
local lease = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], at + lease, ARGV[3])
if redis.call('TTL', KEYS[1]) < lease + 1 then
  redis.call('EXPIRE', KEYS[1], math.ceil(lease) + 1)
end
return 1
"""


class SharedHolds:
    """Each account's waits, streams and exports counted across every web process, in the
    shared Redis (the default cache's), as leases that end on their own: a hold lasts at
    most its lease (the router cuts a reader off by then), and one whose process died stops
    counting when its lease ends. A place given back while Redis cannot be reached is given
    back with the next call that reaches it. While it cannot be reached (for
    ``DOWN_SECONDS`` after a failure) only each process's own count bounds an account, as
    the rates let requests through uncounted then (a warning is logged). Its calls block:
    the router makes them on its threads, not on its event loop."""

    DOWN_SECONDS = 5.0
    OWED_AT_MOST = 10_000  # places kept to give back (beyond, through a long outage: leases)

    def __init__(self, url: str, prefix: str = "") -> None:
        import redis

        self._client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self._take = self._client.register_script(_TAKE)
        self._prefix = prefix
        self._down_until = 0.0
        self._lock = threading.Lock()
        self._owed: set[tuple[str, str]] = set()  # places to give back: (key, member)

    @classmethod
    def from_settings(cls) -> SharedHolds | None:
        """Over the default cache's Redis, or ``None`` (a cache in memory is per process)."""
        default = settings.CACHES["default"]
        if not default["BACKEND"].endswith("RedisCache"):
            return None
        location = default["LOCATION"]
        url = location[0] if isinstance(location, list | tuple) else location.split(",")[0]
        return cls(url, default.get("KEY_PREFIX", ""))

    def _key(self, account: object) -> str:
        return f"{self._prefix}:push-holds:{account}" if self._prefix else f"push-holds:{account}"

    def take(self, account: object, most: int, lease: float, member: str = "") -> bool | None:
        """Whether ``account`` holds fewer than ``most`` now; with a ``member``, take a place
        for ``lease`` seconds if so. ``None``: Redis could not say."""
        if time.monotonic() < self._down_until:
            return None
        try:
            self._settle()
            return bool(self._take(keys=[self._key(account)], args=[most, lease, member]))
        except Exception as exc:  # (redis-py's errors: the count is a brake, not the service)
            self._down(exc)
            return None

    def give_back(self, account: object, member: str) -> None:
        """End the place ``member`` of ``account``'s: now, or with the next call that
        reaches Redis (else its lease ends it)."""
        with self._lock:
            if len(self._owed) < self.OWED_AT_MOST:
                self._owed.add((self._key(account), member))
        if time.monotonic() >= self._down_until:
            try:
                self._settle()
            except Exception as exc:
                self._down(exc)

    def _settle(self) -> None:
        """Give back every place owed (in one round trip)."""
        with self._lock:
            owed, self._owed = self._owed, set()
        if not owed:
            return
        try:
            pipe = self._client.pipeline(transaction=False)
            for key, member in owed:
                pipe.zrem(key, member)
            pipe.execute()
        except Exception:
            with self._lock:
                self._owed |= set(list(owed)[: self.OWED_AT_MOST - len(self._owed)])
            raise

    def _down(self, exc: Exception) -> None:
        self._down_until = time.monotonic() + self.DOWN_SECONDS
        logger.warning(
            "waits counted per process only: the shared cache is unreachable (%s)",
            type(exc).__name__,
        )


def longest_hold(wait: float | None = None) -> float:
    """How long a place is leased for: the longest its hold may last (the router lets a
    reader go a heartbeat after its wait, or the longest stream, would have ended) and a
    heartbeat more. Without ``wait``, for any wait, stream or export."""
    if wait is None:
        wait = max(MAX_WAIT_SECONDS, settings.PUSH_STREAM_MAX_SECONDS)
    return wait + 2 * settings.PUSH_HEARTBEAT_SECONDS


@dataclass
class Place:
    """A place :meth:`Admission.take` gave, to give back once."""

    account: object
    member: str = ""  # its lease in the shared count ("": none)
    given_back: bool = False


class Admission:
    """Counts the waits, streams and exports of this process, in all and per account, and
    with :class:`SharedHolds` those of each account across all processes."""

    def __init__(self, shared: SharedHolds | None = None) -> None:
        self._lock = threading.Lock()
        self._per_account: dict[object, int] = {}
        self._total = 0
        self.shared = shared

    def check(self, account: object) -> None:
        """Raise :class:`TooManyWaiters` if ``account`` could not :meth:`enter` now (before
        a whole-log read is charged to its rates: one refused does no work)."""
        with self._lock:
            self._check(account)
        if self.shared and self.shared.take(account, settings.PUSH_MAX_PER_ACCOUNT, 0) is False:
            raise self._full()

    def _check(self, account: object) -> None:
        if self._total >= settings.PUSH_MAX_PER_PROCESS:
            raise TooManyWaiters("this server holds as many waiting readers as it may")
        if self._per_account.get(account, 0) >= settings.PUSH_MAX_PER_ACCOUNT:
            raise self._full()

    @staticmethod
    def _full() -> TooManyWaiters:
        return TooManyWaiters(
            f"at most {settings.PUSH_MAX_PER_ACCOUNT} waits, streams and exports "
            "at once per account"
        )

    def take(self, account: object, wait: float | None = None) -> Place:
        """A place for ``account`` (:class:`TooManyWaiters` if it has none left), leased in
        the shared count for :func:`longest_hold` of ``wait``. Blocking (Redis)."""
        with self._lock:
            self._check(account)
            self._total += 1
            self._per_account[account] = self._per_account.get(account, 0) + 1
        place = Place(account)
        if self.shared:
            member = uuid.uuid4().hex
            most, lease = settings.PUSH_MAX_PER_ACCOUNT, longest_hold(wait)
            if self.shared.take(account, most, lease, member) is False:
                self.give_back(place)
                raise self._full()
            place.member = member
        return place

    def give_back(self, place: Place) -> None:
        """End ``place`` (once). Blocking (Redis)."""
        with self._lock:
            if place.given_back:
                return
            place.given_back = True
            self._total -= 1
            left = self._per_account[place.account] - 1
            if left:
                self._per_account[place.account] = left
            else:
                del self._per_account[place.account]
        if place.member and self.shared:
            self.shared.give_back(place.account, place.member)

    @contextlib.contextmanager
    def enter(self, account: object, wait: float | None = None) -> Iterator[None]:
        """Hold a place for ``account`` while in it (see :meth:`take`)."""
        place = self.take(account, wait)
        try:
            yield
        finally:
            self.give_back(place)


admission = Admission(SharedHolds.from_settings())


def too_many_waiters_body(exc: TooManyWaiters) -> dict[str, Any]:
    return problem_body(429, "too_many_waiters", "Too many waiting requests", str(exc))


class Readmission:
    """When a stream asks again whether what let it in still would (its token not revoked,
    its session not logged out, its account not suspended): at most once a heartbeat,
    before it reads on. A stream whose reader is no longer let in ends; the reader's
    reconnection is then refused."""

    def __init__(self) -> None:
        self.next = time.monotonic() + settings.PUSH_HEARTBEAT_SECONDS

    def due(self) -> bool:
        now = time.monotonic()
        if now < self.next:
            return False
        self.next = now + settings.PUSH_HEARTBEAT_SECONDS
        return True


# --- the blocking way (no router) -------------------------------------------------------------
def blocking_stream(note: dict[str, Any]) -> Iterator[bytes]:
    """A stream served by a thread of its own (a WSGI server, tests)."""
    deadline = time.monotonic() + settings.PUSH_STREAM_MAX_SECONDS
    after = note["after"]
    readmission = Readmission()
    if note["media_type"] == SSE:
        yield RECONNECT
    while True:
        if readmission.due() and not still_admitted(note["credential"]):
            return
        page = events_page(note["match"], note["seat"], note["account"], after, 500)
        for event in page["events"]:
            yield event_chunk(event, note["media_type"])
            after = event["seq"]
        if page["has_more"]:
            continue
        remaining = deadline - time.monotonic()
        if page["ended"] or remaining <= 0:
            return
        if (
            wait_for_version(note["match"], after, min(remaining, settings.PUSH_HEARTBEAT_SECONDS))
            <= after
        ):
            yield HEARTBEAT[note["media_type"]]


# --- the router ---------------------------------------------------------------------------------
class PushRouter:
    """ASGI middleware in front of the synchronous application (see the module's doc)."""

    def __init__(self, app: Callable[..., Any], threads: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="push")
        # readers woken together for the same events share one read of them
        self._reads: dict[tuple[Any, ...], asyncio.Future[dict[str, Any]]] = {}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not PUSH_PATH.match(scope["path"]):
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] | None = None
        body = bytearray()

        async def capture(message: dict[str, Any]) -> None:
            nonlocal start
            if message["type"] == "http.response.start" and _note_in(message["headers"]):
                start = message
            elif start is not None and message["type"] == "http.response.body":
                body.extend(message.get("body", b""))
            else:
                await send(message)

        await self.app({**scope, "golf.push": True}, receive, capture)
        if start is None:
            return
        note, headers = json.loads(body), _headers_of(start)
        if scope["method"] == "HEAD":  # what a GET would start with, read and waited for by none
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [*headers, (b"content-type", _media_type(note).encode())],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return
        await self._serve(note, headers, receive, send)

    def _submit(self, function: Callable[..., T], *args: Any) -> Future[T]:
        """``function`` on the thread pool, its database connection given back after."""

        def call() -> T:
            try:
                return function(*args)
            finally:
                connection.close()

        return self.executor.submit(call)

    async def _sync(self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.wrap_future(self._submit(function, *args))

    async def _take_place(self, account: object, wait: float) -> Place:
        """:meth:`Admission.take` on the threads; a place taken for a request cancelled
        meanwhile (its client gone) is given back."""
        taking = self._submit(admission.take, account, wait)
        try:
            return await asyncio.wrap_future(taking)
        except asyncio.CancelledError:
            taking.add_done_callback(self._give_back_taken)
            raise

    def _give_back_taken(self, taking: Future[Place]) -> None:
        if not taking.cancelled() and taking.exception() is None:
            self._submit(admission.give_back, taking.result())

    async def _serve(
        self, note: dict[str, Any], headers: list[tuple[bytes, bytes]], receive: Any, send: Any
    ) -> None:
        # a reader that takes nothing is let go (its answer ends unfinished) a heartbeat
        # after its wait, or the longest stream, would have ended: no place is held forever
        wait = note["wait"] if note["kind"] == "events" else settings.PUSH_STREAM_MAX_SECONDS
        longest = wait + settings.PUSH_HEARTBEAT_SECONDS
        started = False

        async def tracked(message: dict[str, Any]) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            # (taken and given back on the threads: a slow Redis must not stall the loop)
            place = await self._take_place(note["account"], wait)
            try:
                async with _until_disconnect(receive):
                    limit = asyncio.timeout(longest)
                    try:
                        async with limit:
                            await self._answer(note, headers, tracked)
                    except TimeoutError:
                        if not limit.expired():
                            raise
            finally:  # (not awaited: a cancelled request gives its place back too)
                self._submit(admission.give_back, place)
        except TooManyWaiters as exc:
            body = too_many_waiters_body(exc)
            await _problem(send, headers, body, settings.PUSH_RETRY_AFTER_SECONDS)
        except ServiceUnavailable as exc:  # (the ASGI server would answer a bare 500)
            logger.warning("service unavailable while pushing: %s", type(exc).__name__)
            if not started:
                await _problem(send, headers, UNAVAILABLE, UNAVAILABLE_RETRY_SECONDS)
            elif note["kind"] == "stream":  # it ends here: the client resumes where it got to
                await send({"type": "http.response.body", "body": b""})
            # an export begun is left unfinished (the connection is cut, with no last chunk):
            # a part of the log must not read as the whole of it

    async def _answer(self, note: dict[str, Any], headers: list[Any], send: Any) -> None:
        if note["kind"] == "events":
            await self._long_poll(note, headers, send)
        elif note["kind"] == "export":
            await self._export(note, headers, send)
        else:
            await self._stream(note, headers, send)

    async def _page(self, note: dict[str, Any], after: int, limit: int) -> dict[str, Any]:
        """The events after ``after`` as the note's seat sees them (while its account holds
        it); one database read for every reader of that match, seat and place that asks at
        the same moment."""
        account = note["account"] if note["seat"] is not None else None
        key = (note["match"], note["seat"], account, after, limit)
        shared = self._reads.get(key)
        if shared is None:
            shared = asyncio.ensure_future(
                self._sync(events_page, note["match"], note["seat"], account, after, limit)
            )
            self._reads[key] = shared
            shared.add_done_callback(lambda _: self._reads.pop(key, None))
        return dict(await asyncio.shield(shared))

    async def _wait(self, note: dict[str, Any], after: int, timeout: float) -> int:
        match_id = note["match"]
        return await listener().wait(
            match_id, after, timeout, lambda: self._sync(match_version, match_id)
        )

    async def _long_poll(self, note: dict[str, Any], headers: list[Any], send: Any) -> None:
        started = time.monotonic()
        await self._wait(note, note["after"], note["wait"])
        if time.monotonic() - started >= READMIT_AFTER_SECONDS and not await self._sync(
            still_admitted, note["credential"]
        ):
            await _problem(
                send, [*headers, (b"www-authenticate", CHALLENGE.encode())], NO_LONGER_ADMITTED
            )
            return
        page = await self._page(note, note["after"], note["limit"])
        del page["ended"]
        content = JSONRenderer().render(page)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    *headers,
                    (b"content-type", _media_type(note).encode()),
                    (b"content-length", str(len(content)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": content})

    async def _stream(self, note: dict[str, Any], headers: list[Any], send: Any) -> None:
        # the view's headers carry Cache-Control: private, no-cache (api/middleware.py)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    *headers,
                    (b"content-type", _media_type(note).encode()),
                    *((k.lower().encode(), v.encode()) for k, v in STREAM_HEADERS.items()),
                ],
            }
        )
        async for chunk in self._chunks(note):
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    async def _export(self, note: dict[str, Any], headers: list[Any], send: Any) -> None:
        """The log up to the note's version (``export_chunks``), each page read on the
        thread pool: a reader slow to take it holds its place among its account's waiters,
        and no thread."""
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [*headers, (b"content-type", _media_type(note).encode())],
            }
        )
        chunks = export_chunks(note)
        reading: Future[bytes | None] | None = None
        try:
            while True:
                reading = self._submit(next, chunks, None)
                if (chunk := await asyncio.wrap_future(reading)) is None:
                    break
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        finally:
            # a reader gone while a page is read on the pool: the pages are closed when
            # that read ends (a generator still running cannot be closed)
            if reading is None:
                chunks.close()
            else:
                reading.add_done_callback(lambda _: chunks.close())
        await send({"type": "http.response.body", "body": b""})

    async def _chunks(self, note: dict[str, Any]) -> AsyncIterator[bytes]:
        media_type = note["media_type"]
        if media_type == SSE:
            yield RECONNECT
        deadline = time.monotonic() + settings.PUSH_STREAM_MAX_SECONDS
        after = note["after"]
        readmission = Readmission()
        while True:
            if readmission.due() and not await self._sync(still_admitted, note["credential"]):
                return
            page = await self._page(note, after, 500)
            for event in page["events"]:
                yield event_chunk(event, media_type)
                after = event["seq"]
            if page["has_more"]:
                continue
            remaining = deadline - time.monotonic()
            if page["ended"] or remaining <= 0:
                return
            if (
                await self._wait(note, after, min(remaining, settings.PUSH_HEARTBEAT_SECONDS))
                <= after
            ):
                yield HEARTBEAT[media_type]


def _media_type(note: dict[str, Any]) -> str:
    """The content type of what the note's reader is sent."""
    if note["kind"] == "stream":
        return f"{note['media_type']}; charset=utf-8"
    return NDJSON if note["kind"] == "export" else "application/json"


async def _problem(
    send: Any,
    headers: list[tuple[bytes, bytes]],
    body: dict[str, Any],
    retry_after: int | None = None,
) -> None:
    """Answer with a problem (in place of the page, stream or export the view began)."""
    content = JSONRenderer().render(body)
    kept = [(k, v) for k, v in headers if k.lower() != b"content-disposition"]
    retry = [] if retry_after is None else [(b"retry-after", str(retry_after).encode())]
    await send(
        {
            "type": "http.response.start",
            "status": body["status"],
            "headers": [
                *kept,
                (b"content-type", b"application/problem+json"),
                *retry,
                (b"content-length", str(len(content)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": content})


def _note_in(headers: list[tuple[bytes, bytes]]) -> bool:
    return any(name.lower() == NOTE_HEADER.lower().encode() for name, _ in headers)


def _headers_of(start: dict[str, Any]) -> list[tuple[bytes, bytes]]:
    """The view's headers (set by every middleware), less the note's own."""
    dropped = {NOTE_HEADER.lower().encode(), b"content-type", b"content-length"}
    return [(k, v) for k, v in start["headers"] if k.lower() not in dropped]


@contextlib.asynccontextmanager
async def _until_disconnect(receive: Any) -> AsyncIterator[None]:
    """Run the body until it ends or the client goes away (then it is cancelled)."""
    task = asyncio.current_task()
    assert task is not None
    gone = False

    async def watch() -> None:
        nonlocal gone
        while (await receive())["type"] != "http.disconnect":
            pass
        gone = True
        task.cancel()

    watcher = asyncio.get_running_loop().create_task(watch())
    try:
        yield
    except asyncio.CancelledError:
        if not gone:
            raise
        task.uncancel()
    finally:
        watcher.cancel()
