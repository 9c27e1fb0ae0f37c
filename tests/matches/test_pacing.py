"""The pacing of each account's COM turns by their decision time, in Redis as the
processes share it (matches/pacing.py)."""

from __future__ import annotations

import itertools
import os
import uuid

import pytest
import redis

from matches.pacing import ESTIMATE, ComPacing


@pytest.fixture
def shared(settings):
    settings.COM_SECONDS_PER_MINUTE = 6  # a second of decisions: 10 s of arrival time
    settings.COM_BURST_MS = 200  # 2 s of it at once
    client = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
    prefix = f"test-{uuid.uuid4().hex}"
    yield ComPacing(client, prefix)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def test_turns_scheduled_together_are_spread_past_the_burst(shared):
    # each reserves 0.05 s of decision, 0.5 s of arrival time: four fit the burst of 2 s
    waits = [shared.reserve("alice", "interactive") for _ in range(7)]
    assert waits[:5] == [0] * 5
    step = ESTIMATE * 10
    for before, after in itertools.pairwise(waits[4:]):
        assert after == pytest.approx(before + step, abs=0.2)  # (less the time between)
    assert shared.reserve("bob", "interactive") == 0  # another account's own
    assert shared.reserve("alice", "background") == 0  # another queue's own


def test_a_decision_moves_the_account_on_by_its_time(shared):
    assert shared.reserve("alice", "interactive") == 0
    shared.charge("alice", "interactive", 0.75, reserved=True)  # 7.5 s of arrival time
    assert shared.reserve("alice", "interactive") == pytest.approx(5.5, abs=0.3)
    shared.charge("alice", "interactive", 0.0, reserved=True)  # a turn not kept: given back
    assert shared.reserve("alice", "interactive") == pytest.approx(5.5, abs=0.3)


def test_without_a_bound_nothing_is_paced(shared, settings):
    settings.COM_SECONDS_PER_MINUTE = 0
    shared.charge("alice", "interactive", 100.0, reserved=False)
    assert shared.reserve("alice", "interactive") == 0


def test_while_redis_is_away_nothing_is_paced(settings):
    settings.COM_SECONDS_PER_MINUTE = 6
    away = redis.Redis(host="127.0.0.1", port=1, socket_timeout=0.2, socket_connect_timeout=0.2)
    pacing = ComPacing(away)
    pacing.charge("alice", "interactive", 100.0, reserved=False)
    assert pacing.reserve("alice", "interactive") == 0


def test_in_one_process_the_same_arithmetic(settings):
    settings.COM_SECONDS_PER_MINUTE = 6
    settings.COM_BURST_MS = 200
    here = ComPacing()
    here.charge("alice", "interactive", 0.75, reserved=False)
    assert here.reserve("alice", "interactive") == pytest.approx(5.5, abs=0.3)
    assert here.reserve("bob", "interactive") == 0
