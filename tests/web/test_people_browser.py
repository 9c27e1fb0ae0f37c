"""A match between two people in the web client (tests/web/play_people.mjs): A creates a
Golf match with an open seat from the lobby, B sees it under "Open matches" and joins it,
and both pages play their opening flips, each checked against the API's view for its own
user at every version it shows."""

from __future__ import annotations

import pytest

from tests.web.test_golf_browser import play


@pytest.mark.slow
def test_two_people_join_and_play_the_opening_flips(live_server):
    summary, seconds = play("play_people.mjs", live_server.url)

    alice, bob = summary["players"]
    assert alice["username"].startswith("alice-") and bob["username"].startswith("bob-")
    assert (alice["seat"], bob["seat"]) == (0, 1)
    assert "open seat" in summary["listed"]
    for player in (alice, bob):
        assert [m.split(":")[0] for m in player["moves"]] == ["reveal", "reveal"]
        assert player["versions"][-1] == summary["version"], player
        assert player["versions"] == sorted(player["versions"]) and player["checks"] >= 3
    assert summary["phase"] == "draw"
    print(f"browser match between two people: {seconds:.1f} s")
