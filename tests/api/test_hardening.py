"""What a hostile user and a careless operator broke (the second hardening round), each
fixed with a test that failed before the fix."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts import guard
from matches.models import FollowUp, Match
from tests.api.conftest import assert_problem

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clean_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def clock(monkeypatch):
    """The guard's clock, moved by hand."""
    now = [1_000_000.0]
    monkeypatch.setattr(guard.time, "time", lambda: now[0])
    return now


def log_in(client, username, password, **headers):
    return client.post(
        "/api/auth/token", {"username": username, "password": password}, format="json", **headers
    )


# --- 1. throttles and forged X-Forwarded-For ---------------------------------------------------
def test_forged_forwarded_addresses_do_not_help_guessing_one_accounts_password(anon, users):
    answers = [
        log_in(anon, "alice", f"guess-{n}", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code
        for n in range(60)
    ]
    free = guard.ACCOUNT_FREE_FAILURES
    assert answers[:free] == [401] * free  # (each a password checked, and wrong)
    assert set(answers[free:]) == {429}
    # locked: even the right password waits
    body = assert_problem(log_in(anon, "alice", "pw-alice-123"), 429, "login_locked")
    assert "retry in" in body["detail"]


def test_the_delay_grows_with_every_failure_and_a_success_clears_it(anon, users, clock):
    for _ in range(guard.ACCOUNT_FREE_FAILURES - 1):
        assert "Retry-After" not in log_in(anon, "alice", "wrong")
    # the failure that starts the wait is still a wrong password's answer, with the wait
    last = assert_problem(log_in(anon, "alice", "wrong"), 401, "invalid_credentials")
    assert f"must wait {guard.FIRST_DELAY:.0f} s" in last["detail"]
    first = int(log_in(anon, "alice", "pw-alice-123")["Retry-After"])
    assert first == guard.FIRST_DELAY
    clock[0] += first
    answer = log_in(anon, "alice", "wrong")  # one more failure...
    assert answer.status_code == 401 and int(answer["Retry-After"]) == 2 * guard.FIRST_DELAY
    second = int(log_in(anon, "alice", "pw-alice-123")["Retry-After"])
    assert second == 2 * guard.FIRST_DELAY  # ...doubles the wait
    clock[0] += second
    assert log_in(anon, "alice", "pw-alice-123").status_code == 200
    assert log_in(anon, "alice", "wrong").status_code == 401  # the count starts again


def test_a_burst_of_parallel_guesses_gets_no_more_tries_than_the_free_failures(users):
    """Attempts in flight count as failures to come: of 50 at once on one account, only as
    many run as it has free failures left; past them, one at a time."""
    import contextlib

    free = guard.ACCOUNT_FREE_FAILURES
    with contextlib.ExitStack() as stack:
        admitted, refused = [], 0
        for n in range(50):
            try:
                admitted.append(stack.enter_context(guard.login_attempt("alice", f"10.1.0.{n}")))
            except guard.LoginLocked:
                refused += 1
        assert (len(admitted), refused) == (free, 50 - free)
        for attempt in admitted:
            attempt.succeeded = False
    assert guard.wait_seconds("alice", "10.2.0.1") > 0  # their failures count at once
    # an account with one free failure left: one attempt at a time
    with guard.login_attempt("bob", "10.3.0.1") as attempt:
        attempt.succeeded = True
    for _ in range(free - 1):
        with guard.login_attempt("bob", "10.3.0.1") as attempt:
            attempt.succeeded = False
    with (
        guard.login_attempt("bob", "10.3.0.2"),  # in flight...
        pytest.raises(guard.LoginLocked),
        guard.login_attempt("bob", "10.3.0.3"),  # ...so this one is refused
    ):
        pass
    with guard.login_attempt("bob", "10.3.0.4") as attempt:  # the first one has ended
        attempt.succeeded = True


def test_a_wrong_password_costs_one_hash_whatever_the_account(anon, users, monkeypatch):
    """A suspended account paid a second hash for a wrong password: its time told a
    guesser the account was suspended (said only to whoever gives the right password)."""
    from django.contrib.auth.hashers import get_hasher

    from accounts.moderation import account_suspend

    hasher, hashes = type(get_hasher()), []
    encode = hasher.encode
    monkeypatch.setattr(hasher, "encode", lambda *a, **k: hashes.append(1) or encode(*a, **k))
    root = get_user_model().objects.create_superuser("root", password="pw-root-123")
    account_suspend(user=users["carol"], by=root, reason="spam", running="com")
    counts = {}
    for name in ("nobody", "alice", "carol"):
        hashes.clear()
        assert_problem(log_in(anon, name, "wrong"), 401, "invalid_credentials")
        counts[name] = len(hashes)
    assert counts == {"nobody": 1, "alice": 1, "carol": 1}
    assert_problem(log_in(anon, "carol", "pw-carol-123"), 403, "account_suspended")


def test_the_right_password_while_an_attempt_is_in_flight_is_told_to_wait(anon, users):
    """The guard's refusal of a log-in racing another one was a 401 "wrong username or
    password" for the right password; it is a 429 with the wait."""
    for _ in range(guard.ACCOUNT_FREE_FAILURES - 1):
        assert_problem(log_in(anon, "alice", "nope"), 401, "invalid_credentials")
    count_key, _ = guard._keys("account", "alice")
    cache.set(count_key + ":in-flight", 1, 30)  # another log-in of alice's is running
    answer = log_in(anon, "alice", "pw-alice-123")
    assert_problem(answer, 429, "login_locked")
    assert int(answer["Retry-After"]) > 0


def test_one_address_trying_many_accounts_is_slowed_down(anon, users):
    for n in range(guard.ADDRESS_FREE_FAILURES):
        log_in(anon, f"nobody-{n}", "wrong")
    assert_problem(log_in(anon, "bob", "pw-bob-123"), 429, "login_locked")
    # another address is not affected
    other = APIClient(REMOTE_ADDR="192.0.2.7")
    assert log_in(other, "bob", "pw-bob-123").status_code == 200


def tighten(monkeypatch, **rates):
    rates = {**SimpleRateThrottle.THROTTLE_RATES, **rates}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)


def test_anonymous_reads_are_throttled_by_address_not_header(anon, monkeypatch):
    tighten(monkeypatch, anon="3/min")
    answers = [
        anon.get("/api/rulesets", HTTP_X_FORWARDED_FOR=f"10.1.0.{n}").status_code for n in range(4)
    ]
    assert answers == [200, 200, 200, 429]


def test_registrations_are_throttled_by_address_not_header(anon, monkeypatch):
    tighten(monkeypatch, auth="3/min")
    answers = [
        anon.post(
            "/api/accounts/register",
            {"username": f"new{n}", "password": "correct-horse-battery"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"10.2.0.{n}",
        ).status_code
        for n in range(4)
    ]
    assert answers == [201, 201, 201, 429]


def test_registrations_are_throttled_by_address_with_a_token_too(anon, monkeypatch):
    """Each new account's token opened a fresh allowance to the same address."""
    tighten(monkeypatch, auth="3/min")
    client, answers = anon, []
    for n in range(5):
        answer = register(client, f"chain{n}")
        answers.append(answer.status_code)
        if answer.status_code == 201:  # the next request with the account just made
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert answers == [201, 201, 201, 429, 429]
    log_in_with_token = log_in(client, "chain0", "wrong")
    assert_problem(log_in_with_token, 429, "throttled")


def test_forwarded_addresses_count_only_behind_the_configured_proxies(rf):
    request = rf.get("/", REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.5")
    with override_settings(NUM_PROXIES=0):
        assert guard.client_address(request) == "10.9.9.9"
    with override_settings(NUM_PROXIES=1):
        assert guard.client_address(request) == "203.0.113.5"  # what our proxy saw
    with override_settings(NUM_PROXIES=2):
        assert guard.client_address(request) == "6.6.6.6"


def test_the_admin_login_is_guarded_too(users):
    client = Client()
    for n in range(30):
        client.post("/admin/login/?next=/admin/", {"username": "sam", "password": f"no-{n}"})
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "sam", "password": "pw-sam-123"}
    )
    assert response.status_code == 200  # the form again, not the redirect of a log-in
    assert "_auth_user_id" not in client.session


def test_hints_are_kept_per_version_and_throttled_on_their_own(alice, duel, monkeypatch):
    from games import get_game

    game = get_game("golf")
    asked: list[int] = []
    real_hint = type(game).hint

    def counted(self, state, seat):
        asked.append(seat)
        return real_hint(self, state, seat)

    monkeypatch.setattr(type(game), "hint", counted)
    first = alice.get(f"/api/matches/{duel}/hint").json()
    assert [alice.get(f"/api/matches/{duel}/hint").json() for _ in range(3)] == [first] * 3
    assert asked == [0]  # one search; the others read what it found
    tighten(monkeypatch, hints="2/min")
    cache.clear()
    answers = [alice.get(f"/api/matches/{duel}/hint").status_code for _ in range(3)]
    assert answers == [200, 200, 429]
    assert alice.get(f"/api/matches/{duel}").status_code == 200  # the rest is not held up


def test_an_account_has_one_hint_worked_out_at_a_time(alice, duel, monkeypatch):
    """A burst the throttle lets through is not as many searches at once: a hint asked for
    while the account's last one is worked out is refused, and then read from the cache."""
    from games import get_game

    game = get_game("golf")
    real_hint = type(game).hint
    meanwhile: list[Any] = []

    def slow(self, state, seat):  # another request comes while this one searches
        if not meanwhile:
            meanwhile.append(alice.get(f"/api/matches/{duel}/hint"))
        return real_hint(self, state, seat)

    monkeypatch.setattr(type(game), "hint", slow)
    first = alice.get(f"/api/matches/{duel}/hint")
    assert first.status_code == 200
    refused = assert_problem(meanwhile[0], 429, "hint_in_progress")
    assert meanwhile[0]["Retry-After"] == "1" and "ask again" in refused["detail"]
    again = alice.get(f"/api/matches/{duel}/hint")  # the place is given back
    assert again.status_code == 200 and again.json() == first.json()
    assert len(meanwhile) == 1


def test_a_hint_gives_its_place_back_only_while_it_is_surely_its_own(
    alice, users, duel, monkeypatch
):
    from types import SimpleNamespace

    from api import views
    from games import get_game

    body = {"seats": [{"type": "me"}, {"type": "com", "level": "easy"}]}
    other = alice.post("/api/matches", body, format="json").json()["id"]
    assert alice.get(f"/api/matches/{duel}/hint").status_code == 200
    assert alice.get(f"/api/matches/{other}/hint").status_code == 200  # its place was given back
    # A search that outlasts the place's expiry: by its end the place may be the account's
    # next request's, which must keep it.
    cache.clear()
    game, now = get_game("golf"), [0.0]
    real_hint = type(game).hint
    clock = SimpleNamespace(monotonic=lambda: now[0], thread_time=time.thread_time)
    monkeypatch.setattr(views, "time", clock)

    def outlasting(self, state, seat):
        now[0] += views.HINT_BUSY_SECONDS
        busy = f"hint-busy:{users['alice'].pk}"
        cache.delete(busy)  # expired, and taken by the next request
        cache.add(busy, 1, views.HINT_BUSY_SECONDS)
        return real_hint(self, state, seat)

    monkeypatch.setattr(type(game), "hint", outlasting)
    assert alice.get(f"/api/matches/{duel}/hint").status_code == 200
    assert_problem(alice.get(f"/api/matches/{other}/hint"), 429, "hint_in_progress")


def test_an_accounts_hints_are_paced_by_the_time_their_searches_take(
    alice, bob, duel, settings, monkeypatch
):
    """Hints were bounded by their count and one at a time: a hard search each, up to
    60 a minute, whatever they cost."""
    from games import get_game
    from matches.pacing import pacing

    settings.COM_SECONDS_PER_MINUTE = 6  # a second of search: 10 s of arrival time
    settings.COM_BURST_MS = 100  # 1 s of it at once
    pacing().clear()
    game = get_game("golf")
    real_hint = type(game).hint

    def slow(self, state, seat):  # a search of 0.3 s of processor: 3 s of arrival time
        started = time.thread_time()
        while time.thread_time() - started < 0.3:
            pass
        return real_hint(self, state, seat)

    monkeypatch.setattr(type(game), "hint", slow)
    body = {"seats": [{"type": "me"}, {"type": "com", "level": "easy"}]}
    other = alice.post("/api/matches", body, format="json").json()["id"]
    assert alice.get(f"/api/matches/{duel}/hint").status_code == 200
    refused = alice.get(f"/api/matches/{other}/hint")  # about 2 s to wait (3 s less 1)
    detail = assert_problem(refused, 429, "hints_paced")["detail"]
    assert refused["Retry-After"] in ("2", "3")
    assert f"ask again in {refused['Retry-After']} seconds" in detail
    assert alice.get(f"/api/matches/{duel}/hint").status_code == 200  # (kept: no search)
    # bob's hints are his own: his are not held up by alice's
    bobs = bob.post("/api/matches", body, format="json").json()["id"]
    assert bob.get(f"/api/matches/{bobs}/hint").status_code == 200
    pacing().clear()


def test_a_hint_is_charged_its_searchs_processor_time_not_its_wait(
    alice, duel, settings, monkeypatch
):
    """Hints were charged the time they took, which includes waiting for the other
    threads' work: on a busy server an account's hints were paced for others' load."""
    from games import get_game
    from matches.pacing import pacing

    settings.COM_SECONDS_PER_MINUTE = 6  # a second of search: 10 s of arrival time
    settings.COM_BURST_MS = 300  # 3 s of it at once
    pacing().clear()
    game = get_game("golf")
    real_hint = type(game).hint

    def waiting(self, state, seat):  # 0.5 s spent waiting (5 s of arrival time if charged)
        time.sleep(0.5)
        return real_hint(self, state, seat)

    monkeypatch.setattr(type(game), "hint", waiting)
    body = {"seats": [{"type": "me"}, {"type": "com", "level": "easy"}]}
    other = alice.post("/api/matches", body, format="json").json()["id"]
    assert alice.get(f"/api/matches/{duel}/hint").status_code == 200
    assert alice.get(f"/api/matches/{other}/hint").status_code == 200
    pacing().clear()


def test_the_match_list_has_a_rate_of_its_own(alice, duel, monkeypatch):
    """A list counts and orders every match the account has (about 6 ms a thousand, and an
    account may make 30 a minute, kept for good): at the whole request rate, four threads
    of one account's lists slowed another's reads fourfold."""
    tighten(monkeypatch, lists="2/min")
    lists = [alice.get("/api/matches", {"mine": "true"}).status_code for _ in range(3)]
    assert lists == [200, 200, 429]
    assert alice.get(f"/api/matches/{duel}").status_code == 200  # (a match's own: not a list)


def test_a_list_is_priced_by_the_matches_it_reads(alice, bob, monkeypatch):
    """What a list reads grows with the account's history: each ``LIST_MATCHES_PER_COUNT``
    of its matches count one more against the ``lists`` rate, so what an account's lists
    cost the database in a minute is bounded whatever it has kept."""
    from api import views

    seats = [{"type": "me"}, {"type": "com", "level": "easy"}]
    for _ in range(3):
        assert alice.post("/api/matches", {"seats": seats}, format="json").status_code == 201
    monkeypatch.setattr(views, "LIST_MATCHES_PER_COUNT", 1)  # so 1 + 3 a list
    tighten(monkeypatch, lists="10/min")
    assert [alice.get("/api/matches").status_code for _ in range(2)] == [200, 200]
    assert_problem(alice.get("/api/matches", {"mine": "true"}), 429, "throttled")
    # an account with few matches lists at the whole rate; the lobbies, and the matches
    # awaiting one's move (read from its seats to act), cost one
    assert {bob.get("/api/matches").status_code for _ in range(9)} == {200}
    assert alice.get("/api/matches", {"joinable": "true"}).status_code == 200
    tighten(monkeypatch, lists="13/min")
    assert alice.get("/api/matches", {"awaiting": "me"}).status_code == 200


def test_whole_log_reads_and_past_states_have_their_own_throttles(alice, duel, monkeypatch):
    tighten(monkeypatch, exports="2/min", history="3/min")
    exports = [
        alice.get(f"/api/matches/{duel}/export").status_code,
        alice.get(f"/api/matches/{duel}/audit").status_code,  # 409: not ended, reads nothing
        alice.get(f"/api/matches/{duel}/export").status_code,
        alice.get(f"/api/matches/{duel}/export").status_code,
    ]
    assert exports == [200, 409, 200, 429]
    states = [alice.get(f"/api/matches/{duel}/states/1").status_code for _ in range(4)]
    assert states == [200, 200, 200, 429]
    assert alice.get(f"/api/matches/{duel}/events").status_code == 200


# --- 4. what one account may start -------------------------------------------------------------
def test_an_account_has_a_bounded_number_of_matches_with_coms(alice, settings):
    settings.MAX_UNFINISHED_COM_MATCHES = 2
    body = {"seats": [{"type": "me"}, {"type": "com", "level": "hard"}]}
    for _ in range(2):
        assert alice.post("/api/matches", body, format="json").status_code == 201
    assert_problem(alice.post("/api/matches", body, format="json"), 409, "too_many_matches")
    # a match against a person is still possible
    duel = {"seats": [{"type": "me"}, {"type": "open"}]}
    assert alice.post("/api/matches", duel, format="json").status_code == 201


def test_the_matches_an_account_joins_count_among_its_unfinished_ones(alice, bob, settings):
    """One account cannot join, and so hold up, every lobby there is: what it joins counts
    with what it made, for joining and for making."""
    settings.MAX_UNFINISHED_MATCHES = 2
    lobby = {"seats": [{"type": "me"}, {"type": "open"}]}
    mine = alice.post("/api/matches", lobby, format="json").json()["id"]
    bobs = [bob.post("/api/matches", lobby, format="json").json()["id"] for _ in range(2)]
    assert alice.post(f"/api/matches/{bobs[0]}/join", {}, format="json").status_code == 200
    refused = assert_problem(
        alice.post(f"/api/matches/{bobs[1]}/join", {}, format="json"), 409, "too_many_matches"
    )
    assert refused["limit"] == 2 and "you are in 2 unfinished matches" in refused["detail"]
    assert bob.get(f"/api/matches/{bobs[1]}").json()["status"] == "waiting"  # still open
    assert_problem(alice.post("/api/matches", lobby, format="json"), 409, "too_many_matches")
    assert alice.post(f"/api/matches/{mine}/abort", {}, format="json").status_code == 200
    assert alice.post(f"/api/matches/{bobs[1]}/join", {}, format="json").status_code == 200
    # a match one made counts already: taking a seat in it adds nothing
    settings.MAX_UNFINISHED_MATCHES = 3
    watch = {"seats": [{"type": "open"}, {"type": "open"}], "spectate": True}
    made = alice.post("/api/matches", watch, format="json").json()["id"]
    assert alice.post(f"/api/matches/{made}/join", {}, format="json").status_code == 200


def test_holes_cannot_be_made_endless(alice, settings):
    body = {
        "seats": [{"type": "me"}, {"type": "com", "level": "normal"}],
        "rules": {"max_turns": 10000},
    }
    problem = assert_problem(alice.post("/api/matches", body, format="json"), 400, "invalid_rules")
    assert "rules.max_turns" in problem["errors"]
    # and the service's bound is the one its rules' lists and schema offer
    for options in (
        *(r["options"] for r in alice.get("/api/rulesets").json()),
        next(g["options"] for g in alice.get("/api/games").json() if g["name"] == "golf"),
    ):
        (max_turns,) = (o["schema"] for o in options if o["name"] == "max_turns")
        assert max_turns["maximum"] == 1000  # MAX_TURNS_PER_HOLE
    # a match made under a higher bound keeps its rules, and they are still ones the
    # schema allows in its answers (every answer here is checked against it)
    settings.MAX_TURNS_PER_HOLE = 5000
    body["rules"]["max_turns"] = 4000
    made = alice.post("/api/matches", body, format="json")
    assert made.status_code == 201, made.content
    settings.MAX_TURNS_PER_HOLE = 1000
    detail = alice.get(f"/api/matches/{made.json()['id']}")
    assert detail.status_code == 200 and detail.json()["rules"]["max_turns"] == 4000


def test_the_creator_may_abort_a_match_no_one_else_has_joined(alice, bob):
    created = alice.post(
        "/api/matches",
        {"seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
        format="json",
    ).json()
    # the detail says who may (a client offers the button to them alone)
    assert created["can_abort"] is True
    assert bob.get(f"/api/matches/{created['id']}").json()["can_abort"] is False
    assert_problem(
        bob.post(f"/api/matches/{created['id']}/abort", {}, format="json"), 403, "permission_denied"
    )
    aborted = alice.post(f"/api/matches/{created['id']}/abort", {}, format="json")
    assert aborted.status_code == 200 and aborted.json()["status"] == "aborted"
    assert aborted.json()["can_abort"] is False  # (it has ended)


def test_the_creator_may_not_abort_once_another_person_has_joined(alice, duel):
    assert alice.get(f"/api/matches/{duel}").json()["can_abort"] is False
    problem = assert_problem(
        alice.post(f"/api/matches/{duel}/abort", {}, format="json"), 403, "permission_denied"
    )
    assert "no one else has joined" in problem["detail"]


def test_the_creator_may_abort_a_lobby_others_joined_while_it_waits_for_players(alice, bob):
    """Those who join a lobby cannot hold it (and its place among its creator's unfinished
    matches) for good by never letting it fill."""
    seats = [{"type": "me"}, {"type": "open"}, {"type": "open"}]
    lobby = alice.post("/api/matches", {"preset": "nine-card", "seats": seats}, format="json")
    match_id = lobby.json()["id"]
    joined = bob.post(f"/api/matches/{match_id}/join", {}, format="json")
    assert joined.status_code == 200 and joined.json()["can_abort"] is False
    assert alice.get(f"/api/matches/{match_id}").json()["can_abort"] is True
    assert_problem(  # the one who joined may not
        bob.post(f"/api/matches/{match_id}/abort", {}, format="json"), 403, "permission_denied"
    )
    aborted = alice.post(f"/api/matches/{match_id}/abort", {}, format="json")
    assert aborted.status_code == 200 and aborted.json()["status"] == "aborted"


def test_com_turns_of_a_com_only_match_go_to_the_background_queue(
    alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        spectated = alice.post(
            "/api/matches",
            {
                "spectate": True,
                "seats": [{"type": "com", "level": "normal"}, {"type": "com", "level": "hard"}],
            },
            format="json",
        ).json()
        played = alice.post(
            "/api/matches",
            {"seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
            format="json",
        ).json()
    assert FollowUp.objects.get(match_id=spectated["id"]).queue == "background"
    assert FollowUp.objects.get(match_id=played["id"]).queue == "interactive"


# --- 6. inputs that gave 500 -----------------------------------------------------------------
def register(client, username, password="correct-horse-battery"):
    return client.post(
        "/api/accounts/register", {"username": username, "password": password}, format="json"
    )


@pytest.mark.parametrize(
    "twin", ["\uff42\uff4f\uff42\uff11", "\uff22\uff2f\uff22\uff11", "BOB1", "Bob1"]
)
def test_a_username_is_taken_in_every_case_and_width(anon, twin):
    assert register(anon, "bob1").status_code == 201
    assert_problem(register(anon, twin), 400, "username_taken")


def test_any_spelling_of_a_username_logs_in(anon):
    assert register(anon, "Grace").status_code == 201
    assert (
        log_in(anon, "\uff27\uff32\uff21\uff23\uff25", "correct-horse-battery").status_code == 200
    )


@pytest.mark.django_db(transaction=True)
def test_parallel_registrations_of_one_name_make_one_account():
    answers: list[int] = []

    def attempt(name: str) -> None:
        try:
            answers.append(register(APIClient(), name).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(n,)) for n in ["zed", "ZED"] * 10]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201] + [400] * 19


def test_a_lone_surrogate_in_a_body_is_a_clear_400(alice, duel):
    response = alice.post(
        f"/api/matches/{duel}/actions", '{"type": "\\ud800"}', content_type="application/json"
    )
    assert_problem(response, 400, "malformed_request")


@pytest.mark.parametrize("body", [
    '{"game": "golf", "game": "hearts", "seats": [{"type": "me"}, {"type": "com"}]}',
    '{"seats": [{"type": "me"}, {"type": "com", "level": "easy", "level": "hard"}]}',
])  # fmt: skip
def test_a_key_given_twice_in_a_body_is_a_clear_400(alice, body):
    response = alice.post("/api/matches", body, content_type="application/json")
    assert "given twice" in assert_problem(response, 400, "malformed_request")["detail"]
    assert alice.get("/api/matches?mine=true").json()["count"] == 0


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ('{"type": "draw", "expected_version": ' + "9" * 5001 + "}", "more than 40 digits"),
        ('{"type": "draw", "expected_version": -' + "9" * 41 + "}", "more than 40 digits"),
        ('{"type": "draw", "expected_version": 1e999}', "1e999 is out of range"),
        ('{"type": "draw", "expected_version": -1e999}', "-1e999 is out of range"),
    ],
)
def test_a_number_no_request_could_mean_is_a_clear_400(alice, duel, body, said):
    """Python's own bound on an integer's digits came with advice about its interpreter
    (``sys.set_int_max_str_digits``); 1e999 parsed to infinity."""
    response = alice.post(f"/api/matches/{duel}/actions", body, content_type="application/json")
    detail = assert_problem(response, 400, "malformed_request")["detail"]
    assert said in detail and "sys." not in detail, detail


@pytest.mark.parametrize("body", ["null", "[]", '"draw"', "7", "true"])
def test_a_body_that_is_not_a_json_object_is_refused_alike_everywhere(alice, bob, body):
    lobby = alice.post("/api/matches", {"seats": [{"type": "me"}, {"type": "open"}]}, format="json")
    match_id = lobby.json()["id"]
    for client, path in [
        (bob, f"/api/matches/{match_id}/join"),
        (alice, f"/api/matches/{match_id}/actions"),
        (alice, "/api/matches"),
    ]:
        response = client.post(path, body, content_type="application/json")
        problem = assert_problem(response, 400, "malformed_request")
        assert problem["detail"] == "the body must be a JSON object", (path, problem)
    assert alice.get(f"/api/matches/{match_id}").json()["status"] == "waiting"  # not joined


@pytest.mark.parametrize(
    "reason", ["\x1b[31mred\x1b[0m", "line\nbreak", "bell\x07", "rtl\u202e", "x\u2028y", "x\u2029y"]
)
def test_an_abort_reason_with_control_characters_is_refused(alice, reason):
    seats = [{"type": "me"}, {"type": "open"}]
    match_id = alice.post("/api/matches", {"seats": seats}, format="json").json()["id"]
    response = alice.post(f"/api/matches/{match_id}/abort", {"reason": reason}, format="json")
    assert "reason" in assert_problem(response, 400, "validation_error")["errors"]
    assert alice.get(f"/api/matches/{match_id}").json()["status"] == "waiting"


@pytest.mark.parametrize("depth", [40, 1000, 30_000])
def test_deeply_nested_json_is_a_clear_400_anywhere(anon, depth):
    body = "[" * depth + "]" * depth
    response = anon.post("/api/accounts/register", body, content_type="application/json")
    assert_problem(response, 400, "malformed_request")


@pytest.mark.parametrize(
    "body", ["[" + ",".join(["{}"] * 20_000) + "]", "[" + ",".join(["1"] * 30_000) + "]"]
)
def test_a_body_of_thousands_of_values_is_refused_before_it_is_parsed(alice, body):
    """Parsing costs by the value, in Python: 20,000 empty objects in 60 KB took 26 ms."""
    response = alice.post("/api/matches", body, content_type="application/json")
    detail = assert_problem(response, 400, "malformed_request")["detail"]
    assert "more than 1000 values" in detail
    assert alice.get("/api/matches?mine=true").json()["count"] == 0


def test_a_body_within_the_bound_of_values_is_parsed(alice):
    """A thousand values (separators in strings counted) is still read: the bound is
    far above any request's own."""
    seats = [{"type": "me"}, {"type": "com", "level": "normal"}]
    body = json.dumps({"seats": seats, "junk": [0] * 990})
    response = alice.post("/api/matches", body, content_type="application/json")
    assert assert_problem(response, 400, "validation_error")["errors"] == {
        "junk": ["unknown field"]
    }


def test_the_preset_inside_the_rules_is_a_clear_400(alice):
    response = alice.post(
        "/api/matches",
        {
            "seats": [{"type": "me"}, {"type": "com", "level": "normal"}],
            "rules": {"preset": "nine-card"},
        },
        format="json",
    )
    assert "rules.preset" in assert_problem(response, 400, "invalid_rules")["errors"]


@pytest.mark.parametrize("grid", ["²x³", "2x³", "٢x٣", "2x3 ", "0x3", "1" * 5000 + "x3"])
def test_a_grid_of_other_digits_is_a_clear_400(alice, grid):
    """``str.isdigit`` takes superscripts, which ``int`` refuses, as it refuses over 4,300
    digits: each was a 500."""
    response = alice.post(
        "/api/matches",
        {"seats": [{"type": "me"}, {"type": "com", "level": "normal"}], "rules": {"grid": grid}},
        format="json",
    )
    assert "rules.grid" in assert_problem(response, 400, "invalid_rules")["errors"]


def test_oversized_urls_and_headers_are_refused_as_problems(alice):
    refused = [
        alice.get("/api/matches?q=" + "a" * 3000),
        alice.get("/api/me", HTTP_X_JUNK="j" * 9000),
    ]
    assert_problem(refused[0], 414, "uri_too_long")
    assert_problem(refused[1], 431, "headers_too_large")
    for response in refused:  # for its caller alone, as every /api/ answer
        assert response["Cache-Control"] == "private, no-cache"
        assert response["Vary"] == "Authorization"


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/api/", "not_found"),
        ("/api", "not_found"),
        ("/api/matches/123", "match_not_found"),  # an id that is no match's
        ("/api/nothing/here", "not_found"),
    ],
)
def test_every_unknown_api_path_is_a_problem_even_in_development(alice, path, code):
    with override_settings(DEBUG=True):
        assert_problem(alice.get(path), 404, code)


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_a_post_to_a_page_without_its_slash_is_redirected_even_in_development(anon, method):
    """As in production: a 301 to the path with its slash, not a 500 (Django's error for
    the developer, whose form should name the slash)."""
    with override_settings(DEBUG=True):
        response = getattr(anon, method)("/admin?next=/admin/")
    assert response.status_code == 301
    assert response["Location"] == "/admin/?next=/admin/"


@pytest.mark.parametrize("charset", ["rot13", "base64", "hex", "zlib", "latin-1", "utf-16"])
def test_a_body_in_a_charset_that_is_not_utf8_is_a_clear_415(anon, charset):
    response = anon.post(
        "/api/accounts/register",
        '{"username": "zoe", "password": "correct-horse-battery"}',
        content_type=f"application/json; charset={charset}",
    )
    assert charset in assert_problem(response, 415, "unsupported_media_type")["detail"]
    assert not get_user_model().objects.filter(username="zoe").exists()


@pytest.mark.parametrize("charset", ["utf-8", "UTF8", "utf_8"])
def test_utf8_by_any_of_its_names_is_read(anon, charset):
    response = anon.post(
        "/api/accounts/register",
        '{"username": "z\u00f6e", "password": "correct-horse-battery"}'.encode(),
        content_type=f"application/json; charset={charset}",
    )
    assert response.status_code == 201 and response.json()["username"] == "z\u00f6e"


def test_a_username_too_long_once_normalised_is_a_clear_400(anon):
    # U+FDF2 is one letter that NFKC spells as four: 38 of them are 152
    body = assert_problem(register(anon, "\ufdf2" * 38), 400, "validation_error")
    assert "username" in body["errors"]
    assert register(anon, "\ufdf2" * 37).status_code == 201


def test_a_username_of_any_script_is_taken_as_the_schema_says(anon):
    """Letters of any script, as the service checks them: the schema states no pattern
    (JSON Schema's \\w is ASCII's alone, and a generated client would refuse José)."""
    schema = anon.get("/api/schema/?format=json").json()
    username = schema["components"]["schemas"]["Register"]["properties"]["username"]
    assert "pattern" not in username and (username["minLength"], username["maxLength"]) == (3, 150)
    assert register(anon, "José").status_code == 201
    for name in ("jo se", "jo/se", "jo"):
        assert "username" in assert_problem(register(anon, name), 400, "validation_error")["errors"]


def test_an_email_longer_than_the_column_is_a_clear_400(anon):
    email = "a" * 64 + "@" + ("b" * 63 + ".") * 3 + "com"  # 260: valid, but not storable
    response = anon.post(
        "/api/accounts/register",
        {"username": "eve", "password": "correct-horse-battery", "email": email},
        format="json",
    )
    assert "email" in assert_problem(response, 400, "validation_error")["errors"]


def test_the_export_answers_a_client_that_asks_for_ndjson(alice, duel):
    response = alice.get(f"/api/matches/{duel}/export", HTTP_ACCEPT="application/x-ndjson")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-ndjson")
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert [json.loads(line)["seq"] for line in lines] == list(range(1, len(lines) + 1))


@pytest.mark.parametrize(("game", "field", "value"), [
    ("hearts", "local", True),
    ("hearts", "holes", 3),
    ("ninety-nine", "undo", True),
    ("ninety-nine", "local", False),
])  # fmt: skip
def test_a_rules_shortcut_of_another_game_is_an_unknown_field(alice, game, field, value):
    """As the schema has it: the field is not there for that game. It is named as sent, not
    as the rules option it would have been (``rules.local``)."""
    seats = [{"type": "me"}, *[{"type": "com", "level": "easy"}] * 3]
    response = alice.post(
        "/api/matches", {"game": game, "seats": seats, field: value}, format="json"
    )
    problem = assert_problem(response, 400, "validation_error")
    assert problem["errors"] == {field: ["unknown field"]}
    assert f"a {game} match has no {field} option" in problem["detail"]
    assert not Match.objects.exists()


@pytest.mark.parametrize("field", ["hole_pause_seconds", "round_pause_seconds"])
@pytest.mark.parametrize("pause", [5, None])
def test_a_pause_bound_is_refused_where_the_rules_turn_the_pause_off(alice, field, pause):
    """As a game without pauses refuses one, null too (the docs' promise)."""
    seats = [{"type": "me"}, {"type": "com", "level": "easy"}]
    body = {"seats": seats, field: pause, "rules": {"pause_between_holes": False}}
    problem = assert_problem(alice.post("/api/matches", body, format="json"), 400,
                             "validation_error")  # fmt: skip
    assert list(problem["errors"]) == [field]  # named as sent
    assert "with pause_between_holes off there is no pause" in problem["detail"]
    assert not Match.objects.exists()
    body["rules"] = {"pause_between_holes": True}
    assert alice.post("/api/matches", body, format="json").status_code == 201


@pytest.mark.parametrize("game", ["hearts", "ninety-nine"])
def test_golfs_name_for_the_round_pause_is_refused_for_other_games(alice, game):
    seats = [{"type": "me"}, *[{"type": "com", "level": "easy"}] * 3]
    response = alice.post(
        "/api/matches", {"game": game, "seats": seats, "hole_pause_seconds": 5}, format="json"
    )
    problem = assert_problem(response, 400, "validation_error")
    assert "hole_pause_seconds" in problem["errors"]
    assert f"a {game} match has no pause between rounds" in problem["detail"]  # nothing to bound
    assert not Match.objects.exists()


@pytest.mark.parametrize("game", ["hearts", "ninety-nine"])
@pytest.mark.parametrize("pause", [None, 5])
def test_a_round_pause_is_refused_for_a_game_without_one(alice, game, pause):
    """As the schema has it: the field is not there for these games, null included (null
    means "the turn timer bounds the pause", and there is no pause)."""
    seats = [{"type": "me"}, *[{"type": "com", "level": "easy"}] * 3]
    response = alice.post(
        "/api/matches", {"game": game, "seats": seats, "round_pause_seconds": pause}, format="json"
    )
    problem = assert_problem(response, 400, "validation_error")
    assert "round_pause_seconds" in problem["errors"]
    assert f"a {game} match has no pause between rounds" in problem["detail"]
    assert not Match.objects.exists()


# --- 7. smaller things -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": " hearts\n"}, "game"),
        ({"preset": "\tnine-card "}, "preset"),
        ({"seats": [{"type": "me"}, {"type": "com", "level": " hard\n"}]}, "seats[1].level"),
        ({"seats": [{"type": "me"}, {"type": "com", "level": "easy\u00a0"}]}, "seats[1].level"),
    ],
)
def test_names_are_taken_as_written_not_trimmed(alice, body, field):
    problem = assert_problem(
        alice.post("/api/matches", body, format="json"), 400, "validation_error"
    )
    assert list(problem["errors"]) == [field], problem
    assert not Match.objects.exists()


def test_a_stream_in_a_type_it_is_not_sent_in_is_a_406_the_schema_declares(alice, duel):
    response = alice.get(f"/api/matches/{duel}/stream", HTTP_ACCEPT="text/html")
    assert_problem(response, 406, "not_acceptable")


@pytest.mark.parametrize(("path", "accept", "status"), [
    ("/api/me", "application/json;q=0", 406),
    ("/api/me", "application/json; Q=0.000", 406),
    ("/api/me", "application/json;q=0, */*;q=0", 406),
    ("/api/me", "text/html;q=0, application/json", 200),
    ("/api/me", "application/json;q=0.001", 200),
    ("/api/matches/{duel}/stream", "text/event-stream;q=0, application/x-ndjson;q=0", 406),
    ("/api/matches/{duel}/stream", "text/event-stream;q=0, */*", 200),
    ("/api/me", "application/*;q=0", 406),
    ("/api/me", "application/*;q=0, */*", 406),  # the more specific range decides
    ("/api/me", "application/*;q=0, application/json", 200),
    ("/api/me", "application/json;q=0, application/json", 200),  # the same twice: in any
    ("/api/me", "application/json, application/json;q=0", 200),  # order, it is not refused
    ("/api/matches/{duel}/stream", "application/*;q=0, application/x-ndjson", 200),
])  # fmt: skip
def test_an_accept_of_q_0_refuses_its_type(alice, duel, path, accept, status):
    response = alice.get(path.format(duel=duel), HTTP_ACCEPT=accept)
    assert response.status_code == status, response.content
    if status == 406:
        assert_problem(response, 406, "not_acceptable")
    elif "stream" in path:
        assert response["Content-Type"].startswith("application/x-ndjson")


def test_a_format_asked_for_is_answered_whatever_accept_refuses(alice, duel):
    """?format= chooses the answer's format: an Accept that refuses it does not make the
    format unknown (a 400 naming the others)."""
    response = alice.get(f"/api/matches/{duel}?format=json", HTTP_ACCEPT="application/json;q=0")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    stream = alice.get(f"/api/matches/{duel}/stream?format=sse",
                       HTTP_ACCEPT="text/event-stream;q=0, */*")  # fmt: skip
    assert stream.status_code == 200 and stream["Content-Type"].startswith("text/event-stream")


def test_a_token_with_a_nul_is_refused_not_a_500(users):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token \x00abc")
    assert_problem(client.get("/api/me"), 401, "authentication_failed")


def test_bearer_tokens_are_accepted_as_well(users):
    from rest_framework.authtoken.models import Token

    key = Token.objects.create(user=users["alice"]).key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert client.get("/api/me").json()["username"] == "alice"


def test_a_hint_on_an_ended_match_says_it_has_ended(alice, ops, duel):
    assert ops.post(f"/api/matches/{duel}/abort", {}, format="json").status_code == 200
    assert_problem(alice.get(f"/api/matches/{duel}/hint"), 409, "match_not_active")


def test_a_match_without_my_seat_needs_spectate(alice):
    coms = [{"type": "com", "level": "normal"}, {"type": "com", "level": "normal"}]
    problem = assert_problem(
        alice.post("/api/matches", {"seats": coms}, format="json"), 400, "validation_error"
    )
    assert "spectate" in problem["detail"]
    watched = alice.post("/api/matches", {"seats": coms, "spectate": True}, format="json")
    assert watched.status_code == 201 and watched.json()["your_seat"] is None


def test_the_match_list_shows_mine_and_open_lobbies_and_everything_only_to_staff(
    alice, bob, carol, staff
):
    private = bob.post(
        "/api/matches",
        {"seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
        format="json",
    )
    lobby = bob.post("/api/matches", {"seats": [{"type": "me"}, {"type": "open"}]}, format="json")
    mine = alice.post(
        "/api/matches",
        {"seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
        format="json",
    )
    ids = {m["id"] for m in alice.get("/api/matches").json()["results"]}
    assert ids == {mine.json()["id"], lobby.json()["id"]}
    ids = {m["id"] for m in alice.get("/api/matches", {"mine": "true"}).json()["results"]}
    assert ids == {mine.json()["id"]}
    assert_problem(alice.get("/api/matches", {"all": "true"}), 403, "permission_denied")
    ids = {m["id"] for m in staff.get("/api/matches", {"all": "true"}).json()["results"]}
    assert ids == {private.json()["id"], lobby.json()["id"], mine.json()["id"]}


def test_action_response_examples_are_not_request_bodies(alice):
    schema = alice.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/matches/{match_id}/actions"]["post"]
    requests = operation["requestBody"]["content"]["application/json"].get("examples", {})
    responses = operation["responses"]["200"]["content"]["application/json"]["examples"]
    request_values = [json.dumps(e["value"], sort_keys=True) for e in requests.values()]
    assert request_values
    for example in responses.values():
        assert json.dumps(example["value"], sort_keys=True) not in request_values
        assert {"version", "events", "view"} <= set(example["value"])


def test_staff_see_no_hidden_card_or_seed_in_the_admin_until_the_match_ends(users, duel, ops):
    admin = Client()
    admin.force_login(users["staff"])
    match = Match.objects.get(pk=duel)
    started, dealt = match.events.get(type="match_started"), match.events.get(type="hole_dealt")
    seed = started.payload["seed"]

    def page(event) -> str:
        return admin.get(f"/admin/golf/matchevent/{event.pk}/change/").content.decode()

    assert seed not in page(started)
    assert "&quot;stock&quot;: null" in page(dealt)
    assert ops.post(f"/api/matches/{duel}/abort", {}, format="json").status_code == 200
    assert seed in page(started)
    assert f"&quot;{dealt.payload['stock'][0]}&quot;" in page(dealt)


def test_redoc_loads_nothing_from_another_host(anon):
    page = anon.get("/api/redoc/").content.decode()
    assert "fonts.googleapis" not in page and "https://" not in page


def test_a_match_with_undo_is_flagged_as_practice_everywhere(alice):
    created = alice.post(
        "/api/matches",
        {"seats": [{"type": "me"}, {"type": "com", "level": "normal"}], "undo": True},
        format="json",
    ).json()
    plain = alice.post(
        "/api/matches",
        {"seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
        format="json",
    )
    assert created["practice"] is True and plain.json()["practice"] is False
    listed = {m["id"]: m["practice"] for m in alice.get("/api/matches").json()["results"]}
    assert listed == {created["id"]: True, plain.json()["id"]: False}
    assert alice.get(f"/api/matches/{created['id']}").json()["practice"] is True


def test_every_api_answer_is_marked_for_its_caller_alone(alice, anon):
    """A seat's view is one viewer's: no shared cache in between may keep it for another."""
    created = alice.post(
        "/api/matches",
        {"game": "hearts", "seats": [{"type": "me"}, *[{"type": "com", "level": "easy"}] * 3]},
        format="json",
    )
    match = created.json()["id"]
    answers = [
        created,
        alice.get(f"/api/matches/{match}"),
        alice.get(f"/api/matches/{match}/events"),
        alice.get(f"/api/matches/{match}/states/1"),
        alice.get("/api/matches"),
        anon.get(f"/api/matches/{match}/audit"),
        alice.get("/api/matches/00000000-0000-0000-0000-000000000000"),
    ]
    for response in answers:
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert {"private", "no-cache"} <= directives, (response.status_code, directives)
        assert "Authorization" in response["Vary"]


def test_creating_matches_has_a_rate_of_its_own(alice, monkeypatch):
    """Aborting frees a place among the unfinished matches, but what was created stays (an
    append-only log): creating and aborting in a loop meets this rate instead."""
    tighten(monkeypatch, creates="3/min")
    body = {"seats": [{"type": "me"}, {"type": "com", "level": "easy"}], "holes": 1}
    answers = []
    for _ in range(4):
        created = alice.post("/api/matches", body, format="json")
        answers.append(created.status_code)
        if created.status_code == 201:
            aborted = alice.post(f"/api/matches/{created.json()['id']}/abort", {}, format="json")
            assert aborted.status_code == 200
    assert answers == [201, 201, 201, 429]
    assert alice.get("/api/matches").status_code == 200  # listing is not held up


def test_options_answers_tell_nothing_of_the_code(alice, duel):
    for path in ("/api/matches", f"/api/matches/{duel}", f"/api/matches/{duel}/actions"):
        answer = alice.options(path)
        assert answer.status_code == 200
        assert ".py" not in answer.json().get("description", ""), path


def test_the_stream_and_the_export_describe_themselves_in_json(alice, duel):
    for path in (f"/api/matches/{duel}/stream", f"/api/matches/{duel}/export"):
        answer = alice.options(path)
        assert answer.status_code == 200
        assert answer["Content-Type"].startswith("application/json"), path
        assert answer.json()["name"], path
        assert alice.options(path, HTTP_ACCEPT="application/json").status_code == 200
    # in a format of its own too (a GET's address, options asked); in another, the 400
    for path in (
        f"/api/matches/{duel}/stream?format=sse",
        f"/api/matches/{duel}/export?format=ndjson",
    ):
        answer = alice.options(path)
        assert answer.status_code == 200 and answer.json()["name"], path
        assert answer["Content-Type"].startswith("application/json"), path
    assert_problem(alice.options(f"/api/matches/{duel}/export?format=sse"), 400, "validation_error")


def test_a_session_plays_as_a_token_does(users, bob):
    """The admin's log-in (a session) is accepted by the API, with Django's CSRF check on
    writes: making and joining a match locked the account through the session's lazy user
    object's class, a 500."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(users["alice"])
    body = json.dumps({"seats": [{"type": "me"}, {"type": "open"}]})
    refused = browser.post("/api/matches", body, content_type="application/json")
    assert_problem(refused, 403, "permission_denied")  # no CSRF token: refused, not a 500
    browser.get("/admin/login/")  # a page that sets the CSRF cookie
    csrf = {"HTTP_X_CSRFTOKEN": browser.cookies["csrftoken"].value}
    created = browser.post("/api/matches", body, content_type="application/json", **csrf)
    assert created.status_code == 201, created.content
    lobby = bob.post("/api/matches", json.loads(body), format="json").json()["id"]
    joined = browser.post(
        f"/api/matches/{lobby}/join", "{}", content_type="application/json", **csrf
    )
    assert joined.status_code == 200 and joined.json()["your_seat"] == 1


def test_a_stream_from_far_behind_counts_as_a_read_of_the_whole_log(alice, ops, duel, monkeypatch):
    """A stream from `after=0` sends a whole log, as an export does, but was bounded only
    by the general rate: a whole log as often as every request."""
    from api import push

    tighten(monkeypatch, exports="2/min")
    monkeypatch.setattr(push, "EXPORT_PAGE", 2)  # (a page, here: "far behind" is 3 events)
    assert ops.post(f"/api/matches/{duel}/abort", {}, format="json").status_code == 200
    version = alice.get(f"/api/matches/{duel}").json()["version"]

    def stream(after):
        return alice.get(f"/api/matches/{duel}/stream?after={after}", HTTP_ACCEPT=push.NDJSON)

    url = f"/api/matches/{duel}/stream?after=0"
    assert [alice.head(url, HTTP_ACCEPT=push.NDJSON).status_code for _ in range(3)] == [200] * 3
    assert [stream(0).status_code for _ in range(2)] == [200, 200]  # (no HEAD was charged)
    assert_problem(stream(0), 429, "throttled")
    assert stream(version - 1).status_code == 200  # a reader catching up is not charged
    assert_problem(alice.get(f"/api/matches/{duel}/export"), 429, "throttled")  # one budget


def test_event_pages_and_short_streams_count_the_events_they_send(alice, ops, duel, monkeypatch):
    """Pages of 500 events at the whole request rate read ten times the budget of the
    reads of a whole log, uncharged (a spectator's flood slowed others' reads sixfold);
    so did streams that start less than a log's page behind."""
    from api import push, views

    assert ops.post(f"/api/matches/{duel}/abort", {}, format="json").status_code == 200
    version = alice.get(f"/api/matches/{duel}").json()["version"]
    monkeypatch.setattr(views, "FREE_EVENT_READ", 1)  # (more than one event: charged)
    tighten(monkeypatch, exported_events=f"{2 * version}/min")

    def events(after):
        return alice.get(f"/api/matches/{duel}/events", {"after": after})

    assert [events(0).status_code for _ in range(2)] == [200, 200]
    refused = assert_problem(events(0), 429, "throttled")
    assert "Expected available in" in refused["detail"]
    assert events(version - 1).status_code == 200  # a page of a reader following: free
    stream = f"/api/matches/{duel}/stream?after="
    assert_problem(alice.get(stream + "0", HTTP_ACCEPT=push.NDJSON), 429, "throttled")
    assert alice.get(stream + str(version - 1), HTTP_ACCEPT=push.NDJSON).status_code == 200


def test_whole_log_reads_are_counted_by_the_events_they_read(alice, ops, duel, monkeypatch):
    """An export was counted as one request whatever its log: thirty a minute of a match of
    100,000 events took two cores. Each reads its events from a budget of the account's
    (one longer than the whole budget goes once the window is free)."""
    from api import push

    assert ops.post(f"/api/matches/{duel}/abort", {}, format="json").status_code == 200
    version = alice.get(f"/api/matches/{duel}").json()["version"]
    tighten(monkeypatch, exported_events=f"{2 * version}/min")
    assert [alice.get(f"/api/matches/{duel}/export").status_code for _ in range(2)] == [200] * 2
    refused = alice.get(f"/api/matches/{duel}/export")
    assert_problem(refused, 429, "throttled")
    assert int(refused["Retry-After"]) > 0
    # one budget: the audit's pages (by the events they hold) and a stream from far behind
    assert_problem(alice.get(f"/api/matches/{duel}/audit", {"limit": 1}), 429, "throttled")
    monkeypatch.setattr(push, "EXPORT_PAGE", 2)
    assert_problem(
        alice.get(f"/api/matches/{duel}/stream?after=0", HTTP_ACCEPT=push.NDJSON), 429, "throttled"
    )
    # a log longer than the whole budget: read once the window is free, not never
    tighten(monkeypatch, exported_events=f"{version - 1}/min")
    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: 60.0 * 10**6)
    assert alice.get(f"/api/matches/{duel}/export").status_code == 200
    assert_problem(alice.get(f"/api/matches/{duel}/export"), 429, "throttled")


def test_a_whole_log_read_refused_by_one_limit_spends_none_of_the_others(
    alice, ops, duel, monkeypatch, settings
):
    """A stream from far behind refused by the events' budget still used one of the
    minute's whole-log reads, and an export refused as one wait too many had its events
    charged: each refusal ate the budget of reads that were never made."""
    from api import push

    assert ops.post(f"/api/matches/{duel}/abort", {}, format="json").status_code == 200
    version = alice.get(f"/api/matches/{duel}").json()["version"]
    monkeypatch.setattr(push, "EXPORT_PAGE", 2)
    tighten(monkeypatch, exports="2/min", exported_events=f"{version}/min")

    def stream():
        return alice.get(f"/api/matches/{duel}/stream?after=0", HTTP_ACCEPT=push.NDJSON)

    assert stream().status_code == 200  # the events' budget is spent: each next one refused
    for _ in range(3):
        assert_problem(stream(), 429, "throttled")
    tighten(monkeypatch, exports="2/min", exported_events=f"{10 * version}/min")
    assert stream().status_code == 200  # the second of the minute's two reads: still there
    # the account waits as often as it may: an export refused for it reads nothing, and is
    # charged nothing
    tighten(monkeypatch, exports="2/min", exported_events=f"{version}/min")
    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: 60.0 * 10**6)  # a new minute
    settings.PUSH_MAX_PER_ACCOUNT = 0
    for _ in range(3):
        assert_problem(alice.get(f"/api/matches/{duel}/export"), 429, "too_many_waiters")
    settings.PUSH_MAX_PER_ACCOUNT = 4
    assert alice.get(f"/api/matches/{duel}/export").status_code == 200
    # the events' budget spent: audit pages refused for it spend none of the reads either
    for _ in range(3):
        assert_problem(alice.get(f"/api/matches/{duel}/audit"), 429, "throttled")
    tighten(monkeypatch, exports="2/min", exported_events=f"{10 * version}/min")
    assert alice.get(f"/api/matches/{duel}/audit").status_code == 200  # the second of two
    assert_problem(alice.get(f"/api/matches/{duel}/audit"), 429, "throttled")


def test_one_address_makes_a_bounded_number_of_accounts_a_day(anon, users, monkeypatch):
    """Every bound is one per account (matches, COM turns, waits): 20 new accounts a minute
    from one address, each with its own, multiplied them without end."""
    tighten(monkeypatch, registrations="3/day")
    answers = [register(anon, f"many{n}") for n in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert_problem(answers[-1], 429, "throttled")
    assert int(answers[-1]["Retry-After"]) > 3600  # (a day's window)
    assert log_in(anon, "bob", "pw-bob-123").status_code == 200  # logging in is not refused
    assert register(APIClient(REMOTE_ADDR="192.0.2.9"), "elsewhere").status_code == 201


def test_a_registration_refused_uses_none_of_the_addresss_new_accounts(anon, users, monkeypatch):
    """Every request was counted: a name taken, a weak password, a retry the minute's rate
    refused each used up one of the day's accounts, a shared address's for a day."""
    tighten(monkeypatch, registrations="2/day", auth="3/min")
    clock = [86400.0 * 100 + 3600]  # an hour into a day
    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: clock[0])

    def made(name, password="correct-horse-battery"):
        return register(anon, name, password).status_code

    assert [made("alice"), made("newcomer", "123"), made("first")] == [400, 400, 201]
    assert made("second") == 429  # the minute's rate (3): refused, and not counted
    clock[0] += 120  # two minutes on, the same day
    assert [made("second"), made("third")] == [201, 429]  # two accounts made: the day's


def test_logging_out_is_counted_per_account_not_per_address(users, monkeypatch):
    """Behind one address (a NAT), one account's log-ins do not use up another's log-out."""
    from tests.api.conftest import client_for

    tighten(monkeypatch, auth="2/min")
    anon = APIClient()
    assert [log_in(anon, "carol", "wrong").status_code for _ in range(3)][-1] == 429
    assert client_for(users["alice"]).delete("/api/auth/token").status_code == 204


def test_registrations_at_once_hold_their_places_as_they_are_let_through(rf, monkeypatch):
    """Counted only once an account was made, registrations sent together from one address
    all read the same count and all passed (a reviewer's eight at once, with a day's
    allowance of two, made eight accounts)."""
    from api.throttling import RegistrationRateThrottle

    tighten(monkeypatch, registrations="2/day")
    request = rf.post("/api/accounts/register", REMOTE_ADDR="198.51.100.4")
    held = [RegistrationRateThrottle() for _ in range(3)]
    # three in flight at once, none answered yet: the third is refused
    assert [t.allow_request(request, None) for t in held] == [True, True, False]
    held[0].give_back()  # one made no account (its name was taken)
    assert RegistrationRateThrottle().allow_request(request, None) is True
