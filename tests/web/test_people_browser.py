"""A match between two people in the web client (tests/web/play_people.mjs): A creates a
Golf match with an open seat from the lobby, B sees it under "Open matches" (after its
lobby, unreadable once, is read again by "Try again") and joins it (after one refused join),
and both pages play their opening flips, each checked against the API's view for its own
user at every version it shows; the turn timer set in the lobby shows the view's deadline
and counts down; A's history slider shows two past versions as the API's view at each,
then goes back to live."""

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
    # the lobby unreadable once: the API's message, and "Try again" reads it again
    unavailable = summary["unavailable"]
    assert "Service unavailable: Service unavailable (a test)" in unavailable["error"]
    assert unavailable["main"] == "This page could not be loaded. Try again"
    assert unavailable["errorHidden"]
    # a join refused once: the page stays, the button can be pressed again (and joins)
    assert summary["refusedJoin"]["enabled"] and "#/match/" not in summary["refusedJoin"]["url"]
    assert len(summary["refusedLogged"]) == 2, summary["refusedLogged"]
    for player in (alice, bob):
        assert [m.split(":")[0] for m in player["moves"]][-2:] == ["reveal", "reveal"]
        assert player["versions"][-1] == summary["version"], player
        assert player["versions"] == sorted(player["versions"]) and player["checks"] >= 3
    assert summary["phase"] == "draw"
    # the turn timer: the deadline of the view, counting down, labelled for screen readers
    for player in (alice, bob):
        clock = player["clock"]
        assert clock["turnTimeout"] == 60 and clock["version"] == summary["version"]
        assert clock["first"]["deadline"] == clock["deadline"], clock
        assert 50 <= clock["first"]["seconds"] <= 60, clock
        first, seconds = clock["first"]["seconds"], clock["later"]["seconds"]
        assert first - 3 <= seconds <= first - 1, clock
        waiting = alice["username"] if player is bob else "you"  # seat 0 draws first
        assert clock["later"]["label"] == f"Time left for this turn ({waiting}): {seconds} seconds"
        assert clock["later"]["text"] == f"⏱ 0:{seconds:02d}"
    # the history slider: two past versions, as the API showed them, read only; then live
    first, second = summary["history"]
    assert first["version"] < second["version"] < summary["version"]
    assert first["faceUp"] < second["faceUp"]  # more cards turned up at the later version
    for past in (first, second):
        assert past["phase"] == "flips" and past["offered"] == 0
        assert past["max"] == summary["version"]
        assert past["label"] == f"History: move {past['version']} of {summary['version']}"
    assert summary["live"] == {
        "version": summary["version"],
        "yourTurn": True,
        "label": "History",
        "back": 0,
    }
    print(f"browser match between two people: {seconds:.1f} s")
