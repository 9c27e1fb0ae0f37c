"""The operators' dashboard (/admin/ops/dashboard/): counts, stalled matches and their
re-enqueue button, the task backlog, worker heartbeats and the hour's request aggregate."""

from __future__ import annotations

import re
import threading
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from kombu.asynchronous.timer import Timer
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.celery import app as celery_app
from matches.models import FollowUp, FollowUpKind, Match, MatchEvent
from matches.services import match_abort, match_act, match_create, match_join
from matches.tasks import stalled_matches
from ops import connection, heartbeat, selectors, stats

pytestmark = pytest.mark.django_db

DASHBOARD = "/admin/ops/dashboard/"
UNREACHABLE = "redis://127.0.0.1:1/0"  # nothing listens on port 1: refused at once


@pytest.fixture(autouse=True)
def _fresh_ops_keys():
    """Each test starts with no heartbeat, no counted request and no queued task."""

    def clean() -> None:
        connection._down_until.clear()
        redis = connection.client()
        assert redis is not None
        keys = [*redis.scan_iter(match="ops:*"), "interactive", "background"]
        redis.delete(*keys)

    clean()
    yield
    clean()


@pytest.fixture
def people(django_user_model):
    """Two players, staff who may only look, and an operator who may re-enqueue."""
    make = django_user_model.objects.create_user
    operator = make("olga", password="pw-olga-123", is_staff=True)
    operator.user_permissions.add(Permission.objects.get(codename="reenqueue_match"))
    return SimpleNamespace(
        alice=make("alice", password="pw-alice-123"),
        bob=make("bob", password="pw-bob-123"),
        staff=make("sam", password="pw-sam-123", is_staff=True),
        operator=operator,
    )


@pytest.fixture
def alice(people):
    return people.alice


@pytest.fixture
def bob(people):
    return people.bob


@pytest.fixture
def staff(people):
    return people.staff


@pytest.fixture
def operator(people):
    return people.operator


def section(page, element_id: str) -> str:
    body = page.content.decode()
    found = re.search(rf'<div class="module" id="{element_id}">(.*?)</div>', body, re.S)
    assert found, f"no #{element_id} on the page"
    return found.group(1)


def status_cells(page, game: str) -> dict[str, int]:
    row = re.search(rf'<tr data-game="{game}">(.*?)</tr>', section(page, "ops-matches"), re.S)
    assert row, f"no row for {game}"
    return {s: int(n) for s, n in re.findall(r'data-status="(\w+)">(\d+)<', row.group(1))}


def stalled_com_match(creator, minutes: int = 5) -> Match:
    """A match whose COM's turn was never played (the tests do not run on-commit work),
    its turn begun ``minutes`` ago."""
    match = match_create(
        creator=creator, seats=[{"type": "me"}, {"type": "com", "level": "normal"}]
    )
    begun = timezone.now() - timedelta(minutes=minutes)
    Match.objects.filter(pk=match.pk).update(turn_started_at=begun)
    FollowUp.objects.filter(match=match).update(due_at=begun)  # (due when it began)
    match.refresh_from_db()
    return match


def overdue_timed_duel(alice, bob, timeout: int = 30) -> Match:
    """Two humans with a turn timer whose deadline passed longer ago than the threshold."""
    match = match_create(
        creator=alice, seats=[{"type": "me"}, {"type": "open"}], turn_timeout=timeout
    )
    match_join(match_id=match.id, user=bob)
    for user, pos in ((alice, 0), (alice, 1), (bob, 0), (bob, 1)):
        match_act(match_id=match.id, user=user, action={"type": "reveal", "position": pos})
    overdue = timeout + settings.COM_STALL_SECONDS + 5
    Match.objects.filter(pk=match.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=overdue)
    )
    match.refresh_from_db()
    return match


def com_events(match) -> int:
    return MatchEvent.objects.filter(match=match, actor__startswith="com:").count()


# --- the page -----------------------------------------------------------------------------


def test_the_page_counts_matches_by_game_and_status(admin_client, alice, bob):
    # given: two golf matches active, one golf waiting, one hearts aborted
    for _ in range(2):
        duel = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
        match_join(match_id=duel.id, user=bob)
    match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
    hearts = match_create(
        creator=alice, game="hearts", seats=[{"type": "me"}] + [{"type": "open"}] * 3
    )
    match_abort(match_id=hearts.id, user=alice)
    # when
    page = admin_client.get(DASHBOARD)
    # then
    assert page.status_code == 200
    assert status_cells(page, "golf") == {"waiting": 1, "active": 2, "finished": 0, "aborted": 0}
    assert status_cells(page, "hearts") == {"waiting": 0, "active": 0, "finished": 0, "aborted": 1}
    assert 'data-game="ninety-nine"' not in page.content.decode()  # no such match


def test_the_admin_home_links_to_the_dashboard(admin_client):
    page = admin_client.get(reverse("admin:index"))
    assert page.status_code == 200 and f'href="{DASHBOARD}"' in page.content.decode()


def test_people_who_are_not_staff_are_sent_to_the_login(client, alice):
    for who in (None, alice):
        if who is not None:
            client.force_login(who)
        page = client.get(DASHBOARD)
        assert page.status_code == 302 and page["Location"].startswith(reverse("admin:login"))


# --- stalled matches and the re-enqueue button -----------------------------------------------


def test_a_stalled_match_is_listed_and_re_enqueued(
    client, operator, alice, bob, django_capture_on_commit_callbacks
):
    # given: one match stalled on its COM, one past its turn timer, one fresh
    stuck = stalled_com_match(alice)
    timed = overdue_timed_duel(alice, bob)
    fresh = stalled_com_match(alice, minutes=0)
    client.force_login(operator)
    # when
    listed = section(client.get(DASHBOARD), "ops-stalled")
    # then: both are listed, with their kind, a link to the match and a button
    for match, kind in ((stuck, "a COM"), (timed, "a turn timer")):
        row = re.search(rf'<tr data-match="{match.id}">(.*?)</tr>', listed, re.S)
        assert row and kind in row.group(1)
        assert reverse("admin:golf_match_change", args=[match.id]) in row.group(1)
        assert reverse("ops:reenqueue", args=[match.id]) in row.group(1)
    assert str(fresh.id) not in listed
    # each one listed is one the sweeper would re-enqueue too
    swept = {(i, v) for i, v, _ in stalled_matches(settings.COM_STALL_SECONDS)}
    assert {(s.match_id, s.version) for s in selectors.stalled()} <= swept

    # when: the operator re-enqueues the stalled COM (eager tasks: it plays at once, and
    # its next turns follow on commit)
    before = com_events(stuck)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(reverse("ops:reenqueue", args=[stuck.id]))
    # then: back on the dashboard, which says so; the COM played, and the log names who
    assert answer.status_code == 302 and answer["Location"] == DASHBOARD
    page = client.get(DASHBOARD)
    assert "Re-enqueued the COM turn" in page.content.decode()
    assert com_events(stuck) > before
    entry = LogEntry.objects.get(object_id=str(stuck.id))
    assert entry.user == operator and entry.is_change()
    assert f"Re-enqueued the COM turn at version {stuck.version}" in entry.change_message
    assert str(stuck.id) not in section(page, "ops-stalled")  # it waits on alice now

    # and the overdue timer: the server moves for the human who let it run out
    client.post(reverse("ops:reenqueue", args=[timed.id]))
    assert MatchEvent.objects.filter(match=timed, actor__startswith="timer:").exists()
    assert LogEntry.objects.filter(object_id=str(timed.id), user=operator).count() == 1


def test_re_enqueue_of_a_match_waiting_on_no_worker_does_nothing(client, operator, alice):
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])  # waiting
    client.force_login(operator)
    answer = client.post(reverse("ops:reenqueue", args=[match.id]), follow=True)
    assert "nothing to re-enqueue" in answer.content.decode()
    assert not LogEntry.objects.filter(object_id=str(match.id)).exists()


def test_staff_without_the_permission_see_no_button_and_are_refused(client, staff, alice):
    stuck = stalled_com_match(alice)
    client.force_login(staff)
    listed = section(client.get(DASHBOARD), "ops-stalled")
    assert f'data-match="{stuck.id}"' in listed  # they see the match...
    assert "Re-enqueue" not in listed and "ops/dashboard/reenqueue" not in listed  # no button
    before = com_events(stuck)
    refused = client.post(reverse("ops:reenqueue", args=[stuck.id]))
    assert refused.status_code == 403
    assert com_events(stuck) == before and not LogEntry.objects.exists()


def test_re_enqueue_is_a_post_with_a_csrf_token(operator, alice):
    from django.test import Client

    stuck = stalled_com_match(alice)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(operator)
    url = reverse("ops:reenqueue", args=[stuck.id])
    assert strict.get(url).status_code == 405
    assert strict.post(url).status_code == 403  # no token
    assert not LogEntry.objects.exists()


# --- the backlog and the workers --------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")
def test_the_backlog_shows_waiting_tasks_and_the_outbox(admin_client, alice):
    # given: a task waiting in the interactive queue (sent, not run: no worker listens;
    # send_task publishes even when the tests run other tasks eagerly)
    celery_app.send_task("matches.tasks.sweep_stalled", queue=settings.INTERACTIVE_QUEUE)
    stalled_com_match(alice)  # its COM's follow-up stays in the outbox
    # when
    backlog = section(admin_client.get(DASHBOARD), "ops-backlog")
    # then
    assert re.search(r'data-queue="interactive">1 waiting<', backlog)
    assert re.search(r'data-queue="background">0 waiting<', backlog)
    assert 'id="ops-outbox-rows">1 rows<' in backlog


def test_the_oldest_due_is_of_work_that_is_due_not_a_timer_still_to_come(admin_client, alice):
    match = stalled_com_match(alice)  # its COM's turn: due since it began
    oldest = re.compile(r'id="ops-outbox-oldest">(.*?)</td>')
    FollowUp.objects.filter(match=match).update(due_at=timezone.now() - timedelta(seconds=90))
    later = FollowUp.objects.get(match=match)
    later.pk, later.version, later.kind = None, later.version + 1, FollowUpKind.TIMER
    later.due_at = timezone.now() + timedelta(hours=1)  # a turn timer, due in an hour
    later.save(force_insert=True)
    backlog = section(admin_client.get(DASHBOARD), "ops-backlog")
    assert 'id="ops-outbox-rows">2 rows<' in backlog
    age = oldest.search(backlog).group(1)
    assert age.endswith(" s ago") and 90 <= int(age.split()[0]) < 150
    FollowUp.objects.filter(match=match, kind=FollowUpKind.COM).delete()
    assert oldest.search(section(admin_client.get(DASHBOARD), "ops-backlog")).group(1) == "&ndash;"


def test_a_worker_bootstep_records_heartbeats(admin_client):
    # given: a worker starting the heartbeat step on its timer
    timer = Timer()
    worker = SimpleNamespace(hostname="celery@ops-test", timer=timer)
    step = heartbeat.HeartbeatStep(worker)
    step.start(worker)
    try:
        # then: a heartbeat at once, and another one scheduled every few seconds
        (fresh,) = heartbeat.workers()
        assert fresh.hostname == "celery@ops-test" and fresh.age_seconds < 5 and not fresh.stale
        assert len(timer.queue) == 1
        page = admin_client.get(DASHBOARD)
        assert 'data-worker="celery@ops-test"' in section(page, "ops-workers")
    finally:
        step.stop(worker)
    assert step.tref is None


def test_a_silent_worker_is_flagged_stale(admin_client):
    heartbeat.record_heartbeat("celery@quiet", now=time.time() - 60)
    (quiet,) = heartbeat.workers()
    assert quiet.stale and quiet.age_seconds > 59
    workers = section(admin_client.get(DASHBOARD), "ops-workers")
    assert "stale" in re.search(r'data-worker="celery@quiet">(.*?)</tr>', workers, re.S).group(1)


# --- the hour's aggregate ---------------------------------------------------------------------


def api_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def test_the_aggregate_counts_requests_actions_and_errors(admin_client, alice, bob, monkeypatch):
    # requests of earlier tests' browsers, still answered by the live server this process
    # shares (other threads), are left out: this test counts the ones it makes
    record, here = stats.record, threading.get_ident()
    monkeypatch.setattr(
        "ops.middleware.stats.record",
        lambda **kw: threading.get_ident() == here and record(**kw),
    )
    # given: a duel played through the API: two reveals, one illegal move, one 5xx
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
    match_join(match_id=match.id, user=bob)
    client = api_client(alice)
    url = f"/api/matches/{match.id}/actions"
    for position in (0, 1):
        played = client.post(url, {"type": "reveal", "position": position}, format="json")
        assert played.status_code == 200
    refused = client.post(url, {"type": "reveal", "position": 2}, format="json")
    assert 400 <= refused.status_code < 500
    assert client.get("/api/me").status_code == 200
    monkeypatch.setattr("api.health.check_database", lambda: "database unreachable (test)")
    assert admin_client.get("/readyz").status_code == 503
    # when
    hour = stats.last_hour()
    # then
    assert hour is not None and len(hour.minutes) == stats.MINUTES
    totals = hour.totals
    endpoints = {(e.name, e.method): e for e in hour.endpoints}
    assert sorted(endpoints) == [("api:actions", "POST"), ("api:me", "GET"), ("readyz", "GET")]
    assert totals.requests == sum(e.requests for e in hour.endpoints)
    assert totals.actions == 3
    assert (totals.client_errors, totals.server_errors) == (1, 1)
    actions = endpoints["api:actions", "POST"]
    assert actions.requests == 3 and 0 < actions.mean_ms <= actions.max_ms
    assert endpoints["api:me", "GET"].requests == 1
    # and the page shows them (its own request is counted after it is made)
    page = admin_client.get(DASHBOARD)
    traffic = section(page, "ops-traffic")
    shown = re.search(r"(\d+) requests, 3 actions", traffic)
    assert shown is not None and int(shown.group(1)) >= 5, traffic
    assert '<span id="ops-5xx">1</span>' in traffic and '<span id="ops-4xx">1</span>' in traffic
    assert traffic.count("<rect ") == 4 * stats.MINUTES
    assert 'data-endpoint="api:actions POST"' in section(page, "ops-slowest")


def test_minutes_older_than_an_hour_drop_out():
    now = time.time()
    stats.record(endpoint="api:me", method="GET", status=200, seconds=0.01, now=now - 3600)
    stats.record(endpoint="api:me", method="GET", status=200, seconds=0.02, now=now)
    hour = stats.last_hour(now=now)
    assert hour is not None and hour.totals.requests == 1
    redis = connection.client()
    assert 0 < redis.ttl(f"{stats.PREFIX}{int(now // 60)}") <= stats.TTL_SECONDS


def test_a_request_is_counted_after_the_servers_scripts_were_flushed():
    """A request is counted by one script (ops/stats.py); a restarted or flushed Redis has
    lost it, and the next request loads it again rather than going uncounted."""
    now = time.time()
    assert stats.record(endpoint="api:me", method="GET", status=404, seconds=0.01, now=now)
    connection.client().script_flush()
    assert stats.record(endpoint="api:me", method="GET", status=200, seconds=0.03, now=now)
    hour = stats.last_hour(now=now)
    assert hour is not None
    assert (hour.totals.requests, hour.totals.client_errors) == (2, 1)
    (me,) = hour.endpoints
    assert me.requests == 2 and me.max_ms == 30


# --- without Redis ----------------------------------------------------------------------------


def test_a_unix_socket_broker_is_reached_as_celery_names_it():
    url = "redis+socket:///run/redis/redis.sock?virtual_host=3"
    assert connection.redis_py_url(url) == "unix:///run/redis/redis.sock?db=3"
    with override_settings(CELERY_BROKER_URL=url):
        redis = connection.client()
        assert redis is not None
        kwargs = redis.connection_pool.connection_kwargs
        assert (kwargs["path"], kwargs["db"]) == ("/run/redis/redis.sock", 3)
    assert connection.redis_py_url(UNREACHABLE) == UNREACHABLE
    with override_settings(CELERY_BROKER_URL="redis+socket://:s3cret@/run/redis.sock"):
        redis = connection.client()
        assert redis is not None
        kwargs = redis.connection_pool.connection_kwargs
        assert (kwargs["path"], kwargs["password"]) == ("/run/redis.sock", "s3cret")


def test_a_broker_url_the_client_cannot_read_is_unavailable_not_an_error(admin_client, caplog):
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:port/0"):
        page = admin_client.get(DASHBOARD)
        assert page.status_code == 200
        assert "unavailable" in section(page, "ops-workers")
        assert heartbeat.record_heartbeat("worker-1") is False
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


def test_without_redis_requests_go_on_and_the_page_says_unavailable(admin_client, alice):
    stalled_com_match(alice)
    with override_settings(CELERY_BROKER_URL=UNREACHABLE):
        started = time.perf_counter()
        assert api_client(alice).get("/api/me").status_code == 200  # not failed by the count
        page = admin_client.get(DASHBOARD)
        elapsed = time.perf_counter() - started
        assert page.status_code == 200
        body = page.content.decode()
        assert "unavailable" in section(page, "ops-backlog")
        assert "unavailable" in section(page, "ops-workers")
        assert "unavailable" in section(page, "ops-traffic")
        assert status_cells(page, "golf")["active"] == 1  # the database's figures still show
        assert "Re-enqueue" in body
        assert elapsed < 2 * connection.TIMEOUT_SECONDS + 1
        # one failed try, then none: the server is left alone for a while
        assert connection.client() is None
        assert stats.record(endpoint="x", method="GET", status=200, seconds=0) is False
