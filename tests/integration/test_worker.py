"""COM turns on a real Celery worker over Redis: whole matches, duplicates, a killed worker."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from matches.models import Match, MatchEvent
from matches.services import match_create
from matches.tasks import play_com_turn, sweep
from tests.integration.conftest import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def detail(client, match_id):
    return client.get(f"/api/matches/{match_id}").json()


def my_turn_or_over(client, match_id):
    body = detail(client, match_id)
    return body if body["your_turn"] or body["status"] == "finished" else None


def test_a_human_plays_two_coms_to_the_end_through_a_real_worker(live_worker, alice):
    logged_before = live_worker.log.stat().st_size
    created = alice.post(
        "/api/matches",
        {
            "holes": 1,
            "seats": [
                {"type": "me"},
                {"type": "com", "level": "normal"},
                {"type": "com", "level": "hard"},
            ],
        },
        format="json",
    ).json()
    match_id, rng = created["id"], random.Random(1)
    while True:
        body = wait_until(lambda: my_turn_or_over(alice, match_id), what="my turn")
        if body["status"] == "finished":
            break
        # long-poll style: the COMs move on the worker between our actions
        action = rng.choice(body["view"]["legal_actions"])
        response = alice.post(
            f"/api/matches/{match_id}/actions",
            action,
            format="json",
            headers={"If-Match": f'"{body["version"]}"'},
        )
        # during the initial flips the COMs act at the same time: a stale view is refused
        # with 412 and the client reads the match again, as a real client does
        assert response.status_code in (200, 412), response.content
    actors = set(MatchEvent.objects.filter(match_id=match_id).values_list("actor", flat=True))
    assert {a.rsplit(":", 1)[0] for a in actors} >= {"com:normal", "com:hard"}
    call_command("verify_match", match_id)
    # the worker's log shows each COM turn received, and no line at the end of a decision
    with live_worker.log.open("rb") as log:
        log.seek(logged_before)
        lines = log.read().decode().splitlines()
    turns = [line for line in lines if "play_com_turn[" in line]
    assert any(line.endswith("received") for line in turns), lines[-20:]
    assert not [line for line in turns if "succeeded" in line]


def test_duplicate_deliveries_make_one_move(live_worker, alice, alice_user):
    match = match_create(
        creator=alice_user, seats=[{"type": "me"}, {"type": "com", "level": "normal"}]
    )
    for position in (0, 1):
        alice.post(
            f"/api/matches/{match.id}/actions",
            {"type": "reveal", "position": position},
            format="json",
        )
    body = wait_until(lambda: my_turn_or_over(alice, match.id), what="my first turn")
    assert body["view"]["phase"] == "draw"
    alice.post(f"/api/matches/{match.id}/actions", {"type": "draw"}, format="json")
    after = alice.post(
        f"/api/matches/{match.id}/actions", {"type": "discard"}, format="json"
    ).json()
    version = after["version"]
    for _ in range(4):  # the same task delivered again, and again
        play_com_turn.delay(str(match.id), version)
    wait_until(lambda: my_turn_or_over(alice, match.id), what="the COM's turn to end")
    wait_until(lambda: live_worker_idle(), timeout=30, what="the worker to drain")
    com_events = MatchEvent.objects.filter(
        match=match, seq__gt=version, actor__startswith="com:normal"
    )
    assert list(com_events.filter(type="card_drawn").values_list("seq", flat=True)) == [version + 1]
    assert detail(alice, match.id)["view"]["seats_to_act"] == [0]


def live_worker_idle() -> bool:
    from config.celery import app

    active = app.control.inspect(timeout=1).active() or {}
    reserved = app.control.inspect(timeout=1).reserved() or {}
    return not any(active.values()) and not any(reserved.values())


def test_a_killed_worker_loses_no_move(live_worker, alice_user):
    match = match_create(
        creator=alice_user,
        rules={"holes": 2},
        seats=[{"type": "com", "level": "normal"}, {"type": "com", "level": "easy"}],
        spectate=True,  # COMs playing each other: the background queue
    )
    wait_until(lambda: Match.objects.get(pk=match.pk).version > 15, what="the COMs to play")
    live_worker.kill()  # mid-match, tasks in flight are lost
    stopped_at = Match.objects.get(pk=match.pk).version
    live_worker.start()

    def finished() -> bool:
        sweep(older_than=1)  # what Celery beat runs periodically
        return Match.objects.get(pk=match.pk).status == "finished"

    wait_until(finished, interval=1.0, what="the match to finish after the restart")
    seqs = list(
        MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", flat=True)
    )
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) > stopped_at
    call_command("verify_match", str(match.id))
