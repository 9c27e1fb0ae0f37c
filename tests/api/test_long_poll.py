"""A long-polling reader wakes as soon as new events are committed."""

import threading
import time

import psycopg
import pytest
from django.db import connections
from rest_framework.authtoken.models import Token


@pytest.mark.django_db(transaction=True)
def test_the_long_poll_wakes_on_commit(alice, bob, duel):
    url = f"/api/matches/{duel}/events"
    version = alice.get(f"/api/matches/{duel}").json()["version"]
    result = {}

    def wait_for_events():
        started = time.monotonic()
        result["body"] = bob.get(url, {"after": version, "wait": 20}).json()
        result["seconds"] = time.monotonic() - started
        connections.close_all()

    reader = threading.Thread(target=wait_for_events)
    reader.start()
    time.sleep(1.0)  # the reader is waiting now
    assert reader.is_alive()
    acted = alice.post(
        f"/api/matches/{duel}/actions", {"type": "reveal", "position": 0}, format="json"
    )
    assert acted.status_code == 200
    reader.join(timeout=20)
    assert not reader.is_alive()
    assert [e["seq"] for e in result["body"]["events"]] == [version + 1]
    assert result["seconds"] < 5, result["seconds"]  # woken by the commit, not the 20 s timeout


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("logged_out", [True, False])
def test_a_long_poll_whose_token_is_revoked_while_it_waits_answers_401(
    alice, bob, duel, users, logged_out
):
    """(The blocking way, as without the router; tests/api/test_push.py has the router's.)"""
    url = f"/api/matches/{duel}/events"
    version = alice.get(f"/api/matches/{duel}").json()["version"]
    result = {}

    def wait_for_events():
        result["response"] = bob.get(url, {"after": version, "wait": 20})
        connections.close_all()

    reader = threading.Thread(target=wait_for_events)
    reader.start()
    time.sleep(1.5)  # the reader is waiting now, and has waited past READMIT_AFTER_SECONDS
    assert reader.is_alive()
    if logged_out:
        Token.objects.filter(user=users["bob"]).delete()
    acted = alice.post(
        f"/api/matches/{duel}/actions", {"type": "reveal", "position": 0}, format="json"
    )
    assert acted.status_code == 200
    reader.join(timeout=20)
    response = result["response"]
    if logged_out:
        assert response.status_code == 401
        assert response.json()["code"] == "authentication_failed"
        assert response["WWW-Authenticate"] == 'Bearer realm="api"'
        assert "events" not in response.json()
    else:
        assert response.status_code == 200
        assert [e["seq"] for e in response.json()["events"]] == [version + 1]


@pytest.mark.django_db(transaction=True)
def test_the_long_poll_times_out_empty(alice, duel):
    started = time.monotonic()
    body = alice.get(f"/api/matches/{duel}/events", {"after": 3, "wait": 1}).json()
    assert body["events"] == [] and 0.9 <= time.monotonic() - started < 5


@pytest.mark.django_db
def test_a_long_poll_without_the_database_is_a_503(alice, duel, monkeypatch):
    def refused(*args, **kwargs):
        raise psycopg.OperationalError("connection refused")

    monkeypatch.setattr("matches.notify.psycopg.connect", refused)
    response = alice.get(f"/api/matches/{duel}/events", {"after": 3, "wait": 1})
    assert response.status_code == 503 and response.json()["code"] == "service_unavailable"
