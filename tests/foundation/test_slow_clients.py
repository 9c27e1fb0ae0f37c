"""Slow and idle clients are let go (config.protocol): uvicorn, as config.serve runs it
(httptools, uvloop) but with timeouts of a second, on a real socket, serving a small ASGI
application; the clients are raw sockets. A response streamed or awaited for longer than
the timeouts is not cut short."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from config.protocol import MAX_HEAD_FIELDS, TimedHttpToolsProtocol

TIMEOUT = 1.0
LONG = 2.0  # a response's life, well past the timeouts
SLACK = 2.5  # how late a timeout may act on a loaded machine (until_closed gives up at 6)


BODY_TIMEOUT = 2.0  # longer than the head's, as by default
BIG = 8 << 20  # an answer larger than the sockets' buffers


class QuickProtocol(TimedHttpToolsProtocol):
    header_timeout = TIMEOUT
    body_timeout = BODY_TIMEOUT
    max_head_bytes = 8192


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``/stream``: a chunk every 0.25 s for LONG seconds; ``/poll``: nothing for LONG
    seconds, then the answer; ``/early``: answered before its body is read; ``/big``: BIG
    bytes; anything else: the length of the body read."""
    body = b""
    if scope["path"] in ("/early", "/big"):
        answer = b"early" if scope["path"] == "/early" else b"y" * BIG
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", b"%d" % len(answer))]})  # fmt: skip
        await send({"type": "http.response.body", "body": answer})
        return
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    if scope["path"] == "/stream":
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/event-stream")]})  # fmt: skip
        for i in range(int(LONG / 0.25)):
            await send({"type": "http.response.body", "body": b"data: %d\n\n" % i,
                        "more_body": True})  # fmt: skip
            await asyncio.sleep(0.25)
        await send({"type": "http.response.body", "body": b"data: end\n\n"})
        return
    if scope["path"] == "/poll":
        await asyncio.sleep(LONG)
    answer = b"%d" % len(body)
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", b"%d" % len(answer))]})  # fmt: skip
    await send({"type": "http.response.body", "body": answer})


def serve(keep_alive: int) -> Iterator[int]:
    """The port of a server with ``timeout_keep_alive`` of ``keep_alive`` seconds."""
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, loop="uvloop", http=QuickProtocol, lifespan="off",
                            timeout_keep_alive=keep_alive, access_log=False)  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]})
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield listening.getsockname()[1]
    server.should_exit = True
    thread.join(10)
    listening.close()


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    yield from serve(keep_alive=1)


@pytest.fixture(scope="module")
def patient_port() -> Iterator[int]:
    """A keep-alive longer than the head's timeout (a proxy's idle connections kept)."""
    yield from serve(keep_alive=3)


def connect(port: int) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port))
    client.settimeout(0.05)
    return client


def until_closed(
    client: socket.socket, trickle: bytes = b"", limit: float = 6
) -> tuple[float, bytes]:
    """Seconds until the server closes the connection, sending ``trickle`` a byte every
    0.25 s meanwhile, and what it sent."""
    start = next_byte = time.monotonic()
    received = b""
    while (now := time.monotonic()) - start < limit:
        if trickle and now >= next_byte:
            try:
                client.sendall(trickle[:1])
            except OSError:
                break
            trickle, next_byte = trickle[1:], now + 0.25
        try:
            chunk = client.recv(65536)
        except TimeoutError:
            continue
        except OSError:  # reset
            break
        if not chunk:
            break
        received += chunk
    client.close()
    return time.monotonic() - start, received


def response(client: socket.socket, end: bytes) -> bytes:
    """What comes until ``end`` (at most 10 s)."""
    received = b""
    deadline = time.monotonic() + 10
    while not received.endswith(end) and time.monotonic() < deadline:
        try:
            chunk = client.recv(65536)
        except TimeoutError:
            continue
        if not chunk:
            break
        received += chunk
    return received


HEAD = b"GET / HTTP/1.1\r\nHost: t\r\nX-Filler: " + b"x" * 40 + b"\r\n\r\n"
POST = b"POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n"


def test_a_client_that_sends_nothing_is_let_go(port):
    took, received = until_closed(connect(port))
    assert TIMEOUT - 0.1 < took < TIMEOUT + SLACK
    assert received == b""


def test_a_head_sent_a_byte_at_a_time_is_let_go_at_its_deadline(port):
    took, received = until_closed(connect(port), trickle=HEAD)
    assert TIMEOUT - 0.1 < took < TIMEOUT + SLACK
    assert received == b""


@pytest.mark.parametrize("trickle", [b"", b"x" * 1000], ids=["no body", "a byte at a time"])
def test_a_body_that_does_not_come_whole_in_time_is_answered_408(port, trickle):
    client = connect(port)
    client.sendall(POST)
    took, received = until_closed(client, trickle=trickle)
    assert BODY_TIMEOUT - 0.1 < took < BODY_TIMEOUT + SLACK
    assert received.startswith(b"HTTP/1.1 408 ")


def test_the_rest_of_a_body_answered_early_keeps_the_body_deadline(port):
    """An answer given before its body was read (Django's 413 to a length too large):
    the rest of the body has the body's time, not the next head's; then the connection
    serves the next request."""
    client = connect(port)
    client.sendall(POST.replace(b"POST / ", b"POST /early "))
    assert response(client, b"early").startswith(b"HTTP/1.1 200 ")
    for _ in range(3):  # over 1.5 s: past the head's timeout, within the body's
        time.sleep(0.5)
        client.sendall(b"x" * 250)
    client.sendall(b"x" * 250 + HEAD)
    assert response(client, b"\r\n\r\n0").startswith(b"HTTP/1.1 200 ")
    client.close()


def test_a_pipelined_body_is_timed_from_when_it_is_read(port):
    """A request pipelined behind a long-poll: the server reads its body once the poll is
    answered, and the body's time counts from then."""
    client = connect(port)
    client.sendall(b"GET /poll HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.2)
    client.sendall(POST)
    assert response(client, b"\r\n\r\n0").startswith(b"HTTP/1.1 200 ")  # the poll's
    time.sleep(0.5)
    client.sendall(b"x" * 1000)
    assert response(client, b"\r\n\r\n1000").startswith(b"HTTP/1.1 200 ")
    client.close()


def test_a_client_that_does_not_read_its_answer_is_cut_off(port):
    """An answer larger than the sockets' buffers, never read: once the connection is
    idle past its keep-alive, it is cut off when its client has read nothing more for a
    head's time, rather than held with the answer in memory."""
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.connect(("127.0.0.1", port))
    client.sendall(b"GET /big HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(1 + TIMEOUT + SLACK)  # the keep-alive, a head's time, slack
    client.settimeout(5)
    got = 0
    with contextlib.suppress(OSError):
        while chunk := client.recv(1 << 20):
            got += len(chunk)
    client.close()
    assert got < BIG


def test_a_head_too_long_to_read_is_answered_431_at_once(port):
    """httptools reads a head of any size: one stops at max_head_bytes, whatever its pace."""
    client = connect(port)
    client.sendall(b"GET / HTTP/1.1\r\nHost: t\r\nX-Filler: " + b"x" * 10_000)
    took, received = until_closed(client)
    assert took < TIMEOUT - 0.1  # not the head's deadline
    assert received.startswith(b"HTTP/1.1 431 ")


def test_a_head_of_too_many_fields_is_answered_431_at_once(port):
    """A head of 200,000 short fields, under its size's bound, held the event loop (and so
    every request of the process) for 2 s: the WSGI bridge joins a repeated header's values
    one copy at a time."""
    client = connect(port)  # (with Host: as many fields as a head may have)
    client.sendall(b"GET / HTTP/1.1\r\nHost: t\r\n" + b"a: b\r\n" * (MAX_HEAD_FIELDS - 1) + b"\r\n")
    assert response(client, b"\r\n\r\n0").startswith(b"HTTP/1.1 200 ")
    client.close()
    for fields in (MAX_HEAD_FIELDS, 1_000):  # (1,000 fields: under the head's size)
        client = connect(port)
        client.sendall(b"GET / HTTP/1.1\r\nHost: t\r\n" + b"a: b\r\n" * fields + b"\r\n")
        took, received = until_closed(client)
        assert took < TIMEOUT - 0.1  # not the head's deadline
        assert received.startswith(b"HTTP/1.1 431 ") and received.count(b"HTTP/1.1") == 1


@pytest.mark.parametrize("path", ["/poll", "/stream"])
def test_a_head_of_too_many_fields_is_stopped_while_the_request_before_it_is_answered(port, path):
    """A 431 was written into the answer under way: as the long-poll's answer (its own
    lost), or into the stream's chunked body."""
    client = connect(port)
    client.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.3)
    # (a field is read once the next begins: the head is left unended)
    client.sendall(b"GET / HTTP/1.1\r\nHost: t\r\n" + b"a: b\r\n" * (MAX_HEAD_FIELDS + 1))
    took, received = until_closed(client)
    assert took < LONG - 0.5  # before the answer under way would have ended
    assert b" 431 " not in received


def test_a_head_too_long_is_stopped_while_the_request_before_it_is_answered(port):
    """The next head is counted from the end of the request before it, though that one's
    answer (a long-poll) is still awaited: there is no answer to give, so it is closed."""
    client = connect(port)
    client.sendall(b"GET /poll HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(0.2)
    client.sendall(b"GET / HTTP/1.1\r\nHost: t\r\nX-Filler: " + b"x" * 10_000)
    took, received = until_closed(client)
    assert took < LONG - 0.5 and received == b""  # before the long-poll's answer


def test_a_keep_alive_longer_than_the_head_timeout_is_kept(patient_port):
    """An idle connection is uvicorn's keep-alive's to close; the head's timer starts with
    the next head's first byte."""
    client = connect(patient_port)
    client.sendall(HEAD)
    assert response(client, b"\r\n\r\n0").startswith(b"HTTP/1.1 200 ")
    time.sleep(TIMEOUT + 0.8)  # idle past the head's timeout, within the keep-alive
    client.sendall(HEAD)
    assert response(client, b"\r\n\r\n0").startswith(b"HTTP/1.1 200 ")
    took, _ = until_closed(client)
    assert 3 - 0.1 < took < 3 + SLACK  # then the keep-alive lets it go
    client.close()


def test_timeouts_are_whole_seconds_from_one(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    from config.protocol import setting_seconds

    monkeypatch.setenv("HEADER_TIMEOUT", "3")
    assert setting_seconds("HEADER_TIMEOUT", 10) == 3
    for bad in ("0", "-5", "1.5", "soon"):
        monkeypatch.setenv("HEADER_TIMEOUT", bad)
        with pytest.raises(ImproperlyConfigured, match="HEADER_TIMEOUT"):
            setting_seconds("HEADER_TIMEOUT", 10)


def test_a_connection_idle_after_a_response_is_let_go(port):
    client = connect(port)
    client.sendall(HEAD)
    assert response(client, b"\r\n\r\n0").startswith(b"HTTP/1.1 200 ")
    took, _ = until_closed(client)
    assert took < 1 + SLACK  # timeout_keep_alive


def test_the_next_head_sent_a_byte_at_a_time_is_let_go_at_its_deadline(port):
    client = connect(port)
    client.sendall(HEAD)
    assert response(client, b"\r\n\r\n0").startswith(b"HTTP/1.1 200 ")
    took, received = until_closed(client, trickle=HEAD)  # (each byte stops the keep-alive)
    assert TIMEOUT - 0.1 < took < TIMEOUT + SLACK
    assert received == b""


def test_requests_in_time_are_answered_on_one_connection(port):
    client = connect(port)
    for _ in range(2):
        client.sendall(POST[:-4])  # the head in two pieces, the body in four
        time.sleep(0.3)
        client.sendall(POST[-4:] + b"x" * 250)
        for _ in range(3):
            time.sleep(0.2)
            client.sendall(b"x" * 250)
        assert response(client, b"\r\n\r\n1000").startswith(b"HTTP/1.1 200 ")
        time.sleep(0.5)  # idle a while: within the timeouts
    client.close()


@pytest.mark.parametrize("path", ["/stream", "/poll"])
def test_an_answer_longer_than_the_timeouts_is_not_cut_short(port, path):
    client = connect(port)
    start = time.monotonic()
    client.sendall(b"GET %s HTTP/1.1\r\nHost: t\r\n\r\n" % path.encode())
    received = response(client, b"data: end\n\n\r\n0\r\n\r\n" if path == "/stream" else b"0")
    assert time.monotonic() - start > LONG
    assert received.startswith(b"HTTP/1.1 200 ")
    if path == "/stream":
        assert received.count(b"data: ") == int(LONG / 0.25) + 1
    # and then the connection is kept for the next request, like any other
    client.sendall(HEAD)
    assert response(client, b"\r\n\r\n0").startswith(b"HTTP/1.1 200 ")
    client.close()
