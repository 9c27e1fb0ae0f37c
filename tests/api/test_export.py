"""The export (``GET /api/matches/{id}/export``) served the blocking way (Django's test
client, a WSGI server): the log as it was asked for, a page at a time, holding one of the
account's places among its waiters until the response is closed. Through the ASGI router
(as uvicorn serves it): ``tests/api/test_push.py``."""

from __future__ import annotations

import json
import random

from django.core.signals import request_finished
from django.db import close_old_connections

from api import push
from matches.models import Match
from tests.api.conftest import assert_problem
from tests.api.moves import play_randomly


def lines_of(chunks) -> list[dict]:
    return [json.loads(line) for line in b"".join(chunks).decode().splitlines()]


def test_an_export_is_the_log_as_it_was_asked_for_a_page_at_a_time(users, bob, duel, monkeypatch):
    """Events written while an export is read are not in it, however slowly it is read."""
    monkeypatch.setattr(push, "EXPORT_PAGE", 2)
    rng = random.Random(11)
    players = [users["alice"], users["bob"]]
    play_randomly(duel, players, 4, rng)
    asked_at = Match.objects.get(pk=duel).version
    export = bob.get(f"/api/matches/{duel}/export")
    assert export["Content-Type"] == "application/x-ndjson"
    assert export["Content-Disposition"] == f'attachment; filename="match-{duel}.ndjson"'
    chunks = iter(export.streaming_content)
    first = next(chunks)  # one page: two events
    assert len(first.splitlines()) == 2
    play_randomly(duel, players, 3, rng)  # the match goes on while the export is read
    exported = lines_of([first, *chunks])
    assert [e["seq"] for e in exported] == list(range(1, asked_at + 1))
    listed = bob.get(f"/api/matches/{duel}/events", {"limit": 500}).json()["events"]
    assert exported == listed[:asked_at] and len(listed) > asked_at


def test_an_export_holds_a_place_among_the_accounts_waiters_until_closed(
    alice, carol, duel, settings
):
    settings.PUSH_MAX_PER_ACCOUNT = 1
    path = f"/api/matches/{duel}/export"
    unread = carol.get(path)  # a reader that takes nothing
    body = assert_problem(carol.get(path), 429, "too_many_waiters")
    assert "at most 1 waits, streams and exports at once per account" in body["detail"]
    other = alice.get(path)  # another account is not refused
    assert other.status_code == 200
    lines_of(other.streaming_content)  # (read to the end: closed)
    # closed unread, as a server closes the response of a client gone before the body
    # (without closing the test's database connection, as Django's test client does)
    request_finished.disconnect(close_old_connections)
    try:
        unread.close()
    finally:
        request_finished.connect(close_old_connections)
    read = carol.get(path)
    listed = carol.get(f"/api/matches/{duel}/events").json()["events"]
    assert lines_of(read.streaming_content) == listed and listed
    assert carol.get(path).status_code == 200  # read to the end: closed, given back
