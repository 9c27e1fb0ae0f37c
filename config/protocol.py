"""uvicorn's HTTP protocol (httptools) with the timeouts it lacks for slow or idle clients.

uvicorn closes a connection left idle after a response (``timeout_keep_alive``), but
only while not one byte comes: a client that connects and sends nothing, or sends a
request's head or body a byte at a time (slowloris), holds its socket (and, during a
body, the request's task) for ever. Here:

- a request's head must be whole within ``HEADER_TIMEOUT`` seconds of the connection
  opening, or of its first byte after a response (until then the connection is idle,
  and ``timeout_keep_alive`` lets it go), else the connection is closed;
- a request's body must be whole within ``BODY_TIMEOUT`` seconds of when the server
  begins to read it (below), else the answer is ``408`` (if none has begun) and the
  connection is closed. (A bound on the
  pauses between its pieces alone would not do: a byte every few seconds keeps a body
  of 64 KiB, ``DATA_UPLOAD_MAX_MEMORY_SIZE``, coming for days.)
- a head is at most :data:`MAX_HEAD_BYTES`, counted as the bytes that come after the
  request before it (or from the connection's start), even while that one is answered:
  else the connection is closed, with ``431`` if no answer is under way. httptools sets
  no limit: a head of any size was read whole into memory. (The application's own
  limits, 8 KiB a header and 32 KiB in all, answer any head below this one:
  api/middleware.py.)
- a head has at most :data:`MAX_HEAD_FIELDS` header fields, else ``431`` and the
  connection is closed: the WSGI bridge joins the values of a repeated header one copy at
  a time, so a head of 1 MiB of short fields held the event loop, and every request of
  the process, for seconds.

A request being answered is under no timeout: a long-poll waiting or an event stream
sending has had its head and body, and the time is the server's. So is a body the server
is not reading yet (a request pipelined behind another, a full buffer, a client waiting
for ``100 Continue``): a body is timed from when the server reads it, and the rest of a
body answered before it came whole from its head still. A connection that closes (idle
past the keep-alive, after an answer saying ``connection: close``, or refused here) is
cut off, what is left of its answer dropped, once its client has read nothing of it for
``HEADER_TIMEOUT``: a client that does not read held it, and that answer in memory, for
good.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from config.env import env_int

#: The most bytes that may come while a request's head is due: far above any head the
#: application takes (2 KiB of URL, 32 KiB of headers) and a read's worth of body after it.
MAX_HEAD_BYTES = 1 << 20

#: The most header fields a head may have (a browser sends about 20, a proxy adds a few).
MAX_HEAD_FIELDS = 100


class _TooManyFields(Exception):
    """Raised in the parser's callback to stop it at a head's field too many."""


def setting_seconds(name: str, default: int) -> int:
    """The whole number of seconds, at least 1, that the setting ``name`` gives."""
    value = env_int(name, default)
    if value < 1:
        raise ImproperlyConfigured(f"{name} must be at least 1 (seconds), got {value}")
    return value


class TimedHttpToolsProtocol(HttpToolsProtocol):
    header_timeout: float = setting_seconds("HEADER_TIMEOUT", 10)
    body_timeout: float = setting_seconds("BODY_TIMEOUT", 30)
    max_head_bytes: int = MAX_HEAD_BYTES
    max_head_fields: int = MAX_HEAD_FIELDS

    _timer: asyncio.TimerHandle | None = None
    _head_at_next_byte = False  # (after a response: idle until a byte comes)
    _head_bytes: int | None = 0  # come toward the next head (None: its body is due)
    _too_many_fields = False

    def _start_timer(self, seconds: float, expired: Callable[[], None]) -> None:
        self._stop_timer()
        self._timer = self.loop.call_later(seconds, expired)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_timer(self.header_timeout, self._head_timed_out)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._head_at_next_byte:
            self._head_at_next_byte = False
            self._start_timer(self.header_timeout, self._head_timed_out)
        if self._head_bytes is not None:
            self._head_bytes += len(data)
            if self._head_bytes > self.max_head_bytes:
                self._head_refused()
                return
        super().data_received(data)

    def on_header(self, name: bytes, value: bytes) -> None:
        if len(self.headers) >= self.max_head_fields:
            self._too_many_fields = True
            raise _TooManyFields  # (the parser stops: answered in send_400_response)
        super().on_header(name, value)

    def send_400_response(self, msg: str) -> None:
        if self._too_many_fields:
            self._head_refused()
            return
        super().send_400_response(msg)

    def _head_refused(self) -> None:
        """A head over a bound: ``431``, and the connection closed (only closed while the
        request before it is answered: no other answer can be sent)."""
        self._stop_timer()
        if self.cycle is not None and not self.cycle.response_complete:
            self._close()
        else:
            self._refuse(431)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._head_bytes = None
        # (stopped at once by on_message_complete when there is no body)
        self._start_timer(self.body_timeout, self._body_timed_out)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._head_bytes = 0  # what comes now is the next request's
        if not self.cycle.response_complete:
            self._stop_timer()
        else:  # the rest of a body answered before it: the next head is due
            self._start_timer(self.header_timeout, self._head_timed_out)

    def on_response_complete(self) -> None:
        waiting = not self.pipeline  # else the next request, already read, starts now
        super().on_response_complete()
        if self.transport.is_closing():  # (the answer said "connection: close")
            self._cut_off_unless_read(self.transport.get_write_buffer_size())
            return
        if not waiting:
            if self._head_bytes is None and not self.pipeline:
                # the request now started is read from now: its body's deadline too
                self._start_timer(self.body_timeout, self._body_timed_out)
        elif self._head_bytes is None:
            # answered before its body came whole: the rest keeps a body's deadline
            if self._timer is None:
                self._start_timer(self.body_timeout, self._body_timed_out)
        else:
            self._head_at_next_byte = True

    def handle_websocket_upgrade(self) -> None:
        self._stop_timer()
        self._head_bytes = None
        super().handle_websocket_upgrade()

    def _head_timed_out(self) -> None:
        self._timer = None
        self._close()

    def _body_timed_out(self) -> None:
        self._timer = None
        if self.cycle.response_complete and self._head_bytes is None:
            self._close()  # the rest of a body answered before it: late
            return
        if self.cycle.response_started:
            return  # answered without it: once the answer is sent, the rest is timed again
        if self.flow.read_paused or self.pipeline or self.cycle.waiting_for_100_continue:
            # the server is not reading the body yet: not the client's delay
            self._start_timer(self.body_timeout, self._body_timed_out)
            return
        self._refuse(408)

    def _refuse(self, status: int) -> None:
        """Answer ``status`` with no body, and close the connection."""
        self.transport.write(
            STATUS_LINE[status]
            + b"".join(name + b": " + value + b"\r\n"
                       for name, value in self.server_state.default_headers)
            + b"content-length: 0\r\nconnection: close\r\n\r\n"
        )  # fmt: skip
        self._close()

    def _close(self) -> None:
        """Close the connection once what was written is sent, or cut it off should that
        take longer than a head may (a client that does not read)."""
        self.transport.close()
        self._cut_off_unless_read(self.transport.get_write_buffer_size())

    def _cut_off_unless_read(self, before: int) -> None:
        """Abort the closing connection should its client read nothing of what is left to
        send within ``header_timeout`` (checked again while it reads)."""

        def check() -> None:
            left = self.transport.get_write_buffer_size()
            if left and left >= before:
                self.transport.abort()
            elif left:
                self._cut_off_unless_read(left)

        self.loop.call_later(self.header_timeout, check)

    def timeout_keep_alive_handler(self) -> None:
        if not self.transport.is_closing():
            self._close()
