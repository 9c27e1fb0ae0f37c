"""Long-polls and event streams through the ASGI application, as uvicorn serves it.

The requests go to ``config.asgi.application`` in this process; the database is the test
database, with real commits (a waiting reader is woken by PostgreSQL's notification).
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connections
from django.test import Client
from rest_framework.authtoken.models import Token

from api import push
from matches import services
from matches.models import Match
from matches.notify import listener
from tests.api.asgi import http_scope
from tests.api.moves import play_randomly

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def app():
    from config.asgi import application

    return application


@dataclass
class Reply:
    """One request in flight: its status and headers, then its body as it comes."""

    task: asyncio.Task[None] | None = None
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    chunks: asyncio.Queue[bytes | None] = field(default_factory=asyncio.Queue)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    gone: asyncio.Event = field(default_factory=asyncio.Event)

    async def body(self, timeout: float = 10) -> bytes:
        """Everything until the end of the response."""
        parts = []
        while (part := await asyncio.wait_for(self.chunks.get(), timeout)) is not None:
            parts.append(part)
        return b"".join(parts)

    async def disconnect(self) -> None:
        self.gone.set()
        assert self.task is not None
        await asyncio.wait_for(self.task, 10)


async def get(
    app: Any,
    path: str,
    token: str,
    query=None,
    hold: asyncio.Event | None = None,
    method: str = "GET",
    **headers: str,
) -> Reply:
    """Start ``GET path`` and return once its status line has come; a client that takes
    no part of the body until ``hold`` is set, when given."""
    reply = Reply()
    raw = [(b"authorization", f"Token {token}".encode())]
    raw += [(k.replace("_", "-").lower().encode(), v.encode()) for k, v in headers.items()]
    scope = http_scope(method, path, raw, urlencode(query or {}).encode())
    sent_request = False

    async def receive():
        nonlocal sent_request
        if not sent_request:
            sent_request = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await reply.gone.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            reply.status = message["status"]
            reply.headers = {k.decode(): v.decode() for k, v in message["headers"]}
            reply.started.set()
        else:
            if hold is not None:
                await hold.wait()
            if message.get("body"):
                await reply.chunks.put(message["body"])
            if not message.get("more_body"):
                await reply.chunks.put(None)

    reply.task = asyncio.get_running_loop().create_task(app(scope, receive, send))
    await asyncio.wait_for(reply.started.wait(), 15)
    return reply


def sse_ids(text: str) -> list[int]:
    return [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]


@pytest.fixture
def duel(users):
    match = services.match_create(creator=users["alice"], seats=[{"type": "me"}, {"type": "open"}])
    services.match_join(match_id=match.id, user=users["bob"])
    tokens = {name: Token.objects.create(user=users[name]).key for name in ("alice", "bob")}
    return str(match.id), tokens


def flip(users, match_id, who, position):
    services.match_act(
        match_id=match_id, user=users[who], action={"type": "reveal", "position": position}
    )
    connections.close_all()


def run(coroutine_function):
    """Run an async test body on one event loop, closing the loop's listener after."""

    async def body():
        try:
            return await coroutine_function()
        finally:
            await listener().close()

    return async_to_sync(body)()


def test_a_stream_resumes_after_its_last_event_with_no_gap_or_repeat(app, users, duel, settings):
    match_id, tokens = duel
    settings.PUSH_STREAM_MAX_SECONDS = 2  # the stream ends and the client reconnects
    path = f"/api/matches/{match_id}/stream"
    act = sync_to_async(flip)

    async def body() -> list[int]:
        first = await get(app, path, tokens["bob"])
        assert first.status == 200
        assert first.headers["content-type"].startswith("text/event-stream")
        await act(users, match_id, "alice", 0)
        seen = sse_ids((await first.body()).decode())
        second = await get(app, path, tokens["bob"], Last_Event_ID=str(seen[-1]))
        await act(users, match_id, "alice", 1)
        await act(users, match_id, "bob", 0)
        seen += sse_ids((await second.body()).decode())
        return seen

    seen = run(body)
    assert seen == list(range(1, len(seen) + 1)) and len(seen) == 6  # 3 at the start + 3


def test_a_stream_shows_a_player_only_what_their_seat_may_see(app, users, duel):
    match_id, tokens = duel

    async def body() -> list[dict[str, Any]]:
        reply = await get(
            app, f"/api/matches/{match_id}/stream", tokens["bob"], Accept="application/x-ndjson"
        )
        await sync_to_async(flip)(users, match_id, "alice", 3)
        lines: list[dict[str, Any]] = []
        while len(lines) < 4:
            chunk = await asyncio.wait_for(reply.chunks.get(), 10)
            lines += [json.loads(line) for line in chunk.decode().splitlines() if line]
        await reply.disconnect()
        return lines

    started, dealt, joined, flipped = run(body)
    assert started["data"]["seed"] is None
    assert dealt["data"]["grids"] == [[None] * 6, [None] * 6] and dealt["data"]["stock"] is None
    assert joined["type"] == "seat_taken" and joined["data"] == {"seat": 1}
    assert flipped["data"]["card"]  # a flip is public


def woken_long_poll(
    app: Any, users: Any, match_id: str, token: str, version: int, **headers: str
) -> tuple[Reply, float, dict[str, Any]]:
    """A long-poll after ``version``, still waiting half a second later, then woken by
    alice's flip: its reply, the seconds it took and its page."""

    async def body() -> tuple[Reply, float, dict[str, Any]]:
        started = time.monotonic()
        query = {"after": version, "wait": 20}
        path = f"/api/matches/{match_id}/events"
        waiting = asyncio.get_running_loop().create_task(get(app, path, token, query, **headers))
        await asyncio.sleep(0.5)
        assert not waiting.done()
        await sync_to_async(flip)(users, match_id, "alice", 0)
        reply = await waiting
        page = json.loads(await reply.body())
        return reply, time.monotonic() - started, page

    return run(body)


def test_a_long_poll_wakes_on_commit_and_sends_the_views_headers(app, users, duel):
    match_id, tokens = duel
    version = Match.objects.get(pk=match_id).version
    reply, seconds, page = woken_long_poll(app, users, match_id, tokens["bob"], version)
    assert reply.status == 200 and seconds < 5
    assert [e["seq"] for e in page["events"]] == [version + 1]
    assert reply.headers["content-type"] == "application/json"
    assert reply.headers["x-content-type-options"] == "nosniff"  # the middleware's headers
    assert not any("push" in name for name in reply.headers)  # the private note stays inside


def test_an_account_may_hold_only_so_many_waits(app, users, duel, settings):
    match_id, tokens = duel
    settings.PUSH_MAX_PER_ACCOUNT = 2
    version = Match.objects.get(pk=match_id).version
    path = f"/api/matches/{match_id}/events"

    async def body() -> tuple[Reply, list[int]]:
        loop = asyncio.get_running_loop()
        held = [
            loop.create_task(get(app, path, tokens["bob"], {"after": version, "wait": 20}))
            for _ in range(2)
        ]
        await asyncio.sleep(0.5)
        refused = await get(app, path, tokens["bob"], {"after": version, "wait": 20})
        other = await get(app, f"/api/matches/{match_id}/stream", tokens["alice"])
        assert other.status == 200  # another account is not refused
        await other.disconnect()
        await sync_to_async(flip)(users, match_id, "alice", 0)
        statuses = [(await task).status for task in held]
        return refused, statuses

    refused, statuses = run(body)
    assert refused.status == 429 and refused.headers["retry-after"] == "5"
    assert refused.headers["content-type"] == "application/problem+json"
    assert statuses == [200, 200]


def test_waiters_are_released_when_the_match_is_aborted(app, users, duel):
    match_id, tokens = duel
    version = Match.objects.get(pk=match_id).version

    async def body() -> tuple[float, dict[str, Any], bytes]:
        loop = asyncio.get_running_loop()
        poll = loop.create_task(
            get(
                app,
                f"/api/matches/{match_id}/events",
                tokens["bob"],
                {"after": version, "wait": 25},
            )
        )
        stream = await get(
            app, f"/api/matches/{match_id}/stream", tokens["bob"], {"after": version}
        )
        await asyncio.sleep(0.3)
        started = time.monotonic()
        await sync_to_async(services.match_abort)(match_id=match_id, user=users["operator"])
        page = json.loads(await (await poll).body())
        streamed = await stream.body()
        return time.monotonic() - started, page, streamed

    seconds, page, streamed = run(body)
    assert seconds < 5
    assert [e["type"] for e in page["events"]] == ["match_aborted"]
    assert b'"type":"match_aborted"' in streamed  # and then the stream ended


def test_a_stream_of_an_ended_match_with_nothing_new_answers_204(app, users, duel):
    match_id, tokens = duel
    services.match_abort(match_id=match_id, user=users["operator"])
    version = Match.objects.get(pk=match_id).version

    async def body() -> int:
        reply = await get(
            app, f"/api/matches/{match_id}/stream", tokens["bob"], Last_Event_ID=str(version)
        )
        await reply.body()
        return reply.status

    assert run(body) == 204


def play(users, match_id, moves, rng):
    play_randomly(match_id, [users["alice"], users["bob"]], moves, rng)
    connections.close_all()


def test_an_export_through_the_router_is_the_log_as_asked_a_page_at_a_time(
    app, users, duel, monkeypatch
):
    match_id, tokens = duel
    monkeypatch.setattr(push, "EXPORT_PAGE", 2)
    rng = random.Random(5)
    play(users, match_id, 4, rng)
    asked_at = Match.objects.get(pk=match_id).version
    path = f"/api/matches/{match_id}/export"

    async def body() -> tuple[Reply, list[bytes], bytes]:
        taken = asyncio.Event()
        reply = await get(app, path, tokens["bob"], hold=taken)
        await sync_to_async(play)(users, match_id, 3, rng)  # the match goes on meanwhile
        taken.set()
        chunks = []
        while (chunk := await asyncio.wait_for(reply.chunks.get(), 10)) is not None:
            chunks.append(chunk)
        listed = await get(app, f"/api/matches/{match_id}/events", tokens["bob"], {"limit": 500})
        return reply, chunks, await listed.body()

    reply, chunks, listed = run(body)
    assert reply.status == 200 and reply.headers["content-type"] == "application/x-ndjson"
    assert reply.headers["content-disposition"] == f'attachment; filename="match-{match_id}.ndjson"'
    assert "private" in reply.headers["cache-control"]
    assert [len(c.splitlines()) for c in chunks[:-1]] == [2] * (len(chunks) - 1)  # pages
    exported = [json.loads(line) for line in b"".join(chunks).decode().splitlines()]
    assert [e["seq"] for e in exported] == list(range(1, asked_at + 1))
    events = json.loads(listed)["events"]
    assert exported == events[:asked_at] and len(events) > asked_at


def test_exports_not_read_hold_no_thread_and_count_among_the_accounts_waits(
    app, users, duel, settings
):
    """More exports than the web threads, read by no one: the service still answers, and
    the account's next export beyond its places is refused until they go."""
    match_id, tokens = duel
    play(users, match_id, 16, random.Random(3))  # more events than a2wsgi's send queue
    stalled = settings.WEB_THREADS + 1
    settings.PUSH_MAX_PER_ACCOUNT = stalled
    path = f"/api/matches/{match_id}/export"

    async def body() -> tuple[list[int], Reply, Reply, Reply]:
        never = asyncio.Event()
        held = [await get(app, path, tokens["bob"], hold=never) for _ in range(stalled)]
        refused = await get(app, path, tokens["bob"])
        me = await get(app, "/api/me", tokens["bob"])
        await me.body()
        for reply in held:
            await reply.disconnect()
        again = await get(app, path, tokens["bob"])
        await again.body()
        return [r.status for r in held], refused, me, again

    statuses, refused, me, again = run(body)
    assert statuses == [200] * stalled
    assert refused.status == 429 and refused.headers["retry-after"] == "5"
    assert "content-disposition" not in refused.headers  # a problem, not a file to save
    assert me.status == 200 and again.status == 200


def test_an_export_left_while_a_page_is_read_ends_cleanly(app, users, duel, monkeypatch):
    """The reader goes while a page is being read on the thread pool: the export ends
    with no error (the pages are closed once that read is done) and frees its place."""
    match_id, tokens = duel
    reading, release = threading.Event(), threading.Event()
    read_page = push.events_page

    def slow_page(*args):
        reading.set()
        release.wait(10)
        return read_page(*args)

    monkeypatch.setattr(push, "events_page", slow_page)
    path = f"/api/matches/{match_id}/export"

    async def body() -> tuple[int, bytes]:
        reply = await get(app, path, tokens["bob"])
        assert await asyncio.to_thread(reading.wait, 10)
        reply.gone.set()  # the reader goes while the first page is still being read
        await asyncio.sleep(0.2)
        release.set()
        await reply.disconnect()
        again = await get(app, path, tokens["bob"])
        return again.status, await again.body()

    status, text = run(body)
    assert status == 200 and b'"match_started"' in text


def test_a_head_of_the_export_or_stream_reads_and_waits_for_nothing(app, users, duel, settings):
    match_id, tokens = duel
    settings.PUSH_MAX_PER_ACCOUNT = 1

    async def body() -> list[tuple[int, dict[str, str], bytes]]:
        never = asyncio.Event()
        held = await get(app, f"/api/matches/{match_id}/stream", tokens["bob"], hold=never)
        answers = []
        for what in ("export", "stream"):  # answered though bob has no place left
            reply = await get(app, f"/api/matches/{match_id}/{what}", tokens["bob"], method="HEAD")
            answers.append((reply.status, reply.headers, await reply.body()))
        await held.disconnect()
        return answers

    (export, export_headers, export_body), (stream, stream_headers, stream_body) = run(body)
    assert (export, export_body, stream, stream_body) == (200, b"", 200, b"")
    assert export_headers["content-type"] == "application/x-ndjson"
    assert export_headers["content-disposition"].startswith("attachment;")
    assert stream_headers["content-type"] == "text/event-stream; charset=utf-8"


def test_a_reader_that_takes_nothing_is_let_go_and_its_place_given_back(app, users, duel, settings):
    """An export (or stream) whose client reads nothing ends unfinished a heartbeat after
    the longest stream would have: the account's place comes back."""
    match_id, tokens = duel
    settings.PUSH_MAX_PER_ACCOUNT = 1
    settings.PUSH_STREAM_MAX_SECONDS, settings.PUSH_HEARTBEAT_SECONDS = 1, 1
    path = f"/api/matches/{match_id}/export"

    async def body() -> tuple[Reply, float, Reply]:
        stuck = await get(app, path, tokens["bob"], hold=asyncio.Event())
        began = time.monotonic()
        refused = await get(app, path, tokens["bob"])
        assert refused.status == 429  # the stuck one holds the place...
        await asyncio.wait_for(stuck.task, 10)  # ...until it is let go
        let_go = time.monotonic() - began
        again = await get(app, path, tokens["bob"])
        await again.body()
        return stuck, let_go, again

    stuck, let_go, again = run(body)
    assert stuck.status == 200 and stuck.chunks.empty()  # nothing taken, nothing more sent
    assert 0.5 < let_go < 5, let_go
    assert again.status == 200


def test_a_database_lost_during_a_routed_wait_is_a_503_or_a_clean_end(
    app, users, duel, monkeypatch, settings
):
    """The router waits and reads after the view has returned: a database it cannot reach
    then is the API's 503 (with Retry-After) where no answer has begun, and the end of a
    stream that has (its client resumes from its last event), never the server's bare 500;
    the account's places are given back either way."""
    from django.db import OperationalError

    from matches import notify

    match_id, tokens = duel
    version = Match.objects.get(pk=match_id).version

    async def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise notify.psycopg.OperationalError("connection refused")

    def no_read(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(notify.psycopg.AsyncConnection, "connect", unreachable)
    monkeypatch.setattr(push, "events_page", no_read)
    settings.PUSH_MAX_PER_ACCOUNT = 1  # each request below is let in: the one before left

    async def body() -> tuple[Reply, bytes, Reply, bytes, Reply]:
        path = f"/api/matches/{match_id}"
        query = {"after": version, "wait": 5}
        poll = await get(app, f"{path}/events", tokens["bob"], query)
        problem = await poll.body()
        stream = await get(app, f"{path}/stream", tokens["bob"], Accept="application/x-ndjson")
        lines = await stream.body()
        return poll, problem, stream, lines, await get(app, f"{path}/events", tokens["bob"], query)

    poll, problem, stream, lines, again = run(body)
    assert poll.status == 503 and poll.headers["retry-after"] == "2"
    assert poll.headers["content-type"] == "application/problem+json"
    assert json.loads(problem)["code"] == "service_unavailable"
    assert stream.status == 200 and lines == b""  # begun, then ended whole
    assert again.status == 503


def test_a_long_poll_asked_for_as_html_is_answered_as_json(app, users, duel, monkeypatch):
    """In development the browsable API is among the renderers: a long-poll opened in a
    browser (Accept: text/html) still waits, and answers its page as JSON."""
    from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer

    from api import views

    monkeypatch.setattr(views.EventsView, "renderer_classes", [JSONRenderer, BrowsableAPIRenderer])
    match_id, tokens = duel
    version = Match.objects.get(pk=match_id).version
    reply, _, page = woken_long_poll(
        app, users, match_id, tokens["bob"], version, Accept="text/html"
    )
    assert reply.status == 200 and reply.headers["content-type"] == "application/json"
    assert [e["seq"] for e in page["events"]] == [version + 1]


def test_an_export_cut_by_a_lost_database_does_not_end_as_if_whole(app, users, duel, monkeypatch):
    """Its first page sent, the database goes: the answer is left unfinished (no last
    chunk), so that no client takes the part it got for the whole log."""
    from django.db import OperationalError

    match_id, tokens = duel
    real = push.export_chunks

    def cut(note: dict[str, Any]):
        pages = real(note)
        yield next(pages)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(push, "export_chunks", cut)

    async def body() -> tuple[Reply, bytes, bool]:
        reply = await get(app, f"/api/matches/{match_id}/export", tokens["bob"])
        first = await asyncio.wait_for(reply.chunks.get(), 10)
        assert reply.task is not None
        await asyncio.wait_for(reply.task, 10)  # the application is done with it
        return reply, first, reply.chunks.empty()

    reply, first, nothing_more = run(body)
    assert reply.status == 200 and first.startswith(b'{"seq":1')
    assert nothing_more  # no last chunk: the end of a whole answer never came


def test_a_stream_ends_within_a_heartbeat_of_its_token_being_revoked(app, users, duel, settings):
    match_id, tokens = duel
    settings.PUSH_HEARTBEAT_SECONDS = 1

    def revoke_then_flip() -> None:
        Token.objects.filter(key=tokens["bob"]).delete()  # bob logs out
        time.sleep(3)  # (three heartbeats: the stream has asked again by then, however slow)
        flip(users, match_id, "alice", 0)

    async def body() -> tuple[bytes, int]:
        path = f"/api/matches/{match_id}/stream"
        reply = await get(app, path, tokens["bob"], Accept="application/x-ndjson")
        assert reply.status == 200
        await sync_to_async(revoke_then_flip)()
        sent = await reply.body(timeout=10)  # (it would run PUSH_STREAM_MAX_SECONDS)
        again = await get(app, path, tokens["bob"], Accept="application/x-ndjson")
        await again.body()
        return sent, again.status

    sent, status = run(body)
    lines = [json.loads(line) for line in sent.decode().splitlines() if line]
    assert [e["type"] for e in lines] == ["match_started", "hole_dealt", "seat_taken"]
    assert status == 401


def test_a_long_poll_whose_token_is_revoked_while_it_waits_answers_401(app, users, duel):
    match_id, tokens = duel
    version = Match.objects.get(pk=match_id).version

    async def body() -> tuple[Reply, bytes]:
        query = {"after": version, "wait": 20}
        path = f"/api/matches/{match_id}/events"
        waiting = asyncio.get_running_loop().create_task(get(app, path, tokens["bob"], query))
        await asyncio.sleep(1.5)  # past push.READMIT_AFTER_SECONDS
        assert not waiting.done()
        await sync_to_async(Token.objects.filter(key=tokens["bob"]).delete)()  # bob logs out
        await sync_to_async(flip)(users, match_id, "alice", 0)
        reply = await waiting
        return reply, await reply.body()

    reply, content = run(body)
    assert reply.status == 401 and reply.headers["www-authenticate"] == 'Bearer realm="api"'
    assert reply.headers["content-type"] == "application/problem+json"
    assert json.loads(content)["code"] == "authentication_failed"
    # a long-poll woken at once (tests above) answers on its own check, with its page


@pytest.mark.parametrize("logged_out", [True, False])
def test_a_sessions_stream_ends_once_it_logs_out_and_not_before(users, duel, settings, logged_out):
    """(The blocking way, as without the router; the session asked again as the token is.)"""
    match_id, _ = duel
    settings.PUSH_HEARTBEAT_SECONDS = 1
    settings.PUSH_STREAM_MAX_SECONDS = 8
    client = Client()
    client.force_login(users["bob"])
    version = Match.objects.get(pk=match_id).version
    stream = client.get(
        f"/api/matches/{match_id}/stream", {"after": version}, HTTP_ACCEPT="application/x-ndjson"
    )
    assert stream.status_code == 200
    if logged_out:
        client.logout()
    started = time.monotonic()
    heartbeats = list(stream.streaming_content)
    lasted = time.monotonic() - started
    assert set(heartbeats) <= {b"\n"}
    if logged_out:  # within a heartbeat or so, not the stream's eight seconds
        assert lasted < 6 and len(heartbeats) <= 5  # (asked again a heartbeat in: ~1 s)
    else:
        assert lasted > 7.5 and len(heartbeats) >= 3


def test_a_stream_begins_the_same_with_the_router_or_without(app, users, duel, settings):
    match_id, tokens = duel
    settings.PUSH_STREAM_MAX_SECONDS = 0  # what there is, then the end
    path = f"/api/matches/{match_id}/stream"

    async def routed() -> tuple[dict[str, str], bytes]:
        reply = await get(app, path, tokens["bob"])
        return reply.headers, await reply.body()

    headers, body = run(routed)
    client = Client(HTTP_AUTHORIZATION=f"Token {tokens['bob']}")
    blocking = client.get(path)
    assert body == b"".join(blocking.streaming_content)
    assert body.startswith(b"retry: 1000\n\nid: 1\n")
    assert headers["x-accel-buffering"] == blocking.headers["X-Accel-Buffering"] == "no"


def test_a_slow_shared_count_does_not_stall_the_event_loop(app, duel, monkeypatch):
    """The account's places are counted in Redis across the web processes; those calls
    block, and made on the router's event loop, a Redis slow to answer stalled every
    connection of the process (heartbeats, other streams) for as long, per wait."""
    match_id, tokens = duel

    class SlowHolds:  # (a Redis that takes 0.3 s to answer each call)
        def take(self, *args: Any) -> bool:
            time.sleep(0.3)
            return True

        def give_back(self, *args: Any) -> None:
            time.sleep(0.3)

    monkeypatch.setattr(push.admission, "shared", SlowHolds())
    version = Match.objects.get(pk=match_id).version
    path = f"/api/matches/{match_id}/events"

    async def body() -> tuple[float, list[int]]:
        gaps, last = [], time.monotonic()
        done = asyncio.Event()

        async def tick() -> None:
            nonlocal last
            while not done.is_set():
                await asyncio.sleep(0.02)
                now = time.monotonic()
                gaps.append(now - last)
                last = now

        ticker = asyncio.get_running_loop().create_task(tick())
        waits = [
            await get(app, path, tokens[name], {"after": version, "wait": 1})
            for name in ("alice", "bob", "alice", "bob")
        ]
        statuses = []
        for reply in waits:
            await reply.body()
            statuses.append(reply.status)
        done.set()
        await ticker
        return max(gaps), statuses

    longest_gap, statuses = run(body)
    assert statuses == [200] * 4
    assert longest_gap < 0.25, f"the event loop stalled {longest_gap:.2f} s"
