"""An action checks the caller's token in its own statements (accounts/tokens.py): the
process remembers tokens it has seen, but a revoked token or a deactivated account stops
working at once, whatever the action would have answered."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token

from accounts.tokens import remembered
from matches.models import Match, MatchEvent
from tests.api.conftest import assert_problem

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _forget_tokens():
    remembered.clear()
    yield
    remembered.clear()


def act(client, match_id, headers=None, **action):
    return client.post(
        f"/api/matches/{match_id}/actions", action, format="json", headers=headers or {}
    )


def version(match_id) -> int:
    return Match.objects.get(pk=match_id).version


def test_an_action_with_a_remembered_token_is_two_statements(alice, users, duel):
    assert act(alice, duel, type="reveal", position=0).status_code == 200
    key = Token.objects.get(user=users["alice"]).key
    assert remembered.get(key) is not None  # the first action looked the token up
    statements = []

    def count(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        assert act(alice, duel, type="reveal", position=1).status_code == 200
    # the match row with the token's standing, then the write (which checks it again)
    assert len(statements) == 2, statements
    assert "authtoken_token" in statements[0] and "authtoken_token" in statements[1]


def test_a_revoked_token_stops_acting_at_once(alice, users, duel):
    assert act(alice, duel, type="reveal", position=0).status_code == 200
    before = version(duel)
    assert alice.delete("/api/auth/token").status_code == 204
    body = assert_problem(act(alice, duel, type="reveal", position=1), 401, "authentication_failed")
    assert body["detail"] == "Invalid token."
    assert version(duel) == before
    # and it is forgotten: the next request pays the token's query again (and is refused)
    assert_problem(act(alice, duel, type="reveal", position=1), 401, "authentication_failed")


def test_a_deactivated_account_stops_acting_at_once(alice, users, duel):
    assert act(alice, duel, type="reveal", position=0).status_code == 200
    before = version(duel)
    users["alice"].is_active = False
    users["alice"].save(update_fields=["is_active"])
    body = assert_problem(act(alice, duel, type="reveal", position=1), 401, "authentication_failed")
    assert body["detail"] == "User inactive or deleted."
    assert version(duel) == before


def test_a_revoked_token_is_refused_whatever_the_action_would_have_answered(alice, users, duel):
    assert act(alice, duel, type="reveal", position=0).status_code == 200
    Token.objects.filter(user=users["alice"]).delete()
    refused = [
        act(alice, duel, type="reveal", position=1, expected_version=1),  # 409
        act(alice, duel, headers={"If-Match": '"1"'}, type="reveal", position=1),  # 412
        act(alice, duel, type="fly"),  # 400
        act(alice, duel, type="reveal", position=99),  # 422
        act(alice, uuid.uuid4(), type="reveal", position=1),  # 404
        alice.post(f"/api/matches/{duel}/actions", "[1, 2]", content_type="application/json"),
    ]
    for response in refused:
        assert_problem(response, 401, "authentication_failed")


def test_a_token_revoked_between_the_read_and_the_write_writes_nothing(
    alice, users, duel, monkeypatch
):
    assert act(alice, duel, type="reveal", position=0).status_code == 200
    before = version(duel)
    events = MatchEvent.objects.filter(match_id=duel).count()
    from matches import services

    load_state = services.load_state

    def revoke_then_load(match):
        Token.objects.filter(user=users["alice"]).delete()  # lands after the read
        return load_state(match)

    monkeypatch.setattr(services, "load_state", revoke_then_load)
    assert_problem(act(alice, duel, type="reveal", position=1), 401, "authentication_failed")
    assert version(duel) == before
    assert MatchEvent.objects.filter(match_id=duel).count() == events


@pytest.mark.parametrize("revoke", ["delete", "deactivate"])
def test_a_revoked_token_is_refused_an_options_answer_and_spends_no_rate(
    alice, users, duel, revoke
):
    """No statement of an OPTIONS answer checks the token: the map must not vouch for it
    there (a leaked token, revoked, went on spending its owner's action rate)."""
    assert act(alice, duel, type="reveal", position=0).status_code == 200
    if revoke == "delete":
        assert alice.delete("/api/auth/token").status_code == 204
    else:
        users["alice"].is_active = False
        users["alice"].save(update_fields=["is_active"])
    for _ in range(3):
        answer = alice.options(f"/api/matches/{duel}/actions")
        assert_problem(answer, 401, "authentication_failed")


def test_other_views_check_the_token_with_a_query_of_their_own(alice, users, duel):
    assert act(alice, duel, type="reveal", position=0).status_code == 200
    Token.objects.filter(user=users["alice"]).delete()
    assert_problem(alice.get("/api/me"), 401, "authentication_failed")
    assert_problem(alice.get(f"/api/matches/{duel}"), 401, "authentication_failed")


def test_a_remembered_user_is_a_copy_for_each_request(users):
    remembered.put("k", users["alice"])
    one, two = remembered.get("k"), remembered.get("k")
    assert one is not two and one.pk == two.pk == users["alice"].pk


def test_the_map_of_tokens_is_bounded():
    from accounts.tokens import RememberedUsers

    small = RememberedUsers(limit=3)
    for i in range(5):
        small.put(f"k{i}", object())
    assert len(small) == 3 and small._users.keys() == {"k2", "k3", "k4"}
