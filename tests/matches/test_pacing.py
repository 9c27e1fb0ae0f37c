"""The pacing of each account's COM turns by their decision time (matches/pacing.py), in
Redis as the processes share it, and in one process without it."""

from __future__ import annotations

import itertools
import os
import uuid

import pytest
import redis

from matches.pacing import ESTIMATE, ComPacing


@pytest.fixture(params=["redis", "process"])
def pacing(request, settings):
    settings.COM_SECONDS_PER_MINUTE = 6  # a second of decisions: 10 s of arrival time
    settings.COM_BURST_MS = 200  # 2 s of it at once
    if request.param == "process":
        yield ComPacing()
        return
    client = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
    prefix = f"test-{uuid.uuid4().hex}"
    yield ComPacing(client, prefix)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def test_turns_scheduled_together_are_spread_past_the_burst(pacing):
    # each reserves 0.05 s of decision, 0.5 s of arrival time: four fit the burst of 2 s
    waits = [pacing.reserve("alice", "interactive", f"m:{v}") for v in range(7)]
    assert waits[:5] == [0] * 5
    step = ESTIMATE * 10
    for before, after in itertools.pairwise(waits[4:]):
        assert after == pytest.approx(before + step, abs=0.2)  # (less the time between)
    assert pacing.reserve("bob", "interactive", "b:1") == 0  # another account's own
    assert pacing.reserve("alice", "background", "c:1") == 0  # another queue's own


def test_a_turns_first_decision_settles_its_reservation(pacing):
    assert pacing.reserve("alice", "interactive", "m:1") == 0  # 0.5 s of arrival time
    pacing.charge("alice", "interactive", 0.75, "m:1")  # 7.5 s, the 0.5 s reserved in it
    assert pacing.reserve("alice", "interactive", "m:2") == pytest.approx(5.5, abs=0.3)
    pacing.charge("alice", "interactive", 0.0, "m:2")  # a turn not kept: given back
    assert pacing.reserve("alice", "interactive", "m:3") == pytest.approx(5.5, abs=0.3)
    pacing.charge("alice", "interactive", 0.0, "m:2")  # (given back once only)
    pacing.charge("alice", "interactive", 0.75, "m:1")  # decided again: in full
    assert pacing.reserve("alice", "interactive", "m:4") == pytest.approx(13.5, abs=0.3)


def test_without_a_bound_nothing_is_paced(pacing, settings):
    settings.COM_SECONDS_PER_MINUTE = 0
    pacing.charge("alice", "interactive", 100.0, "m:1")
    assert pacing.reserve("alice", "interactive", "m:2") == 0


def test_while_redis_is_away_nothing_is_paced(settings):
    settings.COM_SECONDS_PER_MINUTE = 6
    away = redis.Redis(host="127.0.0.1", port=1, socket_timeout=0.2, socket_connect_timeout=0.2)
    pacing = ComPacing(away)
    pacing.charge("alice", "interactive", 100.0, "m:1")
    assert pacing.reserve("alice", "interactive", "m:2") == 0
