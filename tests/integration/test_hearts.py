"""Hearts through the real API and a real worker: a human against three COMs, to the end.

Hearts reaches the platform only through the registry, like Golf: the API creates and
shows the match, the COM turns run on the worker, the log verifies at the end.
"""

from __future__ import annotations

from django.core.management import call_command

from matches.models import Match
from tests.integration.conftest import wait_until


def test_a_four_player_hearts_match_against_three_coms_is_played_to_the_end(live_worker, alice):
    coms = [{"type": "com", "level": level} for level in ("easy", "normal", "hard")]
    created = alice.post(
        "/api/matches",
        {
            "game": "hearts",
            "preset": "hearts-classic",
            "rules": {"target_score": 30},
            "seats": [{"type": "me"}, *coms],
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    assert created.json()["rules"]["passing"] == "rotate"

    def my_turn_or_the_end():  # the COMs move on the worker meanwhile
        detail = alice.get(f"/api/matches/{match_id}").json()
        return detail if detail["your_turn"] or detail["status"] != "active" else None

    passes = plays = 0
    for _ in range(400):
        detail = wait_until(my_turn_or_the_end, timeout=90, what="my turn or the end")
        if detail["status"] != "active":
            break
        view = detail["view"]
        # my hand and only mine; everyone else's is a size
        assert view["hand"] == view["hands"][0] and len(view["hand"]) == view["hand_sizes"][0]
        assert view["hands"][1:] == [None, None, None]
        action = view["legal_actions"][0]
        passes += action["type"] == "pass"
        plays += action["type"] == "play"
        acted = alice.post(f"/api/matches/{match_id}/actions", action, format="json")
        assert acted.status_code == 200, acted.content
    else:
        raise AssertionError("the match did not end")

    assert passes >= 1 and plays >= 13  # a passing deal, and at least one whole deal
    final = alice.get(f"/api/matches/{match_id}").json()
    assert final["status"] == "finished" and final["seed"] is not None
    assert max(final["totals"]) >= 30 and final["winners"]
    match = Match.objects.get(pk=match_id)
    assert match.round == final["view"]["deal"] >= 1
    actors = set(match.events.values_list("actor", flat=True))
    assert {"com:easy:1", "com:normal:2", "com:hard:3"} <= actors  # all three, on the worker
    events, after = [], 0
    while True:
        page = alice.get(f"/api/matches/{match_id}/events?after={after}&limit=500").json()
        events += page["events"]
        after = page["next_after"]
        if not page["has_more"]:
            break
    assert [e["seq"] for e in events] == list(range(1, match.version + 1))
    assert any(e["type"] == "passes_exchanged" for e in events)
    assert alice.get(f"/api/matches/{match_id}/audit").status_code == 200
    call_command("verify_match", match_id)  # raises SystemExit on a fault
