"""A spectator's page and the verification of the deal at the end, in headless Chromium
(tests/web/spectate_verify.mjs): a player plays a one-hole Golf match through the API
against a COM on a real Celery worker while another account, not seated, watches it in
the page; no card the spectator's view hides is ever on the page, the page verifies the
deal from the revealed seed, and a tampered audit record turns it red with the mismatch."""

from __future__ import annotations

import pytest

from tests.web.test_golf_browser import play


@pytest.mark.slow
def test_a_spectator_sees_no_hidden_card_and_the_deal_is_verified(live_server, live_worker):
    summary, seconds = play("spectate_verify.mjs", live_server.url)

    # watched live: several versions, each checked against the spectator's view
    assert summary["checks"] >= 5 and summary["versions"][-1] == summary["version"], summary
    assert summary["versions"] == sorted(summary["versions"])
    assert summary["hidden"] > 0  # there were face-down cards the page had to keep hidden
    # the deal verified in the browser, the seed shown
    assert summary["verdict"] == "verified", summary["verified"]
    assert summary["verified"].startswith("Verified: SHA-256 of the revealed seed")
    assert summary["seedShown"]
    # a record in two pages is joined: the second asked for after the first one's end
    assert summary["pagedVerdict"] == "verified"
    assert summary["auditPages"] == ["?limit=5000", "?limit=5000&after=5"], summary["auditPages"]
    # and a tampered deal is caught at the card changed, in red
    forged = f"the seed deals {summary['genuine']}, the log shows {summary['forged']}"
    assert "Mismatch: hole 1, seat 1's grid, card 1: " + forged in summary["mismatch"]
    assert summary["mismatchColor"] == "rgb(192, 38, 45)"
    assert summary["consoleErrors"] == []
    print(f"browser spectator and verification: {seconds:.1f} s, {summary['checks']} checks")
