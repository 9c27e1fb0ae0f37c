"""One deal of Hearts (passing) and one of Ninety-Nine (a declared bid), each played in the
web client by clicking, in headless Chromium, against COMs on a real Celery worker:
tests/web/play_tricks.mjs checks the page against the API's view for that user at every
version it shows, and that no card the view hides is ever on the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounts.models import User
from tests.api.conftest import client_for
from tests.web.test_golf_browser import play


@pytest.mark.slow
@pytest.mark.parametrize("game", ["hearts", "ninety-nine"])
def test_one_deal_played_by_clicking_matches_the_api(game, live_server, live_worker):
    summary, seconds = play("play_tricks.mjs", game, live_server.url)

    # the page followed the deal to the end of the match, checked at every version
    assert summary["versions"][-1] == summary["version"]
    assert summary["versions"] == sorted(summary["versions"])
    assert summary["checks"] >= len(summary["moves"]) + 10, summary
    assert summary["hiddenChecked"] == summary["checks"]
    moves = summary["moves"]
    if game == "hearts":
        # three cards passed, then the thirteen cards of the hand played
        assert moves[0].startswith("pass:") and len(moves[0].split(":")[1].split()) == 3
        assert sum(m.startswith("play:") for m in moves) == 13
    else:
        # three bid cards, the contract shown as they were picked; a declaration; 9 cards
        assert moves[0].startswith("bid:") and len(summary["live"]) == 3
        assert summary["declared"] and "declare" in moves
        assert sum(m.startswith("play:") for m in moves) == 9
    assert summary["hint"] and summary["hint"].startswith("Hint: ")
    assert all(Path(shot).stat().st_size > 1000 for shot in summary["screenshots"])

    user = User.objects.get(username=summary["username"])
    match = client_for(user).get(f"/api/matches/{summary['match']}").json()
    assert match["status"] == "finished" and match["version"] == summary["version"]
    assert match["totals"] == summary["totals"] and match["winners"] == summary["winners"]
    print(f"browser {game} deal: {seconds:.1f} s, {summary['checks']} checks")
