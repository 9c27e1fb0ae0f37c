"""A pass-and-play Golf match in the web client (tests/web/play_local.mjs): one account
makes it with the new-match form (two players on this device, no COM) and both seats play
it to the end by clicking, the page checked against the API's view at every version."""

from __future__ import annotations

import pytest

from tests.web.test_golf_browser import play


@pytest.mark.slow
def test_two_players_on_one_device_play_a_hole_made_with_the_form(live_server):
    summary, seconds = play("play_local.mjs", live_server.url)

    # the form: up to the preset's seats here; with two, no open seat and no COM needed
    form = summary["form"]
    assert form["here"][:2] == ["1", "2"]
    assert form["coms"][0] == "0" and form["open"] == ["0"] and form["openDisabled"]
    # the match the form made: local, both seats the one account's
    assert summary["local"] is True
    assert [(s["kind"], s["username"]) for s in summary["seats"]] == [
        ("human", summary["username"]),
        ("human", summary["username"]),
    ]
    # both players moved, the device passed between them, and the page agreed with the
    # API (the seat that was to act) at every version it showed
    assert set(summary["movers"]) == {0, 1}
    assert summary["versions"][-1] == summary["version"]
    assert summary["versions"] == sorted(summary["versions"])
    assert summary["checks"] >= len(summary["moves"])
    names = [f"Player {seat + 1}" for seat in summary["winners"]]
    assert summary["end"] == f"The match is over: {' and '.join(names)} won."
    print(f"pass-and-play match: {seconds:.1f} s, {len(summary['moves'])} moves")
