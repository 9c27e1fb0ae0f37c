"""An account's waits, streams and exports are bounded across every web process.

Each :class:`api.push.Admission` below stands for one web process; they share the tests'
Redis (each test under a key prefix of its own), as the processes of a deployment share
the default cache's.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from api import push
from tests.api.conftest import assert_problem


@pytest.fixture
def shared():
    prefix = f"test-{uuid.uuid4().hex}"
    return lambda: push.SharedHolds(os.environ["REDIS_URL"], prefix)


def test_an_accounts_places_are_counted_across_processes(shared, settings):
    settings.PUSH_MAX_PER_ACCOUNT = 2
    one, two = push.Admission(shared()), push.Admission(shared())
    with one.enter("alice"), two.enter("alice"):
        for process in (one, two):
            with pytest.raises(push.TooManyWaiters, match="at most 2 waits"):
                process.check("alice")
            with pytest.raises(push.TooManyWaiters), process.enter("alice"):
                pass
        with one.enter("bob"), two.enter("bob"):  # another account has its own
            pass
    with one.enter("alice"), one.enter("alice"):  # given back: room again
        pass


def test_a_place_never_given_back_is_freed_when_its_lease_ends(shared, settings):
    """A process that died holding a place (it never gave it back) blocks the account no
    longer than the hold could have lasted."""
    settings.PUSH_MAX_PER_ACCOUNT = 1
    settings.PUSH_HEARTBEAT_SECONDS = 0.1  # the lease: the wait and two heartbeats
    crashed, other = push.Admission(shared()), push.Admission(shared())
    crashed.take("alice", wait=0.4)  # (and never given back)
    with pytest.raises(push.TooManyWaiters), other.enter("alice"):
        pass
    time.sleep(0.8)
    with other.enter("alice"):
        pass


def test_a_place_given_back_while_redis_is_away_is_given_back_once_it_is_there(
    shared, settings, monkeypatch
):
    """Its lease would otherwise hold the account's place for minutes after its request
    ended (a stream's: five and a half)."""
    settings.PUSH_MAX_PER_ACCOUNT = 1
    holds = shared()
    one, other = push.Admission(holds), push.Admission(shared())
    place = one.take("alice")
    with monkeypatch.context() as away:

        def unreachable(*args, **kwargs):
            raise RedisConnectionError("Redis went away")

        away.setattr(holds._client, "pipeline", unreachable)
        one.give_back(place)
    with pytest.raises(push.TooManyWaiters):  # still counted: not given back yet
        other.check("alice")
    monkeypatch.setattr(holds, "_down_until", 0.0)  # (the down window over)
    one.check("bob")  # the next call that reaches Redis settles what was owed
    with other.enter("alice"):
        pass


def test_a_refused_place_holds_nothing(shared, settings):
    settings.PUSH_MAX_PER_ACCOUNT = 1
    one, two = push.Admission(shared()), push.Admission(shared())
    with one.enter("alice"):
        for _ in range(3):
            with pytest.raises(push.TooManyWaiters), two.enter("alice"):
                pass
    with two.enter("alice"):  # the refusals above took no place, here or in Redis
        pass


def test_without_redis_each_process_still_bounds_its_own(settings, caplog):
    settings.PUSH_MAX_PER_ACCOUNT = 1
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = push.Admission(push.SharedHolds(f"redis://127.0.0.1:{port}/0"))
    with (
        caplog.at_level(logging.WARNING, logger="api.push"),
        process.enter("alice"),
        pytest.raises(push.TooManyWaiters),
        process.enter("alice"),
    ):
        pass
    assert "waits counted per process only: the shared cache is unreachable" in caplog.text
    with process.enter("alice"):
        pass


def test_the_shared_count_is_the_default_caches_redis(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        }
    }
    settings.PUSH_MAX_PER_ACCOUNT = 1
    one, two = (push.Admission(push.SharedHolds.from_settings()) for _ in range(2))
    with one.enter("alice"), pytest.raises(push.TooManyWaiters):  # counted in that Redis
        two.check("alice")
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert push.SharedHolds.from_settings() is None  # a cache in memory is per process


@pytest.mark.django_db
def test_a_long_poll_is_refused_while_other_processes_hold_the_accounts_places(
    shared, settings, users, alice, duel, monkeypatch
):
    settings.PUSH_MAX_PER_ACCOUNT = 1
    monkeypatch.setattr(push.admission, "shared", shared())
    elsewhere = push.Admission(shared())
    version = alice.get(f"/api/matches/{duel}").json()["version"]
    path = f"/api/matches/{duel}/events"
    with elsewhere.enter(users["alice"].pk):
        refused = alice.get(path, {"after": version, "wait": 1})
        assert alice.get(path, {"after": 0}).status_code == 200  # no wait: no place taken
    body = assert_problem(refused, 429, "too_many_waiters")
    assert "at most 1 waits, streams and exports at once per account" in body["detail"]
    assert refused["Retry-After"] == str(settings.PUSH_RETRY_AFTER_SECONDS)
    assert alice.get(path, {"after": version, "wait": 1}).status_code == 200  # given back
