"""Ninety-Nine through the real API and a real worker: a human against two COMs, to the end.

Ninety-Nine reaches the platform only through the registry, like Golf and Hearts: the
API creates and shows the match, the COM turns run on the worker, the log verifies.
"""

from __future__ import annotations

from django.core.management import call_command

from matches.models import Match
from tests.integration.conftest import wait_until


def test_a_ninety_nine_match_against_two_coms_is_played_to_the_end(live_worker, alice):
    coms = [{"type": "com", "level": level} for level in ("normal", "hard")]
    created = alice.post(
        "/api/matches",
        {"game": "ninety-nine", "rules": {"max_deals": 2}, "seats": [{"type": "me"}, *coms]},
        format="json",
    )
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]

    def my_turn_or_the_end():  # the COMs move on the worker meanwhile
        detail = alice.get(f"/api/matches/{match_id}").json()
        return detail if detail["your_turn"] or detail["status"] != "active" else None

    kinds: set[str] = set()
    for _ in range(200):
        detail = wait_until(my_turn_or_the_end, timeout=90, what="my turn or the end")
        if detail["status"] != "active":
            break
        view = detail["view"]
        revealer = view["premium"]["seat"] if view["premium"]["kind"] == "reveal" else None
        assert view["seat"] == 0 and len(view["hands"][0]) == view["hand_sizes"][0]
        for seat in (1, 2):  # the others' hands are sizes, but a revealer's
            assert (view["hands"][seat] is None) == (
                seat != revealer or not view["premium"]["shown"]
            )
        action = view["legal_actions"][0]
        kinds.add(action["type"])
        acted = alice.post(f"/api/matches/{match_id}/actions", action, format="json")
        assert acted.status_code == 200, acted.content
    else:
        raise AssertionError("the match did not end")

    assert {"bid", "play"} <= kinds  # bid cards chosen, cards played
    final = alice.get(f"/api/matches/{match_id}").json()
    assert final["status"] == "finished" and final["seed"] is not None
    match = Match.objects.get(pk=match_id)
    assert match.round == 2 and len(final["totals"]) == 3 and final["winners"]
    actors = set(match.events.values_list("actor", flat=True))
    assert {"com:normal:1", "com:hard:2"} <= actors  # both COMs, on the worker
    assert alice.get(f"/api/matches/{match_id}/audit").status_code == 200
    call_command("verify_match", match_id)  # raises SystemExit on a fault
