from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.operators import operator


def client_for(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def users(django_user_model):
    make = django_user_model.objects.create_user
    return {
        "alice": make("alice", password="pw-alice-123"),
        "bob": make("bob", password="pw-bob-123"),
        "carol": make("carol", password="pw-carol-123"),
        "staff": make("sam", password="pw-sam-123", is_staff=True),
        "operator": operator(django_user_model),  # (staff who may abort a match)
    }


@pytest.fixture
def alice(users):
    return client_for(users["alice"])


@pytest.fixture
def bob(users):
    return client_for(users["bob"])


@pytest.fixture
def carol(users):
    return client_for(users["carol"])


@pytest.fixture
def staff(users):
    return client_for(users["staff"])


@pytest.fixture
def ops(users):
    """An operator's client: staff who may abort a match."""
    return client_for(users["operator"])


@pytest.fixture
def anon():
    return APIClient()


@pytest.fixture
def duel(alice, bob):
    """A six-card match between alice (seat 0) and bob (seat 1)."""
    created = alice.post(
        "/api/matches", {"seats": [{"type": "me"}, {"type": "open"}], "holes": 1}, format="json"
    )
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    assert bob.post(f"/api/matches/{match_id}/join", {}, format="json").status_code == 200
    return match_id


def assert_problem(response, status, code):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == code and body["status"] == status
    assert body["type"].endswith(code) and body["title"] and body["detail"]
    return body
