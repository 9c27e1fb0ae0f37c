import time

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
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
def test_the_admin_log_in_form_counts_with_the_api_log_ins(users, tight_auth_rate):
    """Each log-in hashes a password; the admin's form was bounded only by the guard's
    count of failures, which a right password never adds to: ~226 a minute from one
    address, every one a slow hash."""
    from django.test import Client

    client = Client()
    right = {"username": "alice", "password": "pw-alice-123"}
    for _ in range(2):  # (a player's right password: the form refuses a non-staff account)
        assert client.post("/admin/login/", right).status_code == 200
    anon = APIClient()
    assert anon.post("/api/auth/token", right, format="json").status_code == 200  # the 3rd
    refused = client.post("/admin/login/", right)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many log-ins from this address" in refused.content.decode()
    assert client.get("/admin/login/").status_code == 200  # (the form itself is not counted)
    assert_problem(anon.post("/api/auth/token", right, format="json"), 429, "throttled")


@pytest.mark.django_db
def test_actions_are_throttled(alice, duel, tight_auth_rate):
    url = f"/api/matches/{duel}/actions"
    for position in (0, 1):
        assert (
            alice.post(url, {"type": "reveal", "position": position}, format="json").status_code
            == 200
        )
    assert_problem(alice.post(url, {"type": "draw"}, format="json"), 429, "throttled")


class Scoped:
    throttle_scope = "burst"


class SlowCache:
    """The cache, each call a few milliseconds away (as over the network to Redis)."""

    def __getattr__(self, name):
        call = getattr(cache, name)

        def slow(*args, **kwargs):
            time.sleep(0.005)
            return call(*args, **kwargs)

        return slow


def scoped_throttle(monkeypatch, clock=None):
    from api.throttling import ScopedRateThrottle

    rates = {**SimpleRateThrottle.THROTTLE_RATES, "burst": "5/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    throttle = ScopedRateThrottle()
    throttle.cache = SlowCache()
    if clock is not None:
        throttle.timer = lambda: clock[0]
    return throttle


@pytest.mark.django_db
def test_requests_arriving_together_get_no_more_than_the_rate(users, monkeypatch):
    """Parallel requests each count once: DRF's read-check-write history let a burst on
    many threads through whatever the rate."""
    from concurrent.futures import ThreadPoolExecutor

    from rest_framework.test import APIRequestFactory, force_authenticate
    from rest_framework.views import APIView

    cache.clear()
    alice_user = users["alice"]
    request = APIView().initialize_request(APIRequestFactory().get("/"))
    force_authenticate(request, alice_user)
    request.user = alice_user

    def one(_):
        return scoped_throttle(monkeypatch).allow_request(request, Scoped())

    with ThreadPoolExecutor(16) as pool:
        allowed = list(pool.map(one, range(40)))
    assert allowed.count(True) == 5
    cache.clear()


@pytest.mark.django_db
def test_the_window_slides_and_refused_requests_do_not_count(users, monkeypatch):
    from rest_framework.test import APIRequestFactory
    from rest_framework.views import APIView

    cache.clear()
    clock = [6000.0]  # the start of a minute
    alice_user = users["alice"]
    request = APIView().initialize_request(APIRequestFactory().get("/"))
    request.user = alice_user

    def ask():
        throttle = scoped_throttle(monkeypatch, clock)
        return throttle.allow_request(request, Scoped()), throttle

    assert [ask()[0] for _ in range(5)] == [True] * 5
    allowed, refused = ask()
    # in the next minute the full one counts for a fifth less each 12 seconds
    assert not allowed and refused.wait() == pytest.approx(72)
    clock[0] += 60  # the next minute: the last one still covers all of the window
    allowed, refused = ask()
    assert not allowed and refused.wait() == pytest.approx(12)
    clock[0] += 12
    assert ask()[0]
    clock[0] += 18  # half of the earlier minute left: 2.5 of its 5, and 1 now, so 1 more
    assert [ask()[0] for _ in range(2)] == [True, False]
    cache.clear()


@pytest.mark.django_db
def test_a_request_costing_more_than_one_is_told_when_it_fits(users, monkeypatch):
    """A whole-log read costs its events: refused with the last window empty, its wait
    divided by that window's count (a 500); with it full, the wait said was too short."""
    from rest_framework.test import APIRequestFactory
    from rest_framework.views import APIView

    cache.clear()
    clock = [6000.0 + 30]  # half a minute into a minute
    request = APIView().initialize_request(APIRequestFactory().get("/"))
    request.user = users["alice"]

    def ask(cost):
        throttle = scoped_throttle(monkeypatch, clock)
        throttle.cost = cost
        return throttle.allow_request(request, Scoped()), throttle

    assert ask(2)[0]  # 2 of 5, the minute before empty
    allowed, refused = ask(4)
    assert not allowed and refused.wait() == pytest.approx(30 + 60 * (1 - 1 / 2))
    clock[0] += refused.wait()  # then it fits: (1 - 0.5) * 2 + 4 <= 5
    assert ask(4)[0]
    # one costing the whole rate, after a minute with some: the minute after the next
    clock[0] = 6000.0 + 600
    assert ask(1)[0]
    allowed, refused = ask(5)
    assert not allowed and refused.wait() == pytest.approx(60 + 60)
    clock[0] += refused.wait()
    assert ask(5)[0]
    cache.clear()


@pytest.fixture
def cache_down(monkeypatch):
    """The shared cache (Redis) unreachable: every call to it raises, as redis-py does."""
    from django.core.cache import caches
    from redis.exceptions import ConnectionError as RedisConnectionError

    def unreachable(*args, **kwargs):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    backend = type(caches["default"])
    for name in ("add", "get", "set", "incr", "decr", "get_many", "set_many", "delete",
                 "delete_many", "touch", "has_key", "get_or_set"):  # fmt: skip
        monkeypatch.setattr(backend, name, unreachable)
    # (a count on Redis goes to its client at once: config/counting.py)
    monkeypatch.setattr("config.counting._redis_of", unreachable)


@pytest.mark.django_db
def test_while_the_cache_is_down_rates_count_nothing_and_log_ins_are_a_503(
    alice, bob, duel, anon, cache_down, caplog, monkeypatch
):
    """A Redis restart made every request a 500 (the rates count in it), reads included;
    the docs promise a 503 to retry. Reads and moves go on uncounted; a log-in (its
    guessing guard counts there) and a new account (counted by address) are refused with
    a 503 and Retry-After."""
    assert alice.get("/api/me").status_code == 200
    assert alice.get(f"/api/matches/{duel}").status_code == 200
    moved = alice.post(
        f"/api/matches/{duel}/actions", {"type": "reveal", "position": 0}, format="json"
    )
    assert moved.status_code == 200, moved.content
    assert "request rates not counted: the cache is unreachable" in caplog.text
    refused = anon.post(
        "/api/auth/token", {"username": "alice", "password": "pw-alice-123"}, format="json"
    )
    assert_problem(refused, 503, "service_unavailable")
    assert refused["Retry-After"] == "2"
    # and no account is made uncounted (new accounts are counted by address)
    made = anon.post(
        "/api/accounts/register",
        {"username": "mallory", "password": "pw-mallory-123"},
        format="json",
    )
    assert_problem(made, 503, "service_unavailable")
    # a log-out is the account's own (counted per account): it goes through
    assert alice.delete("/api/auth/token").status_code == 204
    # and no read priced by its cost runs uncounted: a whole log, a past state (replayed
    # whole, the checkpoints down with the cache)
    assert_problem(bob.get(f"/api/matches/{duel}/export"), 503, "service_unavailable")
    assert_problem(bob.get(f"/api/matches/{duel}/states/1"), 503, "service_unavailable")
    # nor a list priced above one (a long history's): one that counts one goes through
    from api import views

    monkeypatch.setattr(views, "LIST_MATCHES_PER_COUNT", 1)  # (bob sits in one: 1 + 1)
    assert_problem(bob.get("/api/matches"), 503, "service_unavailable")
    assert bob.get("/api/matches", {"awaiting": "me"}).status_code == 200


@pytest.fixture
def tight_refused_rate(monkeypatch):
    from accounts.tokens import remembered
    from api.throttling import held_addresses

    rates = {**SimpleRateThrottle.THROTTLE_RATES, "refused": "3/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    for kept in (cache, held_addresses, remembered):
        kept.clear()
    yield
    for kept in (cache, held_addresses, remembered):
        kept.clear()


@pytest.mark.django_db
def test_requests_no_valid_token_lets_in_count_per_address_then_wait(
    users, alice, bob, tight_refused_rate, django_assert_num_queries
):
    """DRF authenticates before it throttles: a wrong token (two queries: the token, and
    whether a suspension revoked it) or none was refused without being counted, however
    many an address sent."""
    assert alice.get("/api/me").status_code == 200  # (a good token, seen by the service)
    wrong = APIClient()
    wrong.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    for _ in range(3):
        assert_problem(wrong.get("/api/me"), 401, "authentication_failed")
    refused = wrong.get("/api/me")
    assert_problem(refused, 429, "throttled")
    # (until the sliding minute has room: into the next minute, so up to two of them)
    assert 0 < int(refused["Retry-After"]) <= 120

    # now the address is held off before anything looks its credentials up
    with django_assert_num_queries(0):
        held = wrong.get("/api/me")
    assert_problem(held, 429, "throttled")
    assert int(held["Retry-After"]) > 0
    assert_problem(APIClient().get("/api/matches"), 429, "throttled")  # no token
    assert_problem(bob.get("/api/me"), 429, "throttled")  # a good token never seen
    assert alice.get("/api/me").json()["username"] == "alice"  # one seen: let through

    # bob, sharing the address, may still log in: his token is then seen
    right = {"username": "bob", "password": "pw-bob-123"}
    assert APIClient().post("/api/auth/token", right, format="json").status_code == 200
    assert bob.get("/api/me").json()["username"] == "bob"

    # another address is not held off, and its own refusals count apart
    elsewhere = APIClient(REMOTE_ADDR="10.1.2.3")
    elsewhere.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert_problem(elsewhere.get("/api/me"), 401, "authentication_failed")


@pytest.mark.django_db
def test_a_token_logged_out_is_held_off_with_its_address(users, alice, tight_refused_rate):
    assert alice.get("/api/me").status_code == 200
    assert alice.delete("/api/auth/token").status_code == 204
    for _ in range(3):
        assert_problem(alice.get("/api/me"), 401, "authentication_failed")
    assert_problem(alice.get("/api/me"), 429, "throttled")


@pytest.mark.django_db
def test_refusals_count_apart_from_the_addresses_anonymous_reads(users, anon, tight_refused_rate):
    for _ in range(3):
        assert_problem(anon.get("/api/matches"), 401, "not_authenticated")
        assert anon.get("/api/games").status_code == 200
    assert_problem(anon.get("/api/matches"), 429, "throttled")
    assert_problem(anon.get("/api/games"), 429, "throttled")  # held off, as a whole


@pytest.mark.django_db
def test_an_ipv6_client_counts_by_its_64_block(users, tight_refused_rate):
    """Each address of a /64 would otherwise bring a fresh allowance of refusals."""
    for host in range(1, 4):
        client = APIClient(REMOTE_ADDR=f"2001:db8:1:2::{host}")
        assert_problem(client.get("/api/me"), 401, "not_authenticated")
    same_block = APIClient(REMOTE_ADDR="2001:db8:1:2:ffff::9")
    assert_problem(same_block.get("/api/me"), 429, "throttled")
    other_block = APIClient(REMOTE_ADDR="2001:db8:1:3::1")
    assert_problem(other_block.get("/api/me"), 401, "not_authenticated")


def test_held_addresses_are_bounded_and_let_go_in_time():
    from api.throttling import HeldAddresses

    held = HeldAddresses(limit=2)
    held.hold("10.0.0.1", 60)
    held.hold("10.0.0.2", 0.05)
    assert 59 < held.wait("10.0.0.1") <= 60
    held.hold("10.0.0.3", 60)  # the oldest is let go to make room
    assert held.wait("10.0.0.1") is None and held.wait("10.0.0.3") is not None
    time.sleep(0.1)
    assert held.wait("10.0.0.2") is None


@pytest.fixture
def tight_user_rate(monkeypatch):
    from api.throttling import held_tokens

    rates = {**SimpleRateThrottle.THROTTLE_RATES, "user": "3/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    cache.clear()
    held_tokens.clear()
    yield
    held_tokens.clear()


@pytest.mark.django_db
def test_a_token_over_its_accounts_rate_is_held_off_before_it_is_looked_up(
    users, alice, bob, tight_user_rate, monkeypatch, django_assert_num_queries
):
    """Each refusal of a token over its account's rate still checked the token and made
    three round trips to the shared cache: one account sending a few hundred a second,
    every one refused, slowed everyone's requests by half."""
    from api import throttling

    for _ in range(3):
        assert alice.get("/api/me").status_code == 200
    refused = alice.get("/api/me")
    assert_problem(refused, 429, "throttled")
    assert 0 < int(refused["Retry-After"]) <= 120

    def no_count(*args, **kwargs):
        raise AssertionError("a held token's request was counted")

    with monkeypatch.context() as patched:
        patched.setattr(throttling, "count_and_read", no_count)
        with django_assert_num_queries(0):
            held = alice.get("/api/matches")
        assert_problem(held, 429, "throttled")
        assert 0 < int(held["Retry-After"]) <= int(refused["Retry-After"])
        token = alice._credentials["HTTP_AUTHORIZATION"].split()[1]
        bearer = APIClient()
        bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        assert_problem(bearer.get("/api/me"), 429, "throttled")  # the same token
    assert bob.get("/api/me").status_code == 200  # another account's is not held
    # a log-in is not held for the stale token it carries
    right = {"username": "alice", "password": "pw-alice-123"}
    assert alice.post("/api/auth/token", right, format="json").status_code == 200


@pytest.mark.django_db
def test_only_a_token_that_let_its_request_in_is_held_off(users, alice, tight_user_rate):
    """A new account's request is counted by its address: the token sent beside it, not
    read, was held off for the address's requests, and its account refused though it had
    made none."""
    for n in range(4):
        answer = alice.post(
            "/api/accounts/register",
            {"username": f"newcomer{n}", "password": "correct-horse-battery-9"},
            format="json",
        )
    assert_problem(answer, 429, "throttled")
    assert alice.get("/api/me").status_code == 200
