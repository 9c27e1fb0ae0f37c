"""A player changes their own password (``POST /api/me/password``): the old password
checked as a log-in is (and counted by the guessing guard), the new one as a new
account's, every token and other session of the account revoked, a new token answered."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import guard
from accounts.moderation import account_lift, account_suspend
from api import views
from tests.api.conftest import assert_problem

pytestmark = pytest.mark.django_db

NEW = "Another-pass-789"


@pytest.fixture(autouse=True)
def clean_cache():
    cache.clear()
    yield
    cache.clear()


def change(client, password, new_password=NEW):
    body = {"password": password, "new_password": new_password}
    return client.post("/api/me/password", body, format="json")


def log_in(username, password):
    body = {"username": username, "password": password}
    return APIClient().post("/api/auth/token", body, format="json")


def test_a_new_password_gives_a_new_token_and_revokes_the_old_on_every_device(users, alice):
    other_device = APIClient()
    other_device.credentials(HTTP_AUTHORIZATION=alice._credentials["HTTP_AUTHORIZATION"])
    answer = change(alice, "pw-alice-123")
    assert answer.status_code == 200
    token = answer.json()["token"]
    assert_problem(alice.get("/api/me"), 401, "authentication_failed")
    assert_problem(other_device.get("/api/me"), 401, "authentication_failed")
    fresh = APIClient()
    fresh.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert fresh.get("/api/me").json()["username"] == "alice"
    assert_problem(log_in("alice", "pw-alice-123"), 401, "invalid_credentials")
    assert log_in("alice", NEW).status_code == 200


def test_a_wrong_password_changes_nothing_and_says_which_field(users, alice):
    body = assert_problem(change(alice, "pw-alice-124"), 400, "wrong_password")
    assert list(body["errors"]) == ["password"]
    assert alice.get("/api/me").status_code == 200  # the token still works
    assert log_in("alice", "pw-alice-123").status_code == 200
    assert_problem(log_in("alice", NEW), 401, "invalid_credentials")


def test_a_weak_new_password_is_refused_as_at_registration(users, alice):
    for weak in ("abc", "12345678", "password", "alice1234"):  # short, digits, common, like
        body = assert_problem(change(alice, "pw-alice-123", weak), 400, "validation_error")
        assert list(body["errors"]) == ["new_password"]
    assert log_in("alice", "pw-alice-123").status_code == 200


def test_wrong_passwords_count_as_failed_log_ins(users, alice, monkeypatch):
    """A stolen token is no way round the guessing guard: its holder, asking to change the
    password, tries the old one as a log-in would."""
    monkeypatch.setattr(guard.time, "time", lambda: 1_000_000.0)  # (no wait runs out)
    for _ in range(guard.ACCOUNT_FREE_FAILURES - 1):
        refused = assert_problem(change(alice, "guess"), 400, "wrong_password")
        assert "must wait" not in refused["detail"]
    last = assert_problem(change(alice, "guess"), 400, "wrong_password")
    assert f"must wait {guard.FIRST_DELAY:.0f} s" in last["detail"]
    # locked: the right password waits too, here and at the log-in
    locked = assert_problem(change(alice, "pw-alice-123"), 429, "login_locked")
    assert "retry in" in locked["detail"]
    assert_problem(log_in("alice", "pw-alice-123"), 429, "login_locked")
    assert alice.get("/api/me").status_code == 200  # its token is no password guessed


def test_a_session_goes_on_after_its_own_change_and_the_others_end(users):
    this, other = Client(), Client()
    assert this.login(username="alice", password="pw-alice-123")
    assert other.login(username="alice", password="pw-alice-123")
    answer = this.post(
        "/api/me/password",
        {"password": "pw-alice-123", "new_password": NEW},
        content_type="application/json",
    )
    assert answer.status_code == 200
    assert this.get("/api/me").json()["username"] == "alice"
    assert other.get("/api/me").status_code in (401, 403)


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_suspension_written_while_the_password_is_checked_is_not_outlived(
    users, alice, monkeypatch, when
):
    """The old password checked (a slow hash), a suspension written just before or after
    it: the change is refused as the suspension says, and no token made that would work
    once the suspension is lifted."""
    real = views.authenticate
    root = type(users["alice"]).objects.create_superuser("root", password="pw-root-123")

    def suspended_meanwhile(request, **credentials):
        if when == "before":
            account_suspend(user=users["alice"], by=root, reason="a test", running="abort")
        checked = real(request, **credentials)
        if when == "after":
            account_suspend(user=users["alice"], by=root, reason="a test", running="abort")
        return checked

    monkeypatch.setattr(views, "authenticate", suspended_meanwhile)
    assert_problem(change(alice, "pw-alice-123"), 403, "account_suspended")
    monkeypatch.setattr(views, "authenticate", real)
    account_lift(user=users["alice"], by=root)
    users["alice"].refresh_from_db()
    assert users["alice"].check_password("pw-alice-123")
    assert not Token.objects.filter(user=users["alice"]).exists()


@pytest.mark.parametrize("what", ["deactivated", "deleted"])
@pytest.mark.parametrize("when", ["before", "after"])
def test_an_account_gone_while_the_password_is_checked_is_told_so(
    users, alice, monkeypatch, what, when
):
    """Not "this is not your password" (the backend refuses an inactive account's right
    one), nor a 500 (the account's row gone)."""
    real = views.authenticate
    account = users["alice"]

    def gone():
        if what == "deleted":
            type(account).objects.filter(pk=account.pk).delete()
        else:
            type(account).objects.filter(pk=account.pk).update(is_active=False)

    def meanwhile(request, **credentials):
        if when == "before":
            gone()
        checked = real(request, **credentials)
        if when == "after":
            gone()
        return checked

    monkeypatch.setattr(views, "authenticate", meanwhile)
    assert_problem(change(alice, "pw-alice-123"), 401, "authentication_failed")
    if what == "deactivated":  # the password as it was, and no token made
        account.refresh_from_db()
        assert account.check_password("pw-alice-123")
        old_key = alice._credentials["HTTP_AUTHORIZATION"].split()[1]
        assert list(Token.objects.filter(user=account).values_list("key", flat=True)) == [old_key]


def test_it_needs_an_account(anon):
    assert_problem(change(anon, "pw-alice-123"), 401, "not_authenticated")
