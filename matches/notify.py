"""Waking long-polling readers when a match gets new events.

A trigger on ``golf_match`` publishes ``<match id>:<version>`` on the PostgreSQL channel
``golf_match_events`` whenever a match's version changes (migration 0004); notifications
are transactional, so it is delivered exactly when the events are committed.

Under the ASGI server, waiting readers share one listening connection per process
(:class:`Listener`). :func:`wait_for_version` is the blocking form, for synchronous
callers (scripts, a WSGI server): a connection of its own for the time it waits.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from django.conf import settings
from django.db import OperationalError, connection

from matches.models import Match

CHANNEL = "golf_match_events"
logger = logging.getLogger(__name__)


def _version(match_id: object) -> int:
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first() or 0


def wait_for_version(match_id: object, after: int, timeout: float) -> int:
    """Block until the match's version exceeds ``after`` or ``timeout`` seconds pass.

    Returns the match's version at that moment.
    """
    deadline = time.monotonic() + timeout
    try:
        return _listen_for_version(match_id, after, deadline)
    except psycopg.OperationalError as exc:  # the listener's own connection, outside Django's
        raise OperationalError(str(exc)) from exc


def _listen_for_version(match_id: object, after: int, deadline: float) -> int:
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        # a write may have committed before LISTEN took effect: look once after it
        version = _version(match_id)
        prefix = f"{match_id}:"
        while version <= after:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            for note in listener.notifies(timeout=remaining, stop_after=1):
                if note.payload.startswith(prefix):
                    version = max(version, int(note.payload[len(prefix) :]))
            if version <= after and time.monotonic() >= deadline:
                break
        return version


# --- the same wake-up without a thread per reader -------------------------------------------
class Listener:
    """One connection LISTENing for a whole process (one per event loop), fanned out to
    every reader of that process that waits on the loop: a waiting reader costs a future,
    not a connection or a thread.

    When the connection drops, every waiter is woken to look at the database again, and
    the next wait connects anew. With no waiter left the connection is closed after
    ``settings.PUSH_LISTENER_IDLE_SECONDS``.
    """

    def __init__(self) -> None:
        self._waiters: dict[str, set[tuple[int, asyncio.Future[int]]]] = {}
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._idle: asyncio.TimerHandle | None = None

    @property
    def waiting(self) -> int:
        return sum(len(w) for w in self._waiters.values())

    async def wait(
        self,
        match_id: str,
        after: int,
        timeout: float,
        current: Callable[[], Awaitable[int]],
    ) -> int:
        """Wait until the match's version exceeds ``after`` or ``timeout`` seconds pass;
        returns the version then. ``current()`` reads the version from the database: it
        is asked once LISTEN is in place, so no commit can slip in between."""
        await self._start()
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        entry = (after, future)
        self._waiters.setdefault(match_id, set()).add(entry)
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        try:
            version = await current()
            if version > after:
                return version
            try:
                woke = await asyncio.wait_for(future, timeout)
            except TimeoutError:
                return version
            return woke if woke > after else await current()  # -1: the connection dropped
        finally:
            waiters = self._waiters.get(match_id)
            if waiters is not None:
                waiters.discard(entry)
                if not waiters:
                    del self._waiters[match_id]
            if not self._waiters:
                self._schedule_close()

    async def _start(self) -> None:
        async with self._lock:
            if self._connection is not None and not self._connection.closed:
                return
            try:
                self._connection = await psycopg.AsyncConnection.connect(
                    **_plain_params(), autocommit=True
                )
                await self._connection.execute(f"LISTEN {CHANNEL}")
            except psycopg.OperationalError as exc:
                raise OperationalError(str(exc)) from exc
            self._reader = asyncio.get_running_loop().create_task(self._read(self._connection))

    async def _read(self, conn: psycopg.AsyncConnection[Any]) -> None:
        try:
            async for note in conn.notifies():
                match_id, _, version = note.payload.partition(":")
                for after, future in self._waiters.get(match_id, ()):
                    if int(version) > after and not future.done():
                        future.set_result(int(version))
        except psycopg.Error:
            logger.warning("the notification connection dropped; readers look again")
        finally:
            for waiters in self._waiters.values():
                for _after, future in waiters:
                    if not future.done():
                        future.set_result(-1)

    def _schedule_close(self) -> None:
        delay = settings.PUSH_LISTENER_IDLE_SECONDS
        if delay <= 0:
            asyncio.get_running_loop().create_task(self._close_if_idle())
        elif self._idle is None:
            loop = asyncio.get_running_loop()
            self._idle = loop.call_later(delay, lambda: loop.create_task(self._close_if_idle()))

    async def _close_if_idle(self) -> None:
        if not self._waiters:
            await self.close()

    async def close(self) -> None:
        """Close the listening connection (a wait afterwards opens a new one)."""
        async with self._lock:
            if self._idle is not None:
                self._idle.cancel()
            self._idle = None
            if self._connection is None:
                return
            conn, self._connection = self._connection, None
            if self._reader is not None:
                self._reader.cancel()
            await conn.close()


def _plain_params() -> dict[str, Any]:
    """Django's connection parameters without its synchronous cursor and adapters."""
    params = connection.get_connection_params()
    return {k: v for k, v in params.items() if k not in ("cursor_factory", "context")}


_listeners: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Listener] = (
    weakref.WeakKeyDictionary()
)


def listener() -> Listener:
    """The listener of the running event loop (of this process, under an ASGI server)."""
    loop = asyncio.get_running_loop()
    found = _listeners.get(loop)
    if found is None:
        found = _listeners[loop] = Listener()
    return found
