import pytest
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle

from tests.api.conftest import assert_problem


@pytest.fixture
def tight_auth_rate(monkeypatch):
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "auth": "3/min", "actions": "2/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db
def test_auth_endpoints_are_throttled(anon, users, tight_auth_rate):
    for _ in range(3):
        anon.post("/api/auth/token", {"username": "alice", "password": "nope"}, format="json")
    response = anon.post(
        "/api/auth/token", {"username": "alice", "password": "nope"}, format="json"
    )
    assert_problem(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0


@pytest.mark.django_db
def test_actions_are_throttled(alice, duel, tight_auth_rate):
    url = f"/api/matches/{duel}/actions"
    for position in (0, 1):
        assert (
            alice.post(url, {"type": "reveal", "position": position}, format="json").status_code
            == 200
        )
    assert_problem(alice.post(url, {"type": "draw"}, format="json"), 429, "throttled")
