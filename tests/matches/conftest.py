from __future__ import annotations

import pytest

from matches.services import match_create
from tests.operators import operator


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", password="pw-bob-123")


@pytest.fixture
def carol(django_user_model):
    return django_user_model.objects.create_user("carol", password="pw-carol-123")


@pytest.fixture
def staff(django_user_model):
    """An operator: staff who may abort a match."""
    return operator(django_user_model, "sam")


@pytest.fixture
def duel(alice, bob):
    """A two-human six-card match: alice in seat 0, bob joins seat 1."""
    from matches.services import match_join

    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
    match_join(match_id=match.id, user=bob)
    match.refresh_from_db()
    return match
