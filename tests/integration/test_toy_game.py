"""A second game, known only to the tests, played through the real API and a real worker.

The toy game (``tests/toy/``) touches no file of the platform: it is registered in this
process (``games.register``) and in the worker's (``EXTRA_GAMES``), and from there the
API, the COM turns on the worker, the event log, the push endpoints and the verifier
serve it as they serve Golf.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command

import games
from matches.models import Match
from tests.api.conftest import client_for
from tests.integration.conftest import wait_until
from tests.toy.game import TOY


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setenv("EXTRA_GAMES", "tests.toy.game:TOY")  # for the worker it starts
    games.register(TOY)
    yield TOY
    games.unregister(TOY.info.name)


def test_a_toy_match_against_two_coms_is_played_to_the_end(toy, live_worker, alice_user):
    alice = client_for(alice_user)
    assert "toy" in {g["name"] for g in alice.get("/api/games").json()}
    coms = [{"type": "com", "level": "random"}, {"type": "com", "level": "high"}]
    created = alice.post(
        "/api/matches", {"game": "toy", "seats": [{"type": "me"}, *coms]}, format="json"
    )
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    assert created.json()["game"] == "toy" and created.json()["preset"] == TOY.info.default_preset

    def my_turn_or_the_end():  # the COMs move on the worker meanwhile
        detail = alice.get(f"/api/matches/{match_id}").json()
        return detail if detail["your_turn"] or detail["status"] != "active" else None

    for _ in range(50):
        detail = wait_until(my_turn_or_the_end, timeout=60, what="my turn or the end")
        if detail["status"] != "active":
            break
        view = detail["view"]
        assert len(view["hand"]) == view["hand_sizes"][0]  # my cards, and only mine
        action = view["legal_actions"][0]
        acted = alice.post(f"/api/matches/{match_id}/actions", action, format="json")
        assert acted.status_code == 200, acted.content
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished" and match.rounds == TOY.preset_rules("quick")["hand_size"]
    actors = set(match.events.values_list("actor", flat=True))
    assert {"com:random:1", "com:high:2"} <= actors  # both COMs played, on the worker
    assert alice.get(f"/api/matches/{match_id}/audit").status_code == 200
    call_command("verify_match", match_id)  # raises SystemExit on a fault
