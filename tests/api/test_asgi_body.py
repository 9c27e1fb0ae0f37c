"""Request bodies through ``config.asgi.application`` as uvicorn hands them over: a body
of a declared length is read on the event loop first (``BodyFirst``), in any number of
chunks; a body without a length still streams to the view."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from rest_framework.authtoken.models import Token

from matches import services
from matches.models import Match
from tests.api.asgi import http_scope

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def app():
    from config.asgi import application

    return application


def post(
    app: Any,
    path: str,
    token: str,
    chunks: list[bytes],
    length: bool = True,
    declared: int | None = None,
):
    """POST ``chunks`` as one body; the status (0: no answer) and the answer's body. A body
    sent without a length goes as chunked transfer coding would arrive; with ``declared``,
    its length says more than the chunks hold and the client leaves after them."""
    body = b"".join(chunks)
    complete = declared is None
    declared = len(body) if declared is None else declared
    headers = [
        (b"authorization", f"Token {token}".encode()),
        (b"content-type", b"application/json"),
    ]
    headers.append(
        (b"content-length", str(declared).encode())
        if length
        else (b"transfer-encoding", b"chunked")
    )
    scope = http_scope("POST", path, headers)
    messages = [
        {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1 or not complete}
        for i, chunk in enumerate(chunks)
    ]
    answer: dict[str, Any] = {"status": 0, "body": b""}

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        else:
            answer["body"] += message.get("body", b"")

    async_to_sync(app)(scope, receive, send)
    return answer["status"], answer["body"]


@pytest.fixture
def duel(users):
    match = services.match_create(creator=users["alice"], seats=[{"type": "me"}, {"type": "open"}])
    services.match_join(match_id=match.id, user=users["bob"])
    match.refresh_from_db()
    return match, Token.objects.create(user=users["alice"]).key


@pytest.mark.parametrize("length", [True, False], ids=["with a length", "chunked"])
def test_an_action_whose_body_comes_in_pieces_is_taken_whole(app, duel, length):
    match, token = duel
    body = json.dumps({"type": "reveal", "position": 0}).encode()
    status, answer = post(
        app, f"/api/matches/{match.id}/actions", token, [body[:5], body[5:9], body[9:]], length
    )
    assert status == 200, answer
    assert json.loads(answer)["version"] == match.version + 1
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_a_body_over_the_limit_is_refused_as_too_large(app, duel, settings):
    match, token = duel
    padding = " " * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = f'{{"type": "reveal", "position": 0}}{padding}'.encode()
    status, answer = post(app, f"/api/matches/{match.id}/actions", token, [body])
    assert status == 413, answer
    assert Match.objects.get(pk=match.pk).version == match.version


def test_a_client_gone_before_its_body_came_makes_no_action(app, duel):
    match, token = duel
    body = json.dumps({"type": "reveal", "position": 0}).encode()
    status, answer = post(
        app, f"/api/matches/{match.id}/actions", token, [body[:5]], declared=len(body)
    )
    assert (status, answer) == (0, b"")
    assert Match.objects.get(pk=match.pk).version == match.version


def test_a_chunked_body_over_the_limit_is_refused_as_too_large(app, duel, settings):
    match, token = duel
    piece = b" " * 4096
    chunks = [b'{"type": "reveal", "position": 0}'] + [piece] * (
        settings.DATA_UPLOAD_MAX_MEMORY_SIZE // len(piece) + 2
    )
    status, answer = post(app, f"/api/matches/{match.id}/actions", token, chunks, length=False)
    assert status == 413, answer
    assert Match.objects.get(pk=match.pk).version == match.version


def test_the_liveness_probe_is_answered_with_every_thread_busy():
    """Each request of a database outage held a thread of the pool for its wait: with 40
    clients and the database down for 30 s, /healthz took 29.8 s."""
    import asyncio

    from config.asgi import Liveness

    async def busy(scope: Any, receive: Any, send: Any) -> None:  # no thread free, ever
        await asyncio.Event().wait()

    async def ask(method: str, path: str) -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        await asyncio.wait_for(Liveness(busy)(http_scope(method, path, []), receive, send), 1)
        return sent

    start, body = asyncio.run(ask("GET", "/healthz"))
    assert start["status"] == 200 and json.loads(body["body"]) == {"status": "ok"}
    assert (b"content-type", b"application/json") in start["headers"]
    assert asyncio.run(ask("HEAD", "/healthz"))[1]["body"] == b""
    with pytest.raises(TimeoutError):  # every other request goes on to the threads
        asyncio.run(ask("GET", "/readyz"))
